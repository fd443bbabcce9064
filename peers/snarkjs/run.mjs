#!/usr/bin/env node
// zkbench's snarkjs peer (docs/external-runners.md): circom circuits compiled by circom2
// (the WebAssembly build of circom, npm), proved with snarkjs 0.7.6 Groth16, PLONK and
// fflonk; one JSON record per line on stdout.
//
//   node peers/snarkjs/run.mjs [--circuit membership|batch-root|spend] [--depths 32] \
//        [--hashes poseidon,mimc-sponge] [--systems groth16,plonk,fflonk] [--budget-s S]
//        [--budget-fraction F]
//
// --budget-s: start no new cell after S seconds; the cells left are recorded as skipped.
// --budget-fraction F: the same with S = F · the profile's case_timeout_seconds (so a longer
// profile gets a longer budget).
// ZKBENCH_PROFILE's case_timeout_seconds is the hard deadline (zkbench kills the runner then):
// a cell still running near it is stopped and recorded as a timeout.
// Hashes: circomlib's poseidon and mimc-sponge; gmimc, poseidon2 and neptune from
// circuits/zkbench_hashes.circom (generated from zkbench's constants). Other hashes are
// recorded as skipped.
//
// Circuits: membership.circom (public root, from zkbench's native tree), batch_root.circom and
// spend.circom (zkbench's note spend: public [root, nullifier_hash, ext_data_hash], the first
// two computed by the circuit from the private nullifier, secret and path).
//
// Environment: ZKBENCH_PROFILE (repetitions, JSON), ZKBENCH_BIN (the zkbench binary, for
// test .ptau files and native roots; default target/release/zkbench), ZKBENCH_SNARKJS_CACHE
// (compiled circuits, .ptau files and keys; default target/snarkjs-peer),
// ZKBENCH_SNARKJS_SPEND_INPUT (spend only: JSON {nullifier, secret, ext_data_hash, index,
// siblings[depth]} of decimal strings, instead of the fixed default values). Every proof's
// public signals are written to <cache>/<circuit>-<hash>-d<depth>/<system>.public.json.
//
// Every (hash, system, depth) runs in two child processes of this script, one for setup and
// one for witness / prove / verify, so that `peak_rss_bytes` is the peak of that phase group.
// Keys are cached: a later run reuses them and reports the setup time measured when they were
// made (metrics.setup_cached = 1). All keys come from TEST setups: the .ptau is written by
// `zkbench ptau new` (τ public) and Groth16's phase 2 has no contribution.
//
// Records: case.system = snarkjs-groth16 | snarkjs-plonk | snarkjs-fflonk; phases setup,
// witness, prove_cold, prove, verify, and verify-tampered: the proof checked against the
// public inputs with the root changed (+1); status ok and metrics.rejected = 1 when snarkjs
// rejects it, status error when it accepts it.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const HASHES = { poseidon: 0, "mimc-sponge": 1, gmimc: 2, poseidon2: 3, neptune: 4 };

function args() {
  const a = process.argv.slice(2);
  const o = { circuit: "membership", depths: [32], hashes: ["poseidon", "mimc-sponge"], systems: ["groth16", "plonk", "fflonk"], child: null };
  for (let i = 0; i < a.length; i++) {
    const v = a[i + 1];
    switch (a[i]) {
      case "--circuit": o.circuit = v; i++; break;
      case "--depth": case "--depths": o.depths = v.split(",").map(Number); i++; break;
      case "--hashes": o.hashes = v.split(","); i++; break;
      case "--systems": o.systems = v.split(","); i++; break;
      case "--child": o.child = JSON.parse(v); i++; break;
      case "--budget-s": o.budget = Number(v); i++; break;
      case "--budget-fraction": o.budgetFraction = Number(v); i++; break;
      default: console.error(`unknown argument ${a[i]}`); process.exit(2);
    }
  }
  return o;
}

const profile = Object.assign({ warmup: 1, min_samples: 3, max_samples: 10, target_seconds: 2 },
  process.env.ZKBENCH_PROFILE ? JSON.parse(process.env.ZKBENCH_PROFILE) : {});
const cacheRoot = process.env.ZKBENCH_SNARKJS_CACHE || path.join(repo, "target", "snarkjs-peer");
const zkbench = process.env.ZKBENCH_BIN || path.join(repo, "target", "release", "zkbench");
const threads = os.cpus().length;

// zkbench kills the whole runner after the profile's case_timeout_seconds: every child gets
// at most the time left before that deadline (less a margin to print its record), so that a
// cell cut short is a recorded timeout, not a lost line.
const runnerStarted = performance.now();
const DEADLINE_MARGIN_S = 15;
function secondsLeft() {
  const limit = profile.case_timeout_seconds;
  if (!limit) return Infinity;
  return limit - DEADLINE_MARGIN_S - (performance.now() - runnerStarted) / 1000;
}

function caseOf(c) {
  const k = { kind: "proof", system: `snarkjs-${c.system}`, hash: c.hash, arity: 2, circuit: c.circuit, threads: 0 };
  if (c.circuit === "membership" || c.circuit === "spend") k.leaves = 2 ** c.depth; else k.depth = c.depth;
  return k;
}

function emit(c, phase, samples, metrics = {}, extra = {}) {
  const rec = { case: caseOf(c), phase, status: "ok", samples_s: samples, threads, metrics, test_setup: true,
    peak_rss_bytes: process.resourceUsage().maxRSS * 1024, ...extra };
  console.log(JSON.stringify(rec));
}

function fail(c, phase, err, status = "error") {
  const rec = { case: caseOf(c), phase, status, error: String(err && err.message || err).slice(0, 500),
    samples_s: [], threads, metrics: {}, test_setup: true };
  console.log(JSON.stringify(rec));
}

async function sample(f) {
  for (let i = 0; i < profile.warmup; i++) await f();
  const out = [];
  let spent = 0;
  while (out.length < profile.min_samples || (out.length < profile.max_samples && spent < profile.target_seconds)) {
    const t = performance.now();
    await f();
    const d = (performance.now() - t) / 1000;
    spent += d;
    out.push(d);
  }
  return out;
}

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { encoding: "utf8", maxBuffer: 1 << 28, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${argv.slice(0, 3).join(" ")} failed: ${(r.stderr || r.stdout || "").trim().split("\n").slice(-4).join(" | ")}`);
  return r.stdout;
}

// ---------------------------------------------------------------- circuit, input, ptau

function circuitDir(c) {
  return path.join(cacheRoot, `${c.circuit}-${c.hash}-d${c.depth}`);
}

/// Writes the main component and compiles it with circom2 (cached). Returns {r1cs, wasm, compile_s}.
function compile(c) {
  const dir = circuitDir(c);
  const r1cs = path.join(dir, "main.r1cs");
  const wasm = path.join(dir, "main_js", "main.wasm");
  const meta = path.join(dir, "compile.json");
  if (fs.existsSync(r1cs) && fs.existsSync(wasm) && fs.existsSync(meta)) return { r1cs, wasm, ...JSON.parse(fs.readFileSync(meta, "utf8")) };
  fs.mkdirSync(dir, { recursive: true });
  const [file, tmpl, pub] = {
    membership: ["membership.circom", "Membership", "root"],
    "batch-root": ["batch_root.circom", "BatchRoot", "root, leaves"],
    // root and nullifier_hash are outputs (public, listed first): [root, nullifier_hash, ext_data_hash]
    spend: ["spend.circom", "Spend", "ext_data_hash"],
  }[c.circuit] || (() => { throw new Error(`unknown circuit ${c.circuit} (membership, batch-root, spend)`); })();
  fs.writeFileSync(path.join(dir, "main.circom"),
    `pragma circom 2.0.0;\ninclude "${file}";\ncomponent main {public [${pub}]} = ${tmpl}(${c.depth}, ${HASHES[c.hash]});\n`);
  const t = performance.now();
  // circom2 (WASI) reaches only the working directory's subtree: run it from "/".
  run(process.execPath, [path.join(here, "node_modules", "circom2", "cli.js"), path.join(dir, "main.circom"), "--r1cs", "--wasm", "--O2", "-o", dir,
    "-l", path.join(here, "node_modules"), "-l", path.join(here, "circuits")],
    { cwd: "/", ...(Number.isFinite(secondsLeft()) ? { timeout: Math.ceil(Math.max(1, secondsLeft()) * 1000) } : {}) });
  const compile_s = (performance.now() - t) / 1000;
  fs.writeFileSync(meta, JSON.stringify({ compile_s }));
  return { r1cs, wasm, compile_s };
}

/// The circuit's input from zkbench's native trees (the same hash as zkbench's statement).
function input(c) {
  const f = path.join(circuitDir(c), "input.json");
  const given = c.circuit === "spend" ? process.env.ZKBENCH_SNARKJS_SPEND_INPUT : undefined;
  if (!given && fs.existsSync(f)) return JSON.parse(fs.readFileSync(f, "utf8"));
  let inp;
  if (c.circuit === "spend") {
    // Private values only: the circuit computes root and nullifier_hash (its outputs).
    const v = given ? JSON.parse(given) : {
      nullifier: "1234567", secret: "7654321", ext_data_hash: "424242", index: 1,
      siblings: Array.from({ length: c.depth }, (_, i) => String(1000 + i)),
    };
    if (v.siblings.length !== c.depth) throw new Error(`ZKBENCH_SNARKJS_SPEND_INPUT: ${v.siblings.length} siblings for depth ${c.depth}`);
    const bits = Array.from({ length: c.depth }, (_, i) => String(Math.floor(Number(v.index) / 2 ** i) % 2));
    inp = { nullifier: String(v.nullifier), secret: String(v.secret), siblings: v.siblings.map(String), bits, ext_data_hash: String(v.ext_data_hash) };
  } else if (c.circuit === "membership") {
    const out = JSON.parse(run(zkbench, ["merkle", "path", "--hash", c.hash, "--arity", "2", "--leaves", `2^${c.depth}`,
      "--index", "1", "--json", "11", "22"]));
    const p = out.path;
    // zkbench's path: siblings[level] = [the other child], positions[level] = 0 (left) | 1 (right).
    const siblings = p.siblings.map((s) => String(s[0]));
    const bits = p.positions.map(String);
    inp = { root: String(out.root), leaf: String(out.leaf), siblings, bits };
  } else {
    const n = 2 ** c.depth;
    const leaves = Array.from({ length: n }, (_, i) => String(1000 + i));
    if (n === 1) {
      // depth 0: the single leaf is the root (no hash; `zkbench merkle build` needs 2 leaves)
      inp = { root: leaves[0], leaves };
    } else {
      const out = JSON.parse(run(zkbench, ["merkle", "build", "--hash", c.hash, "--arity", "2", "--leaves", String(n), "--json", ...leaves]));
      inp = { root: String(out.root), leaves };
    }
  }
  fs.writeFileSync(f, JSON.stringify(inp));
  return inp;
}

/// A test .ptau of `power` from `zkbench ptau new` (cached); `phase1` leaves out the
/// phase-2 preparation (fflonk reads only the powers of τ).
function ptau(power, phase1 = false) {
  const dir = path.join(cacheRoot, "ptau");
  fs.mkdirSync(dir, { recursive: true });
  const f = path.join(dir, `zkbench-test-${power}${phase1 ? "-phase1" : ""}.ptau`);
  if (!fs.existsSync(f)) {
    run(zkbench, ["ptau", "new", "--power", String(power), "--out", f + ".tmp", ...(phase1 ? ["--no-prepare"] : [])]);
    fs.renameSync(f + ".tmp", f);
  }
  return f;
}

/// snarkjs's PLONK gate count of the circuit: plonk setup against a power-2 file fails
/// at once and logs "N > 2**2".
async function plonkGates(snarkjs, r1cs) {
  let n = null;
  const grab = (m) => { const x = /(\d+) > 2\*\*\d+/.exec(String(m)); if (x) n = Number(x[1]); };
  const logger = { info: grab, error: grab, warn() {}, debug() {} };
  const tmp = path.join(os.tmpdir(), `zkbench-plonk-count-${process.pid}.zkey`);
  const r = await snarkjs.plonk.setup(r1cs, ptau(2), tmp, logger);
  fs.rmSync(tmp, { force: true });
  return r === -1 && n !== null ? n : 4;
}

// ---------------------------------------------------------------- phases (child processes)

async function childSetup(c) {
  const snarkjs = await import("snarkjs");
  const { r1cs, compile_s } = compile(c);
  const info = await snarkjs.r1cs.info(r1cs);
  const nConstraints = info.nConstraints;
  const dir = circuitDir(c);
  const zkey = path.join(dir, `${c.system}.zkey`);
  const metaF = path.join(dir, `${c.system}.setup.json`);
  const metrics = { constraints: nConstraints, compile_s, public_inputs: info.nPubInputs + info.nOutputs };
  if (fs.existsSync(zkey) && fs.existsSync(metaF)) {
    const m = JSON.parse(fs.readFileSync(metaF, "utf8"));
    emit(c, "setup", [m.setup_s], { ...metrics, ...m.metrics, setup_cached: 1 }, { peak_rss_bytes: m.peak_rss_bytes });
    return;
  }
  // Powers needed: Groth16 the QAP domain of the R1CS; PLONK its own gate count; fflonk
  // 9·2^c + 18 powers of τ in G1 (c: its domain), i.e. power c + 3.
  const log2 = (n) => Math.ceil(Math.log2(Math.max(2, n)));
  let power;
  if (c.system === "groth16") power = log2(nConstraints + metrics.public_inputs + 1);
  else {
    const gates = await plonkGates(snarkjs, r1cs);
    metrics.plonk_constraints = gates;
    const cir = Math.max(3, log2(gates + 1));
    power = c.system === "plonk" ? cir : cir + 3;
  }
  let setup_s, ptauPower;
  for (let attempt = 0; ; attempt++) {
    // fflonk reads only the powers of τ but refuses a file without section 12 (prepared).
    const f = ptau(power);
    const t = performance.now();
    let r;
    try {
      if (c.system === "groth16") r = await snarkjs.zKey.newZKey(r1cs, f, zkey);
      else if (c.system === "plonk") r = await snarkjs.plonk.setup(r1cs, f, zkey);
      else r = await snarkjs.fflonk.setup(r1cs, f, zkey);
    } catch (e) {
      if (attempt < 3 && /too big|not big enough|too small/i.test(String(e && e.message || e))) { power++; continue; }
      throw e;
    }
    if (r === -1) {
      if (attempt < 3) { power++; continue; }
      throw new Error(`snarkjs ${c.system} setup failed with a power-${power} ptau`);
    }
    setup_s = (performance.now() - t) / 1000;
    ptauPower = power;
    break;
  }
  const vk = await snarkjs.zKey.exportVerificationKey(zkey);
  fs.writeFileSync(path.join(dir, `${c.system}.vk.json`), JSON.stringify(vk));
  const m = { ptau_power: ptauPower, zkey_bytes: fs.statSync(zkey).size };
  if (vk.power !== undefined) m.domain_log2 = vk.power;
  const rss = process.resourceUsage().maxRSS * 1024;
  fs.writeFileSync(metaF, JSON.stringify({ setup_s, metrics: m, peak_rss_bytes: rss }));
  emit(c, "setup", [setup_s], { ...metrics, ...m });
}

async function childProve(c) {
  const snarkjs = await import("snarkjs");
  const { r1cs, wasm } = compile(c);
  const info = await snarkjs.r1cs.info(r1cs);
  const dir = circuitDir(c);
  const zkey = path.join(dir, `${c.system}.zkey`);
  const vk = JSON.parse(fs.readFileSync(path.join(dir, `${c.system}.vk.json`), "utf8"));
  const inp = input(c);
  const sys = snarkjs[c.system];
  const base = { constraints: info.nConstraints };
  if (vk.power !== undefined) base.domain_log2 = vk.power;
  const wtnsFile = path.join(dir, `witness-${process.pid}.wtns`);
  const wsamples = await sample(() => snarkjs.wtns.calculate(inp, wasm, wtnsFile));
  emit(c, "witness", wsamples, base);
  let t = performance.now();
  let res = await sys.prove(zkey, wtnsFile);
  const cold = (performance.now() - t) / 1000;
  emit(c, "prove_cold", [cold], base);
  // snarkjs reads the key file in every prove call, so its first proof is a warm one too: a
  // prover slower than 60 s a proof is measured by that one proof (metrics.prove_from_cold = 1).
  const slow = cold > 60;
  const psamples = slow ? [cold] : await sample(async () => { res = await sys.prove(zkey, wtnsFile); });
  if (slow) base.prove_from_cold = 1;
  const proofBytes = proofSize(c.system, res.proof);
  emit(c, "prove", psamples, { ...base, proof_bytes: proofBytes });
  fs.writeFileSync(path.join(dir, `${c.system}.public.json`), JSON.stringify(res.publicSignals));
  let ok = true;
  const vsamples = await sample(async () => { ok = ok && await sys.verify(vk, res.publicSignals, res.proof); });
  if (!ok) throw new Error("snarkjs rejected its own proof");
  emit(c, "verify", vsamples, { ...base, proof_bytes: proofBytes });
  // The same proof against a changed public input (root + 1) must be rejected.
  const bad = res.publicSignals.slice();
  bad[0] = String((BigInt(bad[0]) + 1n) % R);
  t = performance.now();
  const accepted = await sys.verify(vk, bad, res.proof);
  const dt = (performance.now() - t) / 1000;
  if (accepted) fail(c, "verify-tampered", "a proof verified with a changed public input (root + 1)");
  else emit(c, "verify-tampered", [dt], { rejected: 1 });
  fs.rmSync(wtnsFile, { force: true });
}

/// Proof size in bytes, counted as the EVM verifier takes it (32 bytes a field element,
/// G1 = 2 and G2 = 4 elements), the same count as zkbench's proof_bytes of uncompressed points.
function proofSize(system, proof) {
  if (system === "groth16") return 8 * 32;
  let n = 0;
  for (const v of Object.values(proof.polynomials ? { ...proof.polynomials, ...proof.evaluations } : proof)) {
    if (Array.isArray(v)) n += 2 * 32; // G1 [x, y, 1]
    else if (typeof v === "string" && /^\d+$/.test(v)) n += 32;
  }
  return n;
}

// ---------------------------------------------------------------- orchestration

function spawnChild(c, phase) {
  const timeoutS = Math.min(profile.case_timeout_seconds || 1800, secondsLeft());
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", JSON.stringify({ ...c, phase })],
    { encoding: "utf8", maxBuffer: 1 << 26, env: process.env, timeout: Math.ceil(Math.max(1, timeoutS) * 1000) });
  process.stdout.write(r.stdout || "");
  const failedPhase = phase === "setup" ? "setup" : "prove";
  if (r.error && r.error.code === "ETIMEDOUT") {
    fail(c, failedPhase, `${phase} did not finish within ${timeoutS.toFixed(0)} s (the runner's deadline)`, "timeout");
    return false;
  }
  if (r.status !== 0) {
    const why = r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
    fail(c, failedPhase, `${why}: ${(r.stderr || "").trim().split("\n").slice(-3).join(" | ")}`);
    return false;
  }
  return true;
}

const o = args();
if (o.child) {
  const c = o.child;
  try {
    if (c.phase === "setup") await childSetup(c); else await childProve(c);
    process.exit(0);
  } catch (e) {
    console.error(e && e.stack || e);
    // the parent keeps stderr's last lines: end with the message itself
    console.error(`error: ${e && e.message || e}`);
    process.exit(1);
  }
} else {
  const started = performance.now();
  if (o.budgetFraction !== undefined) {
    if (!(o.budgetFraction > 0 && o.budgetFraction <= 1)) { console.error("--budget-fraction must be in (0, 1]"); process.exit(2); }
    if (!profile.case_timeout_seconds) { console.error("--budget-fraction needs ZKBENCH_PROFILE's case_timeout_seconds"); process.exit(2); }
    const b = o.budgetFraction * profile.case_timeout_seconds;
    o.budget = o.budget === undefined ? b : Math.min(o.budget, b);
  }
  for (const depth of o.depths) {
    for (const hash of o.hashes) {
      for (const system of o.systems) {
        const c = { circuit: o.circuit, hash, system, depth };
        if (o.budget && (performance.now() - started) / 1000 > o.budget) {
          fail(c, "all", `runner time budget of ${Math.round(o.budget)} s exhausted`, "skipped");
          continue;
        }
        if (secondsLeft() < 5) {
          fail(c, "all", `no time left before the runner's deadline (case_timeout_seconds ${profile.case_timeout_seconds} s)`, "skipped");
          continue;
        }
        if (!(hash in HASHES)) { fail(c, "all", `no circom template for ${hash} in peers/snarkjs/circuits (has: ${Object.keys(HASHES).join(", ")})`, "skipped"); continue; }
        try {
          compile(c);
          input(c);
        } catch (e) { fail(c, "setup", e); continue; }
        if (spawnChild(c, "setup")) spawnChild(c, "prove");
      }
    }
  }
}
