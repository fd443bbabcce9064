//! The prover's view of the AIR (`zkbench_stark::view`): it lays out
//! the constraints and sizes the quotient as Plonky3 does from the AIR
//! itself, its proofs verify with `p3_uni_stark::verify` of the AIR itself,
//! and a tampered trace gives no proof that verifies.

use p3_air::symbolic::{get_constraint_layout, AirLayout};
use p3_field::PrimeCharacteristicRing;
use p3_uni_stark::get_log_num_quotient_chunks;
use rand::SeedableRng;
use zkbench_hash::HashFamily;
use zkbench_stark::air::{AirKind, NoteAir};
use zkbench_stark::native::Val;
use zkbench_stark::params::config;
use zkbench_stark::view::AirView;
use zkbench_stark::{air_for, prepare, prove, SecurityLevel};
use zkbench_statement::{CircuitKind, StatementConfig, Witness};

const LEVEL: SecurityLevel = SecurityLevel::Bits100;

#[test]
fn the_view_lays_out_and_sizes_as_the_air_does() {
    for (kind, depth, min_height) in [
        (AirKind::Spend, 5, 8),
        (AirKind::Membership, 3, 128),
        (AirKind::Spend, 36, 128),
    ] {
        let air = NoteAir::with_min_height(kind, depth, min_height).unwrap();
        let view = AirView::new(&air);
        let layout = AirLayout::from_air(&air);
        let (a, v) = (
            get_constraint_layout::<Val, Val, _>(&air, layout),
            get_constraint_layout::<Val, Val, _>(&view, layout),
        );
        assert!(a.base_indices.len() > 100, "{kind:?}: {a:?}");
        assert_eq!(a.base_indices, v.base_indices, "{kind:?} depth {depth}");
        assert_eq!(a.ext_indices, v.ext_indices, "{kind:?} depth {depth}");
        assert_eq!(air.constraint_count(), a.total_constraints());
        let h = air.height();
        for is_zk in [0, 1] {
            let plain = get_log_num_quotient_chunks::<Val, _>(&air, layout, h, is_zk);
            let viewed = get_log_num_quotient_chunks::<Val, _>(&view, layout, h, is_zk);
            assert_eq!(plain, viewed, "{kind:?} depth {depth}, zk {is_zk}");
        }
    }
}

fn statement(circuit: CircuitKind) -> (NoteAir, zkbench_stark::Prepared) {
    let cfg = StatementConfig {
        leaves: 1 << 4,
        circuit,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    let air = air_for(&cfg).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let w = Witness::random(&mut rng, circuit, &cfg.shape().unwrap());
    let prepared = prepare(&air, &w).unwrap();
    (air, prepared)
}

#[test]
fn proofs_through_the_view_verify_against_the_air_itself() {
    for circuit in [CircuitKind::Spend, CircuitKind::Membership] {
        let (air, prepared) = statement(circuit);
        let pv = &prepared.public_values;
        let proof = prove(LEVEL, &air, &prepared, 5).unwrap();
        let c = config(LEVEL, 0);
        assert!(
            p3_uni_stark::verify(&c, &air, &proof, pv).is_ok(),
            "{circuit:?}"
        );
        // and the statement is bound: another public value is rejected
        let mut other = pv.clone();
        other[0] += Val::ONE;
        assert!(p3_uni_stark::verify(&c, &air, &proof, &other).is_err());
    }
}

#[test]
fn a_tampered_trace_gives_no_proof_that_verifies() {
    let (air, prepared) = statement(CircuitKind::Spend);
    let c = config(LEVEL, 0);
    // a path row's output lane and a padding row's cell
    for (row, col) in [(3, 0), (air.height() - 1, 5)] {
        let mut bad = prepared.clone();
        let w = bad.trace.width;
        bad.trace.values[row * w + col] += Val::ONE;
        // debug builds: Plonky3's constraint check panics (through the
        // view's debug builder); release builds: a proof the AIR rejects
        let accepted =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| prove(LEVEL, &air, &bad, 5)))
                .ok()
                .and_then(Result::ok)
                .is_some_and(|p| p3_uni_stark::verify(&c, &air, &p, &bad.public_values).is_ok());
        assert!(!accepted, "cell ({row}, {col})");
    }
}
