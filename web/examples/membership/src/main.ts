// The example dapp: members and an index typed into the form, a membership proof made with
// zkbench-prover, shown in snarkjs's JSON. `window.zkbenchExample` and
// `document.body.dataset.status` (`ready`, `proving`, `done`, `error`) let a test drive it.
import {
  init,
  membershipInputs,
  prove,
  proveWhileLoading,
  setupTestKeys,
  verificationKey,
  verify,
  relaxedSimdSupported,
  wideArithmeticSupported,
  type ProofConfig,
} from "zkbench-prover";

const config: ProofConfig = { system: "groth16", hash: "poseidon", arity: 2, leaves: 1024, circuit: "membership" };
// The key files beside the page (made by the example's test with zkbench's key writer): the
// compact one (a fraction of the bytes) streamed into the first proof, which runs while it
// downloads; the full one loaded behind it for later proofs. Without them the page makes test
// keys itself (toxic waste known: a demonstration only).
const COMPACT_KEY_URL = "keys/membership-rows1.bin";
const KEY_URL = "keys/membership.bin";

// true when the package has a threaded module (vite.config.js copies it to zkbench-prover-mt/),
// and ones built with relaxed SIMD (zkbench-prover-mt-fma/) and wide arithmetic
// (zkbench-prover-mt-wide/)
declare const __ZKBENCH_PROVER_MT__: boolean;
declare const __ZKBENCH_PROVER_MT_FMA__: boolean;
declare const __ZKBENCH_PROVER_MT_WIDE__: boolean;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state: Record<string, unknown> = {};
(window as unknown as { zkbenchExample: typeof state }).zkbenchExample = state;

function status(s: string, text: string, cls = "") {
  document.body.dataset.status = s;
  const el = $("status");
  el.textContent = text;
  el.className = cls;
}

async function start() {
  const info = await init({
    threads: navigator.hardwareConcurrency,
    threadedModule: __ZKBENCH_PROVER_MT__ ? "zkbench-prover-mt/zkbench_wasm.js" : undefined,
    relaxedModule: __ZKBENCH_PROVER_MT_FMA__ ? "zkbench-prover-mt-fma/zkbench_wasm.js" : undefined,
    wideModule: __ZKBENCH_PROVER_MT_WIDE__ ? "zkbench-prover-mt-wide/zkbench_wasm.js" : undefined,
  });
  state.init = info;
  state.wideSupported = wideArithmeticSupported();
  state.widePacked = __ZKBENCH_PROVER_MT_WIDE__;
  state.relaxedSupported = relaxedSimdSupported();
  state.relaxedPacked = __ZKBENCH_PROVER_MT_FMA__;
  $("engine").textContent =
    `Prover: ${info.build}${info.wideArithmetic ? " (wide arithmetic)" : info.relaxedSimd ? " (relaxed SIMD)" : ""}, ${info.threads} thread(s)${info.reason ? ` (${info.reason})` : ""}; keys: downloaded with the first proof.`;
  ($("prove") as HTMLButtonElement).disabled = false;
  status("ready", "Ready.");
}

/** The first proof, made while the compact key file downloads (the full one follows); test keys
 * made here if the page has no key files. */
async function firstProof(inputs: Parameters<typeof prove>[1]) {
  let keySource = `key file ${COMPACT_KEY_URL} (streamed into the first proof), then ${KEY_URL}`;
  try {
    const { full, ...result } = await proveWhileLoading(config, inputs, COMPACT_KEY_URL, { full: KEY_URL });
    full?.then(
      () => (state.fullKeys = "loaded"),
      (e) => (state.fullKeys = `failed: ${e instanceof Error ? e.message : e}`),
    );
    return result;
  } catch (e) {
    if (!/HTTP 404/.test(String(e))) throw e;
    keySource = `test keys made in this browser (${e instanceof Error ? e.message : e})`;
    await setupTestKeys(config, 1);
    return prove(config, inputs);
  } finally {
    state.keySource = keySource;
    $("engine").textContent += ` Keys: ${keySource}.`;
  }
}

async function onProve(ev: Event) {
  ev.preventDefault();
  const members = ($("members") as HTMLTextAreaElement).value.split(/\s+/).filter(Boolean);
  const index = Number(($("index") as HTMLInputElement).value);
  status("proving", "Proving…");
  $("output").hidden = true;
  try {
    const t0 = performance.now();
    const { root, inputs } = await membershipInputs(config, members, index);
    const { proof, publicSignals } = state.keySource ? await prove(config, inputs) : await firstProof(inputs);
    const ms = performance.now() - t0;
    const vk = await verificationKey(config);
    const ok = await verify(vk, publicSignals, proof);
    Object.assign(state, { root, proof, publicSignals, verificationKey: vk, verified: ok, proveMs: ms });
    $("root").textContent = root;
    $("proof").textContent = JSON.stringify(proof, null, 2);
    $("public").textContent = JSON.stringify(publicSignals, null, 2);
    $("vk").textContent = JSON.stringify(vk, null, 2);
    $("output").hidden = false;
    if (!ok) throw new Error("the proof made here does not verify");
    status("done", `Proved in ${ms.toFixed(0)} ms; zkbench's verifier accepts it.`, "ok");
  } catch (e) {
    state.error = e instanceof Error ? e.message : String(e);
    status("error", `Error: ${state.error}`, "error");
  }
}

$("form").addEventListener("submit", onProve);
start().catch((e) => {
  state.error = e instanceof Error ? e.message : String(e);
  status("error", `Could not start the prover: ${state.error}`, "error");
});
