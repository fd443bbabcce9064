//! `zkbench-wasmtime-runner --module FILE --sampling JSON [--input FILE]`: instantiates
//! zkbench-wasm's module (the one every engine of the `wasm-engines` suite runs) in wasmtime
//! with every import a trap, times its number-only exports (`engineMimc`,
//! `engineGroth16Verify`; crates/wasm/src/engines.rs) and prints one JSON line in the child
//! format of `peers/wasm-engines/run.mjs`. Compilation and instantiation are not timed.
#![forbid(unsafe_code)]

use std::time::Instant;

use wasmtime::{
    bail, error::Context, format_err, Engine, Instance, Linker, Memory, Module, Result, Store,
    TypedFunc,
};

// the sampling of the native column, the same file (crates/wasm/src/sampling.rs)
#[allow(dead_code)]
#[path = "../../../crates/wasm/src/sampling.rs"]
mod sampling;
use sampling::{sample, thread_cpu_s, Sampling, BATCH_S};

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
    let sampling: Sampling =
        serde_json::from_str(&arg(&args, "--sampling").context("--sampling JSON is required")?)
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
    let t0 = Instant::now();
    let mut clock = || (t0.elapsed().as_secs_f64(), thread_cpu_s());
    let mimc_s = sample::<wasmtime::Error>(&sampling, BATCH_S, u32::MAX, &mut clock, &mut |n| {
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
        let verify_s =
            sample::<wasmtime::Error>(&sampling, BATCH_S, u32::MAX, &mut clock, &mut |k| {
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
