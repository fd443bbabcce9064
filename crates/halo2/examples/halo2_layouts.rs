//! Layout exploration for the 2^36-leaf note spend on Halo2 (KZG, SHPLONK):
//! rows, columns, k, and (unless `--stats-only`) measured keygen / prove /
//! verify times and proof sizes under the UNSAFE test SRS.
//!
//! `cargo run --release -p zkbench-halo2 --example halo2_layouts -- [--stats-only] [--reps N] [--quick]
//! [--degree D] [--family poseidon2|poseidon] [--configs alpha:arity:p,...]
//! [--sbox split|unsplit|both]`
//!
//! `--sbox`: split S-boxes (degree-4 gates, the default layout), one S-box
//! per constraint (degree α + 1, the earlier layout) or both, interleaved.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{
    api::{self, Halo2Circuit, Halo2Config, Srs},
    chip::ChipLayout,
    statement::{CircuitKind, DEFAULT_LEAVES},
};
use zkbench_hash::HashFamily;

/// User + system CPU time of this process (Linux `/proc/self/stat`, 100 Hz
/// ticks); zero elsewhere.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| f.get(i).and_then(|x| x.parse::<u64>().ok()))
        .sum();
    Duration::from_millis(ticks * 10)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let stats_only = args.iter().any(|a| a == "--stats-only");
    let quick = args.iter().any(|a| a == "--quick");
    let reps: usize = args
        .iter()
        .position(|a| a == "--reps")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    // Default: the layout's own (ChipLayout::new / ChipLayout::unsplit).
    let degree: Option<usize> = args
        .iter()
        .position(|a| a == "--degree")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    let only: Option<Vec<(u64, usize, usize)>> = args
        .iter()
        .position(|a| a == "--configs")
        .and_then(|i| args.get(i + 1))
        .map(|s| {
            s.split(',')
                .map(|c| {
                    let v: Vec<usize> = c
                        .split(':')
                        .map(|x| x.parse().expect("alpha:arity:p"))
                        .collect();
                    (v[0] as u64, v[1], v[2])
                })
                .collect()
        });
    let family = match args
        .iter()
        .position(|a| a == "--family")
        .and_then(|i| args.get(i + 1))
    {
        Some(f) => f.parse::<HashFamily>().expect("family"),
        None => HashFamily::Poseidon2,
    };
    let forms: Vec<bool> = match args
        .iter()
        .position(|a| a == "--sbox")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
    {
        None | Some("split") => vec![true],
        Some("unsplit") => vec![false],
        Some("both") => vec![false, true],
        Some(other) => panic!("--sbox {other}: expected split, unsplit or both"),
    };
    let mut grid = vec![];
    if let Some(only) = only {
        grid = only;
    } else if quick {
        for p in [2, 4, 8] {
            grid.push((7, 7, p));
        }
    } else {
        for (alpha, arity) in [
            (7, 7),
            (7, 2),
            (7, 4),
            (7, 8),
            (7, 16),
            (5, 7),
            (5, 4),
            (5, 2),
        ] {
            for p in [1, 2, 4, 6, 8, 12, 16] {
                grid.push((alpha, arity, p));
            }
        }
    }
    println!(
        "| family | α | arity | height | p | S-box | k | rows | advice | fixed (compressed) | max deg | keygen | prove (wall) | prove (CPU) | verify | proof B |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let grid: Vec<_> = grid
        .into_iter()
        .flat_map(|g| forms.iter().map(move |&split| (g, split)))
        .collect();
    for ((alpha, arity, p), split_sbox) in grid {
        let form = if split_sbox { "split" } else { "x^α" };
        let cfg = Halo2Config {
            statement: zkbench_halo2::statement::StatementConfig {
                family,
                alpha: Some(alpha),
                arity,
                leaves: DEFAULT_LEAVES,
                circuit: CircuitKind::Spend,
            },
            layout: {
                let l = if split_sbox {
                    ChipLayout::new(p)
                } else {
                    ChipLayout::unsplit(p)
                };
                ChipLayout {
                    degree: degree.unwrap_or(l.degree),
                    ..l
                }
            },
        };
        let circuit = Halo2Circuit::new(&cfg).expect("config");
        let s = circuit.stats().expect("stats");
        if stats_only {
            println!(
                "| {} | {alpha} | {arity} | {} | {p} | {form} | {} | {} | {} | {} | {} | | | | | |",
                family.name(),
                circuit.shape().height,
                s.k,
                s.rows,
                s.advice_columns,
                s.fixed_columns + s.selectors,
                s.max_degree
            );
            continue;
        }
        let srs = Srs::TestSetup { seed: 1 };
        let t = Instant::now();
        let keys = circuit.keygen(&srs).expect("keygen");
        let keygen = t.elapsed();
        let s = circuit.stats_with_keys(&keys).expect("stats");
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let w = circuit.random_witness(&mut rng);
        // Warm-up.
        let (out, _) = circuit.prove(&keys, &w, &mut rng).expect("prove");
        let mut prove = vec![];
        let mut verify = vec![];
        let mut prove_cpu = Duration::ZERO;
        for _ in 0..reps {
            let c0 = cpu_time();
            let (out, t) = circuit.prove(&keys, &w, &mut rng).expect("prove");
            prove.push(t.prove.unwrap() + t.witness.unwrap());
            prove_cpu += cpu_time() - c0;
            let t0 = Instant::now();
            assert!(api::verify_for(&circuit, &keys, &out.public, &out.proof).unwrap());
            verify.push(t0.elapsed());
        }
        println!(
            "| {} | {alpha} | {arity} | {} | {p} | {form} | {} | {} | {} | {} ({}) | {} | {:.0} ms | {:.0} ms | {:.0} ms | {:.1} ms | {} |",
            family.name(),
            circuit.shape().height,
            s.k,
            s.rows,
            s.advice_columns,
            s.fixed_columns + s.selectors,
            s.fixed_columns_compressed.unwrap_or(0),
            s.max_degree,
            keygen.as_secs_f64() * 1e3,
            median(prove).as_secs_f64() * 1e3,
            prove_cpu.as_secs_f64() * 1e3 / reps as f64,
            median(verify).as_secs_f64() * 1e3,
            out.proof.len()
        );
    }
}
