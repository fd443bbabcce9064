//! Hash-permutation throughput per family (the Ewasm post: hashes in
//! WebAssembly), measured the way the native harness does: a batch
//! calibrated to about 20 ms, repeated, single-threaded.

use serde::Serialize;
use web_time::Instant;
use zkbench_hash::{Fr, HashFamily, Permutation};

use crate::WasmError;

/// One family's measured throughput.
#[derive(Clone, Debug, Serialize)]
pub struct HashThroughput {
    /// Family name (`case.hash`).
    pub hash: String,
    /// S-box exponent.
    pub alpha: u64,
    /// State width of the permutation.
    pub width: usize,
    /// Seconds per permutation, one per sample.
    pub samples_s: Vec<f64>,
    /// Permutations in one sample.
    pub batch: u64,
}

/// Times `family`'s permutation (default width: the smallest that hashes two
/// inputs, as natively) in `samples` samples of a batch calibrated to about
/// 20 ms.
pub fn hash_throughput(
    family: &str,
    alpha: Option<u64>,
    width: Option<usize>,
    samples: usize,
) -> Result<HashThroughput, WasmError> {
    let fam: HashFamily = family
        .parse()
        .map_err(|e: zkbench_hash::HashError| WasmError::Config(e.to_string()))?;
    let a = fam
        .resolve_alpha(alpha)
        .map_err(|e| WasmError::Config(e.to_string()))?;
    let perm = fam
        .permutation(width, Some(a))
        .map_err(|e| WasmError::Config(e.to_string()))?;
    let t = perm.width();
    let (mut state, batch) = calibrated_batch(perm.as_ref());
    let mut samples_s = Vec::with_capacity(samples.max(1));
    for _ in 0..samples.max(1) {
        let s = Instant::now();
        for _ in 0..batch {
            perm.permute_mut(&mut state);
        }
        samples_s.push(s.elapsed().as_secs_f64() / batch as f64);
    }
    // keep the state observable so the loop is not optimised away
    std::hint::black_box(&state);
    Ok(HashThroughput {
        hash: fam.name().to_string(),
        alpha: a,
        width: t,
        samples_s,
        batch,
    })
}

/// The start state `0, 1, …, t − 1` of `perm` (run forward by the calibration)
/// and the permutations in a batch of about 20 ms (at least one), so that timer
/// resolution does not matter: the batch of one throughput sample, here and in
/// the native harness (`zkbench-bench`'s `hash` cases).
pub fn calibrated_batch(perm: &dyn Permutation) -> (Vec<Fr>, u64) {
    let mut state: Vec<Fr> = (0..perm.width() as u64).map(Fr::from).collect();
    let t0 = Instant::now();
    let mut calib = 0u64;
    while t0.elapsed().as_secs_f64() < 0.02 {
        perm.permute_mut(&mut state);
        calib += 1;
    }
    let per_op = t0.elapsed().as_secs_f64() / calib as f64;
    (state, ((0.02 / per_op) as u64).max(1))
}

/// Names of the hash families, in the registry's order.
pub fn families() -> Vec<&'static str> {
    HashFamily::ALL.iter().map(|f| f.name()).collect()
}
