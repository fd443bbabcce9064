//! Constraint counts (and optionally Groth16 timings) of the note-spend
//! circuit across hash families, exponents and arities.
//!
//! ```text
//! cargo run --release -p zkbench-groth16 --example spend_table -- \
//!     [--leaves 68719476736] [--circuit spend] [--arities 2,3,4,8,16] \
//!     [--families poseidon,poseidon2] [--prove] [--reps 3]
//! ```
//!
//! Without `--prove` only the constraint table is printed. With `--prove`,
//! each configuration is set up once (TEST SETUP, seed 1), then proved and
//! verified `--reps` times; the medians are printed.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{verify, Circuit, CircuitKind, SpendConfig};
use zkbench_hash::HashFamily;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// CPU time (user + system) of this process, from `/proc/self/stat`
/// (Linux; 10 ms ticks). Zero elsewhere.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses).
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of the full line, 12 and 13 after ')'.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let leaves: u64 = arg("--leaves")
        .map(|s| s.parse().expect("--leaves"))
        .unwrap_or(1 << 36);
    let circuit: CircuitKind = arg("--circuit")
        .map(|s| s.parse().expect("--circuit"))
        .unwrap_or(CircuitKind::Spend);
    let arities: Vec<usize> = arg("--arities")
        .map(|s| {
            s.split(',')
                .map(|x| x.parse().expect("--arities"))
                .collect()
        })
        .unwrap_or_else(|| (2..=16).collect());
    let families: Vec<HashFamily> = arg("--families")
        .map(|s| {
            s.split(',')
                .map(|x| x.parse().expect("--families"))
                .collect()
        })
        .unwrap_or_else(|| HashFamily::ALL.to_vec());
    let prove = std::env::args().any(|a| a == "--prove");
    let reps: usize = arg("--reps")
        .map(|s| s.parse().expect("--reps"))
        .unwrap_or(3);

    println!("Groth16/BN254 {circuit} circuit, {leaves} leaves (TEST SETUP)");
    if prove {
        println!("| family | alpha | arity | height | constraints | witness vars | setup | witness | prove | prove CPU | verify | pk bytes | proof bytes |");
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    } else {
        println!("| family | alpha | arity | height | constraints | witness vars |");
        println!("|---|---|---|---|---|---|");
    }
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for f in families {
        for &alpha in f.alphas() {
            for &arity in &arities {
                let cfg = SpendConfig {
                    family: f,
                    alpha: Some(alpha),
                    arity,
                    leaves,
                    circuit,
                };
                let c = match Circuit::new(&cfg) {
                    Ok(c) => c,
                    Err(e) => {
                        println!("| {f} | {alpha} | {arity} | – | {e} | |");
                        continue;
                    }
                };
                let n = c.num_constraints().expect("synthesis");
                let h = c.shape().height;
                if !prove {
                    println!(
                        "| {f} | {alpha} | {arity} | {h} | {} | {} |",
                        n.constraints, n.witness_variables
                    );
                    continue;
                }
                let t0 = Instant::now();
                let keys = c.setup(1).expect("setup");
                let setup = t0.elapsed();
                let (mut tw, mut tp, mut tv, mut tc) = (vec![], vec![], vec![], vec![]);
                let mut proof_bytes = 0;
                for _ in 0..reps {
                    let w = c.random_witness(&mut rng);
                    let c0 = cpu_time();
                    let (proof, public, t) = c.prove(&keys, &w, &mut rng).expect("prove");
                    tc.push(cpu_time() - c0);
                    let t1 = Instant::now();
                    assert!(verify(&keys.pvk, &public, &proof).expect("verify"));
                    tv.push(t1.elapsed());
                    tw.push(t.witness.unwrap());
                    tp.push(t.prove.unwrap());
                    proof_bytes = zkbench_groth16::proof_size(&proof);
                }
                println!(
                    "| {f} | {alpha} | {arity} | {h} | {} | {} | {:.0?} | {:.1?} | {:.0?} | {:.0?} | {:.1?} | {} | {} |",
                    n.constraints,
                    n.witness_variables,
                    setup,
                    median(tw),
                    median(tp),
                    median(tc),
                    median(tv),
                    keys.pk_size(),
                    proof_bytes
                );
            }
        }
    }
}
