#!/usr/bin/env node
// Writes the browser suite's key files (web/suite.json, test setup with its key_seed) with
// zkbench-wasm itself, run by Node (the wasm-bindgen `nodejs` build of the single-threaded
// module): the page fetches them as static files for its cold proofs. For Groth16 a compact key
// file goes beside the full one (`-rows<compact_rows>.bin`: fixed-base tables of that many
// points per base), which a first visit fetches for its first proof. Beside each key file
// go its compressed copies, `.br` (brotli) and `.gz` (gzip), which `zkbench serve` sends with
// `Content-Encoding` to browsers that accept them (the browser decodes them itself).
//
//   node web/scripts/make-keys.mjs <wasm-bindgen nodejs dir> <out dir>
//
// Existing files are kept (delete the folder to remake them).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { compactKeyFile, keyFile } from "../src/shared.js";

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
  const compact =
    cfg.system === "groth16" && suite.compact_rows ? path.join(outDir, compactKeyFile(cfg, suite.key_seed, suite.compact_rows)) : null;
  if (fs.existsSync(f) && (!compact || fs.existsSync(compact))) {
    console.log(`kept ${f}`);
    compressed(f);
    if (compact) compressed(compact);
    continue;
  }
  const t = performance.now();
  const p = new wasm.Prover(JSON.stringify(cfg));
  if (fs.existsSync(f)) p.loadKeys(fs.readFileSync(f), suite.key_seed);
  else p.setup(suite.key_seed);
  const files = [[f, () => p.keysToBytes()]];
  if (compact) files.push([compact, () => p.keysToBytesCompact(suite.compact_rows)]);
  for (const [file, bytesOf] of files) {
    if (fs.existsSync(file)) continue;
    const bytes = bytesOf();
    fs.writeFileSync(file + ".tmp", bytes);
    fs.renameSync(file + ".tmp", file);
    console.log(`wrote ${file} (${(bytes.length / 1048576).toFixed(1)} MiB, ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    compressed(file);
  }
  p.free();
}

// f.br and f.gz, unless they exist and are newer than f
function compressed(f) {
  const bytes = fs.readFileSync(f);
  const mtime = fs.statSync(f).mtimeMs;
  for (const [ext, compress] of [
    [".br", (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } })],
    [".gz", (b) => zlib.gzipSync(b, { level: 9 })],
  ]) {
    const out = f + ext;
    if (fs.existsSync(out) && fs.statSync(out).mtimeMs >= mtime) continue;
    const t = performance.now();
    const c = compress(bytes);
    fs.writeFileSync(out + ".tmp", c);
    fs.renameSync(out + ".tmp", out);
    console.log(`wrote ${out} (${(c.length / 1048576).toFixed(1)} MiB, ${((100 * c.length) / bytes.length).toFixed(0)}% of ${(bytes.length / 1048576).toFixed(1)} MiB, ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
}
