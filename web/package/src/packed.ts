// What the package was packed with; scripts/build.mjs rewrites dist/packed.js.

/** The threaded module's glue, relative to dist/index.js; null when the package has none. */
export const THREADED_MODULE: string | null = null;

/** The threaded module built with WebAssembly wide arithmetic (`i64.mul_wide_u`), relative to
 * dist/index.js; null when the package has none. Loaded instead of `THREADED_MODULE` where the
 * browser validates that instruction. */
export const WIDE_MODULE: string | null = null;

/** The threaded module built with relaxed SIMD (`f64x2.relaxed_madd`: the MSM's fused
 * multiply-add kernel), relative to dist/index.js; null when the package has none. Loaded
 * instead of `THREADED_MODULE` where the browser validates that instruction. */
export const RELAXED_MODULE: string | null = null;
