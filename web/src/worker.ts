/// <reference lib="webworker" />
// The prover worker: loads zkbench-wasm (threaded build when the page is
// cross-origin isolated, single-threaded otherwise) and runs one task at a
// time for the page. The main thread never blocks on a proof.
import type { ProofConfig, Profile, ToWorker, FromWorker, ProofRun, HashRun } from "./types";
import { poolSize } from "../package/src/probe.js";

declare const self: DedicatedWorkerGlobalScope;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any = null;

function post(m: FromWorker) {
  self.postMessage(m);
}

function progress(text: string) {
  post({ type: "progress", text });
}

/** What starting the module took (seconds): `wasm_init_s` (fetch + streaming compile +
 * instantiate: wasm-bindgen's glue uses WebAssembly.instantiateStreaming), `thread_pool_s`
 * (the pool's workers instantiating the compiled module) and `warm_up_s` ([`warmUp`]).
 * Added to every proof record. */
const initTimes: Record<string, number> = {};

// `simd`: this browser validates SIMD128 (the page's probe). The threaded build is compiled
// with simd128, so a browser without SIMD gets the single-threaded build; `simdOn` turns the
// MSM's vector kernel (SIMD128, or fused multiply-add in the relaxed-SIMD build) on or off
// in the threaded build (`?simd=1`, `?simd=0`); `null` keeps the module's default: on for the
// fused multiply-add kernel, off for SIMD128, whose proofs were slower than the scalar path's in
// Chromium (docs/browser.md).
/** The module's warm-up (`warmUp()`: a small test-setup Groth16 membership, two proofs from
 * full tables and one streamed from compact ones, as a first visit makes it) right after
 * start-up, before the page asks for anything: V8 runs a new module's functions in its baseline
 * tier first and recompiles the hot ones later, so without it the first real proof ran at about
 * half speed (spend: 486 ms against 229 ms warm); without its streamed compact proof the first
 * membership proof from compact keys took 225.6 ms against 206.3 ms for the next one, with it
 * 194.7 against 197.3 (Chromium 156, 2 threads). Time in initTimes.warm_up_s; a failure only
 * costs the warm-up. */
function warmUp() {
  const t = performance.now();
  try {
    pkg.warmUp();
  } catch (e) {
    console.warn(`warm-up proof failed: ${e instanceof Error ? e.message : e}`);
  }
  initTimes.warm_up_s = (performance.now() - t) / 1000;
}

/** buildInfo() of the loaded module. */
let build: Record<string, unknown> | null = null;

/** Imports and instantiates the glue of `pkg-<name>`. */
async function loadModule(base: string, name: string): Promise<any> {
  const m = await import(/* @vite-ignore */ `${base}/pkg-${name}/zkbench_wasm.js`);
  await m.default();
  return m;
}

/** {@link loadModule}, or null where the page has no such build. */
const tryModule = (base: string, name: string): Promise<any> => loadModule(base, name).catch(() => null);

/** The threaded build's glue, the fastest this browser validates and the page has: `pkg-mt-wide`
 * (wide arithmetic: `i64.mul_wide_u`), then `pkg-mt-fma` (relaxed SIMD: `f64x2.relaxed_madd`,
 * the MSM's fused multiply-add kernel), then `pkg-mt` (SIMD128). */
async function threadedModule(base: string, wide: boolean, relaxed: boolean): Promise<any> {
  const m = (wide ? await tryModule(base, "mt-wide") : null) ?? (relaxed ? await tryModule(base, "mt-fma") : null);
  return m ?? loadModule(base, "mt");
}

// `pool`: the threaded build with a pool of `threads` workers even for one (the page was asked
// for a thread count: `?threads=N`, so that a scaling run compares one build at every count);
// `cpu`: the page can read the process's CPU time ({@link processCpuS}).
async function init(threads: number, pool: boolean, cpu: boolean, simd: boolean, simdOn: boolean | null, wide: boolean, relaxed: boolean, keyCache: "opfs" | "idb", stream: boolean): Promise<void> {
  keyStore = keyCache;
  streamKeys = stream;
  cpuReadable = cpu;
  const base = self.location.origin;
  const t0 = performance.now();
  if ((threads > 1 || pool) && simd) {
    pkg = await threadedModule(base, wide, relaxed);
    const t1 = performance.now();
    await pkg.initThreadPool(poolSize(threads));
    initTimes.wasm_init_s = (t1 - t0) / 1000;
    initTimes.thread_pool_s = (performance.now() - t1) / 1000;
    if (simdOn !== null) pkg.setMsmSimd(simdOn);
  } else {
    pkg = await import(/* @vite-ignore */ `${base}/pkg-st/zkbench_wasm.js`);
    await pkg.default();
    initTimes.wasm_init_s = (performance.now() - t0) / 1000;
  }
  warmUp();
  build = JSON.parse(pkg.buildInfo());
  post({
    type: "ready",
    threads: pkg.threads(),
    build: build!,
    families: JSON.parse(pkg.hashFamilies()),
  });
}

/** Whether the page can read the renderer process's CPU time (its driver exposes
 * `window.zkbenchProcessCpuS`). */
let cpuReadable = false;
/** Readings asked of the page and not answered yet, by request id. */
const cpuWaiting = new Map<number, (seconds: number | null) => void>();
let cpuNext = 1;

/** The CPU time of the whole renderer process so far (seconds: this worker, the thread pool's
 * workers, the page), as the page's driver reads it (web/scripts/browser.mjs: Chromium's
 * DevTools `Performance.getMetrics`, its `ProcessTime`, in 10 ms steps on Linux); null where
 * no driver provides it (Firefox, a person's browser). A browser gives a page no CPU clock of
 * its own, so this is how a page record gets `cpu_s` like a native one. */
function processCpuS(): Promise<number | null> {
  if (!cpuReadable) return Promise.resolve(null);
  const id = cpuNext++;
  return new Promise((resolve) => {
    cpuWaiting.set(id, resolve);
    post({ type: "cpu", id });
  });
}

/** Whether a first visit streams the compact key file into its first proof (`?stream=0`: it
 * fetches the whole file, then proves). */
let streamKeys = true;

const now = () => performance.now() / 1000;

function timed<T>(f: () => T): [T, number] {
  const t = now();
  const r = f();
  return [r, now() - t];
}

// ------------------------------------------------------------------ key cache (OPFS, IndexedDB)
// A key file, once fetched, is kept under its URL, the server's Last-Modified and its length,
// so that a later tab proves without the network ("prove_cold_cached"). In the origin-private
// file system (OPFS) where the browser has it: this worker's FileSystemSyncAccessHandle reads
// the file straight into one buffer, where IndexedDB's structured clone of a large value is a
// few times slower (docs/browser.md). Elsewhere, or with ?keycache=idb, in IndexedDB.

/** Where the keys are cached: "opfs" unless the page asked for IndexedDB (?keycache=idb). */
let keyStore: "opfs" | "idb" = "opfs";

function idb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open("zkbench-keys", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("keys");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB: cannot open zkbench-keys"));
  });
}

async function cacheOp<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await idb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction("keys", mode);
      const req = op(tx.objectStore("keys"));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted (quota?)"));
    });
  } finally {
    db.close();
  }
}

/** The OPFS sync access API, where this browser has it in a worker. */
type SyncHandle = {
  getSize(): number;
  read(b: Uint8Array, o: { at: number }): number;
  write(b: Uint8Array, o: { at: number }): number;
  truncate(n: number): void;
  flush(): void;
  close(): void;
};
type OpfsFile = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncHandle> };

/** Lower-case hex SHA-256 of `text`. */
async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The key file's URL: the part of a cache key before its `|Last-Modified|length`. */
const urlOf = (cacheKey: string) => cacheKey.slice(0, cacheKey.indexOf("|"));

/**
 * The OPFS file of `cacheKey`, or null without OPFS. Named `<SHA-256 of the URL>-<SHA-256 of the
 * cache key>.bin` (URLs hold characters file names may not), so that storing a rebuilt key file
 * can delete the older versions of the same URL (`prune`).
 */
async function opfsFile(cacheKey: string, create: boolean): Promise<{ dir: FileSystemDirectoryHandle; file: OpfsFile; name: string } | null> {
  if (!navigator.storage?.getDirectory) return null;
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle("zkbench-keys", { create: true });
  const name = `${await sha256Hex(urlOf(cacheKey))}-${await sha256Hex(cacheKey)}.bin`;
  const file = (await dir.getFileHandle(name, { create })) as OpfsFile;
  return typeof file.createSyncAccessHandle === "function" ? { dir, file, name } : null;
}

/** Deletes the other OPFS files of `name`'s URL (older versions of a rebuilt key file). */
async function prune(dir: FileSystemDirectoryHandle, name: string): Promise<void> {
  const prefix = name.slice(0, name.indexOf("-") + 1);
  const stale: string[] = [];
  for await (const other of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
    if (other !== name && other.startsWith(prefix)) stale.push(other);
  }
  for (const other of stale) await dir.removeEntry(other).catch(() => undefined);
}

/**
 * Stores `bytes` under `cacheKey`, replacing older versions of the same URL; says where ("opfs"
 * or "idb"). Throws when no store takes them.
 */
async function cachePut(cacheKey: string, bytes: Uint8Array): Promise<"opfs" | "idb"> {
  const f = keyStore === "opfs" ? await opfsFile(cacheKey, true).catch(() => null) : null;
  if (f) {
    const h = await f.file.createSyncAccessHandle();
    try {
      h.truncate(0);
      if (h.write(bytes, { at: 0 }) !== bytes.length) throw new Error("OPFS: short write (quota?)");
      h.flush();
    } finally {
      h.close();
    }
    await prune(f.dir, f.name);
    return "opfs";
  }
  // in one transaction: the URL's older versions (keys sort by URL, then `|Last-Modified|length`)
  // go only if the new one is stored
  const url = urlOf(cacheKey);
  await cacheOp("readwrite", (st) => {
    st.delete(IDBKeyRange.bound(`${url}|`, `${url}|\uffff`));
    return st.put(bytes, cacheKey);
  });
  return "idb";
}

/**
 * Reads the key file stored under `cacheKey` in `store` into prover `p`'s key buffer, in
 * WebAssembly memory (OPFS: one synchronous read straight there, no copy in JavaScript;
 * IndexedDB: its value copied in); false when there is none.
 */
async function cacheReadInto(p: any, cacheKey: string, store: "opfs" | "idb"): Promise<boolean> {
  if (store === "idb") {
    const b = await cacheOp<Uint8Array | undefined>("readonly", (st) => st.get(cacheKey));
    if (!b) return false;
    copyInto(p, b);
    return true;
  }
  const f = await opfsFile(cacheKey, false).catch(() => null);
  if (!f) return false;
  const h = await f.file.createSyncAccessHandle();
  try {
    const size = h.getSize();
    if (size === 0) return false;
    const ptr: number = p.keyBufferResize(size);
    // a view of the buffer (valid until the module allocates again: filled at once)
    const view = new Uint8Array((pkg.wasmMemory() as WebAssembly.Memory).buffer, ptr, size);
    return h.read(view, { at: 0 }) === size;
  } finally {
    h.close();
  }
}


/**
 * Copies `bytes` into prover `p`'s key buffer in WebAssembly memory (one copy, into the buffer
 * [`loadKeyBuffer`] decodes where it lies). Reading the response as a stream into the buffer
 * chunk by chunk instead was slower in Chromium (the spend key's fetch 217 ms against 113 ms
 * with `arrayBuffer()`: docs/browser.md).
 */
function copyInto(p: any, bytes: Uint8Array) {
  const ptr: number = p.keyBufferResize(bytes.length);
  new Uint8Array((pkg.wasmMemory() as WebAssembly.Memory).buffer, ptr, bytes.length).set(bytes);
}

/** Bytes on the wire of the last fetch of `url` (compressed size), from Resource Timing. */
function transferBytes(url: string, resp: Response): number | null {
  const abs = new URL(url, self.location.origin).href;
  const entries = performance.getEntriesByName(abs) as PerformanceResourceTiming[];
  const e = entries[entries.length - 1];
  if (e && e.encodedBodySize > 0) return e.encodedBodySize;
  const len = Number(resp.headers.get("content-length"));
  return Number.isFinite(len) && len > 0 ? len : null;
}

/** The key file at `url` fetched past the HTTP cache, as a first visit does (compressed on the
 * wire where the server has a .br/.gz copy: Content-Encoding, decoded by the browser), with
 * its wire size and encoding in `run.metrics` under `prefix` (`key_` or `full_key_`); null
 * when the server has no such file (404). */
async function fetchKey(url: string, run: ProofRun, prefix: string): Promise<{ bytes: Uint8Array; seconds: number; cacheKey: string } | null> {
  const t = now();
  const resp = await requestKey(url);
  if (!resp) return null;
  const bytes = new Uint8Array(await resp.arrayBuffer());
  const seconds = now() - t;
  keyMetrics(url, resp, run, prefix, bytes.length);
  return { bytes, seconds, cacheKey: `${url}|${resp.headers.get("last-modified") ?? ""}|${bytes.length}` };
}

/** The response for the key file at `url`, past the HTTP cache (a first visit); null for 404. */
async function requestKey(url: string): Promise<Response | null> {
  performance.clearResourceTimings();
  const resp = await fetch(url, { cache: "no-store" });
  if (resp.status === 404) return null;
  if (!resp.ok || !resp.body) throw new Error(`fetching ${url}: HTTP ${resp.status}`);
  return resp;
}

/** A fetched key file's wire size, encoding and decoded size in `run.metrics` under `prefix`. */
function keyMetrics(url: string, resp: Response, run: ProofRun, prefix: string, fileBytes: number) {
  const wire = transferBytes(url, resp);
  if (wire != null) run.metrics[`${prefix}transfer_bytes`] = wire;
  run.metrics[`${prefix}content_encoded`] = resp.headers.get("content-encoding") ? 1 : 0;
  run.metrics[`${prefix}file_bytes`] = fileBytes;
}

/** A first proof from the key file at `url` while it downloads: the prover starts once the
 * response's headers are in (`Prover.streamKeysBegin`, on the worker pool) and each chunk of the response body goes
 * to it as it arrives, so that the witness map and each table's MSM run while the rest of the
 * file is on the way; `streamKeysEnd` waits for the proof, after which `p` holds the keys. The
 * seconds to the last byte (`fetched`) and to the proof (`proved`), both from the request; null
 * when the server has no such file (404). `p` needs its witness first. */
async function proveStreamed(p: any, url: string, run: ProofRun, prefix: string): Promise<{ fetched: number; proved: number } | null> {
  const t = now();
  const resp = await requestKey(url);
  if (!resp) return null;
  p.streamKeysBegin();
  let bytes = 0;
  try {
    const reader = resp.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      p.streamKeysPush(value);
      bytes += value.length;
    }
  } catch (e) {
    // the prover stops with an error once the stream ends; the download's error is the one to report
    try { p.streamKeysEnd(); } catch { /* the cut file's error */ }
    throw e;
  }
  const fetched = now() - t;
  p.streamKeysEnd();
  const proved = now() - t;
  // when the prover reached its milestones (seconds from its start, once the headers were in):
  // stream_matrices_s, stream_h_s, stream_msms_s, stream_file_s, stream_proof_s
  for (const [k, v] of Object.entries(JSON.parse(p.metricsJson()) as Record<string, number>)) {
    if (k.startsWith("phase_stream_")) run.metrics[k.slice("phase_".length)] = v;
  }
  keyMetrics(url, resp, run, prefix, bytes);
  return { fetched, proved };
}

/** Decodes `bytes` as `p`'s keys in its own memory; the seconds it took. */
function loadKeys(p: any, bytes: Uint8Array, keySeed: number): number {
  return timed(() => {
    copyInto(p, bytes);
    p.loadKeyBuffer(keySeed);
  })[1];
}

// A first visit: keys fetched (not from the HTTP cache) and decoded, then the first proof
// (phase prove_cold). Where the server has a compact key file (`compactUrl`: Groth16 with
// compact fixed-base tables, a fraction of the bytes for a slower proof), the first proof uses
// it, and the full key file follows for the later proofs and the browser's storage, as an
// application would fetch it after the first proof: metrics full_key_* and
// prove_cold_full_key_s (the first visit's proof had it used the full file).
async function runProof(cfg: ProofConfig, profile: Profile, keyUrl: string | null, compactUrl: string | null, keySeed: number, witnessSeed: number): Promise<ProofRun> {
  const label = `${cfg.system} ${cfg.hash}${cfg.alpha ? ` a${cfg.alpha}` : ""} ${cfg.circuit} arity ${cfg.arity}`;
  progress(`${label}: circuit`);
  const p = new pkg.Prover(JSON.stringify(cfg));
  const run: ProofRun = { phases: {}, metrics: { ...initTimes }, snarkjs: null, keySource: "setup", cpu: {} };
  let full: { bytes: Uint8Array; seconds: number; cacheKey: string } | null = null;
  try {
    Object.assign(run.metrics, JSON.parse(p.metricsJson()));
    let keyFetch = 0;
    let keyLoad = 0;
    let compact = false;
    let w0: number | null = null;
    if (compactUrl && streamKeys) {
      // a first visit's witness comes from the user's inputs while nothing is fetched yet
      w0 = timed(() => p.witness(witnessSeed))[1];
      progress(`${label}: first proof (cold) while the compact keys download`);
      const got = await proveStreamed(p, compactUrl, run, "key_");
      if (got) {
        // the download and the proof overlap: the cold proof is request to proof; its prover
        // part is what came after the last byte
        keyFetch = got.fetched;
        run.phases.prove_cold = [got.proved];
        run.metrics.prove_cold_prover_s = got.proved - got.fetched;
        run.metrics.key_streamed = 1;
        compact = true;
        run.keySource = "static file (compact first, streamed into the first proof; then the full one)";
      }
    }
    if (compactUrl && !streamKeys) {
      progress(`${label}: fetching the compact keys`);
      const got = await fetchKey(compactUrl, run, "key_");
      if (got) {
        progress(`${label}: decoding the compact keys (${(got.bytes.length / 1048576).toFixed(1)} MiB)`);
        keyFetch = got.seconds;
        keyLoad = loadKeys(p, got.bytes, keySeed);
        compact = true;
        run.keySource = "static file (compact first, then the full one)";
      }
    }
    if (!compact && keyUrl) {
      progress(`${label}: fetching keys`);
      full = await fetchKey(keyUrl, run, "key_");
      if (full) {
        progress(`${label}: decoding keys (${(full.bytes.length / 1048576).toFixed(1)} MiB)`);
        keyFetch = full.seconds;
        keyLoad = loadKeys(p, full.bytes, keySeed);
        run.keySource = "static file";
      }
    }
    run.metrics.key_compact = compact ? 1 : 0;
    if (compact || full) {
      run.metrics.key_fetch_s = keyFetch;
      run.metrics.key_load_s = keyLoad;
    } else {
      progress(`${label}: no key file, test setup in WebAssembly`);
      const [, s] = timed(() => p.setup(keySeed));
      run.phases.setup = [s];
    }
    if (!run.phases.prove_cold) {
      w0 = timed(() => p.witness(witnessSeed))[1];
      progress(`${label}: first proof (cold)`);
      const [, cold] = timed(() => p.prove());
      run.phases.prove_cold = [keyFetch + keyLoad + cold];
      run.metrics.prove_cold_prover_s = cold;
    }
    if (compact && !p.verify()) throw new Error("the proof made with the compact keys does not verify");
    if (compact && keyUrl) {
      progress(`${label}: fetching the full keys`);
      full = await fetchKey(keyUrl, run, "full_key_");
      if (!full) throw new Error(`${keyUrl}: the compact key file is there but not the full one`);
      run.metrics.full_key_fetch_s = full.seconds;
      run.metrics.full_key_load_s = loadKeys(p, full.bytes, keySeed);
      const [, first] = timed(() => p.prove());
      run.metrics.prove_cold_full_key_s = full.seconds + run.metrics.full_key_load_s + first;
    }
    const witness: number[] = [w0 ?? 0];
    const prove: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < profile.warmup; i++) {
      progress(`${label}: warm-up ${i + 1}/${profile.warmup}`);
      p.prove();
    }
    for (let i = 0; i < profile.samples; i++) {
      progress(`${label}: proof ${i + 1}/${profile.samples}`);
      if (i > 0) witness.push(timed(() => p.witness(witnessSeed + i))[1]);
      const c0 = await processCpuS();
      prove.push(timed(() => p.prove())[1]);
      const c1 = await processCpuS();
      if (c0 != null && c1 != null) cpu.push(c1 - c0);
    }
    run.phases.witness = witness;
    run.phases.prove = prove;
    if (cpu.length === prove.length) run.cpu.prove = cpu;
    if (build?.simd128) simdAgainstScalar(p, cfg, profile, label, prove, run);
    progress(`${label}: verifying`);
    const verify: number[] = [];
    for (let i = 0; i < Math.max(profile.samples, 3); i++) {
      const [ok, s] = timed(() => p.verify());
      if (!ok) throw new Error("the proof made here does not verify");
      verify.push(s);
    }
    run.phases.verify = verify;
    Object.assign(run.metrics, JSON.parse(p.metricsJson()));
    if (cfg.system === "groth16") run.snarkjs = JSON.parse(p.snarkjsJson());
    run.metrics.peak_wasm_memory_bytes = pkg.memoryBytes();
  } finally {
    p.free();
  }
  if (full) await cachedCold(cfg, run, label, full.bytes, full.cacheKey, keySeed, witnessSeed);
  return run;
}

/** Median of `xs` (not empty). */
function median(xs: number[]): number {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

// In a module built with simd128: warm proofs with the MSM's other arithmetic (the vector
// kernel, SIMD128 or fused multiply-add, when the page runs the scalar 29-bit path, and the
// other way round), so that every record has both medians: metrics.prove_msm_scalar_s and
// metrics.prove_msm_simd_s (one of them the phase `prove` itself); and for Groth16
// (deterministic given its randomness) one seeded proof each way, which must be the same bytes
// (metrics.simd_scalar_same_proof).
function simdAgainstScalar(p: any, cfg: ProofConfig, profile: Profile, label: string, prove: number[], run: ProofRun) {
  const wasOn = Boolean(JSON.parse(pkg.buildInfo()).msm_simd);
  const [same, other] = wasOn ? ["simd", "scalar"] : ["scalar", "simd"];
  try {
    pkg.setMsmSimd(!wasOn);
    const samples: number[] = [];
    for (let i = 0; i < profile.samples; i++) {
      progress(`${label}: proof ${i + 1}/${profile.samples}, MSM ${wasOn ? "without" : "with"} its ${build?.msm_kernel ?? "vector"} kernel`);
      samples.push(timed(() => p.prove())[1]);
    }
    run.metrics[`prove_msm_${same}_s`] = median(prove);
    run.metrics[`prove_msm_${other}_s`] = median(samples);
    if (cfg.system !== "groth16") return;
    progress(`${label}: the same seeded proof with and without the vector kernel`);
    const a: Uint8Array = p.proveSeeded(7);
    pkg.setMsmSimd(wasOn);
    const b: Uint8Array = p.proveSeeded(7);
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
      throw new Error("the vector-kernel and scalar MSM paths made different proofs from the same randomness");
    }
    run.metrics.simd_scalar_same_proof = 1;
  } finally {
    pkg.setMsmSimd(wasOn);
  }
}

// The keys go to the cache (OPFS or IndexedDB); then a fresh prover proves once with keys read
// from there (a later visit: cache read + decode + first proof), recorded as phase prove_cold_cached.
async function cachedCold(cfg: ProofConfig, run: ProofRun, label: string, bytes: Uint8Array, cacheKey: string, keySeed: number, witnessSeed: number) {
  progress(`${label}: keys to the browser's storage`);
  const t = now();
  let store: "opfs" | "idb";
  try {
    store = await cachePut(cacheKey, bytes);
  } catch (e) {
    // private windows and full quotas refuse: the run goes on without the cached phase
    run.metrics.key_cache_failed = 1;
    progress(`${label}: the browser refused to store the keys (${e instanceof Error ? e.message : e})`);
    return;
  }
  run.metrics.key_cache_store_s = now() - t;
  run.metrics.key_cache_opfs = store === "opfs" ? 1 : 0;
  progress(`${label}: first proof with keys from ${store === "opfs" ? "OPFS" : "IndexedDB"}`);
  const q = new pkg.Prover(JSON.stringify(cfg));
  try {
    const t0 = now();
    if (!(await cacheReadInto(q, cacheKey, store))) {
      throw new Error(`${store === "opfs" ? "OPFS" : "IndexedDB"} lost the key file it just stored`);
    }
    const read = now() - t0;
    const [, load] = timed(() => q.loadKeyBuffer(keySeed));
    q.witness(witnessSeed);
    const [, first] = timed(() => q.prove());
    run.phases.prove_cold_cached = [read + load + first];
    run.metrics.key_cache_read_s = read;
    run.metrics.key_cache_load_s = load;
    run.metrics.prove_cold_cached_prover_s = first;
    run.metrics.peak_wasm_memory_bytes = pkg.memoryBytes();
  } finally {
    q.free();
  }
}

function runHash(family: string, samples: number): HashRun {
  return JSON.parse(pkg.hashThroughput(family, 0, samples));
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  if (m.type === "cpu") {
    // the page's answer to processCpuS, while a task awaits it
    cpuWaiting.get(m.id)?.(m.seconds);
    cpuWaiting.delete(m.id);
    return;
  }
  try {
    switch (m.type) {
      case "init":
        await init(m.threads, m.pool, m.cpu, m.simd, m.simdOn, m.wide, m.relaxed, m.keyCache === "idb" ? "idb" : "opfs", m.streamKeys !== false);
        break;
      case "proof": {
        const r = await runProof(m.cfg, m.profile, m.keyUrl, m.compactKeyUrl, m.keySeed, m.witnessSeed);
        post({ type: "result", id: m.id, result: r });
        break;
      }
      case "hash":
        post({ type: "result", id: m.id, result: runHash(m.family, m.samples) });
        break;
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    post({ type: "error", id: "id" in m ? m.id : -1, message });
  }
};
