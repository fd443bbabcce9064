// Messages between the package's main-thread API (index.ts) and its worker (worker.ts).
import type { ProofConfig } from "./types.js";

/** One call into the worker. */
export type Request =
  | { op: "init"; threads: number; threadedModule: string | null; wideModule: string | null; relaxedModule: string | null; warmUp: boolean }
  | { op: "loadKeys"; config: ProofConfig; bytes: Uint8Array; seed: number }
  | { op: "setupTestKeys"; config: ProofConfig; seed: number }
  | { op: "prove"; config: ProofConfig; inputs: string }
  | { op: "proveWhileLoading"; config: ProofConfig; inputs: string; url: string | null; bytes: Uint8Array | null }
  | { op: "verificationKey"; config: ProofConfig }
  | { op: "verify"; vk: string; publicSignals: string; proof: string }
  | { op: "membershipInputs"; config: ProofConfig; leaves: string; index: number };

/** A request with its id, as posted. */
export type Envelope = Request & { id: number };

/** The worker's answer to request `id`. */
export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
