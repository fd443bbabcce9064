//! Incremental (Tornado-style) tree vs. the sparse tree, across arities, with
//! the NON-CRYPTOGRAPHIC toy hasher of `common/` (tree logic only).

use crate::common::toy;
use rand::{rngs::StdRng, Rng, SeedableRng};
use zkbench_merkle::{
    tornado_zero_value, Fr, IncrementalMerkleTree, MerkleError, SparseMerkleTree, ROOT_HISTORY_SIZE,
};

#[test]
fn roots_and_paths_equal_sparse_tree_for_all_arities() {
    let mut rng = StdRng::seed_from_u64(11);
    for arity in 2..=16usize {
        let h = toy(arity);
        for zero in [Fr::from(0u64), tornado_zero_value()] {
            let levels = if arity <= 4 { 8 } else { 4 };
            let mut inc = IncrementalMerkleTree::new(h.clone(), levels, zero).unwrap();
            let mut sp = SparseMerkleTree::with_height(h.clone(), levels, zero).unwrap();
            assert_eq!(inc.root(), sp.root());
            assert_eq!(inc.zero_hashes(), sp.zero_hashes());
            let n = 40 + rng.gen_range(0..40u64);
            let leaves: Vec<Fr> = (0..n).map(|_| Fr::from(rng.gen::<u128>())).collect();
            for (i, l) in leaves.iter().enumerate() {
                assert_eq!(inc.insert(*l).unwrap(), i as u64);
                sp.insert(i as u64, *l).unwrap();
            }
            assert_eq!(inc.root(), sp.root(), "A={arity}");
            assert_eq!(inc.leaves(), &leaves[..]);
            for _ in 0..5 {
                let i = rng.gen_range(0..n);
                let p = inc.path(i).unwrap();
                assert_eq!(p, sp.path(i).unwrap());
                assert!(p.verify(&leaves[i as usize], &inc.root(), h.as_ref()));
                assert!(!p.verify(
                    &(leaves[i as usize] + Fr::from(1u64)),
                    &inc.root(),
                    h.as_ref()
                ));
            }
            assert!(matches!(
                inc.path(n),
                Err(MerkleError::IndexOutOfRange { .. })
            ));
        }
    }
}

#[test]
fn old_paths_verify_against_known_roots_only_while_in_history() {
    let h = toy(2);
    let mut t = IncrementalMerkleTree::new(h.clone(), 10, tornado_zero_value()).unwrap();
    t.insert(Fr::from(1u64)).unwrap();
    let p = t.path(0).unwrap();
    let r0 = t.root();
    for i in 0..(ROOT_HISTORY_SIZE as u64 - 1) {
        t.insert(Fr::from(i + 2)).unwrap();
        assert!(t.is_known_root(&r0));
    }
    t.insert(Fr::from(1000u64)).unwrap();
    assert!(
        !t.is_known_root(&r0),
        "evicted after {ROOT_HISTORY_SIZE} newer roots"
    );
    // The old path still recomputes the old root; the new path the new root.
    assert_eq!(p.compute_root(&Fr::from(1u64), h.as_ref()).unwrap(), r0);
    assert!(t
        .path(0)
        .unwrap()
        .verify(&Fr::from(1u64), &t.root(), h.as_ref()));
}

#[test]
fn filled_subtrees_follow_tornado_for_binary() {
    // For A = 2, filled_subtrees[i][0] is tornado's filledSubtrees[i]: the
    // last left child written at level i.
    let h = toy(2);
    let mut t = IncrementalMerkleTree::new(h.clone(), 3, Fr::from(0u64)).unwrap();
    for i in 0..5u64 {
        t.insert(Fr::from(i + 1)).unwrap();
    }
    assert_eq!(t.filled_subtrees()[0][0], Fr::from(5u64));
    assert_eq!(t.filled_subtrees()[1][0], t.node(1, 2)); // hash(5, zero) was written at index 4 -> node 2
    assert_eq!(t.filled_subtrees()[2][0], t.node(2, 0));
    assert_eq!(
        t.insert_many(&[Fr::from(6u64), Fr::from(7u64), Fr::from(8u64)])
            .unwrap(),
        5
    );
    assert!(matches!(
        t.insert_many(&[Fr::from(9u64)]),
        Err(MerkleError::TreeFull { capacity: 8 })
    ));
}
