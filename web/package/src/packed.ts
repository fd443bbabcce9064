// What the package was packed with; scripts/build.mjs rewrites dist/packed.js.

/** The threaded module's glue, relative to dist/index.js; null when the package has none. */
export const THREADED_MODULE: string | null = null;
