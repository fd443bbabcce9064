// zkbench-prover: zkbench's Groth16 prover (Rust, WebAssembly) for dapps. Proofs are made in a
// Web Worker the package starts, so the page never blocks; proofs and verification keys are in
// snarkjs's JSON, so snarkjs (or a Solidity verifier exported by snarkjs) checks them.
//
//   import { init, loadKeys, prove, verificationKey, verify } from "zkbench-prover";
//   await init({ threads: navigator.hardwareConcurrency });
//   await loadKeys(config, "/keys/membership.bin");
//   const { proof, publicSignals } = await prove(config, { leaf, index, siblings });
//   await verify(await verificationKey(config), publicSignals, proof); // true
import { RELAXED_MODULE, THREADED_MODULE, WIDE_MODULE } from "./packed.js";
import type { Envelope, Reply, Request } from "./protocol.js";
import type {
  InitInfo,
  InitOptions,
  KeyOptions,
  LoadedKeys,
  KeySource,
  MembershipInputs,
  ProofConfig,
  ProofInputs,
  ProveResult,
  SnarkjsProof,
  SnarkjsVerificationKey,
} from "./types.js";

export type * from "./types.js";
/** Whether this browser validates WebAssembly wide arithmetic (`i64.mul_wide_u`) and relaxed
 * SIMD (`f64x2.relaxed_madd`): where it does, `init` loads the threaded module built with it if
 * the package has one (wide arithmetic first). */
export { relaxedSimdSupported, wideArithmeticSupported } from "./probe.js";

let worker: Worker | null = null;
let started: Promise<InitInfo> | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

function call<T>(r: Request, transfer: Transferable[] = []): Promise<T> {
  if (!worker) return Promise.reject(new Error("zkbench-prover: call init() first"));
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    worker!.postMessage({ ...r, id } as Envelope, transfer);
  });
}

function onReply(ev: MessageEvent<Reply>) {
  const r = ev.data;
  const p = pending.get(r.id);
  if (!p) return;
  pending.delete(r.id);
  if (r.ok) p.resolve(r.value);
  else p.reject(new Error(r.error));
}

function onWorkerError(ev: ErrorEvent) {
  const e = new Error(`zkbench-prover: the worker failed: ${ev.message || "could not load it"}`);
  for (const p of pending.values()) p.reject(e);
  pending.clear();
}

/**
 * Where the threaded module's glue is: `options.threadedModule`, else the package's own copy
 * beside this file (the URL is built at run time, so that a bundler leaves the threaded module
 * as the static files it must stay: its thread pool's workers import it by URL).
 */
function threadedModuleUrl(options: InitOptions): string | null {
  return moduleUrl(options.threadedModule, THREADED_MODULE);
}

/** Where the wide-arithmetic threaded module's glue is: `options.wideModule`, else the package's
 * own copy when it was packed with one (as {@link threadedModuleUrl}). */
function wideModuleUrl(options: InitOptions): string | null {
  return moduleUrl(options.wideModule, WIDE_MODULE);
}

/** Where the relaxed-SIMD threaded module's glue is: `options.relaxedModule`, else the
 * package's own copy when it was packed with one (as {@link threadedModuleUrl}). */
function relaxedModuleUrl(options: InitOptions): string | null {
  return moduleUrl(options.relaxedModule, RELAXED_MODULE);
}

/** `given` against the page's base URL, else `packed` beside this file, else null. */
function moduleUrl(given: string | URL | undefined, packed: string | null): string | null {
  const base = typeof document !== "undefined" ? document.baseURI : import.meta.url;
  if (given) return new URL(String(given), base).href;
  return packed ? new URL([".", packed].join("/"), import.meta.url).href : null;
}

/**
 * Starts the prover's worker and loads the WebAssembly module: the threaded one with `threads`
 * workers (at most `navigator.hardwareConcurrency`) when it is in the package and the page is
 * cross-origin isolated, the single-threaded
 * one otherwise (`InitInfo.reason` says why). Calling it again returns the first call's result.
 */
export function init(options: InitOptions = {}): Promise<InitInfo> {
  if (started) return started;
  const hw = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 1 : 1;
  const threads = Math.max(1, Math.floor(options.threads ?? hw));
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "zkbench-prover" });
  worker.onmessage = onReply;
  worker.onerror = onWorkerError;
  started = call<InitInfo>({
    op: "init",
    threads,
    threadedModule: threadedModuleUrl(options),
    wideModule: wideModuleUrl(options),
    relaxedModule: relaxedModuleUrl(options),
    warmUp: options.warmUp ?? false,
  });
  started.catch(() => terminate());
  return started;
}

/** Stops the worker (pending calls fail); `init` may be called again afterwards. */
export function terminate(): void {
  worker?.terminate();
  worker = null;
  started = null;
  for (const p of pending.values()) p.reject(new Error("zkbench-prover: terminated"));
  pending.clear();
}

function normalize(config: ProofConfig): ProofConfig {
  if (config.system !== "groth16")
    throw new Error(`zkbench-prover: system ${JSON.stringify(config.system)}: only "groth16" has snarkjs's proof format`);
  return { ...config };
}

async function keyBytes(source: KeySource): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source.slice();
  if (source instanceof ArrayBuffer) return new Uint8Array(source.slice(0));
  const url = new URL(String(source), typeof document !== "undefined" ? document.baseURI : undefined);
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`zkbench-prover: fetching the key file ${url}: HTTP ${resp.status}`);
  return new Uint8Array(await resp.arrayBuffer());
}

/**
 * Loads the proving keys of `config` from a key file: a URL (fetched; absolute or relative to
 * the page) or its bytes. Key files are zkbench's (`Session::keys_to_bytes`: `zkbench`'s
 * web/scripts/make-keys.mjs, or `setupTestKeys`). A first visit can load the compact key file
 * with `options.full` naming the full one: the first proof waits only for the compact file, the
 * full one follows in the background (`LoadedKeys.full`).
 */
export async function loadKeys(config: ProofConfig, source: KeySource, options: KeyOptions = {}): Promise<LoadedKeys> {
  const cfg = normalize(config);
  await loadFrom(cfg, source, options.seed ?? 0);
  return { full: loadFull(cfg, options) };
}

/** Loads `cfg`'s keys from the key file at `source`. */
async function loadFrom(cfg: ProofConfig, source: KeySource, seed: number): Promise<void> {
  const bytes = await keyBytes(source);
  await call<null>({ op: "loadKeys", config: cfg, bytes, seed }, [bytes.buffer]);
}

/** `options.full` loaded in the background, or null. */
function loadFull(cfg: ProofConfig, options: KeyOptions): Promise<void> | null {
  if (options.full == null) return null;
  const full = loadFrom(cfg, options.full, options.seed ?? 0);
  // handled here too, so that a caller who never looks at it gets no unhandled rejection
  full.catch(() => {});
  return full;
}

/**
 * A first proof while its key file downloads: proves `config`'s statement for `inputs` with the
 * key file at `source` (a URL: fetched by the prover's worker, each chunk handed to the prover
 * as it arrives; or its bytes), so that the proof's multi-scalar multiplications run on the
 * parts of the file that have arrived while the rest is on the way, and it ends shortly after
 * the last byte rather than a whole proof later. The keys stay loaded for `prove`, as after
 * `loadKeys`; `options.full` names the full key file when `source` is a compact one, loaded
 * behind the proof (`full` in the result, as `loadKeys`' `LoadedKeys.full`). In a page that is
 * not cross-origin isolated (single-threaded module) the proof starts after the last byte.
 */
export async function proveWhileLoading(
  config: ProofConfig,
  inputs: ProofInputs,
  source: KeySource,
  options: KeyOptions = {},
): Promise<ProveResult & LoadedKeys> {
  const cfg = normalize(config);
  const bytes = source instanceof Uint8Array ? source.slice() : source instanceof ArrayBuffer ? new Uint8Array(source.slice(0)) : null;
  const url = bytes ? null : new URL(String(source), typeof document !== "undefined" ? document.baseURI : undefined).href;
  const result = await call<ProveResult>(
    { op: "proveWhileLoading", config: cfg, inputs: JSON.stringify(inputs), url, bytes },
    bytes ? [bytes.buffer] : [],
  );
  return { ...result, full: loadFull(cfg, options) };
}

/**
 * A **test** setup of `config` in the browser (its toxic waste is known: never for real
 * value); the keys are kept for `prove` and returned as a key file's bytes.
 */
export function setupTestKeys(config: ProofConfig, seed = 0): Promise<Uint8Array> {
  return call<Uint8Array>({ op: "setupTestKeys", config: normalize(config), seed });
}

/**
 * Proves `config`'s statement for `inputs` with the keys `loadKeys` loaded; returns snarkjs's
 * `{ proof, publicSignals }` (for a membership proof the public signal is the tree's root).
 */
export async function prove(config: ProofConfig, inputs: ProofInputs): Promise<ProveResult> {
  return call<ProveResult>({ op: "prove", config: normalize(config), inputs: JSON.stringify(inputs) });
}

/** The verification key of `config`'s loaded keys, in snarkjs's JSON (`verification_key.json`). */
export function verificationKey(config: ProofConfig): Promise<SnarkjsVerificationKey> {
  return call<SnarkjsVerificationKey>({ op: "verificationKey", config: normalize(config) });
}

/**
 * Verifies a Groth16 proof in snarkjs's JSON with zkbench's verifier (in WebAssembly): the
 * arguments of snarkjs's `groth16.verify`. `false` for a proof that does not verify; an error
 * for a document that is not such a key, proof or list of signals.
 */
export function verify(
  verificationKey: SnarkjsVerificationKey,
  publicSignals: (string | number)[],
  proof: SnarkjsProof,
): Promise<boolean> {
  return call<boolean>({
    op: "verify",
    vk: JSON.stringify(verificationKey),
    publicSignals: JSON.stringify(publicSignals.map(String)),
    proof: JSON.stringify(proof),
  });
}

/**
 * Membership inputs for the leaf at `index` of a tree of `config`'s shape and hash whose first
 * leaves are `leaves` (the others zero), and the tree's root (the proof's public signal).
 */
export function membershipInputs(
  config: ProofConfig,
  leaves: (string | number)[],
  index: number,
): Promise<{ root: string; inputs: MembershipInputs }> {
  return call({ op: "membershipInputs", config: normalize(config), leaves: JSON.stringify(leaves), index });
}
