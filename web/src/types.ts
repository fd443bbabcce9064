// Messages between the page and its workers, and the browser suite.

/** One proof configuration (the `case` fields of the results schema). */
export interface ProofConfig {
  system: string;
  hash: string;
  alpha?: number;
  arity: number;
  leaves: number;
  circuit: string;
}

/** Repetitions of one suite profile. */
export interface Profile {
  warmup: number;
  samples: number;
  hash_samples: number;
  hashes: "all" | string[];
}

/** web/suite.json. */
export interface Suite {
  name: string;
  description: string;
  key_seed: number;
  /** Points per base of the compact Groth16 key files a first visit fetches (absent: none). */
  compact_rows?: number;
  witness_seed: number;
  proofs: ProofConfig[];
  snarkjs: { hash: string; arity: number; leaves: number; circuit: string };
  profiles: Record<string, Profile>;
}

/** What the prover worker measured for one proof configuration. */
export interface ProofRun {
  phases: Record<string, number[]>;
  metrics: Record<string, number>;
  snarkjs: SnarkjsProof | null;
  keySource: string;
  /** CPU time of each sample of a phase (seconds, the whole renderer process: every thread of
   * the page), where the page's driver reads it (`window.zkbenchProcessCpuS`); one entry per
   * sample of that phase, or the phase is absent. */
  cpu: Record<string, number[]>;
}

/** `{proof, public, verification_key}` in snarkjs JSON. */
export interface SnarkjsProof {
  proof: unknown;
  public: string[];
  verification_key: unknown;
}

/** hashThroughput's JSON. */
export interface HashRun {
  hash: string;
  alpha: number;
  width: number;
  samples_s: number[];
  batch: number;
}

export type ToWorker =
  | { type: "init"; threads: number; pool: boolean; cpu: boolean; simd: boolean; simdOn: boolean | null; wide: boolean; relaxed: boolean; keyCache: "opfs" | "idb"; streamKeys?: boolean }
  | { type: "proof"; id: number; cfg: ProofConfig; profile: Profile; keyUrl: string | null; compactKeyUrl: string | null; keySeed: number; witnessSeed: number }
  | { type: "hash"; id: number; family: string; samples: number }
  | { type: "cpu"; id: number; seconds: number | null };

export type FromWorker =
  | { type: "ready"; threads: number; build: Record<string, unknown>; families: string[] }
  | { type: "progress"; text: string }
  | { type: "result"; id: number; result: unknown }
  | { type: "error"; id: number; message: string }
  | { type: "cpu"; id: number };

export type ToSnarkjs = { type: "prove"; id: number; base: string; samples: number; warmup: number };
