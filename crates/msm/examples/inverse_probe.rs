//! Time per BN254 base-field inversion: ark-ff's binary extended Euclid
//! against the divstep inverter the MSM's batches use ([`zkbench_msm::inverse`]),
//! and a multiplication for scale; both inverters in one run.
//!
//! `cargo run --release -p zkbench-msm --example inverse_probe`

use ark_bn254::Fq;
use ark_ff::{Field, UniformRand};
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Instant;
use zkbench_msm::inverse::BatchInverse;

/// Nanoseconds per call of `f` over `xs`, best of five passes.
fn per_call(xs: &[Fq], f: impl Fn(&Fq) -> Fq) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for x in xs {
                black_box(f(black_box(x)));
            }
            t.elapsed().as_nanos() as f64 / xs.len() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let xs: Vec<Fq> = (0..20_000).map(|_| Fq::rand(&mut rng)).collect();
    let ark = per_call(&xs, |x| x.inverse().expect("non-zero"));
    let by = per_call(&xs, |x| x.inverse_batch().expect("non-zero"));
    let mul = per_call(&xs, |x| *x * x);
    println!(
        "ark-ff inverse {ark:.0} ns, divstep inverse {by:.0} ns ({:.2}x), mul {mul:.1} ns",
        by / ark
    );
}
