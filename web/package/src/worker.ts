/// <reference lib="webworker" />
// zkbench-prover's worker: loads zkbench-wasm (the threaded module when it is in the package,
// more than one thread is asked for and the page is cross-origin isolated — its wide-arithmetic
// or relaxed-SIMD build where the package has one and the engine validates it —; the
// single-threaded one otherwise) and answers the main thread's requests one at a time, so that a proof never
// blocks the page.
import type { Envelope, Reply, Request } from "./protocol.js";
import type { ProofConfig } from "./types.js";
import { poolSize, relaxedSimdSupported, wideArithmeticSupported } from "./probe.js";

declare const self: DedicatedWorkerGlobalScope;

/** A prover of one configuration (wasm-bindgen's `Prover` of crates/wasm). */
interface WasmProver {
  keyBufferAppend(chunk: Uint8Array): void;
  loadKeyBuffer(seed: number): void;
  setup(seed: number): void;
  keysToBytes(): Uint8Array;
  witnessFromInputs(inputs: string): void;
  prove(): Uint8Array;
  streamKeysBegin(seed?: number): void;
  streamKeysPush(chunk: Uint8Array): void;
  streamKeysEnd(): Uint8Array;
  snarkjsJson(): string;
  snarkjsVerificationKeyJson(): string;
  membershipInputs(leaves: string, index: number): string;
  free(): void;
}

/** The glue of one zkbench-wasm build (`wasm-bindgen --target web`). */
interface WasmModule {
  default(): Promise<unknown>;
  Prover: new (config: string) => WasmProver;
  verifySnarkjs(vk: string, proof: string, publicSignals: string): boolean;
  threads(): number;
  buildInfo(): string;
  warmUp(): void;
  initThreadPool?(threads: number): Promise<void>;
}

let wasm: WasmModule | null = null;
const provers = new Map<string, WasmProver>();

function loaded(): WasmModule {
  if (!wasm) throw new Error("zkbench-prover: the module is not loaded (call init() first)");
  return wasm;
}

/** The threaded module at `url`, its pool started; an error says why it could not be. */
async function loadThreaded(url: string, threads: number): Promise<WasmModule> {
  let mt: WasmModule;
  try {
    mt = (await import(/* @vite-ignore */ url)) as WasmModule;
    await mt.default();
  } catch (e) {
    throw new Error(`the threaded module at ${url} did not load (${e instanceof Error ? e.message : e})`);
  }
  if (!mt.initThreadPool) throw new Error(`${url} is not a threaded build (no initThreadPool)`);
  await mt.initThreadPool(poolSize(threads));
  return mt;
}

/** The threaded modules a package can hold: wide arithmetic, relaxed SIMD, plain SIMD128. */
type Flavour = "wide" | "relaxed" | "plain";

/** The threaded module: the wide-arithmetic build where the package has it and the engine takes
 * it (its field products on 64-bit limbs, about twice as fast), then the relaxed-SIMD build (the
 * MSM's fused multiply-add kernel), else the plain threaded one. */
async function loadThreadedBest(modules: Record<Flavour, string | null>, threads: number) {
  const tries: [Flavour, boolean][] = [["wide", wideArithmeticSupported()], ["relaxed", relaxedSimdSupported()]];
  for (const [flavour, supported] of tries) {
    const url = modules[flavour];
    if (!url || !supported) continue;
    try {
      return { module: await loadThreaded(url, threads), flavour };
    } catch (e) {
      console.warn(`zkbench-prover: ${e instanceof Error ? e.message : e}; trying the next threaded module`);
    }
  }
  return { module: await loadThreaded(modules.plain!, threads), flavour: "plain" as Flavour };
}

async function load(threads: number, modules: Record<Flavour, string | null>) {
  if (wasm) throw new Error("zkbench-prover: init() was already called");
  let reason: string | undefined;
  let build: "threaded" | "single-threaded" = "single-threaded";
  let flavour: Flavour | null = null;
  if (threads > 1) {
    if (!modules.plain) reason = "this zkbench-prover was packed without the threaded module (zkbench's scripts/build-web.sh builds it)";
    else if (!self.crossOriginIsolated)
      reason = "the page is not cross-origin isolated (serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), so it has no SharedArrayBuffer for WebAssembly threads";
    else {
      try {
        const best = await loadThreadedBest(modules, threads);
        wasm = best.module;
        flavour = best.flavour;
        build = "threaded";
      } catch (e) {
        reason = e instanceof Error ? e.message : String(e);
      }
    }
  }
  if (!wasm) {
    // bundled with the package's worker (a bundler follows this import and the module's .wasm)
    // @ts-ignore: written by the package's build (scripts/build.mjs), not in src/
    const st = (await import("./wasm-st/index.js")) as WasmModule;
    await st.default();
    wasm = st;
  }
  return {
    threads: wasm.threads(),
    build,
    wideArithmetic: flavour === "wide",
    relaxedSimd: flavour === "relaxed",
    reason,
    crossOriginIsolated: self.crossOriginIsolated,
    buildInfo: JSON.parse(wasm.buildInfo()),
  };
}

/** The same configuration object always maps to the same prover (and its keys). */
function configKey(c: ProofConfig): string {
  return JSON.stringify([c.system, c.hash, c.alpha ?? null, c.arity, c.leaves, c.circuit]);
}

function prover(config: ProofConfig, create: boolean): WasmProver {
  const k = configKey(config);
  let p = provers.get(k);
  if (!p) {
    if (!create) throw new Error(`zkbench-prover: no keys for ${k}: call loadKeys(config, url or bytes) first`);
    p = new (loaded().Prover)(JSON.stringify(config));
    provers.set(k, p);
  }
  return p;
}

/** `p`'s proof of `inputs` made while its key file arrives (the `url` fetched here, or `bytes`):
 * each chunk goes to the prover as it comes, and `p` keeps the keys afterwards. */
async function proveWhileLoading(p: WasmProver, inputs: string, url: string | null, bytes: Uint8Array | null) {
  p.witnessFromInputs(inputs);
  const resp = url == null ? null : await fetch(url);
  if (resp && (!resp.ok || !resp.body)) throw new Error(`zkbench-prover: fetching the key file ${url}: HTTP ${resp.status}`);
  p.streamKeysBegin();
  try {
    if (bytes) p.streamKeysPush(bytes);
    const reader = resp?.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      p.streamKeysPush(chunk.value);
    }
  } catch (e) {
    // the prover stops with an error once the stream ends; the download's error is the one to report
    try {
      p.streamKeysEnd();
    } catch {
      /* the cut file's error */
    }
    throw e;
  }
  p.streamKeysEnd();
  const j = JSON.parse(p.snarkjsJson());
  return { proof: j.proof, publicSignals: j.public };
}

function handle(r: Request): unknown {
  switch (r.op) {
    case "proveWhileLoading":
      return proveWhileLoading(prover(r.config, true), r.inputs, r.url, r.bytes);
    case "loadKeys": {
      // one copy into WebAssembly memory; the keys are decoded where they lie there (Groth16's
      // fixed-base tables are not copied again)
      const p = prover(r.config, true);
      p.keyBufferAppend(r.bytes);
      p.loadKeyBuffer(r.seed);
      return null;
    }
    case "setupTestKeys": {
      const p = prover(r.config, true);
      p.setup(r.seed);
      return p.keysToBytes();
    }
    case "prove": {
      const p = prover(r.config, false);
      p.witnessFromInputs(r.inputs);
      p.prove();
      const j = JSON.parse(p.snarkjsJson());
      return { proof: j.proof, publicSignals: j.public };
    }
    case "verificationKey":
      return JSON.parse(prover(r.config, false).snarkjsVerificationKeyJson());
    case "verify":
      return loaded().verifySnarkjs(r.vk, r.proof, r.publicSignals);
    case "membershipInputs": {
      // the configuration's prover when there is one; otherwise one without keys, which knows
      // the tree's shape and hash as well
      const known = provers.get(configKey(r.config));
      const p = known ?? new (loaded().Prover)(JSON.stringify(r.config));
      try {
        return JSON.parse(p.membershipInputs(r.leaves, r.index));
      } finally {
        if (!known) p.free();
      }
    }
    case "init":
      throw new Error("zkbench-prover: init() was already called");
  }
}

async function answer(r: Envelope) {
  let reply: Reply;
  try {
    const value = r.op === "init" && !wasm ? await load(r.threads, { wide: r.wideModule, relaxed: r.relaxedModule, plain: r.threadedModule }) : await handle(r);
    reply = { id: r.id, ok: true, value };
  } catch (e) {
    reply = { id: r.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(reply);
  // after init has answered, before the next request: the prover's paths once, so that the
  // first real proof runs in V8's optimizing tier (InitOptions.warmUp)
  if (r.op === "init" && reply.ok && r.warmUp) {
    try {
      loaded().warmUp();
    } catch (e) {
      console.warn(`zkbench-prover: warm-up failed (${e instanceof Error ? e.message : e}); proofs still work`);
    }
  }
}

// One request at a time, in order, even across a request's awaits: a proof made while its key
// file downloads holds a pool thread that waits for the chunks this thread hands over, so no
// other call may block this thread meanwhile (with one pool thread it would never end).
let queue: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<Envelope>) => {
  queue = queue.then(() => answer(ev.data));
};
