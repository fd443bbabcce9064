//! `zkbench-wasmtime-runner --module FILE --sampling JSON [--input FILE]`: instantiates
//! zkbench-wasm's module (the one every engine of the `wasm-engines` suite runs) in wasmtime
//! with every import a trap, times its number-only exports (`engineMimc`,
//! `engineGroth16Verify`; crates/wasm/src/engines.rs) and prints one JSON line in the child
//! format of `peers/wasm-engines/run.mjs`. Compilation and instantiation are not timed.
#![forbid(unsafe_code)]

use std::time::Instant;

use serde::Deserialize;
use wasmtime::{
    bail, error::Context, format_err, Engine, Instance, Linker, Memory, Module, Result, Store,
    TypedFunc,
};

/// Seconds a MiMC batch is calibrated to (crates/wasm/src/engines.rs `MIMC_BATCH_S`).
const MIMC_BATCH_S: f64 = 0.05;

/// The suite profile's sampling numbers (crates/wasm/src/engines.rs `Sampling`).
#[derive(Deserialize)]
struct Sampling {
    warmup: usize,
    min_samples: usize,
    max_samples: usize,
    target_seconds: f64,
}

/// What [`sample`] measured (crates/wasm `engines::Sampled`).
#[derive(Default)]
struct Sampled {
    batch: u32,
    wall_s: Vec<f64>,
    cpu_s: Vec<f64>,
}

/// CPU seconds of this thread (`/proc/thread-self/schedstat`), as crates/wasm's.
fn thread_cpu_s() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

/// `engines::sample` of crates/wasm: calibrate a batch (doubling, fastest run per
/// operation), warm up, sample wall and CPU time.
fn sample(
    s: &Sampling,
    batch_s: f64,
    max_batch: u32,
    run: &mut dyn FnMut(u32) -> Result<()>,
) -> Result<Sampled> {
    let t0 = Instant::now();
    let now = || t0.elapsed().as_secs_f64();
    let max_batch = max_batch.max(1);
    let mut n = 1u32;
    let mut per_op = f64::INFINITY;
    let calibration = now();
    loop {
        let t = now();
        run(n)?;
        let end = now();
        per_op = per_op.min((end - t).max(1e-9) / f64::from(n));
        if end - calibration >= batch_s || n >= max_batch {
            break;
        }
        n = n.saturating_mul(2).min(max_batch);
    }
    let batch = ((batch_s / per_op) as u32).clamp(1, max_batch);
    for _ in 0..s.warmup {
        run(batch)?;
    }
    let start = now();
    let mut out = Sampled {
        batch,
        ..Default::default()
    };
    let mut cpu_known = true;
    while out.wall_s.len() < s.max_samples.max(1)
        && (out.wall_s.len() < s.min_samples.max(1) || now() - start < s.target_seconds)
    {
        let (w0, c0) = (now(), thread_cpu_s());
        run(batch)?;
        let (w1, c1) = (now(), thread_cpu_s());
        out.wall_s.push((w1 - w0) / f64::from(batch));
        match (c0, c1) {
            (Some(a), Some(b)) => out.cpu_s.push((b - a) / f64::from(batch)),
            _ => cpu_known = false,
        }
    }
    if !cpu_known {
        out.cpu_s.clear();
    }
    Ok(out)
}

struct Wasm {
    store: Store<()>,
    memory: Memory,
    instance: Instance,
}

impl Wasm {
    fn func<P: wasmtime::WasmParams, R: wasmtime::WasmResults>(
        &mut self,
        name: &str,
    ) -> Result<TypedFunc<P, R>> {
        self.instance
            .get_typed_func::<P, R>(&mut self.store, name)
            .with_context(|| format!("export {name}"))
    }

    fn read(&self, ptr: u32, len: usize) -> Result<Vec<u8>> {
        let data = self.memory.data(&self.store);
        data.get(ptr as usize..ptr as usize + len)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| format_err!("{len} bytes at {ptr} are outside linear memory"))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let module_path = arg(&args, "--module").context("--module FILE is required")?;
    let sampling: Sampling = serde_json::from_str(
        &arg(&args, "--sampling").context("--sampling JSON is required")?,
    )
    .context("--sampling JSON")?;

    let engine = Engine::default();
    let module = Module::from_file(&engine, &module_path)
        .with_context(|| format!("compiling {module_path}"))?;
    let mut linker = Linker::new(&engine);
    // wasm-bindgen's imports (JavaScript glue) trap: the workloads never call them
    linker.define_unknown_imports_as_traps(&module)?;
    let mut store = Store::new(&engine, ());
    let instance = linker.instantiate(&mut store, &module)?;
    let memory = instance
        .get_memory(&mut store, "memory")
        .context("the module exports no memory")?;
    let mut w = Wasm {
        store,
        memory,
        instance,
    };
    let mimc = w.func::<u32, u32>("engineMimc")?;
    let ptr = w.func::<(), u32>("engineBufferPtr")?;

    let len = mimc.call(&mut w.store, 1)?;
    let p = ptr.call(&mut w.store, ())?;
    let check = w.read(p, len as usize)?;
    let mut out = Vec::new();
    let mimc_s = sample(&sampling, MIMC_BATCH_S, u32::MAX, &mut |n| {
        let len = mimc.call(&mut w.store, n)?;
        let p = ptr.call(&mut w.store, ())?;
        out = w.read(p, len as usize)?;
        Ok(())
    })?;
    let mut line = serde_json::json!({
        "engine": "wasmtime",
        "versions": format!("wasmtime crate {}", wasmtime_version()),
        "mimc": { "batch": mimc_s.batch, "samples_s": mimc_s.wall_s, "cpu_s": mimc_s.cpu_s,
                  "out_hex": hex(&out), "check_hex": hex(&check) },
    });

    if let Some(input) = arg(&args, "--input") {
        let bytes = std::fs::read(&input).with_context(|| format!("reading {input}"))?;
        let resize = w.func::<u32, u32>("engineBufferResize")?;
        let load = w.func::<u32, i32>("engineGroth16Load")?;
        let verify = w.func::<u32, i32>("engineGroth16Verify")?;
        let p = resize.call(&mut w.store, bytes.len() as u32)?;
        w.memory.write(&mut w.store, p as usize, &bytes)?;
        let n = load.call(&mut w.store, bytes.len() as u32)?;
        if n < 0 {
            let p = ptr.call(&mut w.store, ())?;
            let msg = w.read(p, n.unsigned_abs() as usize)?;
            bail!("engineGroth16Load: {}", String::from_utf8_lossy(&msg));
        }
        let mut accepted = true;
        let verify_s = sample(&sampling, 0.0, 1, &mut |k| {
            let r = verify.call(&mut w.store, k)?;
            if r < 0 {
                bail!("engineGroth16Verify returned {r}");
            }
            accepted &= r == 1;
            Ok(())
        })?;
        line["verify"] = serde_json::json!({
            "public_inputs": n, "samples_s": verify_s.wall_s, "cpu_s": verify_s.cpu_s,
            "accepted": accepted,
        });
    }
    println!("{line}");
    Ok(())
}

/// The wasmtime crate's version, from its Cargo.lock entry at build time.
fn wasmtime_version() -> &'static str {
    env!("WASMTIME_VERSION")
}
