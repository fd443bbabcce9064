//! Where the proving time goes for one spend configuration: QAP witness map,
//! the fixed-base prover and ark-groth16's prover, CPU and wall time.
//!
//! `cargo run --release -p zkbench-groth16 --example prove_phases -- griffin 7`

use std::time::Instant;

use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
use ark_poly::GeneralEvaluationDomain;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{Circuit, SpendConfig};
use zkbench_hash::{Fr, HashFamily};

fn cpu() -> f64 {
    let mut t = libc_time();
    t.0 += t.1;
    t.0
}

/// (user, system) CPU seconds of this process, from /proc/self/stat.
fn libc_time() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let tick = 100.0;
    let get = |i: usize| {
        fields
            .get(i)
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(0.0)
            / tick
    };
    (get(11), get(12))
}

fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, f64) {
    let (w0, c0) = (Instant::now(), cpu());
    for _ in 0..reps {
        std::hint::black_box(f());
    }
    (
        w0.elapsed().as_secs_f64() * 1e3 / reps as f64,
        (cpu() - c0) * 1e3 / reps as f64,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let family: HashFamily = args
        .get(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(HashFamily::Griffin);
    let arity: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(7);
    let reps: usize = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(20);
    let cfg = SpendConfig {
        arity,
        ..SpendConfig::new(family)
    };
    let circuit = Circuit::new(&cfg).unwrap();
    let t = Instant::now();
    let keys = circuit.setup(1).unwrap();
    println!(
        "setup incl. tables {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let w = circuit.random_witness(&mut rng);
    let a = circuit.witness(&w).unwrap();
    let m = &keys.matrices;
    println!(
        "{family} arity {arity}: {} constraints, {} variables",
        m.num_constraints,
        a.full.len()
    );
    for round in 0..2 {
        let qap = time(reps, || {
            LibsnarkReduction::witness_map_from_matrices::<Fr, GeneralEvaluationDomain<Fr>>(
                m,
                m.num_instance_variables,
                m.num_constraints,
                &a.full,
            )
            .unwrap()
        });
        let ours = time(reps, || {
            circuit.prove_assignment(&keys, &a, &mut rng).unwrap()
        });
        let ark = time(reps, || {
            circuit
                .prove_assignment_arkworks(&keys, &a, &mut rng)
                .unwrap()
        });
        println!(
            "round {round}: witness map {:.1} ms ({:.1} cpu) | fixed-base prover {:.1} ms ({:.1} cpu) | ark-groth16 {:.1} ms ({:.1} cpu)",
            qap.0, qap.1, ours.0, ours.1, ark.0, ark.1
        );
    }
}
