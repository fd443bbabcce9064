// Shared by the page (TypeScript imports it) and the Node scripts in web/scripts/.

/** The static key file of a proof configuration, made with `seed` (test setup). */
export function keyFile(cfg, seed) {
  const alpha = cfg.alpha == null ? "default" : String(cfg.alpha);
  return `${cfg.system}-${cfg.hash}-a${alpha}-ar${cfg.arity}-l${cfg.leaves}-${cfg.circuit}-seed${seed}.bin`;
}

/** The compact key file beside `keyFile(cfg, seed)` (Groth16 with `rows` points per base
 * in its fixed-base tables: what a first visit fetches). */
export function compactKeyFile(cfg, seed, rows) {
  return keyFile(cfg, seed).replace(/\.bin$/, `-rows${rows}.bin`);
}

/** Leaves as zkbench writes them in case ids: `2^36` for powers of two. */
export function formatLeaves(n) {
  const l = Math.log2(n);
  return Number.isInteger(l) ? `2^${l}` : String(n);
}

/** `Case::id()` of zkbench-core for a case object. */
export function caseId(c) {
  const parts = [c.system, c.alpha == null ? c.hash : `${c.hash}-a${c.alpha}`];
  if (c.circuit != null) parts.push(c.circuit);
  if (c.width != null) parts.push(`t${c.width}`);
  if (c.arity != null) parts.push(`arity${c.arity}`);
  if (c.leaves != null) parts.push(formatLeaves(c.leaves));
  if (c.depth != null) parts.push(`depth${c.depth}`);
  parts.push(`threads${c.threads === 0 ? "-all" : c.threads}`);
  return parts.join("/");
}

/** `Summary::of` of zkbench-core. */
export function summary(samples) {
  if (!samples.length || samples.some((x) => !Number.isFinite(x))) return undefined;
  const v = [...samples].sort((a, b) => a - b);
  const n = v.length;
  const median = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  const mean = v.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? v.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : 0;
  const rank = Math.max(1, Math.ceil(0.95 * n));
  return { n, min: v[0], median, mean, p95: v[rank - 1], max: v[n - 1], stddev: Math.sqrt(variance) };
}
