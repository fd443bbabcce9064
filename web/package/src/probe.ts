// Feature probes shared by the package's main-thread API and its worker.

/** Whether this engine has the wide-arithmetic proposal's 64×64→128-bit product: a module whose
 * one function uses `i64.mul_wide_u` validates only where it does (Chromium 156: behind
 * `--js-flags=--wasm-wide_arithmetic`; Firefox ESR 153: `javascript.options.wasm_wide_arithmetic`). */
export function wideArithmeticSupported(): boolean {
  return WebAssembly.validate(
    new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 126, 126, 1, 126, 3, 2, 1, 0, 10, 11, 1, 9, 0, 32, 0, 32, 1, 252, 22, 26, 11]),
  );
}
