//! The pool's slot-insert circuit: native vs circuit, proofs verify, and
//! changed public inputs or witnesses are rejected.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::pool::SlotInsert;
use zkbench_groth16::statement::pool::{pool_empty_leaf, PoolShape, SlotInsertWitness};
use zkbench_groth16::verify;
use zkbench_hash::{Fr, HashFamily};
use zkbench_merkle::EraSlotTree;

fn witness(tree: &mut EraSlotTree, leaves: &[Fr]) -> SlotInsertWitness {
    let slot = tree.commit_slot(leaves).unwrap();
    let path = tree.path(slot, 0).unwrap();
    SlotInsertWitness {
        leaves: leaves.to_vec(),
        slot_index: slot,
        era_siblings: path.era_path.siblings.iter().map(|s| s[0]).collect(),
    }
}

#[test]
fn slot_insert_proves_and_rejects_changes() {
    let shape = PoolShape::new(1, 3).unwrap();
    let si = SlotInsert::new(shape, HashFamily::Poseidon2, None).unwrap();
    let keys = si.setup(7).unwrap();
    let mut tree = EraSlotTree::new(
        Arc::clone(si.backend().native_pair()),
        1,
        3,
        pool_empty_leaf(),
    )
    .unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let mut last = None;
    for s in 0..3u64 {
        let old = tree.root();
        let leaves = [Fr::from(100 + s), Fr::from(200 + s)];
        let w = witness(&mut tree, &leaves);
        let (proof, public) = si.prove(&keys, &w, &mut rng).unwrap();
        assert_eq!(public, si.public_inputs(&w).unwrap());
        assert_eq!(public.0[0], old);
        assert_eq!(public.0[1], tree.root());
        assert!(verify(&keys.pvk, &public, &proof).unwrap());
        // Any changed public input fails verification.
        for i in 0..public.0.len() {
            let mut p = public.clone();
            p.0[i] += Fr::from(1u64);
            assert!(!verify(&keys.pvk, &p, &proof).unwrap(), "input {i}");
        }
        last = Some((w, public));
    }
    let (w, public) = last.unwrap();
    assert!(si.is_satisfied(&keys, &w, None).unwrap());
    // Another slot index with the same siblings: unsatisfied.
    let mut p = public.0.clone();
    p[2] = Fr::from(3u64);
    assert!(!si.is_satisfied(&keys, &w, Some(p)).unwrap());
    // A leaf swapped for one nobody deposited: unsatisfied.
    let mut p = public.0.clone();
    p[3] = Fr::from(999u64);
    assert!(!si.is_satisfied(&keys, &w, Some(p)).unwrap());
    // Overwriting an occupied slot: the old root of the current tree does not
    // have the empty slot at index 1.
    let w1 = SlotInsertWitness {
        slot_index: 1,
        era_siblings: tree
            .path(1, 0)
            .unwrap()
            .era_path
            .siblings
            .iter()
            .map(|s| s[0])
            .collect(),
        leaves: vec![Fr::from(5u64), Fr::from(6u64)],
    };
    let mut p = si.public_inputs(&w1).unwrap().0;
    p[0] = tree.root();
    assert!(!si.is_satisfied(&keys, &w1, Some(p)).unwrap());
    // A changed witness (sibling) with the honest public inputs: unsatisfied,
    // and the prover refuses it.
    let mut bad = w.clone();
    bad.era_siblings[0] += Fr::from(1u64);
    assert!(!si
        .is_satisfied(&keys, &bad, Some(public.0.clone()))
        .unwrap());
    assert!(si
        .prove(&keys, &SlotInsertWitness { slot_index: 9, ..w }, &mut rng)
        .is_err());
}
