//! The view of the AIR as the verifier uses it (`zkbench_stark::view`): it sizes the
//! quotient as Plonky3 does from the AIR itself, it evaluates the AIR's own
//! constraints at the out-of-domain point, and tampered proofs are rejected
//! through it.

use p3_air::symbolic::AirLayout;
use p3_air::{Air, BaseAir, RowWindow};
use p3_field::{BasedVectorSpace, PrimeCharacteristicRing};
use p3_matrix::dense::RowMajorMatrixView;
use p3_matrix::stack::VerticalPair;
use p3_uni_stark::{get_log_num_quotient_chunks, VerifierConstraintFolder};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkbench_hash::HashFamily;
use zkbench_stark::air::{AirKind, NoteAir, MIN_HEIGHT};
use zkbench_stark::native::Val;
use zkbench_stark::params::{Challenge, Config};
use zkbench_stark::prover::{proof_from_bytes, proof_to_bytes, public_values};
use zkbench_stark::view::AirView;
use zkbench_stark::{air_for, prepare, prove, verify, SecurityLevel, StarkProof};
use zkbench_statement::{CircuitKind, StatementConfig, Witness};

#[test]
fn the_view_sizes_the_quotient_as_the_air_does() {
    for (kind, depth, min_height) in [
        (AirKind::Spend, 36, 128),
        (AirKind::Membership, 3, 128),
        (AirKind::Spend, 5, 8),
    ] {
        let air = NoteAir::with_min_height(kind, depth, min_height).unwrap();
        let layout = AirLayout::from_air(&air);
        let h = air.height();
        for is_zk in [0, 1] {
            let plain = get_log_num_quotient_chunks::<Val, _>(&air, layout, h, is_zk);
            let view = get_log_num_quotient_chunks::<Val, _>(&AirView::new(&air), layout, h, is_zk);
            assert_eq!(plain, view, "{kind:?} depth {depth}, zk {is_zk}");
        }
        assert_eq!(air.constraint_degree(), 3, "{kind:?} depth {depth}");
    }
}

/// A random element of the challenge field.
fn challenge(rng: &mut ChaCha20Rng) -> Challenge {
    Challenge::from_basis_coefficients_fn(|_| Val::new(rng.gen_range(0..0x7800_0001)))
}

/// The constraints of `air` folded at random openings by the verifier's folder.
fn folded<A: BaseAir<Val> + for<'a> Air<VerifierConstraintFolder<'a, Config>>>(
    air: &A,
    pv: &[Val],
    seed: u64,
) -> Challenge {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let local: Vec<Challenge> = (0..air.width()).map(|_| challenge(&mut rng)).collect();
    let next: Vec<Challenge> = (0..air.width()).map(|_| challenge(&mut rng)).collect();
    let periodic: Vec<Challenge> = (0..air.num_periodic_columns())
        .map(|_| challenge(&mut rng))
        .collect();
    let mut folder = VerifierConstraintFolder::<Config> {
        main: VerticalPair::new(
            RowMajorMatrixView::new_row(&local),
            RowMajorMatrixView::new_row(&next),
        ),
        preprocessed: VerticalPair::new(
            RowMajorMatrixView::new(&[], 0),
            RowMajorMatrixView::new(&[], 0),
        ),
        preprocessed_window: RowWindow::from_two_rows(&[], &[]),
        periodic_values: &periodic,
        public_values: pv,
        is_first_row: challenge(&mut rng),
        is_last_row: challenge(&mut rng),
        is_transition: challenge(&mut rng),
        alpha: challenge(&mut rng),
        accumulator: Challenge::ZERO,
    };
    air.eval(&mut folder);
    folder.accumulator
}

#[test]
fn the_view_evaluates_the_airs_constraints() {
    for (kind, arity) in [
        (AirKind::Spend, 2),
        (AirKind::Membership, 2),
        (AirKind::Spend, 4),
    ] {
        let air = NoteAir::with_arity(kind, arity, 10, MIN_HEIGHT).unwrap();
        let pv: Vec<Val> = (0..p3_air::BaseAir::<Val>::num_public_values(&air))
            .map(|i| Val::new(i as u32 + 1))
            .collect();
        for seed in 0..3 {
            let plain = folded(&air, &pv, seed);
            assert_ne!(plain, Challenge::ZERO, "{kind:?}");
            assert_eq!(folded(&AirView::new(&air), &pv, seed), plain, "{kind:?}");
        }
    }
}

/// A change to a proof.
type Change = Box<dyn Fn(&mut StarkProof)>;

/// `proof` with one change (a copy through its bytes: proofs are not `Clone`).
fn tampered(proof: &StarkProof, change: impl Fn(&mut StarkProof)) -> StarkProof {
    let mut p = proof_from_bytes(&proof_to_bytes(proof)).unwrap();
    change(&mut p);
    p
}

#[test]
fn tampered_proofs_are_rejected() {
    let level = SecurityLevel::Bits100;
    let cfg = StatementConfig {
        leaves: 1 << 5,
        circuit: CircuitKind::Spend,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    let air = air_for(&cfg).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let w = Witness::random(&mut rng, cfg.circuit, &cfg.shape().unwrap());
    let prepared = prepare(&air, &w).unwrap();
    let pv = public_values(&air, &prepared.public).unwrap().unwrap();
    let proof = prove(level, &air, &prepared, 3).unwrap();
    assert!(verify(level, &air, &pv, &proof));
    let changes: [(&str, Change); 8] = [
        ("degree bits + 1", Box::new(|p| p.degree_bits += 1)),
        ("degree bits - 1", Box::new(|p| p.degree_bits -= 1)),
        (
            "trace at zeta",
            Box::new(|p| p.opened_values.trace_local[7] += Challenge::ONE),
        ),
        (
            "trace at g·zeta",
            Box::new(|p| p.opened_values.trace_next.as_mut().unwrap()[300] += Challenge::ONE),
        ),
        (
            "quotient chunk",
            Box::new(|p| p.opened_values.quotient_chunks[1][2] += Challenge::ONE),
        ),
        (
            "a quotient chunk less",
            Box::new(|p| drop(p.opened_values.quotient_chunks.pop())),
        ),
        (
            "random codeword",
            Box::new(|p| p.opened_values.random.as_mut().unwrap()[0] += Challenge::ONE),
        ),
        (
            "grinding witness",
            Box::new(|p| p.ood_pow_witness += Val::ONE),
        ),
    ];
    for (what, change) in &changes {
        assert!(
            !verify(level, &air, &pv, &tampered(&proof, change)),
            "{what} accepted"
        );
    }
    // a byte changed anywhere in the proof: it does not decode, or it is rejected
    let bytes = proof_to_bytes(&proof);
    for i in (0..bytes.len()).step_by(bytes.len() / 24) {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        if let Ok(p) = proof_from_bytes(&b) {
            assert!(
                !verify(level, &air, &pv, &p),
                "byte {i} of {} changed: accepted",
                bytes.len()
            );
        }
    }
    // the proof at the other level's parameters
    assert!(!verify(SecurityLevel::Bits128, &air, &pv, &proof));
}
