//! `zkbench __wasm-engine-native`: the `wasm-engines` suite's native column
//! (the Ewasm post): the very Rust functions the WebAssembly module exports for
//! engines (`zkbench_wasm::engines`), compiled natively and timed the way
//! the engine runners time them (`peers/wasm-engines/run.mjs`,
//! `peers/wasmtime-runner`). Prints one JSON line in their child format.

use std::{path::PathBuf, process::ExitCode, time::Instant};

use anyhow::Context;
use clap::Args;
use zkbench_wasm::engines::{self, Sampling, VerifyInput};

/// Arguments of `zkbench __wasm-engine-native`.
#[derive(Args, Debug)]
pub struct EngineNativeArgs {
    /// Groth16 verification input: `{"verification_key", "proof", "public"}` (snarkjs JSON).
    #[arg(long)]
    input: PathBuf,
    /// Sampling as JSON (`warmup`, `min_samples`, `max_samples`, `target_seconds`: the profile).
    #[arg(long)]
    sampling: String,
}

/// Times MiMC and Groth16 verification natively; one JSON line on stdout.
pub fn run(a: EngineNativeArgs) -> anyhow::Result<ExitCode> {
    let sampling: Sampling = serde_json::from_str(&a.sampling).context("--sampling JSON")?;
    let bytes =
        std::fs::read(&a.input).with_context(|| format!("reading {}", a.input.display()))?;
    let input = VerifyInput::from_json(&bytes)?;
    let t0 = Instant::now();
    let mut clock = || (t0.elapsed().as_secs_f64(), engines::thread_cpu_s());
    let mut out = Vec::new();
    let mimc = engines::sample::<anyhow::Error>(
        &sampling,
        engines::BATCH_S,
        u32::MAX,
        &mut clock,
        &mut |n| {
            out = engines::fr_to_le_bytes(&std::hint::black_box(engines::mimc_chain(n)));
            Ok(())
        },
    )?;
    let check = engines::fr_to_le_bytes(&engines::mimc_chain(1));
    let mut accepted = true;
    let verify = engines::sample::<anyhow::Error>(
        &sampling,
        engines::BATCH_S,
        u32::MAX,
        &mut clock,
        &mut |n| {
            for _ in 0..n {
                accepted &= input.verify()?;
            }
            Ok(())
        },
    )?;
    let line = serde_json::json!({
        "engine": "native",
        "versions": format!("zkbench {}", env!("CARGO_PKG_VERSION")),
        "mimc": { "batch": mimc.batch, "samples_s": mimc.wall_s, "cpu_s": mimc.cpu_s,
                  "out_hex": hex(&out), "check_hex": hex(&check) },
        "verify": { "public_inputs": input.public_inputs(), "samples_s": verify.wall_s,
                    "cpu_s": verify.cpu_s, "accepted": accepted },
    });
    println!("{line}");
    Ok(ExitCode::SUCCESS)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
