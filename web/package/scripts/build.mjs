#!/usr/bin/env node
// Builds zkbench-prover into web/package/dist (run by `npm pack` through `prepack`):
//   1. src/*.ts -> dist/*.js + dist/*.d.ts (TypeScript from web/node_modules: cd web && npm ci);
//   2. the single-threaded zkbench-wasm (wasm-bindgen --target web) -> dist/wasm-st;
//   3. the threaded one, when built -> dist/wasm-mt (static files that the worker imports by
//      URL, never bundled), named in dist/packed.js; otherwise the package runs single-threaded;
//   4. with it, the threaded ones built with relaxed SIMD and with wide arithmetic, when built
//      -> dist/wasm-mt-fma, dist/wasm-mt-wide (loaded where the browser validates
//      f64x2.relaxed_madd, i64.mul_wide_u).
// The modules come from ZKBENCH_WASM_ST / ZKBENCH_WASM_MT / ZKBENCH_WASM_MT_FMA /
// ZKBENCH_WASM_MT_WIDE (directories of wasm-bindgen output), default web/public/pkg-st, pkg-mt,
// pkg-mt-fma and pkg-mt-wide (what scripts/build-web.sh writes; pkg-mt-wide with
// ZKBENCH_WEB_WIDE=1).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const web = path.resolve(pkgDir, "..");
const dist = path.join(pkgDir, "dist");
const st = path.resolve(process.env.ZKBENCH_WASM_ST || path.join(web, "public", "pkg-st"));
const mt = path.resolve(process.env.ZKBENCH_WASM_MT || path.join(web, "public", "pkg-mt"));
const mtFma = path.resolve(process.env.ZKBENCH_WASM_MT_FMA || path.join(web, "public", "pkg-mt-fma"));
const mtWide = path.resolve(process.env.ZKBENCH_WASM_MT_WIDE || path.join(web, "public", "pkg-mt-wide"));
const glue = "zkbench_wasm.js";

function fail(msg) {
  console.error(`zkbench-prover build: ${msg}`);
  process.exit(1);
}

if (!fs.existsSync(path.join(st, glue)))
  fail(`no single-threaded module at ${st} (${glue}): run bash scripts/build-web.sh, or set ZKBENCH_WASM_ST`);

fs.rmSync(dist, { recursive: true, force: true });
let tsc;
try {
  tsc = createRequire(path.join(web, "package.json")).resolve("typescript/bin/tsc");
} catch {
  fail("TypeScript is not installed in web/node_modules: cd web && npm ci");
}
const r = spawnSync(process.execPath, [tsc, "-p", pkgDir], { stdio: "inherit" });
if (r.status !== 0) fail("tsc failed");

/** Copies a wasm-bindgen output directory (glue, .wasm, types, snippets/) into dist/<name>. */
function copyModule(from, name, index) {
  const to = path.join(dist, name);
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) {
    if (f === ".gitignore" || f === "package.json") continue;
    fs.cpSync(path.join(from, f), path.join(to, f), { recursive: true });
  }
  fs.writeFileSync(path.join(to, "index.js"), index);
}

const reexport = `export { default } from "./${glue}";\nexport * from "./${glue}";\n`;
copyModule(st, "wasm-st", reexport);
if (fs.existsSync(path.join(mt, glue))) {
  // not bundled: its thread pool's workers import the glue by URL (wasm-bindgen-rayon)
  copyModule(mt, "wasm-mt", reexport);
  /** The optional threaded build at `from` -> dist/<name>; its glue's path, else "null". */
  const optional = (from, name, what) => {
    if (!fs.existsSync(path.join(from, glue))) return "null";
    copyModule(from, name, reexport);
    console.error(`zkbench-prover build: ${what} threaded module from ${from}`);
    return JSON.stringify(`${name}/${glue}`);
  };
  const relaxed = optional(mtFma, "wasm-mt-fma", "relaxed-SIMD");
  const wide = optional(mtWide, "wasm-mt-wide", "wide-arithmetic");
  fs.writeFileSync(
    path.join(dist, "packed.js"),
    `export const THREADED_MODULE = "wasm-mt/${glue}";\nexport const WIDE_MODULE = ${wide};\nexport const RELAXED_MODULE = ${relaxed};\n`,
  );
  console.error(`zkbench-prover build: threaded module from ${mt}`);
} else {
  console.error(`zkbench-prover build: no threaded module at ${mt}: the package runs single-threaded`);
}
