//! One-thread time of a G1 and a G2 fixed-base MSM with the vector kernel
//! this process chose (`VectorKernel::here`), for before/after runs of one
//! build: run it with and without `ZKBENCH_NO_AVX2=1` (or
//! `ZKBENCH_NO_AVX512=1`), interleaved, pinned to one core.
//!
//! `RAYON_NUM_THREADS=1 taskset -c 1 cargo run --release -p zkbench-msm --example kernel_probe -- [log2 G1 size, default 16]`
//! (`REPS=N`: the median of `N` MSMs instead of 5, for a profiler).

use std::time::Instant;

use ark_bn254::{Fr, G1Projective, G2Projective};
use ark_ec::CurveGroup;
use ark_ff::{PrimeField, UniformRand};
use rand::SeedableRng;
use zkbench_msm::{FixedBaseTable, MsmField, Scalar, VectorKernel};

/// Median milliseconds of `REPS` (default 5) MSMs of `n` random points
/// (after one warm-up).
fn median_ms<P: zkbench_msm::RawCurve>(g: ark_ec::short_weierstrass::Projective<P>, n: usize) -> f64
where
    P::BaseField: MsmField,
{
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(n as u64);
    let points: Vec<_> = (0..n)
        .map(|i| g * P::ScalarField::from(i as u64 + 1))
        .collect();
    let bases = ark_ec::short_weierstrass::Projective::normalize_batch(&points);
    let scalars: Vec<Scalar> = (0..n).map(|_| Fr::rand(&mut rng).into_bigint()).collect();
    let table = FixedBaseTable::new(&bases, 1);
    let _ = std::hint::black_box(table.msm(&scalars));
    let reps = std::env::var("REPS").map_or(5, |r| r.parse().expect("REPS: a count"));
    let mut ms: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let _ = std::hint::black_box(table.msm(&scalars));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

fn main() {
    let k: u32 = std::env::args()
        .nth(1)
        .map_or(16, |s| s.parse().expect("log2 size"));
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
    let g1 = median_ms(G1Projective::rand(&mut rng), 1 << k);
    let g2 = median_ms(G2Projective::rand(&mut rng), 1 << (k - 2));
    println!(
        "kernel {:<11} G1 2^{k} {g1:7.2} ms   G2 2^{} {g2:7.2} ms",
        VectorKernel::here().name(),
        k - 2
    );
}
