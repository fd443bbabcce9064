//! Honest proofs verify, changed statements are rejected, the AIR's root is
//! the native Poseidon2 tree's, and every trace cell is constrained.

use ark_ff::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_hash::HashFamily;
use zkbench_stark::air::{AirKind, NoteAir, TraceInput, MIN_HEIGHT};
use zkbench_stark::native::TreeHash;
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

/// A membership proof over a full native tree of `arity` and height
/// `depth` (the native reference: `tree_levels`), for leaves at `indices`.
fn native_tree_membership(arity: usize, depth: u32, indices: &[usize]) {
    let mut rng = ChaCha20Rng::seed_from_u64(4 + arity as u64);
    let n = arity.pow(depth);
    let leaves: Vec<Digest> = (0..n).map(|_| limbs_of(&Fr::rand(&mut rng))).collect();
    let levels = tree_levels(arity, &leaves).unwrap();
    let depth = depth as usize;
    let root = levels[depth][0];
    let air = NoteAir::with_arity(AirKind::Membership, arity, depth, MIN_HEIGHT).unwrap();
    let pos = |index: usize, l: usize| index / arity.pow(l as u32);
    for &index in indices {
        let siblings: Vec<Vec<Digest>> = (0..depth)
            .map(|l| {
                let (p, at) = (pos(index, l), pos(index, l) % arity);
                let first = p - at;
                (first..first + arity)
                    .filter(|&k| k != p)
                    .map(|k| levels[l][k])
                    .collect()
            })
            .collect();
        let digits: Vec<usize> = (0..depth).map(|l| pos(index, l) % arity).collect();
        let nodes: Vec<Digest> = (0..depth).map(|l| levels[l][pos(index, l)]).collect();
        let input = TraceInput {
            note: None,
            leaf: leaves[index],
            siblings,
            digits,
            ext: [Val::default(); 9],
        };
        let trace = air.trace(&input, &nodes);
        // the last row of each level computes the native tree's node
        for l in 0..depth {
            let row = (l + 1) * air.rows_per_level() - 1;
            assert_eq!(
                air.row_output(&trace, row),
                levels[l + 1][pos(index, l + 1)],
                "arity {arity} level {l}"
            );
        }
        assert!(audit::satisfied(&air, &trace, &root), "arity {arity}");
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
fn membership_root_is_the_native_trees_root() {
    native_tree_membership(2, 4, &[0, 5, 10, 15]);
    native_tree_membership(4, 2, &[0, 6, 15]);
    native_tree_membership(8, 2, &[0, 13, 63]);
}

/// The root of a spend witness's path computed natively with `tree`: the
/// note's commitment over its limbs, then the path's siblings and digits.
fn native_spend_root(
    tree: TreeHash,
    sw: &zkbench_statement::SpendWitness,
    shape: &zkbench_statement::TreeShape,
) -> Digest {
    let leaf = zkbench_stark::native::note_commitment(
        tree,
        &limbs_of(&sw.nullifier),
        &limbs_of(&sw.secret),
    );
    let digits = shape.position_digits(sw.path.index).unwrap();
    let siblings: Vec<Vec<Digest>> = (sw.path.siblings.iter())
        .map(|l| l.iter().map(limbs_of).collect())
        .collect();
    zkbench_stark::native::path_root(tree, &leaf, &siblings, &digits)
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
    let tree = TreeHash::Compress16;
    let root = native_spend_root(tree, sw, &shape);
    assert_eq!(prepared.public.0[0], pack_digest(&root));
    assert_eq!(
        prepared.public.0[1],
        pack_digest(&zkbench_stark::native::nullifier_hash(
            tree,
            &limbs_of(&sw.nullifier)
        ))
    );
}

#[test]
fn wider_trees_prove_the_statement_with_the_width_24_sponge() {
    // arity 4 and 8: honest spends verify; the public root is the native
    // sponge path's, and a changed external-data hash is refused
    for arity in [4usize, 8] {
        let cfg = StatementConfig {
            arity,
            ..config(CircuitKind::Spend, (arity as u64).pow(3))
        };
        let air = air_for(&cfg).unwrap();
        assert_eq!((air.arity(), air.tree_hash()), (arity, TreeHash::Sponge24));
        assert_eq!(air.rows(), 2 + 3 * arity / 2);
        let w = witness(&cfg, 9);
        let prepared = prepare(&air, &w).unwrap();
        let Witness::Spend(sw) = &w else {
            unreachable!()
        };
        let root = native_spend_root(TreeHash::Sponge24, sw, &cfg.shape().unwrap());
        assert_eq!(prepared.public.0[0], pack_digest(&root), "arity {arity}");
        assert!(proves_for(&air, &w, &prepared.public), "arity {arity}");
        let mut changed = prepared.public.clone();
        changed.0[2] += Fr::from(1u64);
        assert!(!proves_for(&air, &w, &changed), "arity {arity}");
    }
}

#[test]
fn configurations_it_cannot_prove_say_why() {
    let mut cfg = config(CircuitKind::BatchRoot, 16);
    assert!(air_for(&cfg)
        .unwrap_err()
        .to_string()
        .contains("batch-root"));
    cfg.circuit = CircuitKind::Spend;
    cfg.arity = 3;
    assert!(air_for(&cfg).unwrap_err().to_string().contains("arity 3"));
    cfg.arity = 2;
    cfg.family = HashFamily::Poseidon;
    assert!(air_for(&cfg).unwrap_err().to_string().contains("Poseidon2"));
}

#[test]
fn every_trace_cell_and_public_value_is_constrained() {
    let cases = [
        (CircuitKind::Spend, 2, 1 << 3),
        (CircuitKind::Membership, 2, 1 << 3),
        (CircuitKind::Spend, 4, 16),
        (CircuitKind::Membership, 8, 8),
    ];
    for (circuit, arity, leaves) in cases {
        let cfg = StatementConfig {
            arity,
            ..config(circuit, leaves)
        };
        let air = air_for(&cfg).unwrap().resized(8).unwrap();
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
