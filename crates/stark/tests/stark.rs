//! Honest proofs verify, changed statements are rejected, the AIR's root is
//! the native Poseidon2 tree's, and every trace cell is constrained.

use ark_ff::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_hash::HashFamily;
use zkbench_stark::air::{AirKind, NoteAir, TraceInput};
use zkbench_stark::native::{ext_limbs, limbs_of, pack_digest, tree_levels, Digest, Val};
use zkbench_stark::prover::public_values;
use zkbench_stark::{air_for, audit, prepare, prove, verify, SecurityLevel};
use zkbench_statement::{CircuitKind, Fr, PublicInputs, StatementConfig, Witness};

const LEVEL: SecurityLevel = SecurityLevel::Bits100;

fn config(circuit: CircuitKind, leaves: u64) -> StatementConfig {
    StatementConfig {
        leaves,
        circuit,
        ..StatementConfig::new(HashFamily::Poseidon2)
    }
}

fn witness(cfg: &StatementConfig, seed: u64) -> Witness {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    Witness::random(&mut rng, cfg.circuit, &cfg.shape().unwrap())
}

/// Proves `w` and verifies the proof against `public`.
fn proves_for(air: &NoteAir, w: &Witness, public: &PublicInputs) -> bool {
    let prepared = prepare(air, w).unwrap();
    let proof = prove(LEVEL, air, &prepared, 7).unwrap();
    match public_values(air, public).unwrap() {
        Some(pv) => verify(LEVEL, air, &pv, &proof),
        None => false,
    }
}

#[test]
fn honest_spend_and_membership_proofs_verify() {
    for circuit in [CircuitKind::Spend, CircuitKind::Membership] {
        let cfg = config(circuit, 1 << 5);
        let air = air_for(&cfg).unwrap();
        let w = witness(&cfg, 1);
        let prepared = prepare(&air, &w).unwrap();
        assert!(audit::satisfied(
            &air,
            &prepared.trace,
            &prepared.public_values
        ));
        assert!(proves_for(&air, &w, &prepared.public), "{circuit:?}");
    }
}

#[test]
fn changed_statements_are_rejected() {
    let cfg = config(CircuitKind::Spend, 1 << 6);
    let air = air_for(&cfg).unwrap();
    let w = witness(&cfg, 2);
    let public = prepare(&air, &w).unwrap().public;
    let Witness::Spend(sw) = &w else {
        unreachable!()
    };
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let changed = |f: &dyn Fn(&mut zkbench_statement::SpendWitness)| {
        let mut c = sw.clone();
        f(&mut c);
        Witness::Spend(c)
    };
    let other = Fr::rand(&mut rng);
    // a proof of a changed witness does not verify for the original public inputs
    for (what, bad) in [
        ("leaf (secret)", changed(&|c| c.secret = other)),
        ("sibling", changed(&|c| c.path.siblings[3][0] = other)),
        ("path bit", changed(&|c| c.path.index ^= 1 << 4)),
        ("nullifier", changed(&|c| c.nullifier = other)),
        ("external data", changed(&|c| c.ext_data_hash = other)),
    ] {
        assert!(!proves_for(&air, &bad, &public), "changed {what} accepted");
    }
    // an honest proof does not verify for changed public inputs
    let prepared = prepare(&air, &w).unwrap();
    let proof = prove(LEVEL, &air, &prepared, 9).unwrap();
    let other_digest = pack_digest(&limbs_of(&Fr::from(5u64)));
    for i in 0..3 {
        let mut p = public.clone();
        p.0[i] = if i == 2 { other } else { other_digest };
        let pv = public_values(&air, &p).unwrap().unwrap();
        assert!(
            !verify(LEVEL, &air, &pv, &proof),
            "changed public input {i} accepted"
        );
    }
    // a root that is no packed digest is rejected before the verifier runs
    let mut p = public.clone();
    p.0[0] = -Fr::from(1u64);
    assert_eq!(public_values(&air, &p).unwrap(), None);
    // wrong number of public inputs: an error saying what is expected
    let e = public_values(&air, &PublicInputs(vec![other])).unwrap_err();
    assert!(e.to_string().contains("3 public inputs"), "{e}");
}

#[test]
fn membership_root_is_the_native_trees_root() {
    // a full native tree of 16 leaves over the same Poseidon2 compression
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let leaves: Vec<Digest> = (0..16).map(|_| limbs_of(&Fr::rand(&mut rng))).collect();
    let levels = tree_levels(&leaves);
    let root = levels[4][0];
    let air = NoteAir::new(AirKind::Membership, 4).unwrap();
    for index in [0usize, 5, 10, 15] {
        let siblings: Vec<Digest> = (0..4).map(|l| levels[l][(index >> l) ^ 1]).collect();
        let bits: Vec<bool> = (0..4).map(|l| (index >> l) & 1 == 1).collect();
        let mut nodes = vec![leaves[index]];
        for l in 1..4 {
            nodes.push(levels[l][index >> l]);
        }
        let input = TraceInput {
            note: None,
            leaf: leaves[index],
            siblings,
            bits,
            ext: [Val::default(); 9],
        };
        let trace = air.trace(&input, &nodes);
        // the permutation rows of the AIR's trace compute the native nodes
        for l in 0..4 {
            assert_eq!(
                NoteAir::row_output(&trace, l),
                levels[l + 1][index >> (l + 1)]
            );
        }
        assert!(audit::satisfied(&air, &trace, &root));
        let prepared = zkbench_stark::Prepared {
            trace,
            public_values: root.to_vec(),
            public: PublicInputs(vec![pack_digest(&root)]),
        };
        let proof = prove(LEVEL, &air, &prepared, index as u64).unwrap();
        assert!(verify(LEVEL, &air, &root, &proof));
        let mut wrong = root;
        wrong[0] += Val::new(1);
        assert!(!verify(LEVEL, &air, &wrong, &proof));
    }
}

#[test]
fn public_inputs_follow_the_statement() {
    // the differential check against crates/statement: the same witness gives
    // the same external-data input, the statement's count of public inputs,
    // and the root of the native path over the witness's limbs
    let cfg = config(CircuitKind::Spend, 1 << 8);
    let air = air_for(&cfg).unwrap();
    let w = witness(&cfg, 5);
    let prepared = prepare(&air, &w).unwrap();
    let Witness::Spend(sw) = &w else {
        unreachable!()
    };
    let shape = cfg.shape().unwrap();
    assert_eq!(
        prepared.public.0.len(),
        PublicInputs::count(CircuitKind::Spend, &shape)
    );
    assert_eq!(prepared.public.0[2], sw.ext_data_hash);
    assert_eq!(prepared.public_values[16..], ext_limbs(&sw.ext_data_hash));
    let leaf =
        zkbench_stark::native::note_commitment(&limbs_of(&sw.nullifier), &limbs_of(&sw.secret));
    let digits = shape.position_digits(sw.path.index).unwrap();
    let siblings: Vec<Digest> = sw.path.siblings.iter().map(|s| limbs_of(&s[0])).collect();
    let bits: Vec<bool> = digits.iter().map(|&d| d == 1).collect();
    let root = zkbench_stark::native::path_root(&leaf, &siblings, &bits);
    assert_eq!(prepared.public.0[0], pack_digest(&root));
    assert_eq!(
        prepared.public.0[1],
        pack_digest(&zkbench_stark::native::nullifier_hash(&limbs_of(
            &sw.nullifier
        )))
    );
}

#[test]
fn configurations_it_cannot_prove_say_why() {
    let mut cfg = config(CircuitKind::BatchRoot, 16);
    assert!(air_for(&cfg)
        .unwrap_err()
        .to_string()
        .contains("batch-root"));
    cfg.circuit = CircuitKind::Spend;
    cfg.arity = 4;
    assert!(air_for(&cfg).unwrap_err().to_string().contains("arity 2"));
    cfg.arity = 2;
    cfg.family = HashFamily::Poseidon;
    assert!(air_for(&cfg).unwrap_err().to_string().contains("Poseidon2"));
}

#[test]
fn every_trace_cell_and_public_value_is_constrained() {
    for circuit in [CircuitKind::Spend, CircuitKind::Membership] {
        let cfg = config(circuit, 1 << 3);
        let full = air_for(&cfg).unwrap();
        let air = NoteAir::with_min_height(full.kind(), full.depth(), 8).unwrap();
        let prepared = prepare(&air, &witness(&cfg, 6)).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        let report =
            audit::mutation_audit(&air, &prepared, "stark", format!("{circuit:?}"), &mut rng)
                .unwrap();
        assert_eq!(
            report.mutations,
            2 * (report.targets + report.public_inputs)
        );
        assert!(
            report.is_sound(),
            "{:?}",
            &report.survivors[..report.survivors.len().min(5)]
        );
    }
}

#[test]
fn security_levels_are_what_the_calculator_says() {
    use zkbench_stark::params::{query_phase_bits, COLLISION_BITS};
    for (kind, depth) in [(AirKind::Spend, 36), (AirKind::Membership, 20)] {
        let air = NoteAir::new(kind, depth).unwrap();
        for level in SecurityLevel::ALL {
            let f = level.fri();
            let bits = zkbench_stark::security_bits(level, &air);
            // the binding term is the FRI query phase, capped by the commitments' collisions
            let expected = query_phase_bits(f).min(COLLISION_BITS as f64).floor() as usize;
            assert_eq!(bits, expected, "{kind:?} {level:?}: {f:?}");
            assert!(bits >= level.target_bits(), "{level:?}: {bits} bits");
            // ethSTARK's older formula, log_blowup·q + pow, is a little above the conjecture
            let legacy = f.log_blowup * f.num_queries + f.query_pow_bits;
            assert!(legacy >= bits, "{legacy} < {bits}");
            // the hiding PCS's budget: the trace's mask covers twice what the queries open
            assert!(2 * (5 * 2 + f.num_queries) <= air.height(), "{level:?}");
        }
    }
    let air = NoteAir::new(AirKind::Spend, 36).unwrap();
    assert_eq!(
        zkbench_stark::security_bits(SecurityLevel::Bits100, &air),
        102
    );
    assert_eq!(
        zkbench_stark::security_bits(SecurityLevel::Bits128, &air),
        128
    );
}

/// The prover's thread cap follows the trace: the 2^36-leaf spend's 128 rows
/// get four threads, a tiny trace one, a tall one more.
#[test]
fn prover_threads_follow_the_trace_height() {
    use zkbench_stark::prover::max_threads;
    let air = air_for(&config(CircuitKind::Spend, 1u64 << 36)).unwrap();
    assert_eq!(air.height(), 128);
    assert_eq!(max_threads(air.height()), 4);
    assert_eq!(max_threads(8), 1);
    assert_eq!(max_threads(1 << 12), 128);
}
