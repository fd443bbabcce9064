import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// Cross-origin isolation lets zkbench-prover use its threaded module (SharedArrayBuffer);
// without these headers it runs single-threaded. zkbench-prover starts its worker with
// `new URL("./worker.js", import.meta.url)`: left out of dependency pre-bundling so that
// `vite dev` finds it beside the package's module (vite build handles it either way).
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

// The package's threaded module (when it was packed with one) stays static files: its thread
// pool's workers import it by URL. Copied to dist/zkbench-prover-mt; main.ts passes that URL
// to init() as `threadedModule`.
// The same for the relaxed-SIMD and wide-arithmetic builds, when packed:
// dist/zkbench-prover-mt-fma (`relaxedModule`), dist/zkbench-prover-mt-wide (`wideModule`).
const mt = fileURLToPath(new URL("./node_modules/zkbench-prover/dist/wasm-mt", import.meta.url));
const hasMt = fs.existsSync(path.join(mt, "zkbench_wasm.js"));
const mtFma = fileURLToPath(new URL("./node_modules/zkbench-prover/dist/wasm-mt-fma", import.meta.url));
const hasMtFma = hasMt && fs.existsSync(path.join(mtFma, "zkbench_wasm.js"));
const mtWide = fileURLToPath(new URL("./node_modules/zkbench-prover/dist/wasm-mt-wide", import.meta.url));
const hasMtWide = hasMt && fs.existsSync(path.join(mtWide, "zkbench_wasm.js"));

function copyThreadedModule() {
  return {
    name: "zkbench-prover-threaded-module",
    writeBundle(options) {
      if (hasMt) fs.cpSync(mt, path.join(options.dir, "zkbench-prover-mt"), { recursive: true });
      if (hasMtFma) fs.cpSync(mtFma, path.join(options.dir, "zkbench-prover-mt-fma"), { recursive: true });
      if (hasMtWide) fs.cpSync(mtWide, path.join(options.dir, "zkbench-prover-mt-wide"), { recursive: true });
    },
  };
}

export default defineConfig({
  base: "./",
  define: { __ZKBENCH_PROVER_MT__: JSON.stringify(hasMt), __ZKBENCH_PROVER_MT_FMA__: JSON.stringify(hasMtFma),
    __ZKBENCH_PROVER_MT_WIDE__: JSON.stringify(hasMtWide) },
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  worker: { format: "es" },
  optimizeDeps: { exclude: ["zkbench-prover"] },
  plugins: [copyThreadedModule()],
  server: { headers: isolation },
  preview: { headers: isolation },
});
