//! Wall and CPU time of one fixed-base G1 MSM at several pool sizes, in one
//! process: the work overhead (CPU time at N threads / CPU time at 1) that
//! the scaling suite reports, for a small (Halo2 commitment-sized) and a
//! large MSM, with random and witness-like (small) scalars.
//!
//! `cargo run --release -p zkbench-msm --example threads_probe -- [log2 sizes, default 8,16] [threads, default 1,2,16]`

use std::time::{Duration, Instant};

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::CurveGroup;
use ark_ff::{PrimeField, UniformRand};
use rand::{Rng, SeedableRng};
use zkbench_msm::{FixedBaseTable, Scalar};

/// This process's user + system CPU time (`/proc/self/stat`, clock ticks).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // fields after the command name's closing parenthesis; utime, stime are 14, 15
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let f: Vec<u64> = rest
        .split(' ')
        .skip(11)
        .take(2)
        .map(|v| v.parse().expect("ticks"))
        .collect();
    Duration::from_millis((f[0] + f[1]) * 10)
}

/// Median wall time and mean CPU time of one MSM over repetitions lasting
/// about 1.5 s.
fn measure(table: &FixedBaseTable<ark_bn254::g1::Config>, scalars: &[Scalar]) -> (f64, f64) {
    let mut walls = Vec::new();
    let (start, cpu0) = (Instant::now(), cpu_time());
    while start.elapsed() < Duration::from_millis(1500) || walls.len() < 3 {
        let t = Instant::now();
        let _ = std::hint::black_box(table.msm(scalars));
        walls.push(t.elapsed().as_secs_f64());
    }
    let cpu = (cpu_time() - cpu0).as_secs_f64() / walls.len() as f64;
    walls.sort_by(f64::total_cmp);
    (walls[walls.len() / 2], cpu)
}

fn list(arg: Option<String>, default: &[usize]) -> Vec<usize> {
    arg.map_or(default.to_vec(), |s| {
        s.split(',').map(|v| v.parse().expect("number")).collect()
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let sizes = list(args.next(), &[8, 16]);
    let threads = list(args.next(), &[1, 2, 16]);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    println!("| bases | scalars | threads | wall | CPU | work overhead |");
    println!("|---:|---|---:|---:|---:|---:|");
    for k in sizes {
        let n = 1usize << k;
        let g = G1Projective::rand(&mut rng);
        let bases: Vec<G1Affine> = G1Projective::normalize_batch(
            &(0..n)
                .map(|i| g * Fr::from(i as u64 + 1))
                .collect::<Vec<_>>(),
        );
        let table = FixedBaseTable::new(&bases, 1);
        let random: Vec<Scalar> = (0..n).map(|_| Fr::rand(&mut rng).into_bigint()).collect();
        let small: Vec<Scalar> = (0..n)
            .map(|_| Fr::from(rng.gen::<u32>()).into_bigint())
            .collect();
        for (name, scalars) in [("random", &random), ("32-bit", &small)] {
            let mut one = None;
            for &t in &threads {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .expect("pool");
                let (wall, cpu) = pool.install(|| measure(&table, scalars));
                let base = *one.get_or_insert(cpu);
                println!(
                    "| 2^{k} | {name} | {t} | {:.3} ms | {:.3} ms | {:.2} |",
                    wall * 1e3,
                    cpu * 1e3,
                    cpu / base
                );
            }
        }
    }
}
