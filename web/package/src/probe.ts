// Feature probes shared by the package's main-thread API and its worker.

/** Whether this engine has the wide-arithmetic proposal's 64×64→128-bit product: a module whose
 * one function uses `i64.mul_wide_u` validates only where it does (Chromium 156: behind
 * `--js-flags=--wasm-wide_arithmetic`; Firefox ESR 153: `javascript.options.wasm_wide_arithmetic`). */
export function wideArithmeticSupported(): boolean {
  return WebAssembly.validate(
    new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 126, 126, 1, 126, 3, 2, 1, 0, 10, 11, 1, 9, 0, 32, 0, 32, 1, 252, 22, 26, 11]),
  );
}

/** Whether this engine has relaxed SIMD's fused multiply-add on doubles: a module whose one
 * function is `f64x2.relaxed_madd` of its three `v128` arguments validates only where it does
 * (Chromium 114+, this machine's Firefox ESR 153; not Node 20 without
 * `--experimental-wasm-relaxed-simd`). The relaxed-SIMD threaded module's MSM kernel needs it. */
export function relaxedSimdSupported(): boolean {
  return WebAssembly.validate(
    new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 123, 123, 123, 1, 123, 3, 2, 1, 0, 10, 13, 1, 11, 0, 32, 0, 32, 1, 32, 2, 253, 135, 2, 11]),
  );
}

/** The workers of a thread pool asked to run `threads`: no more than the device's cores
 * (`navigator.hardwareConcurrency`, where the engine says). WebAssembly cannot start a smaller
 * pool for a prover of few rows as the native build does, and Halo2's and Plonky3's parallel
 * regions cut for every worker: on two cores a pool of 16 took the Halo2 spend 408.5 ms against
 * 247.9 ms with two, 1.62x the CPU time of one thread (docs/browser.md, "Threads and CPU time"). */
export function poolSize(threads: number): number {
  return Math.min(threads, navigator.hardwareConcurrency || threads);
}
