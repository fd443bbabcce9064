import { defineConfig } from "vite";

// Cross-origin isolation lets zkbench-prover use its threaded module (SharedArrayBuffer);
// without these headers it runs single-threaded. zkbench-prover starts its worker with
// `new URL("./worker.js", import.meta.url)`: left out of dependency pre-bundling so that
// `vite dev` finds it beside the package's module (vite build handles it either way).
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig({
  base: "./",
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  worker: { format: "es" },
  optimizeDeps: { exclude: ["zkbench-prover"] },
  server: { headers: isolation },
  preview: { headers: isolation },
});
