#!/usr/bin/env node
// Writes the browser suite's key files (web/suite.json, test setup with its key_seed) with
// zkbench-wasm itself, run by Node (the wasm-bindgen `nodejs` build of the single-threaded
// module): the page fetches them as static files for its cold proofs.
//
//   node web/scripts/make-keys.mjs <wasm-bindgen nodejs dir> <out dir>
//
// Existing files are kept (delete the folder to remake them).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { keyFile } from "../src/shared.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const [pkgDir, outDir] = process.argv.slice(2);
if (!pkgDir || !outDir) {
  console.error("usage: node web/scripts/make-keys.mjs <wasm-bindgen nodejs dir> <out dir>");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const wasm = require(path.resolve(pkgDir, "zkbench_wasm.js"));
const suite = JSON.parse(fs.readFileSync(path.join(here, "..", "suite.json"), "utf8"));
fs.mkdirSync(outDir, { recursive: true });
for (const cfg of suite.proofs) {
  const f = path.join(outDir, keyFile(cfg, suite.key_seed));
  if (fs.existsSync(f)) {
    console.log(`kept ${f}`);
    continue;
  }
  const t = performance.now();
  const p = new wasm.Prover(JSON.stringify(cfg));
  p.setup(suite.key_seed);
  const bytes = p.keysToBytes();
  p.free();
  fs.writeFileSync(f + ".tmp", bytes);
  fs.renameSync(f + ".tmp", f);
  console.log(`wrote ${f} (${(bytes.length / 1048576).toFixed(1)} MiB, ${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
