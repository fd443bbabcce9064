//! A parameter study of the STARK spend (2^36 leaves): for each FRI setting
//! given, the conjectured security, the prove time (wall and CPU time of all
//! the process's threads, which stays meaningful on a busy machine), the
//! verify time and the proof size.
//!
//! `cargo run --release -p zkbench-stark --example stark_params -- REPEATS [LOG_BLOWUP QUERIES POW_BITS LOG_ARITY LOG_FINAL]...`
//! e.g. `-- 7 2 48 8 2 2 3 41 8 2 2` (the two levels' settings). CPU time is
//! read from `/proc/self/task/*/schedstat` (Linux; 0 elsewhere).

use rand::SeedableRng;
use web_time::Instant;
use zkbench_hash::HashFamily;
use zkbench_stark::params::{config_with, security_bits_with, FriSettings};
use zkbench_stark::prover::{proof_to_bytes, public_values};
use zkbench_stark::view::AirView;
use zkbench_stark::{air_for, prepare};
use zkbench_statement::{CircuitKind, StatementConfig, Witness};

/// CPU time of every thread of this process so far, in milliseconds.
fn cpu_ms() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    let ns: u64 = tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    ns as f64 / 1e6
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let (Some(&repeats), settings) = (args.first(), args.get(1..).unwrap_or_default()) else {
        return Err("usage: REPEATS [LOG_BLOWUP QUERIES POW_BITS LOG_ARITY LOG_FINAL]...".into());
    };
    if repeats == 0 || settings.len() % 5 != 0 {
        return Err("REPEATS ≥ 1, then groups of five numbers".into());
    }
    let cfg = StatementConfig {
        leaves: 1 << 36,
        circuit: CircuitKind::Spend,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    let air = air_for(&cfg)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let prepared = prepare(&air, &Witness::random(&mut rng, cfg.circuit, &cfg.shape()?))?;
    let pv = public_values(&air, &prepared.public)?.ok_or("public inputs")?;
    for s in settings.chunks(5) {
        let f = FriSettings {
            log_blowup: s[0],
            num_queries: s[1],
            query_pow_bits: s[2],
            commit_pow_bits: 0,
            max_log_arity: s[3],
            log_final_poly_len: s[4],
        };
        let (mut wall, mut cpu, mut verify, mut bytes) = (vec![], vec![], vec![], 0);
        for i in 0..repeats {
            let (t, c) = (Instant::now(), cpu_ms());
            let proof = p3_uni_stark::prove(
                &config_with(f, i as u64),
                &air,
                prepared.trace.clone(),
                &prepared.public_values,
            )
            .map_err(|e| format!("{f:?}: {e:?}"))?;
            wall.push(t.elapsed().as_secs_f64() * 1e3);
            cpu.push(cpu_ms() - c);
            let t = Instant::now();
            // the verifier's view, as `zkbench_stark::verify` hands it to Plonky3
            let view = AirView::new(&air);
            p3_uni_stark::verify(&config_with(f, 0), &view, &proof, &pv)
                .map_err(|e| format!("{f:?}: an honest proof did not verify: {e:?}"))?;
            verify.push(t.elapsed().as_secs_f64() * 1e3);
            bytes = proof_to_bytes(&proof).len();
        }
        println!(
            "blowup 2^{} queries {} pow {} arity 2^{} final 2^{}: {} bits, prove {:.1} ms (cpu {:.1} ms), verify {:.2} ms, proof {bytes} B",
            s[0],
            s[1],
            s[2],
            s[3],
            s[4],
            security_bits_with(f, &air),
            median(wall),
            median(cpu),
            median(verify),
        );
    }
    Ok(())
}
