//! Seed 001's two workloads, for WebAssembly engines outside the browser
//! (the `wasm-engines` suite): a MiMC hash (Tornado Cash's
//! `hashLeftRight`, circomlib MiMCSponge, 220 rounds, `x^5`) and a Groth16
//! verification (zkbench's verifier, `zkbench_groth16::verify`).
//!
//! The exports in [`crate::bindings`] that wrap these take and return only
//! numbers, so that a host with no wasm-bindgen glue — wasmtime
//! (`peers/wasmtime-runner`), or Node instantiating the module itself
//! (`peers/wasm-engines/run.mjs`) — calls exactly the same functions of
//! exactly the same module as the page does. Bytes go in and out through one
//! buffer owned by the module ([`buffer_resize`], [`buffer_ptr`]): the host
//! writes its input there and reads the hash's output from there. Natively
//! the same functions are timed by `zkbench __wasm-engine-native`.

use std::cell::RefCell;

use ark_ff::{BigInteger, PrimeField};
use ark_groth16::{PreparedVerifyingKey, Proof};
use zkbench_groth16::Bn254;
use zkbench_hash::{mimc_sponge, Fr};
use zkbench_statement::PublicInputs;

use crate::WasmError;

/// A parsed Groth16 verification input: prepared verifying key, public
/// inputs and proof.
pub struct VerifyInput {
    pvk: PreparedVerifyingKey<Bn254>,
    public: PublicInputs,
    proof: Proof<Bn254>,
}

impl VerifyInput {
    /// Parses `{"verification_key", "proof", "public"}` in snarkjs's JSON
    /// (what `zkbench prove` writes as three files) and prepares the key.
    pub fn from_json(bytes: &[u8]) -> Result<Self, WasmError> {
        use zkbench_groth16::snarkjs;
        let doc: serde_json::Value = serde_json::from_slice(bytes)?;
        let field = |name: &str| {
            doc.get(name).ok_or_else(|| {
                WasmError::Config(format!("verification input: no \"{name}\" field"))
            })
        };
        let err = |e: zkbench_groth16::Groth16Error| WasmError::Backend {
            system: "groth16".into(),
            message: e.to_string(),
        };
        let vk = snarkjs::vk_from_json(field("verification_key")?).map_err(err)?;
        let proof = snarkjs::proof_from_json(field("proof")?).map_err(err)?;
        let public = snarkjs::public_from_json(field("public")?).map_err(err)?;
        Ok(Self {
            pvk: ark_groth16::prepare_verifying_key(&vk),
            public,
            proof,
        })
    }

    /// Number of public inputs.
    pub fn public_inputs(&self) -> usize {
        self.public.0.len()
    }

    /// Verifies the proof once (`zkbench_groth16::verify`, the harness's
    /// verify phase).
    pub fn verify(&self) -> Result<bool, WasmError> {
        zkbench_groth16::verify(&self.pvk, &self.public, &self.proof).map_err(|e| {
            WasmError::Backend {
                system: "groth16".into(),
                message: e.to_string(),
            }
        })
    }
}

/// `n` chained MiMC hashes: `h_0 = 1`, `h_{i+1} = hashLeftRight(h_i, i + 2)`;
/// returns `h_n`. One hash is one Tornado Cash Merkle node.
pub fn mimc_chain(n: u32) -> Fr {
    let mut h = Fr::from(1u64);
    for i in 0..n {
        h = mimc_sponge::hash_left_right(h, Fr::from(u64::from(i) + 2));
    }
    h
}

/// A field element as 32 little-endian bytes (the buffer's output format).
pub fn fr_to_le_bytes(x: &Fr) -> Vec<u8> {
    x.into_bigint().to_bytes_le()
}

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static LOADED: RefCell<Option<VerifyInput>> = const { RefCell::new(None) };
}

/// Resizes the module's exchange buffer to `len` bytes (zero-filled) and
/// returns its address in linear memory (meaningful on wasm32 only).
pub fn buffer_resize(len: u32) -> u32 {
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len as usize, 0);
        buffer_addr(&b)
    })
}

/// Address of the exchange buffer (meaningful on wasm32 only).
pub fn buffer_ptr() -> u32 {
    BUFFER.with(|b| buffer_addr(&b.borrow()))
}

fn buffer_addr(b: &[u8]) -> u32 {
    // linear-memory offsets are 32-bit on wasm32; natively the value is unused
    (b.as_ptr() as usize & 0xffff_ffff) as u32
}

fn buffer_set(bytes: &[u8]) -> u32 {
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.extend_from_slice(bytes);
        bytes.len() as u32
    })
}

/// Runs [`mimc_chain`]`(n)` and leaves `h_n` in the buffer (32 bytes, little
/// endian); returns 32.
pub fn mimc_to_buffer(n: u32) -> u32 {
    buffer_set(&fr_to_le_bytes(&mimc_chain(n)))
}

/// Parses the buffer's first `len` bytes as a [`VerifyInput`] and keeps it
/// for [`verify_loaded`]. Returns the number of public inputs, or on error
/// minus the length of the message it leaves in the buffer.
pub fn groth16_load(len: u32) -> i32 {
    let parsed = BUFFER.with(|b| {
        let b = b.borrow();
        match b.get(..len as usize) {
            Some(bytes) => VerifyInput::from_json(bytes),
            None => Err(WasmError::Config(format!(
                "{len} bytes asked for, the buffer holds {}",
                b.len()
            ))),
        }
    });
    match parsed {
        Ok(input) => {
            let n = input.public_inputs() as i32;
            LOADED.with(|l| *l.borrow_mut() = Some(input));
            n
        }
        Err(e) => -(buffer_set(e.to_string().as_bytes()) as i32),
    }
}

/// Verifies the loaded proof `times` times: 1 when every verification
/// accepted, 0 when one rejected, -1 when nothing is loaded, -2 on a
/// verifier error.
pub fn verify_loaded(times: u32) -> i32 {
    LOADED.with(|l| {
        let l = l.borrow();
        let Some(input) = l.as_ref() else {
            return -1;
        };
        let mut all = true;
        for _ in 0..times {
            match input.verify() {
                Ok(ok) => all &= ok,
                Err(_) => return -2,
            }
        }
        i32::from(all)
    })
}

/// How an engine runner samples a workload: the suite profile's numbers
/// (`ZKBENCH_PROFILE`), the same in every runner.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
pub struct Sampling {
    /// Unmeasured runs of a batch first.
    pub warmup: usize,
    /// At least this many samples.
    pub min_samples: usize,
    /// At most this many samples.
    pub max_samples: usize,
    /// Sampling goes on (up to `max_samples`) until this many seconds were spent.
    pub target_seconds: f64,
}

/// Seconds a MiMC batch is calibrated to.
pub const MIMC_BATCH_S: f64 = 0.05;

/// What [`sample`] measured: the batch and, per sample, seconds per
/// operation of wall time and (when the clock gives it) of CPU time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sampled {
    /// Operations in one sample.
    pub batch: u32,
    /// Wall seconds per operation, one per sample.
    pub wall_s: Vec<f64>,
    /// CPU seconds per operation, one per sample (empty when unknown).
    pub cpu_s: Vec<f64>,
}

/// Samples `run(batch)` (which does `batch` operations): runs of 1, 2, 4, ...
/// operations (about `batch_s` seconds in all) calibrate the batch to about
/// `batch_s` seconds (at least 1, at most `max_batch`), then `warmup`
/// unmeasured batches, then samples. `clock` gives wall seconds and, if it
/// can, the CPU seconds of the measuring thread (on a shared, loaded machine
/// CPU time is what the engine spent; wall time includes waiting for a core).
pub fn sample<E>(
    sampling: &Sampling,
    batch_s: f64,
    max_batch: u32,
    clock: &mut dyn FnMut() -> (f64, Option<f64>),
    run: &mut dyn FnMut(u32) -> Result<(), E>,
) -> Result<Sampled, E> {
    // calibration: runs of 1, 2, 4, ... operations for about `batch_s` in all; the fastest
    // per operation counts (a run the OS preempted on a loaded machine does not)
    let max_batch = max_batch.max(1);
    let mut n = 1u32;
    let mut per_op = f64::INFINITY;
    let calibration = clock().0;
    loop {
        let t = clock().0;
        run(n)?;
        let end = clock().0;
        per_op = per_op.min((end - t).max(1e-9) / f64::from(n));
        if end - calibration >= batch_s || n >= max_batch {
            break;
        }
        n = n.saturating_mul(2).min(max_batch);
    }
    let batch = ((batch_s / per_op) as u32).clamp(1, max_batch);
    for _ in 0..sampling.warmup {
        run(batch)?;
    }
    let start = clock().0;
    let mut out = Sampled {
        batch,
        ..Default::default()
    };
    let mut cpu_known = true;
    while out.wall_s.len() < sampling.max_samples.max(1)
        && (out.wall_s.len() < sampling.min_samples.max(1)
            || clock().0 - start < sampling.target_seconds)
    {
        let (w0, c0) = clock();
        run(batch)?;
        let (w1, c1) = clock();
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

/// CPU seconds the calling thread has run (Linux `/proc/thread-self/schedstat`,
/// nanoseconds); `None` elsewhere.
pub fn thread_cpu_s() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}
