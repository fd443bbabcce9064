//! CPU and wall time of the fixed-base prover's parts on the `perf` suite's
//! statement (binary Poseidon2 membership, gnark's parameters, 2^32 leaves):
//! `cargo run --release -p zkbench-groth16 --example perf_breakdown -- [reps]`.
//! CPU time (all threads, `/proc/self/task/*/schedstat`) is steadier than
//! wall time on a loaded machine, so before/after comparisons use it.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{Circuit, CircuitKind, SpendConfig};
use zkbench_hash::HashFamily;

/// CPU nanoseconds of all of this process's threads so far (Linux; 0
/// elsewhere).
fn cpu_ns() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .sum()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .map_or(20, |s| s.parse().expect("repetitions"));
    let circuit = Circuit::new(&SpendConfig {
        family: HashFamily::Poseidon2Gnark,
        alpha: None,
        arity: 2,
        leaves: 1 << 32,
        circuit: CircuitKind::Membership,
    })
    .expect("circuit");
    let keys = circuit.setup(1).expect("setup");
    let (g1, g2) = keys.prover_tables().table_points();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let assignment = circuit
        .witness(&circuit.random_witness(&mut rng))
        .expect("witness");
    println!(
        "{} variables, table points G1 {g1} G2 {g2}, {} threads",
        assignment.full.len(),
        rayon::current_num_threads()
    );
    let (mut wall, mut cpu, mut parts) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps {
        let c0 = cpu_ns();
        let t = Instant::now();
        let (_, timings) = circuit
            .prove_assignment_timed(&keys, &assignment, &mut rng)
            .expect("prove");
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        cpu.push((cpu_ns() - c0) / 1e6);
        parts.push(timings);
    }
    println!(
        "prove median wall {:.1} ms, cpu {:.1} ms (min wall {:.1}, min cpu {:.1})",
        median(wall.clone()),
        median(cpu.clone()),
        wall.iter().copied().fold(f64::INFINITY, f64::min),
        cpu.iter().copied().fold(f64::INFINITY, f64::min)
    );
    for i in 0..parts[0].parts().len() {
        let name = parts[0].parts()[i].0;
        let m = median(parts.iter().map(|p| p.parts()[i].1 * 1e3).collect());
        print!("{name} {m:.1} ms  ");
    }
    println!();
}
