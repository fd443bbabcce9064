//! Prove before and after the prover's view (`zkbench_stark::view`:
//! `p3_uni_stark::prove` of the AIR itself, then this crate's `prove`), and
//! where the STARK verifier's time goes (2^36-leaf spend, both levels):
//! `p3_uni_stark::verify` of the AIR itself (before) and this crate's
//! `verify` (after: the constraint degree inferred once, see
//! `zkbench_stark::verifier`), and parts timed on their own —
//! the AIR's symbolic evaluation and the quotient degree Plonky3 infers from
//! it, the AIR evaluated at the out-of-domain point (the verifier folder),
//! and the configuration's construction.
//!
//! `cargo run --release -p zkbench-stark --example stark_verify -- [iterations]`
//! (default 200, a quarter of them for prove; medians are printed).

use p3_field::PrimeCharacteristicRing;
use p3_uni_stark::{get_all_symbolic_constraints, get_log_num_quotient_chunks, AirLayout};
use rand::SeedableRng;
use web_time::Instant;
use zkbench_hash::HashFamily;
use zkbench_stark::native::Val;
use zkbench_stark::params::{config, Challenge, Config};
use zkbench_stark::prover::public_values;
use zkbench_stark::{air_for, prepare, prove, verify, SecurityLevel};
use zkbench_statement::{CircuitKind, StatementConfig, Witness};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median milliseconds of `f` over `n` runs.
fn time(n: usize, mut f: impl FnMut()) -> f64 {
    median(
        (0..n)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

/// Median milliseconds of `a` and of `b` over `n` runs each, alternated so
/// that a change of load touches both alike.
fn time_pair(n: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    let (mut ta, mut tb) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        ta.push(time(1, &mut a));
        tb.push(time(1, &mut b));
    }
    (median(ta), median(tb))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(200), |a| a.parse())?;
    let threads = p3_maybe_rayon::prelude::current_num_threads();
    println!("2^36 leaves, {n} iterations, {threads} rayon threads, medians in ms");
    for circuit in [CircuitKind::Spend, CircuitKind::Membership] {
        let cfg = StatementConfig {
            leaves: 1 << 36,
            circuit,
            ..StatementConfig::new(HashFamily::Poseidon2)
        };
        let air = air_for(&cfg)?;
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let w = Witness::random(&mut rng, circuit, &cfg.shape()?);
        let prepared = prepare(&air, &w)?;
        let pv = public_values(&air, &prepared.public)?.ok_or("public inputs")?;
        for level in SecurityLevel::ALL {
            let proof = prove(level, &air, &prepared, 1)?;
            let parts = parts(n, level, &air, &proof, &pv);
            let c = config(level, 0);
            let (before, after) = time_pair(
                n,
                || assert!(p3_uni_stark::verify(&c, &air, &proof, &pv).is_ok()),
                || assert!(verify(level, &air, &pv, &proof)),
            );
            let (pb, pa) = time_pair(
                n.div_ceil(4),
                || {
                    let t = prepared.trace.clone();
                    let c = config(level, 1);
                    assert!(p3_uni_stark::prove(&c, &air, t, &prepared.public_values).is_ok());
                },
                || assert!(prove(level, &air, &prepared, 1).is_ok()),
            );
            println!(
                "{circuit:>10} {}-bit: prove before (p3_uni_stark::prove of the AIR) {pb:.3}, \
                 after (zkbench_stark::prove) {pa:.3}",
                level.target_bits()
            );
            println!(
                "{circuit:>10} {}-bit: verify before (p3_uni_stark::verify of the AIR) {before:.3}, \
                 after (zkbench_stark::verify) {after:.3} | {parts}",
                level.target_bits()
            );
        }
    }
    Ok(())
}

/// The parts of a verify timed on their own, in words.
fn parts(
    n: usize,
    level: SecurityLevel,
    air: &zkbench_stark::NoteAir,
    proof: &p3_uni_stark::Proof<Config>,
    pv: &[Val],
) -> String {
    let layout = AirLayout::from_air(air);
    let symbolic = time(n, || {
        let (b, e) = get_all_symbolic_constraints::<Val, Val, _>(air, layout);
        assert!(!b.is_empty() && e.is_empty());
    });
    let degree = time(n, || {
        let log = get_log_num_quotient_chunks::<Val, _>(air, layout, air.height(), 1);
        assert_eq!(log, 2);
    });
    let folder = time(n, || fold(air, proof, pv));
    let make_config = time(n, || drop(config(level, 0)));
    format!(
        "symbolic eval {symbolic:.3}, quotient degree (eval + walk) {degree:.3}, \
         AIR at zeta (folder) {folder:.3}, config {make_config:.3}"
    )
}

/// The AIR evaluated at the proof's opened values (random `zeta`, `alpha`):
/// the verifier's constraint check alone; its answer is not looked at.
fn fold(air: &zkbench_stark::NoteAir, proof: &p3_uni_stark::Proof<Config>, pv: &[Val]) {
    let domain = p3_field::coset::TwoAdicMultiplicativeCoset::new(Val::ONE, 7).expect("domain");
    let zeta = Challenge::from_u32(123_456_789);
    let periodic = vec![Challenge::from_u32(3); 5];
    let ov = &proof.opened_values;
    let r = p3_uni_stark::verify_constraints::<Config, _, ()>(
        air,
        &ov.trace_local,
        ov.trace_next.as_deref().expect("next row"),
        None,
        None,
        &periodic,
        pv,
        domain,
        zeta,
        Challenge::from_u32(987_654_321),
        Challenge::ZERO,
    );
    std::hint::black_box((r.is_err(), domain.size()));
}
