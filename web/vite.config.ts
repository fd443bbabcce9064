import { defineConfig } from "vite";

// The page is served by `zkbench serve` (COOP/COEP headers for threads); the
// wasm-bindgen modules (public/pkg-mt, public/pkg-st), key files and snarkjs
// artifacts are static files copied as they are.
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig({
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  worker: { format: "es" },
  server: { headers: isolation },
  preview: { headers: isolation },
});
