//! How the `wasm-engines` runners sample a workload, shared word for word by
//! the native column (`zkbench __wasm-engine-native`, through
//! [`crate::engines`]) and the wasmtime runner (`peers/wasmtime-runner`,
//! which includes this file with `#[path]`: it stays outside the workspace
//! and so cannot depend on this crate). Only `std` and `serde`.

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

/// Seconds a batch (of MiMC hashes or of verifications) is calibrated to: long enough
/// for CPU-time clocks that advance in scheduler ticks.
pub const BATCH_S: f64 = 0.05;

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
