//! Criterion benchmark: native permutation throughput per family, exponent and width.
//!
//! `cargo bench -p zkbench-hash --bench hash_throughput` (add `-- poseidon2` to filter).
//! Criterion reports time per permutation and, via `Throughput::Elements(1)`,
//! permutations per second.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use zkbench_hash::{Fr, HashFamily};

fn permutations(c: &mut Criterion) {
    for fam in HashFamily::ALL {
        let mut group = c.benchmark_group(fam.name());
        group.throughput(Throughput::Elements(1));
        for &alpha in fam.alphas() {
            for width in fam.widths(Some(alpha)).unwrap_or_default() {
                let Ok(perm) = fam.permutation(Some(width), Some(alpha)) else {
                    continue;
                };
                let mut state: Vec<Fr> = (0..width as u64).map(Fr::from).collect();
                let id = BenchmarkId::new(format!("alpha{alpha}"), format!("t{width}"));
                group.bench_function(id, |b| {
                    b.iter(|| perm.permute_mut(std::hint::black_box(&mut state)))
                });
            }
        }
        group.finish();
    }
}

fn node_hashes(c: &mut Criterion) {
    let mut group = c.benchmark_group("merkle-node");
    for fam in HashFamily::ALL {
        for arity in [2usize, 4, 8, 16] {
            let Ok(h) = fam.node_hasher(arity, None) else {
                continue;
            };
            let children: Vec<Fr> = (0..arity as u64).map(Fr::from).collect();
            group.throughput(Throughput::Elements(1));
            group.bench_function(BenchmarkId::new(fam.name(), format!("arity{arity}")), |b| {
                b.iter(|| h.hash_node(std::hint::black_box(&children)))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(1)).warm_up_time(std::time::Duration::from_millis(300));
    targets = permutations, node_hashes
}
criterion_main!(benches);
