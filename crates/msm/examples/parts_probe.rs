//! One thread, one MSM, the buckets cut into 1, 2, 4, 8 and 16 parts run one
//! after another: the cost of the bucket-part path against the whole bucket
//! set (`cargo run --release -p zkbench-msm --example parts_probe -- 16`).
use std::time::Instant;

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::CurveGroup;
use ark_ff::{PrimeField, UniformRand};
use rand::SeedableRng;
use zkbench_msm::{Block, FixedBaseTable, Piece};

fn main() {
    let k: usize = std::env::args()
        .nth(1)
        .map_or(16, |s| s.parse().expect("log size"));
    let n = 1usize << k;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let g = G1Projective::rand(&mut rng);
    let bases: Vec<G1Affine> = G1Projective::normalize_batch(
        &(0..n)
            .map(|i| g * Fr::from(i as u64 + 1))
            .collect::<Vec<_>>(),
    );
    let big: Vec<_> = (0..n).map(|_| Fr::rand(&mut rng).into_bigint()).collect();
    let table = FixedBaseTable::new(&bases, 1);
    for round in 0..2 {
        for parts in [1usize, 2, 4, 8, 16] {
            let blocks: Vec<Block> = (0..n.div_ceil(1024))
                .map(|b| Block {
                    msm: 0,
                    range: b * 1024..((b + 1) * 1024).min(n),
                    parts,
                })
                .collect();
            let t = Instant::now();
            let sorted: Vec<_> = if parts > 1 {
                blocks
                    .iter()
                    .map(|b| table.sort_digits(&big, b, zkbench_msm::Round::ONLY))
                    .collect()
            } else {
                Vec::new()
            };
            let sort = t.elapsed().as_secs_f64();
            let mut per = Vec::new();
            let sum: G1Projective = (0..parts)
                .map(|part| {
                    let t = Instant::now();
                    let p = Piece {
                        msm: 0,
                        range: 0..n,
                        part,
                        parts,
                        blocks: 0..blocks.len(),
                    };
                    let s = table.msm_piece(&big, &p, &sorted, zkbench_msm::Round::ONLY);
                    per.push(t.elapsed().as_secs_f64() * 1e3);
                    s
                })
                .sum();
            let _ = std::hint::black_box(sum);
            let total: f64 = per.iter().sum();
            if round == 1 {
                println!(
                    "2^{k} parts {parts:2}: sort {:.1} ms, adds {total:.1} ms (ns/pt {:.0}), pieces {:?}",
                    sort * 1e3,
                    (total + sort * 1e3) * 1e6 / n as f64,
                    per.iter().map(|x| x.round() as i64).collect::<Vec<_>>()
                );
            }
        }
    }
}
