// The public types of zkbench-prover (re-exported by index.ts).

/** What to prove: the proof system and the statement, as zkbench's CLI and page name them. */
export interface ProofConfig {
  /** `groth16` (the one system with snarkjs's proof format). */
  system: "groth16";
  /** Hash family of the tree: `poseidon`, `poseidon2`, `griffin`, `anemoi`, `rescue`, `mimc-sponge`, ... */
  hash: string;
  /** S-box exponent; the family's default when absent. */
  alpha?: number;
  /** Tree arity, 2 to 16. */
  arity: number;
  /** Number of leaves of the tree (a power of the arity). */
  leaves: number;
  /** `membership`, `spend` or `batch-root`. */
  circuit: "membership" | "spend" | "batch-root";
}

/** A field element: a decimal string (`"123"`), a `0x` hex string or a small non-negative integer. */
export type FieldInput = string | number;

/** Inputs of a membership proof: the leaf, its index and its siblings bottom-up (for a binary tree one value a level). */
export interface MembershipInputs {
  leaf: FieldInput;
  index: number;
  siblings: (FieldInput | FieldInput[])[];
}

/** Inputs of a note spend (Tornado Cash's statement: `leaf = H(nullifier, secret)`). */
export interface SpendInputs {
  nullifier: FieldInput;
  secret: FieldInput;
  index: number;
  siblings: (FieldInput | FieldInput[])[];
  extDataHash: FieldInput;
}

/** Inputs of a batch root: all the leaves of the tree. */
export interface BatchRootInputs {
  leaves: FieldInput[];
}

/** The inputs of one proof, by circuit. */
export type ProofInputs = MembershipInputs | SpendInputs | BatchRootInputs;

/** A Groth16 proof in snarkjs's JSON (`proof.json`). */
export interface SnarkjsProof {
  pi_a: [string, string, string];
  pi_b: [[string, string], [string, string], [string, string]];
  pi_c: [string, string, string];
  protocol: "groth16";
  curve: "bn128";
}

/** A Groth16 verification key in snarkjs's JSON (`verification_key.json`). */
export interface SnarkjsVerificationKey {
  protocol: "groth16";
  curve: "bn128";
  nPublic: number;
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  vk_alphabeta_12: string[][][];
  IC: string[][];
}

/** What `prove` returns: snarkjs's `{ proof, publicSignals }`. */
export interface ProveResult {
  proof: SnarkjsProof;
  /** The public inputs as decimal strings (snarkjs's `public.json`). */
  publicSignals: string[];
}

/** A key file: a URL to fetch (absolute, or relative to the page) or its bytes. */
export type KeySource = string | URL | Uint8Array | ArrayBuffer;

/** Options of `init`. */
export interface InitOptions {
  /**
   * Threads the prover may use; default `navigator.hardwareConcurrency`, and never more (a pool
   * larger than the device's cores only slowed the provers). More than 1 needs the threaded
   * module in the package and a cross-origin isolated page (COOP `same-origin`, COEP
   * `require-corp`); otherwise the prover runs single-threaded and `InitInfo.reason` says why.
   */
  threads?: number;
  /**
   * URL of the threaded module's glue (`zkbench_wasm.js` of the package's `dist/wasm-mt`,
   * served as static files with its `.wasm` and `snippets/`): a bundled app copies that folder
   * to its static assets and names it here. Default: the package's own copy, which a page
   * that loads the package unbundled reaches.
   */
  threadedModule?: string | URL;
  /**
   * URL of the threaded module built with WebAssembly wide arithmetic (`dist/wasm-mt-wide`'s
   * `zkbench_wasm.js`, when the package was packed with one), loaded instead of `threadedModule`
   * where the browser validates `i64.mul_wide_u`: field products on 64-bit limbs, about twice
   * as fast. Default: the package's own copy, if any.
   */
  wideModule?: string | URL;
  /**
   * URL of the threaded module built with relaxed SIMD (`dist/wasm-mt-fma`'s `zkbench_wasm.js`,
   * when the package was packed with one), loaded instead of `threadedModule` where the browser
   * validates `f64x2.relaxed_madd` (Chromium 114+, Firefox ESR 153) and the wide-arithmetic one
   * does not load: its MSM runs a fused multiply-add kernel on doubles. Default: the package's
   * own copy, if any.
   */
  relaxedModule?: string | URL;
  /**
   * Right after `init` resolves, run the prover once on a small test-setup circuit (its proofs
   * are discarded), before the first request: WebAssembly engines run a new module's code in a
   * baseline tier at first, and without this the first real proof takes up to twice as long.
   * It costs about a second on two threads (two on one), which an app that calls `init` when
   * its page loads spends while the user fills a form; requests made meanwhile wait for it.
   * Default `false`.
   */
  warmUp?: boolean;
}

/** What `init` loaded. */
export interface InitInfo {
  /** Threads the prover uses. */
  threads: number;
  /** Which module runs. */
  build: "threaded" | "single-threaded";
  /** Whether it is the wide-arithmetic build (`InitOptions.wideModule`). */
  wideArithmetic: boolean;
  /** Whether it is the relaxed-SIMD build (`InitOptions.relaxedModule`). */
  relaxedSimd: boolean;
  /** Why the single-threaded module runs when more threads were asked for. */
  reason?: string;
  /** `crossOriginIsolated` of the page. */
  crossOriginIsolated: boolean;
  /** What the module was built with (`version`, `rustc`, `parallel`, `simd128`, `atomics`). */
  buildInfo: Record<string, unknown>;
}

/** Options of `loadKeys`. */
export interface KeyOptions {
  /** The test setup's seed the key file was made with (Groth16 ignores it). Default 0. */
  seed?: number;
  /** The full key file, when `source` is a compact one (zkbench's `-rows<n>.bin` beside the
   * full file: a fraction of the bytes, a slower proof): fetched and loaded in the background
   * once `source` is loaded, replacing it; proofs use whichever keys are loaded. */
  full?: KeySource;
}

/** What `loadKeys` resolves to once its key file is loaded. */
export interface LoadedKeys {
  /** With `KeyOptions.full`: settles when the full key file has replaced the compact one
   * (rejected if it could not be fetched or decoded: the compact keys stay); else null. */
  full: Promise<void> | null;
}
