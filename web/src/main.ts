// zkbench in the browser: the page. Runs the browser suite (web/suite.json)
// in Web Workers, shows the device, progress and results, and publishes the
// results document as `window.zkbenchResults` (the contract in
// docs/browser.md).
import suiteJson from "../suite.json";
import { relaxedSimdSupported, wideArithmeticSupported } from "../package/src/probe.js";
import { caseId, compactKeyFile, keyFile, summary } from "./shared.js";
import type { FromWorker, HashRun, ProofConfig, ProofRun, Profile, SnarkjsProof, Suite } from "./types";
import "./style.css";

const suite = suiteJson as Suite;

/** The compact key file a first visit fetches for `cfg` (Groth16 where the suite has
 * compact_rows), or null. */
function compactKeyUrl(cfg: ProofConfig): string | null {
  if (cfg.system !== "groth16" || !suite.compact_rows) return null;
  return `/keys/${compactKeyFile(cfg, suite.key_seed, suite.compact_rows)}`;
}

declare global {
  interface Window {
    zkbenchResults?: ResultsDoc;
    zkbenchProofs?: { groth16?: SnarkjsProof; snarkjs?: SnarkjsProof };
    zkbenchError?: string;
    /** The renderer process's CPU time so far (seconds), where the page's driver provides it
     * (web/scripts/browser.mjs in Chromium): proof records then carry `cpu_s` per sample. */
    zkbenchProcessCpuS?: () => Promise<number | null>;
  }
}

interface Env {
  cpu_model: string;
  logical_cpus: number;
  memory_bytes: number | null;
  os: string;
  arch: string;
  rustc: string;
  zkbench_version: string;
  crate_versions: Record<string, string>;
  git_commit: string;
  build_profile: string;
  date: string;
  hostname: string;
  user_agent: string;
  cross_origin_isolated: boolean;
  wasm_threads: number;
  wasm_build: string;
}

interface CaseObj {
  kind: string;
  system: string;
  hash: string;
  alpha?: number;
  width?: number;
  arity?: number;
  leaves?: number;
  circuit?: string;
  threads: number;
}

interface RecordObj {
  case_id: string;
  case: CaseObj;
  phase: string;
  status: "ok" | "error" | "timeout" | "skipped";
  error?: string;
  samples_s: number[];
  cpu_s: number[];
  summary?: ReturnType<typeof summary>;
  metrics: Record<string, number>;
  test_setup: boolean;
  threads: number;
  env: Env;
}

interface ResultsDoc {
  schema: "zkbench-results";
  schema_version: 1;
  suite: string;
  profile: string;
  duration_s: number;
  env: Env;
  records: RecordObj[];
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const TASK_TIMEOUT_S = Number(params.get("timeout") || 600);

function setStatus(s: "idle" | "running" | "done" | "failed", reason?: string) {
  document.body.dataset.zkbenchStatus = s;
  if (reason) {
    document.body.dataset.zkbenchError = reason;
    window.zkbenchError = reason;
  }
  $("status").textContent = s + (reason ? `: ${reason}` : "");
  $("status").className = `status ${s}`;
}

function fmtS(s: number | undefined): string {
  if (s == null || !Number.isFinite(s)) return "-";
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(1)} ms`;
  return `${(s * 1e6).toFixed(1)} µs`;
}

function fmtBytes(b: number | undefined | null): string {
  if (b == null) return "-";
  if (b >= 1 << 30) return `${(b / (1 << 30)).toFixed(1)} GiB`;
  if (b >= 1 << 20) return `${(b / (1 << 20)).toFixed(1)} MiB`;
  if (b >= 1 << 10) return `${(b / (1 << 10)).toFixed(1)} KiB`;
  return `${b} B`;
}

// ------------------------------------------------------------------ workers

class ProverWorker {
  private worker: Worker;
  private next = 1;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: number }>();
  ready: Promise<{ threads: number; build: Record<string, unknown>; families: string[] }>;

  constructor(make: () => Worker, public onProgress: (t: string) => void, threads: number | null) {
    this.worker = make();
    let readyResolve!: (v: { threads: number; build: Record<string, unknown>; families: string[] }) => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    this.worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      if (m.type === "ready") readyResolve(m);
      else if (m.type === "progress") this.onProgress(m.text);
      else if (m.type === "cpu") void this.answerCpu(m.id);
      else {
        if (m.type === "error" && m.id === -1) readyReject(new Error(m.message));
        const w = this.waiting.get(m.id);
        if (!w) return;
        this.waiting.delete(m.id);
        clearTimeout(w.timer);
        if (m.type === "result") w.resolve(m.result);
        else w.reject(new Error(m.message));
      }
    };
    this.worker.onerror = (ev) => {
      const e = new Error(`worker failed: ${ev.message || "could not start (see the console)"}`);
      readyReject(e);
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    if (threads != null) this.worker.postMessage({
        type: "init",
        threads,
        // ?threads=N: the threaded build at every N, one included (a scaling run's counts then
        // differ only in the pool)
        pool: isolated && hasSimd && params.has("threads"),
        cpu: typeof window.zkbenchProcessCpuS === "function",
        simd: hasSimd,
        wide: hasWide,
        // ?relaxed=0: the SIMD128 threaded build even where relaxed SIMD validates (the
        // comparison for browsers without it)
        relaxed: hasRelaxed && params.get("relaxed") !== "0",
        // ?simd=1 / ?simd=0: the MSM's vector kernel on / off; without either, the module's
        // default (on for the fused multiply-add kernel, off for the slower SIMD128 one)
        simdOn: params.get("simd") === "1" ? true : params.get("simd") === "0" ? false : null,
        // ?keycache=idb: keys cached in IndexedDB even where OPFS is there (the comparison)
        keyCache: params.get("keycache") === "idb" ? "idb" : "opfs",
        // ?stream=0: a first visit fetches the whole compact key file, then proves (the
        // comparison for the streamed first proof)
        streamKeys: params.get("stream") !== "0",
      });
  }

  call<T>(msg: Record<string, unknown>): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no answer within ${TASK_TIMEOUT_S} s`));
      }, TASK_TIMEOUT_S * 1000);
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.worker.postMessage({ ...msg, id });
    });
  }

  /** Answers the worker's request for the process's CPU time (null where it cannot be read). */
  private async answerCpu(id: number) {
    const seconds = await Promise.resolve(window.zkbenchProcessCpuS?.()).catch(() => null);
    this.worker.postMessage({ type: "cpu", id, seconds: seconds ?? null });
  }

  terminate() {
    this.worker.terminate();
  }
}

// ------------------------------------------------------------------ device

const isolated = window.crossOriginIsolated === true && typeof SharedArrayBuffer !== "undefined";
/** Whether this browser has WebAssembly SIMD128: a 31-byte module whose one function uses
 * `i8x16.splat` and `i8x16.popcnt` validates only where it does. The threaded build is
 * compiled with simd128, so without SIMD the page loads the single-threaded scalar build. */
const hasSimd = WebAssembly.validate(
  new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]),
);
/** Whether this browser has the wide-arithmetic proposal's 64×64→128-bit product (the probe
 * zkbench-prover uses). Where it does and the page has a threaded build made with it
 * (`pkg-mt-wide`: `ZKBENCH_WEB_WIDE=1 bash scripts/build-web.sh`), that build runs:
 * halo2curves' field products no longer call compiler-rt's `__multi3`, and the Groth16 MSMs and
 * FFTs multiply on 64-bit limbs (`zkbench_msm::field::mul_cios`). */
const hasWide = wideArithmeticSupported();
/** Whether this browser has relaxed SIMD's `f64x2.relaxed_madd`: where it does, the page loads
 * the threaded build made with it (`pkg-mt-fma`), whose MSM runs the fused multiply-add kernel
 * (`zkbench_msm::fma`); elsewhere the SIMD128 build (`pkg-mt`). */
const hasRelaxed = relaxedSimdSupported();
const cores = navigator.hardwareConcurrency || 1;
/** Worker threads by default: one per logical core the browser reports, at most 16. */
const MAX_DEFAULT_THREADS = 16;
/** `?threads=N` asks for N (1 to 64): the prover worker starts a pool of N workers, or of the
 * device's cores if fewer (an oversubscribed pool only slowed the provers; the records say N,
 * `env.wasm_threads` the pool). */
function threadsWanted(): number {
  const asked = Math.floor(Number(params.get("threads")));
  if (Number.isFinite(asked) && asked >= 1) return Math.min(asked, 64);
  return Math.max(1, Math.min(cores, MAX_DEFAULT_THREADS));
}
const wantThreads = isolated && hasSimd ? threadsWanted() : 1;

const nav = navigator as Navigator & { deviceMemory?: number };

function environment(threads: number, build: Record<string, unknown>): Env {
  return {
    cpu_model: "unknown (browser)",
    logical_cpus: cores,
    memory_bytes: nav.deviceMemory ? nav.deviceMemory * 2 ** 30 : null,
    os: navigator.platform || "unknown",
    arch: "wasm32",
    rustc: String(build.rustc ?? "unknown"),
    zkbench_version: String(build.version ?? "unknown"),
    crate_versions: {},
    git_commit: import.meta.env.VITE_GIT_COMMIT || "unknown",
    build_profile: "release",
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    hostname: location.host,
    user_agent: navigator.userAgent,
    cross_origin_isolated: window.crossOriginIsolated === true,
    wasm_threads: threads,
    wasm_build:
      (build.parallel ? `threads (wasm-bindgen-rayon, atomics, simd128${build.relaxed_simd ? ", relaxed-simd" : ""}${build.wide_arithmetic ? ", wide-arithmetic" : ""})` : "single-threaded") +
      `, MSM ${msmKernel(build)}`,
  };
}

/** Which arithmetic the MSM's bucket additions run (buildInfo's msm_kernel, msm_simd). */
function msmKernel(build: Record<string, unknown>): string {
  const kernel = build.msm_kernel === "fma" ? "fused multiply-add (2 lanes)" : "SIMD128 (4 lanes)";
  if (build.msm_simd) return build.msm_kernel === "fma" ? `${kernel}; ?simd=0 turns it off` : kernel;
  return build.simd128 ? `scalar (${kernel} kernel off; ?simd=1 turns it on)` : "scalar (no SIMD128)";
}

function showDevice(threads: number | null, build: Record<string, unknown> | null) {
  const rows: [string, string][] = [
    ["user agent", navigator.userAgent],
    ["logical cores", String(cores)],
    ["memory", nav.deviceMemory ? `${nav.deviceMemory} GiB (navigator.deviceMemory, rounded)` : "not reported"],
    ["crossOriginIsolated", String(window.crossOriginIsolated === true)],
    ["WebAssembly build", build ? (build.parallel ? "threaded" : "single-threaded") : "loading…"],
    ["threads used", threads == null ? "…" : String(threads)],
    ["WebAssembly SIMD128", hasSimd ? "yes" : "no"],
    ["WebAssembly relaxed SIMD (f64x2.relaxed_madd)", hasRelaxed ? "yes" : "no"],
    ["WebAssembly wide arithmetic (i64.mul_wide_u)", hasWide ? "yes" : "no"],
    ["MSM arithmetic", build ? msmKernel(build) : "loading…"],
  ];
  $("device").innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${escapeHtml(v)}</td></tr>`).join("");
  if (isolated && !hasSimd) {
    const n = $("isolation");
    n.hidden = false;
    n.textContent =
      "This browser has no WebAssembly SIMD128: the single-threaded scalar build is used (the threaded build needs SIMD), " +
      "so proofs use one core.";
  } else if (!isolated) {
    const n = $("isolation");
    n.hidden = false;
    n.textContent =
      "This page is not cross-origin isolated (no COOP/COEP headers, or SharedArrayBuffer unavailable): " +
      "the single-threaded WebAssembly build is used, so proofs use one core. Serve it with `zkbench serve` for threads.";
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

// ------------------------------------------------------------------ records

function makeRecord(c: CaseObj, phase: string, env: Env, threads: number, samples: number[], metrics: Record<string, number> = {}, cpu: number[] = []): RecordObj {
  return {
    case_id: `browser/${caseId(c)}`,
    case: c,
    phase,
    status: "ok",
    samples_s: samples,
    cpu_s: cpu,
    summary: summary(samples),
    metrics,
    test_setup: c.kind === "proof",
    threads,
    env,
  };
}

function failedRecord(c: CaseObj, phase: string, env: Env, threads: number, error: string, status: RecordObj["status"] = "error"): RecordObj {
  const r = makeRecord(c, phase, env, threads, []);
  r.status = status;
  r.error = error;
  delete r.summary;
  return r;
}

function proofCase(cfg: ProofConfig, threads: number): CaseObj {
  const c: CaseObj = { kind: "proof", system: cfg.system, hash: cfg.hash, arity: cfg.arity, leaves: cfg.leaves, circuit: cfg.circuit, threads };
  if (cfg.alpha != null) c.alpha = cfg.alpha;
  return c;
}

// metrics that belong to one phase's record only
const PHASE_METRICS: Record<string, string[]> = {
  prove_cold: ["key_fetch_s", "key_load_s", "prove_cold_prover_s", "key_transfer_bytes", "key_content_encoded", "key_streamed",
    "stream_matrices_s", "stream_h_s", "stream_msms_s", "stream_file_s", "stream_proof_s"],
  prove_cold_cached: ["key_cache_store_s", "key_cache_read_s", "key_cache_load_s", "prove_cold_cached_prover_s", "key_cache_opfs"],
};

function proofRecords(c: CaseObj, run: ProofRun, env: Env, threads: number): RecordObj[] {
  const order = ["setup", "witness", "prove_cold", "prove_cold_cached", "prove", "verify"];
  return order
    .filter((p) => run.phases[p])
    .map((p) => {
      const m: Record<string, number> = { ...run.metrics };
      for (const [phase, keys] of Object.entries(PHASE_METRICS)) {
        if (phase !== p) for (const k of keys) delete m[k];
      }
      // the prover's parts (Groth16: phase_h_s, phase_msm_*_s) of the last warm proof, on
      // the prove record as in native records
      if (p !== "prove") for (const k of Object.keys(m)) if (k.startsWith("phase_")) delete m[k];
      return makeRecord(c, p, env, threads, run.phases[p], m, run.cpu?.[p] ?? []);
    });
}

// ------------------------------------------------------------------ table

function renderTable(records: RecordObj[]) {
  const body = $("results-body");
  body.innerHTML = records
    .map((r) => {
      const peak = r.metrics.peak_wasm_memory_bytes;
      const extra =
        r.phase === "hash"
          ? `${Math.round(r.metrics.permutations_per_s ?? 0).toLocaleString()} perm/s`
          : peak
            ? `wasm memory ${fmtBytes(peak)}`
            : "";
      return `<tr class="${r.status}"><td>${escapeHtml(r.case_id)}</td><td>${r.phase}</td><td>${r.status}</td>` +
        `<td class="num">${fmtS(r.summary?.median)}</td><td class="num">${r.summary?.n ?? 0}</td>` +
        `<td>${escapeHtml(r.error ?? extra)}</td></tr>`;
    })
    .join("");
  renderChart(records);
}

function renderChart(records: RecordObj[]) {
  const rows = records.filter((r) => r.status === "ok" && (r.phase === "prove" || r.phase === "prove_cold") && r.summary);
  if (!rows.length) {
    $("chart").innerHTML = "";
    return;
  }
  const max = Math.max(...rows.map((r) => r.summary!.median));
  const h = 22;
  const W = 760;
  const L = 360;
  const bars = rows
    .map((r, i) => {
      const w = ((W - L - 80) * r.summary!.median) / max;
      const y = i * h + 4;
      const label = `${r.case.system} ${r.case.hash}${r.case.alpha ? "-a" + r.case.alpha : ""} ${r.case.circuit} a${r.case.arity} · ${r.phase}`;
      return `<text x="${L - 6}" y="${y + 14}" text-anchor="end">${escapeHtml(label)}</text>` +
        `<rect x="${L}" y="${y}" width="${w.toFixed(1)}" height="${h - 6}" class="${r.case.system === "snarkjs" ? "peer" : r.phase}"></rect>` +
        `<text x="${L + w + 4}" y="${y + 14}">${fmtS(r.summary!.median)}</text>`;
    })
    .join("");
  $("chart").innerHTML = `<svg viewBox="0 0 ${W} ${rows.length * h + 8}" width="100%" role="img" aria-label="median prove times">${bars}</svg>`;
}

function setProgress(done: number, total: number, text: string) {
  const bar = $("progress") as HTMLProgressElement;
  bar.max = total;
  bar.value = done;
  $("progress-text").textContent = `${done}/${total} · ${text}`;
}

// ------------------------------------------------------------------ the suite

let prover: ProverWorker | null = null;
let proverInfo: { threads: number; build: Record<string, unknown>; families: string[] } | null = null;
let busy = false;

async function getProver(onProgress: (t: string) => void): Promise<ProverWorker> {
  if (prover) prover.onProgress = onProgress;
  if (!prover) {
    prover = new ProverWorker(
      // Vite bundles a worker written exactly like this
      () => new Worker(new URL("./worker.ts", import.meta.url), { type: "module" }),
      (t) => onProgress(t),
      wantThreads,
    );
  }
  // the eager start at page load may still be under way: wait for it here too
  const p = prover;
  proverInfo = await p.ready;
  showDevice(proverInfo.threads, proverInfo.build);
  return p;
}

async function runSuite(profileName: string): Promise<ResultsDoc> {
  const profile: Profile | undefined = suite.profiles[profileName];
  if (!profile) throw new Error(`unknown profile ${profileName}; known: ${Object.keys(suite.profiles).join(", ")}`);
  const started = performance.now();
  let stepText = "starting the prover worker";
  let done = 0;
  let total = suite.proofs.length + 1;
  const p = await getProver((t) => setProgress(done, total, (stepText = t)));
  const info = proverInfo!;
  const env = environment(info.threads, info.build);
  // the case's thread count: the count asked for (?threads=N; the threaded build's pool has
  // that many workers, or the device's cores if fewer, and env.wasm_threads says which), else 0
  // ("all the cores": the default pool) or 1 (the single-threaded build)
  const asked = params.has("threads") && info.build.parallel ? wantThreads : null;
  const threadsField = asked ?? (info.threads > 1 ? 0 : 1);
  // a record's `threads`: the count asked for, as a native record at N threads on fewer cores
  // says N; else the pool's
  const recordThreads = asked ?? info.threads;
  const families = profile.hashes === "all" ? info.families : profile.hashes;
  total = suite.proofs.length + 1 + families.length;
  const records: RecordObj[] = [];
  const proofs: Window["zkbenchProofs"] = {};
  setProgress(done, total, stepText);

  for (const cfg of suite.proofs) {
    const c = proofCase(cfg, threadsField);
    try {
      const run = await p.call<ProofRun>({
        type: "proof",
        cfg,
        profile,
        keyUrl: `/keys/${keyFile(cfg, suite.key_seed)}`,
        compactKeyUrl: compactKeyUrl(cfg),
        keySeed: suite.key_seed,
        witnessSeed: suite.witness_seed,
      });
      records.push(...proofRecords(c, run, env, recordThreads));
      if (run.snarkjs && !proofs.groth16) proofs.groth16 = run.snarkjs;
    } catch (e) {
      records.push(failedRecord(c, "all", env, recordThreads, (e as Error).message, /no answer/.test((e as Error).message) ? "timeout" : "error"));
      // a worker that timed out or crashed is replaced
      prover?.terminate();
      prover = null;
    }
    done++;
    renderTable(records);
  }

  // snarkjs, same statement, same tab
  const sc = suite.snarkjs;
  const snarkCase: CaseObj = { kind: "proof", system: "snarkjs", hash: sc.hash, arity: sc.arity, leaves: sc.leaves, circuit: sc.circuit, threads: 0 };
  const sw = new ProverWorker(
    () => new Worker(new URL("./snarkjsWorker.ts", import.meta.url), { type: "module" }),
    (t) => setProgress(done, total, t),
    null,
  );
  try {
    const r = await sw.call<{ phases: Record<string, number[]>; metrics: Record<string, number>; proof: SnarkjsProof }>({
      type: "prove",
      base: "/snarkjs",
      samples: profile.samples,
      warmup: profile.warmup,
    });
    for (const ph of ["witness", "prove_cold", "prove", "verify"]) {
      records.push(makeRecord(snarkCase, ph, env, cores, r.phases[ph], ph === "prove_cold" ? r.metrics : { zkey_bytes: r.metrics.zkey_bytes }));
    }
    records.forEach((x) => {
      if (x.case.system === "snarkjs") x.test_setup = true;
    });
    proofs.snarkjs = r.proof;
  } catch (e) {
    records.push(failedRecord(snarkCase, "all", env, cores, (e as Error).message));
  } finally {
    sw.terminate();
  }
  done++;
  renderTable(records);

  // hash throughput in WebAssembly (seed 001)
  const hp = await getProver((t) => setProgress(done, total, t));
  for (const fam of families) {
    const c: CaseObj = { kind: "hash", system: "wasm", hash: fam, threads: 1 };
    setProgress(done, total, `hash ${fam}`);
    try {
      const h = await hp.call<HashRun>({ type: "hash", family: fam, samples: profile.hash_samples });
      c.width = h.width;
      // the exponent is part of the case only for the family with several (as natively)
      if (fam === "poseidon2") c.alpha = h.alpha;
      const rec = makeRecord(c, "hash", env, 1, h.samples_s, { batch: h.batch, width: h.width });
      if (rec.summary) rec.metrics.permutations_per_s = 1 / rec.summary.median;
      records.push(rec);
    } catch (e) {
      records.push(failedRecord(c, "hash", env, 1, (e as Error).message));
    }
    done++;
    renderTable(records);
  }
  setProgress(done, total, "done");
  window.zkbenchProofs = proofs;
  return {
    schema: "zkbench-results",
    schema_version: 1,
    suite: suite.name,
    profile: profileName,
    duration_s: (performance.now() - started) / 1000,
    env,
    records,
  };
}

async function suiteButton() {
  if (busy) return;
  busy = true;
  setStatus("running");
  ($("run") as HTMLButtonElement).disabled = true;
  try {
    const doc = await runSuite(params.get("profile") || "quick");
    window.zkbenchResults = doc;
    ($("download") as HTMLButtonElement).disabled = false;
    ($("share") as HTMLButtonElement).disabled = false;
    const bad = doc.records.filter((r) => r.status !== "ok");
    if (bad.length) setStatus("failed", bad.map((r) => `${r.case_id} ${r.phase}: ${r.error}`).join("; "));
    else setStatus("done");
  } catch (e) {
    setStatus("failed", (e as Error).message);
  } finally {
    busy = false;
    ($("run") as HTMLButtonElement).disabled = false;
  }
}

// ------------------------------------------------------------------ the form

async function formProve(ev: Event) {
  ev.preventDefault();
  const out = $("form-result");
  out.className = "";
  if (busy) {
    out.textContent = "a run is in progress; wait for it to finish";
    return;
  }
  const f = new FormData($("prove-form") as HTMLFormElement);
  const num = (k: string) => {
    const v = String(f.get(k) ?? "").trim();
    if (!/^\d+$/.test(v)) throw new Error(`${k}: ${JSON.stringify(v)} is not a positive integer`);
    return Number(v);
  };
  let cfg: ProofConfig;
  try {
    const leavesText = String(f.get("leaves") ?? "").trim();
    const m = /^2\^(\d+)$/.exec(leavesText);
    const leaves = m ? 2 ** Number(m[1]) : num("leaves");
    if (!Number.isSafeInteger(leaves) || leaves < 2) throw new Error(`leaves: ${leavesText} is out of range (2 .. 2^53)`);
    cfg = { system: String(f.get("system")), hash: String(f.get("hash")).trim(), arity: num("arity"), leaves, circuit: String(f.get("circuit")) };
    const a = String(f.get("alpha") ?? "").trim();
    if (a) cfg.alpha = num("alpha");
  } catch (e) {
    out.className = "error";
    out.textContent = `Bad configuration: ${(e as Error).message}`;
    return;
  }
  busy = true;
  out.textContent = "proving…";
  try {
    const p = await getProver((t) => (out.textContent = t));
    const run = await p.call<ProofRun>({
      type: "proof",
      cfg,
      profile: { warmup: 0, samples: 1, hash_samples: 1, hashes: [] },
      keyUrl: `/keys/${keyFile(cfg, suite.key_seed)}`,
      compactKeyUrl: compactKeyUrl(cfg),
      keySeed: suite.key_seed,
      witnessSeed: suite.witness_seed,
    });
    const m = (k: string) => summary(run.phases[k] ?? [])?.median;
    out.textContent =
      `${cfg.system} ${cfg.hash} ${cfg.circuit}, arity ${cfg.arity}: keys from ${run.keySource}` +
      (run.phases.setup ? ` (setup ${fmtS(m("setup"))})` : "") +
      `, witness ${fmtS(m("witness"))}, first proof ${fmtS(m("prove_cold"))}, proof ${fmtS(m("prove"))}, verify ${fmtS(m("verify"))}` +
      `, proof ${fmtBytes(run.metrics.proof_bytes)}, wasm memory ${fmtBytes(run.metrics.peak_wasm_memory_bytes)}`;
    out.className = "ok";
  } catch (e) {
    out.className = "error";
    out.textContent = `Error: ${(e as Error).message}`;
    prover?.terminate();
    prover = null;
  } finally {
    busy = false;
  }
}

// ------------------------------------------------------------------ share / download

function download() {
  const doc = window.zkbenchResults;
  if (!doc) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
  a.download = "results-browser.json";
  a.click();
}

async function share() {
  const doc = window.zkbenchResults;
  const out = $("share-result");
  if (!doc) return;
  try {
    const r = await fetch("/api/results", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(doc) });
    const j = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
    out.innerHTML = `shared: <a href="/api/results/${j.id}">${j.id}</a> · <a href="/leaderboard">leaderboard</a>`;
  } catch (e) {
    out.textContent = `could not share: ${(e as Error).message}`;
  }
}

// ------------------------------------------------------------------ start

$("suite-description").textContent = suite.description;
showDevice(null, null);
// the prover worker starts now (module compiled while streaming in, thread pool up) so
// that a first proof does not wait for it
getProver(() => {}).catch(() => {
  // the suite or the form reports the failure when it asks for the prover
  prover = null;
});
setStatus("idle");
$("run").addEventListener("click", suiteButton);
$("prove-form").addEventListener("submit", formProve);
$("download").addEventListener("click", download);
$("share").addEventListener("click", share);
if (params.get("autorun") === "1") void suiteButton();
