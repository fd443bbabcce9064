#!/usr/bin/env node
// The `wasm-engines` suite's runner (seed 001): the same WebAssembly module — zkbench-wasm,
// single-threaded, as built by scripts/build-web.sh (target/wasm-node/zkbench_wasm_bg.wasm) —
// timed on seed 001's two workloads, a MiMC hash (Tornado Cash's hashLeftRight, circomlib
// MiMCSponge) and a Groth16 verification, per engine, next to the same Rust code natively:
//
//   native        `$ZKBENCH_BIN __wasm-engine-native` (the functions the module exports)
//   wasm-v8-liftoff   node --liftoff --no-wasm-tier-up  (V8's baseline compiler only)
//   wasm-v8-turbofan  node --no-liftoff                 (V8's optimizing compiler only)
//   wasm-v8-jitless   node --jitless                    (V8 without JIT; see below)
//   wasmtime      peers/wasmtime-runner (the wasmtime crate, Cranelift), built on demand
//
// Every engine instantiates the module itself, with no wasm-bindgen glue: the workloads sit
// behind number-only exports (engineMimc, engineGroth16Load, engineGroth16Verify, an exchange
// buffer; crates/wasm/src/engines.rs) and every import is a stub that throws, so nothing but
// the module's own code runs. Timings exclude compilation and instantiation (as seed 001's).
//
//   node peers/wasm-engines/run.mjs [--engines native,wasm-v8-liftoff,...] [--module FILE]
//
// Prints one record per line (docs/external-runners.md). Sampling follows ZKBENCH_PROFILE.
// The Groth16 input is zkbench's own proof of a note spend in a Tornado-sized tree (MiMCSponge,
// binary, 2^20 leaves; 3 public inputs), made once by `zkbench prove` (TEST setup) and cached
// in target/wasm-engines/. --child (internal) runs one V8 engine in this process.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { caseId } from "../../web/src/shared.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ENGINES = ["native", "wasm-v8-liftoff", "wasm-v8-turbofan", "wasm-v8-jitless", "wasmtime"];
const V8_FLAGS = {
  "wasm-v8-liftoff": ["--liftoff", "--no-wasm-tier-up"],
  "wasm-v8-turbofan": ["--no-liftoff"],
  "wasm-v8-jitless": ["--jitless"],
};
const BATCH_S = 0.05; // crates/wasm/src/sampling.rs BATCH_S
const LEAVES = 2 ** 20;

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

function sampling() {
  const p = process.env.ZKBENCH_PROFILE ? JSON.parse(process.env.ZKBENCH_PROFILE) : {};
  return {
    warmup: p.warmup ?? 1,
    min_samples: p.min_samples ?? 3,
    max_samples: p.max_samples ?? 10,
    target_seconds: p.target_seconds ?? 2,
  };
}

// --- child: one V8 engine, in this process --------------------------------------------------

// engines::sample in JavaScript: calibrate a batch (doubling, fastest run per operation), warm
// up, sample wall time and CPU time (process.cpuUsage: this process, all its threads).
function sample(s, batchS, maxBatch, run) {
  const now = () => performance.now() / 1000;
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  maxBatch = Math.max(maxBatch, 1);
  let n = 1;
  let perOp = Infinity;
  const calibration = now();
  for (;;) {
    const t0 = now();
    run(n);
    const end = now();
    perOp = Math.min(perOp, Math.max(end - t0, 1e-9) / n);
    if (end - calibration >= batchS || n >= maxBatch) break;
    n = Math.min(n * 2, maxBatch);
  }
  const batch = Math.min(Math.max(Math.floor(batchS / perOp), 1), maxBatch);
  for (let i = 0; i < s.warmup; i++) run(batch);
  const start = now();
  const wall = [];
  const cpuS = [];
  while (wall.length < Math.max(s.max_samples, 1) && (wall.length < Math.max(s.min_samples, 1) || now() - start < s.target_seconds)) {
    const [w0, c0] = [now(), cpu()];
    run(batch);
    const [w1, c1] = [now(), cpu()];
    wall.push((w1 - w0) / batch);
    cpuS.push((c1 - c0) / batch);
  }
  return { batch, samples_s: wall, cpu_s: cpuS };
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");

function child() {
  const engine = arg("--engine", "wasm-v8-turbofan");
  const versions = `Node ${process.version}, V8 ${process.versions.v8}`;
  if (typeof WebAssembly === "undefined") {
    console.log(JSON.stringify({ engine, versions, unsupported: `${versions} with ${(V8_FLAGS[engine] ?? []).join(" ")}: no WebAssembly object (this V8 has no WebAssembly without a JIT)` }));
    return;
  }
  const mod = new WebAssembly.Module(fs.readFileSync(arg("--module")));
  const imports = {};
  for (const imp of WebAssembly.Module.imports(mod)) {
    if (imp.kind !== "function") throw new Error(`import ${imp.module}.${imp.name} is a ${imp.kind}: the module needs wasm-bindgen's glue`);
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = () => {
      throw new Error(`the module called its import ${imp.module}.${imp.name} (not provided outside wasm-bindgen's glue)`);
    };
  }
  const w = new WebAssembly.Instance(mod, imports).exports;
  const bytesAt = (ptr, len) => new Uint8Array(w.memory.buffer, ptr, len).slice();
  const s = JSON.parse(arg("--sampling"));
  // the output of n chained hashes (the buffer is where the call left it)
  const hashes = (n) => {
    const len = w.engineMimc(n);
    return bytesAt(w.engineBufferPtr(), len);
  };
  const check = hashes(1);
  let out;
  const mimc = sample(s, BATCH_S, 0xffffffff, (n) => {
    out = hashes(n);
  });
  const line = { engine, versions, mimc: { ...mimc, out_hex: hex(out), check_hex: hex(check) } };
  const input = arg("--input");
  if (input) {
    const bytes = fs.readFileSync(input);
    new Uint8Array(w.memory.buffer, w.engineBufferResize(bytes.length), bytes.length).set(bytes);
    const n = w.engineGroth16Load(bytes.length);
    if (n < 0) throw new Error(`engineGroth16Load: ${Buffer.from(bytesAt(w.engineBufferPtr(), -n)).toString()}`);
    let accepted = true;
    const verify = sample(s, BATCH_S, 0xffffffff, (k) => {
      const r = w.engineGroth16Verify(k);
      if (r < 0) throw new Error(`engineGroth16Verify returned ${r}`);
      accepted &&= r === 1;
    });
    line.verify = { public_inputs: n, samples_s: verify.samples_s, cpu_s: verify.cpu_s, accepted };
  }
  console.log(JSON.stringify(line));
}

// --- orchestrator -----------------------------------------------------------------------------

function zkbenchBin() {
  return process.env.ZKBENCH_BIN || path.join(ROOT, "target/release/zkbench");
}

// zkbench's Groth16 proof of a note spend (MiMCSponge, binary, 2^20 leaves), snarkjs JSON.
function verifyInput() {
  const dir = path.join(ROOT, "target/wasm-engines");
  const file = path.join(dir, "groth16-spend-mimc-sponge-2x20.json");
  if (fs.existsSync(file)) return file;
  const proofDir = path.join(dir, "proof");
  fs.mkdirSync(dir, { recursive: true });
  execFileSync(zkbenchBin(), ["prove", "--system", "groth16", "--hash", "mimc-sponge", "--arity", "2", "--leaves", "2^20",
    "--circuit", "spend", "--seed", "1", "--keys", path.join(dir, "keys"), "--out", proofDir], { stdio: ["ignore", "ignore", "inherit"] });
  const read = (f) => JSON.parse(fs.readFileSync(path.join(proofDir, f), "utf8"));
  const doc = { verification_key: read("verification_key.json"), proof: read("proof.json"), public: read("public.json") };
  fs.writeFileSync(file + ".tmp", JSON.stringify(doc));
  fs.renameSync(file + ".tmp", file);
  return file;
}

function runChild(engine, module, input, s) {
  const common = ["--input", input, "--sampling", JSON.stringify(s)];
  let cmd;
  let args;
  if (engine === "native") {
    [cmd, args] = [zkbenchBin(), ["__wasm-engine-native", ...common]];
  } else if (engine === "wasmtime") {
    const manifest = path.join(ROOT, "peers/wasmtime-runner/Cargo.toml");
    [cmd, args] = ["cargo", ["run", "--quiet", "--release", "--locked", "--manifest-path", manifest, "--", "--module", module, ...common]];
  } else {
    [cmd, args] = [process.execPath, [...V8_FLAGS[engine], fileURLToPath(import.meta.url), "--child", "--engine", engine, "--module", module, ...common]];
  }
  // wasmtime-runner keeps its own target directory (not the workspace's CARGO_TARGET_DIR)
  const env = { ...process.env };
  if (engine === "wasmtime") env.CARGO_TARGET_DIR = path.join(ROOT, "peers/wasmtime-runner/target");
  const r = spawnSync(cmd, args, { env, encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  const line = r.stdout.split("\n").find((l) => l.startsWith("{"));
  if (r.status !== 0 || !line) {
    const tail = (r.stderr || "").trim().split("\n").slice(-8).join("\n");
    throw new Error(`${engine} exited with ${r.status ?? r.signal}: ${tail}`);
  }
  return JSON.parse(line);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function cases(system) {
  return {
    mimc: { kind: "hash", system, hash: "mimc-sponge", arity: 2, threads: 1 },
    verify: { kind: "proof", system, hash: "mimc-sponge", arity: 2, leaves: LEAVES, circuit: "spend", threads: 1 },
  };
}

// case ids start with wasm-engines/: the report shows these records in their own section
// (crates/bench/src/report_wasm_engines.rs), apart from the native harness's cases
function emit(rec) {
  console.log(JSON.stringify({ case_id: `wasm-engines/${caseId(rec.case)}`, threads: 1, samples_s: [], metrics: {}, ...rec }));
}

function failed(system, status, error) {
  const c = cases(system);
  emit({ case: c.mimc, phase: "hash", status, error });
  emit({ case: c.verify, phase: "verify", status, error, test_setup: true });
}

function main() {
  const engines = arg("--engines", ENGINES.join(",")).split(",").filter(Boolean);
  for (const e of engines) if (!ENGINES.includes(e)) throw new Error(`unknown engine ${e} (known: ${ENGINES.join(", ")})`);
  const module = path.resolve(arg("--module", path.join(ROOT, "target/wasm-node/zkbench_wasm_bg.wasm")));
  const s = sampling();
  if (!fs.existsSync(module)) {
    for (const e of engines) failed(e, "skipped", `no WebAssembly module at ${module}: run bash scripts/build-web.sh`);
    return;
  }
  let input;
  try {
    input = verifyInput();
  } catch (err) {
    for (const e of engines) failed(e, "error", `making the Groth16 input with ${zkbenchBin()} prove: ${err.message}`);
    return;
  }
  // the native hash of hashLeftRight(1, 2), to check every engine's output against
  let nativeCheck = null;
  for (const engine of engines) {
    let r;
    try {
      r = runChild(engine, module, input, s);
    } catch (err) {
      failed(engine, "error", String(err.message).slice(0, 1500));
      continue;
    }
    if (r.unsupported) {
      failed(engine, "skipped", `unsupported: ${r.unsupported}`);
      continue;
    }
    const c = cases(engine);
    if (engine === "native") nativeCheck = r.mimc.check_hex ?? null;
    const check = r.mimc.check_hex ?? r.mimc.out_hex;
    const mimcOk = nativeCheck === null || engine === "native" || check === nativeCheck;
    emit({
      case: c.mimc, phase: "hash", status: mimcOk ? "ok" : "error",
      ...(mimcOk ? {} : { error: `MiMC output ${check} differs from native ${nativeCheck}` }),
      samples_s: r.mimc.samples_s, cpu_s: r.mimc.cpu_s ?? [],
      metrics: { batch: r.mimc.batch, hashes_per_s: 1 / median(r.mimc.samples_s) },
    });
    const v = r.verify;
    emit({
      case: c.verify, phase: "verify", status: v.accepted ? "ok" : "error",
      ...(v.accepted ? {} : { error: "the verifier rejected zkbench's valid proof" }),
      samples_s: v.samples_s, cpu_s: v.cpu_s ?? [], test_setup: true,
      metrics: { public_inputs: v.public_inputs, accepted: v.accepted ? 1 : 0 },
    });
  }
}

if (process.argv.includes("--child")) child();
else main();
