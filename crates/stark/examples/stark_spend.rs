//! Prove and verify the note spend (and membership) as a STARK at both
//! security levels; prints trace shape, prove and verify times, proof size
//! and its calldata gas (EIP-2028), and the conjectured security.
//!
//! `cargo run --release -p zkbench-stark --example stark_spend -- [leaves_log2] [repeats]`
//! (default 2^36 leaves, 5 repeats; the median is printed).

use rand::SeedableRng;
use web_time::Instant;
use zkbench_hash::HashFamily;
use zkbench_stark::prover::{proof_to_bytes, public_values};
use zkbench_stark::{air_for, prepare, prove, security_bits, verify, SecurityLevel};
use zkbench_statement::{CircuitKind, StatementConfig, Witness};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let log_leaves: u32 = args.get(1).map_or(Ok(36), |a| a.parse())?;
    let repeats: usize = args.get(2).map_or(Ok(5), |a| a.parse())?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("2^{log_leaves} leaves, arity 2, {repeats} repeats, {threads} threads available");
    for circuit in [CircuitKind::Spend, CircuitKind::Membership] {
        let cfg = StatementConfig {
            leaves: 1 << log_leaves,
            circuit,
            ..StatementConfig::new(HashFamily::Poseidon2)
        };
        let air = air_for(&cfg)?;
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let w = Witness::random(&mut rng, circuit, &cfg.shape()?);
        for level in SecurityLevel::ALL {
            let t = Instant::now();
            let prepared = prepare(&air, &w)?;
            let witness_s = t.elapsed().as_secs_f64();
            let pv = public_values(&air, &prepared.public)?.ok_or("public inputs")?;
            let (mut prove_s, mut verify_s, mut bytes) = (Vec::new(), Vec::new(), Vec::new());
            for i in 0..repeats {
                let t = Instant::now();
                let proof = prove(level, &air, &prepared, i as u64)?;
                prove_s.push(t.elapsed().as_secs_f64());
                let t = Instant::now();
                let ok = verify(level, &air, &pv, &proof);
                verify_s.push(t.elapsed().as_secs_f64());
                assert!(ok, "an honest proof must verify");
                bytes = proof_to_bytes(&proof);
            }
            let gas: u64 = bytes.iter().map(|&b| if b == 0 { 4 } else { 16 }).sum();
            println!(
                "{circuit:>10} {:>3}-bit level ({} bits conjectured): trace {}x{} (height {}), witness {:.2} ms, prove {:.1} ms, verify {:.2} ms, proof {} bytes, calldata {} gas",
                level.target_bits(),
                security_bits(level, &air),
                air.rows(),
                air.layout().width,
                air.height(),
                witness_s * 1e3,
                median(prove_s) * 1e3,
                median(verify_s) * 1e3,
                bytes.len(),
                gas,
            );
        }
    }
    Ok(())
}
