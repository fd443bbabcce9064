//! Criterion benchmark of the 2^36-leaf note-spend proof on Halo2 (KZG,
//! SHPLONK) across hash, α and arity. Keys come from the UNSAFE test SRS and
//! are generated once per configuration (outside the measurement).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{chip::ChipLayout, Halo2Circuit, Halo2Config, Srs};
use zkbench_hash::HashFamily;

fn spend(c: &mut Criterion) {
    let mut group = c.benchmark_group("halo2_kzg_spend_2^36");
    group.sample_size(10);
    for (family, alpha, arity, p) in [
        (HashFamily::Poseidon2, 7, 7, 6),
        (HashFamily::Poseidon2, 7, 8, 6),
        (HashFamily::Poseidon2, 5, 4, 8),
        (HashFamily::Poseidon2, 7, 2, 12),
        (HashFamily::Poseidon, 5, 4, 4),
        (HashFamily::Poseidon, 5, 2, 4),
    ] {
        let cfg = Halo2Config::spend(family, alpha, arity, ChipLayout::new(p));
        let circuit = Halo2Circuit::new(&cfg).expect("config");
        let keys = circuit.keygen(&Srs::TestSetup { seed: 1 }).expect("keygen");
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let w = circuit.random_witness(&mut rng);
        let id = format!("{}-a{alpha}-ar{arity}-p{p}", family.name());
        group.bench_function(BenchmarkId::new("prove", id), |b| {
            b.iter(|| circuit.prove(&keys, &w, &mut rng).expect("prove"))
        });
    }
    group.finish();
}

criterion_group!(benches, spend);
criterion_main!(benches);
