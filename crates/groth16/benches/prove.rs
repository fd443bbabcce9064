//! Criterion benchmark: Groth16 proving time (witness generation + prove) of
//! the 2^36-leaf note-spend circuit across hashes, exponents and arities.
//! Keys come from a TEST SETUP (seed 1), made once per configuration outside
//! the measurement.
//!
//! `cargo bench -p zkbench-groth16 --bench prove`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{Circuit, CircuitKind, SpendConfig};
use zkbench_hash::HashFamily;

fn configs() -> Vec<(HashFamily, u64, usize)> {
    vec![
        (HashFamily::Poseidon, 5, 2),
        (HashFamily::Poseidon, 5, 4),
        (HashFamily::Poseidon2, 5, 2),
        (HashFamily::Poseidon2, 5, 4),
        (HashFamily::Poseidon2, 5, 8),
        (HashFamily::Poseidon2, 7, 8),
        (HashFamily::Griffin, 5, 3),
        (HashFamily::Griffin, 5, 7),
        (HashFamily::Anemoi, 5, 4),
        (HashFamily::MimcSponge, 5, 2),
    ]
}

fn bench_prove(c: &mut Criterion) {
    let mut group = c.benchmark_group("groth16_spend_2^36");
    group.sample_size(10);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for (family, alpha, arity) in configs() {
        let cfg = SpendConfig {
            family,
            alpha: Some(alpha),
            arity,
            leaves: 1 << 36,
            circuit: CircuitKind::Spend,
        };
        let circuit = Circuit::new(&cfg).expect("circuit");
        let keys = circuit.setup(1).expect("setup");
        let witness = circuit.random_witness(&mut rng);
        let id = BenchmarkId::new(format!("{family}-a{alpha}"), format!("arity{arity}"));
        group.bench_with_input(id, &witness, |b, w| {
            b.iter(|| circuit.prove(&keys, w, &mut rng).expect("prove"))
        });
    }
    group.finish();
}

#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, bench_prove);
}
use group::benches;
criterion_main!(benches);
