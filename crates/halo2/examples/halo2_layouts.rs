//! Layout exploration for the 2^36-leaf note spend on Halo2 (KZG, SHPLONK):
//! rows, columns, k, and (unless `--stats-only`) measured keygen / prove /
//! verify times and proof sizes under the UNSAFE test SRS.
//!
//! `cargo run --release -p zkbench-halo2 --example halo2_layouts -- [--stats-only] [--reps N] [--quick]
//! [--degree D] [--family poseidon2|poseidon] [--configs alpha:arity:p,...]
//! [--sbox split|unsplit|both] [--fold 1,4]`
//!
//! `--fold`: physical rows per logical row (`ChipLayout::fold`; 4 is the
//! layout of on-chain proofs), one table row per value.
//!
//! `--sbox`: split S-boxes (degree-4 gates, the default layout), one S-box
//! per constraint (degree α + 1, the earlier layout) or both, interleaved.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{
    chip::ChipLayout, circuit::CircuitStats, verify_for, Halo2Circuit, Halo2Config, Srs,
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

/// The command line.
struct Options {
    stats_only: bool,
    reps: usize,
    /// Constraint-system degree; default: the layout's own
    /// (`ChipLayout::new` / `ChipLayout::unsplit`).
    degree: Option<usize>,
    family: HashFamily,
    /// `(α, arity, p)` triples.
    grid: Vec<(u64, usize, usize)>,
    /// S-box forms: `true` split, `false` unsplit.
    forms: Vec<bool>,
    /// Folds (`ChipLayout::fold`).
    folds: Vec<usize>,
}

/// The value after `flag`, if any.
fn flag_value<'a>(args: &'a [String], flag: &str) -> Option<&'a String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
}

impl Options {
    fn parse(args: &[String]) -> Self {
        let stats_only = args.iter().any(|a| a == "--stats-only");
        let quick = args.iter().any(|a| a == "--quick");
        let reps: usize = flag_value(args, "--reps")
            .and_then(|s| s.parse().ok())
            .unwrap_or(3);
        let degree: Option<usize> = flag_value(args, "--degree").and_then(|s| s.parse().ok());
        let only: Option<Vec<(u64, usize, usize)>> = flag_value(args, "--configs").map(|s| {
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
        let family = match flag_value(args, "--family") {
            Some(f) => f.parse::<HashFamily>().expect("family"),
            None => HashFamily::Poseidon2,
        };
        let forms: Vec<bool> = match flag_value(args, "--sbox").map(String::as_str) {
            None | Some("split") => vec![true],
            Some("unsplit") => vec![false],
            Some("both") => vec![false, true],
            Some(other) => panic!("--sbox {other}: expected split, unsplit or both"),
        };
        let folds = flag_value(args, "--fold")
            .map(|s| s.split(',').map(|f| f.parse().expect("fold")).collect())
            .unwrap_or_else(|| vec![1]);
        Self {
            stats_only,
            reps,
            degree,
            family,
            grid: only.unwrap_or_else(|| default_grid(quick)),
            forms,
            folds,
        }
    }

    /// The spend configuration of one grid point.
    fn config(
        &self,
        alpha: u64,
        arity: usize,
        p: usize,
        split_sbox: bool,
        fold: usize,
    ) -> Halo2Config {
        let l = if split_sbox {
            ChipLayout::new(p)
        } else {
            ChipLayout::unsplit(p)
        };
        let layout = ChipLayout {
            degree: self.degree.unwrap_or(l.degree),
            fold,
            ..l
        };
        Halo2Config::spend(self.family, alpha, arity, layout)
    }
}

/// `(α, arity, p)`: three partial-round counts at α = 7, arity 7 (`--quick`),
/// or every count for eight (α, arity) pairs.
fn default_grid(quick: bool) -> Vec<(u64, usize, usize)> {
    let mut grid = vec![];
    if quick {
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
    grid
}

/// The table's columns up to the fixed-column count (family … fixed).
fn row_start(
    family: HashFamily,
    (alpha, arity, p): (u64, usize, usize),
    form: &str,
    circuit: &Halo2Circuit,
    s: &CircuitStats,
) -> String {
    format!(
        "| {} | {alpha} | {arity} | {} | {p} | {form} | {} | {} | {} | {} | {}",
        family.name(),
        circuit.shape().height,
        circuit.config().layout.fold,
        s.k,
        s.rows,
        s.advice_columns,
        s.fixed_columns + s.selectors,
    )
}

/// Keygen under the UNSAFE test SRS, a warm-up proof, then `reps` timed
/// proofs and verifications: the row's measured columns.
fn measure(circuit: &Halo2Circuit, reps: usize) -> (CircuitStats, String) {
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
        assert!(verify_for(circuit, &keys, &out.public, &out.proof).unwrap());
        verify.push(t0.elapsed());
    }
    let rest = format!(
        " ({}) | {} | {:.0} ms | {:.0} ms | {:.0} ms | {:.1} ms | {} |",
        s.fixed_columns_compressed.unwrap_or(0),
        s.max_degree,
        keygen.as_secs_f64() * 1e3,
        median(prove).as_secs_f64() * 1e3,
        prove_cpu.as_secs_f64() * 1e3 / reps as f64,
        median(verify).as_secs_f64() * 1e3,
        out.proof.len()
    );
    (s, rest)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opts = Options::parse(&args);
    println!(
        "| family | α | arity | height | p | S-box | fold | k | rows | advice | fixed (compressed) | max deg | keygen | prove (wall) | prove (CPU) | verify | proof B |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let grid: Vec<_> = opts
        .grid
        .iter()
        .flat_map(|&g| opts.forms.iter().map(move |&split| (g, split)))
        .flat_map(|g| opts.folds.iter().map(move |&fold| (g, fold)))
        .collect();
    for (((alpha, arity, p), split_sbox), fold) in grid {
        let form = if split_sbox { "split" } else { "x^α" };
        let cfg = opts.config(alpha, arity, p, split_sbox, fold);
        let circuit = Halo2Circuit::new(&cfg).expect("config");
        let point = (alpha, arity, p);
        if opts.stats_only {
            let s = circuit.stats().expect("stats");
            println!(
                "{} | {} | | | | | |",
                row_start(opts.family, point, form, &circuit, &s),
                s.max_degree
            );
            continue;
        }
        let (s, rest) = measure(&circuit, opts.reps);
        println!(
            "{}{rest}",
            row_start(opts.family, point, form, &circuit, &s)
        );
    }
}
