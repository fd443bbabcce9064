/// <reference lib="webworker" />
// snarkjs (npm, pinned) in its own worker: Groth16 on the circom circuit of
// peers/snarkjs (binary membership, circomlib Poseidon, depth 32), with the
// .wasm, .zkey and input that scripts/build-web.sh copies from that peer.
import * as snarkjs from "snarkjs";
import type { ToSnarkjs } from "./types";

declare const self: DedicatedWorkerGlobalScope;

const now = () => performance.now() / 1000;

async function fetchBytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url, { cache: "no-store" });
  if (!r.ok) throw new Error(`snarkjs artifacts missing: ${url} (HTTP ${r.status}); run bash scripts/build-web.sh`);
  return new Uint8Array(await r.arrayBuffer());
}

type Mem = { type: "mem"; data?: Uint8Array };

async function witness(input: unknown, wasm: Uint8Array): Promise<Mem> {
  const w: Mem = { type: "mem" };
  await snarkjs.wtns.calculate(input, { type: "mem", data: wasm }, w);
  return w;
}

self.onmessage = async (ev: MessageEvent<ToSnarkjs>) => {
  const m = ev.data;
  try {
    const post = (text: string) => self.postMessage({ type: "progress", text });
    post("snarkjs: fetching circuit and key (cold)");
    const t0 = now();
    const [wasm, zkey, inputBytes, vkBytes] = await Promise.all([
      fetchBytes(`${m.base}/membership.wasm`),
      fetchBytes(`${m.base}/groth16.zkey`),
      fetchBytes(`${m.base}/input.json`),
      fetchBytes(`${m.base}/verification_key.json`),
    ]);
    const fetchS = now() - t0;
    const input = JSON.parse(new TextDecoder().decode(inputBytes));
    const vk = JSON.parse(new TextDecoder().decode(vkBytes));
    post("snarkjs: first proof (cold)");
    const t1 = now();
    const w0 = await witness(input, wasm);
    const w0s = now() - t1;
    const t2 = now();
    let res = await snarkjs.groth16.prove({ type: "mem", data: zkey }, w0);
    const coldProve = now() - t2;
    for (let i = 0; i < m.warmup; i++) {
      post(`snarkjs: warm-up ${i + 1}/${m.warmup}`);
      res = await snarkjs.groth16.prove({ type: "mem", data: zkey }, await witness(input, wasm));
    }
    const wit = [w0s];
    const prove: number[] = [];
    for (let i = 0; i < m.samples; i++) {
      post(`snarkjs: proof ${i + 1}/${m.samples}`);
      const a = now();
      const w = await witness(input, wasm);
      const b = now();
      res = await snarkjs.groth16.prove({ type: "mem", data: zkey }, w);
      prove.push(now() - b);
      if (i > 0) wit.push(b - a);
    }
    post("snarkjs: verifying");
    const verify: number[] = [];
    for (let i = 0; i < Math.max(3, m.samples); i++) {
      const a = now();
      const ok = await snarkjs.groth16.verify(vk, res.publicSignals, res.proof);
      verify.push(now() - a);
      if (!ok) throw new Error("snarkjs rejected its own proof");
    }
    self.postMessage({
      type: "result",
      id: m.id,
      result: {
        phases: { prove_cold: [fetchS + coldProve], witness: wit, prove, verify },
        metrics: {
          key_fetch_s: fetchS,
          zkey_bytes: zkey.length,
          circuit_wasm_bytes: wasm.length,
          prove_cold_prover_s: coldProve,
          public_inputs: res.publicSignals.length,
        },
        proof: { proof: res.proof, public: res.publicSignals, verification_key: vk },
      },
    });
  } catch (e) {
    self.postMessage({ type: "error", id: m.id, message: e instanceof Error ? e.message : String(e) });
  }
};
