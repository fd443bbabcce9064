//! The statement's native computation against `zkbench-merkle`'s trees, and
//! its error cases.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_hash::{Fr, HashFamily};
use zkbench_merkle::SparseMerkleTree;
use zkbench_statement::{
    domain_nullifier, note_commitment, nullifier_hash, CircuitKind, MembershipWitness, MerklePath,
    PublicInputs, SpendWitness, StatementConfig, StatementError, TreeShape, Witness,
};

/// A note inserted into a real sparse tree: the spend statement's public
/// root is the tree's root, for several families and arities.
#[test]
fn spend_public_inputs_match_a_sparse_tree() {
    let cases = [
        (HashFamily::Poseidon2, 2usize, 1u64 << 20),
        (HashFamily::Poseidon, 4, 1 << 36),
        (HashFamily::Griffin, 7, 1 << 36),
        (HashFamily::Anemoi, 4, 1000),
    ];
    for (family, arity, leaves) in cases {
        let cfg = StatementConfig {
            arity,
            leaves,
            ..StatementConfig::new(family)
        };
        let shape = cfg.shape().unwrap();
        let hashes = cfg.native_hashes().unwrap();
        let mut tree = SparseMerkleTree::new(
            hashes.native_node().clone(),
            shape.capacity(),
            Fr::from(0u64),
        )
        .unwrap();
        let (n, s) = (Fr::from(11u64), Fr::from(22u64));
        let leaf = note_commitment(&hashes, n, s);
        let index = (shape.capacity() - 3) as u64;
        tree.insert(index, leaf).unwrap();
        tree.insert(5, Fr::from(99u64)).unwrap();
        let mpath = tree.path(index).unwrap();
        let path = MerklePath::from_merkle(&mpath, &shape).unwrap();
        let w = Witness::Spend(SpendWitness {
            nullifier: n,
            secret: s,
            path,
            ext_data_hash: Fr::from(7u64),
        });
        let public = PublicInputs::compute(&hashes, &shape, &w).unwrap();
        assert_eq!(
            public.0,
            vec![tree.root(), nullifier_hash(&hashes, n), Fr::from(7u64)],
            "{family:?} arity {arity}"
        );
        assert_eq!(
            public.0.len(),
            PublicInputs::count(CircuitKind::Spend, &shape)
        );
    }
}

#[test]
fn shapes_are_the_smallest_that_fit() {
    let table = [
        (2, 1u64 << 36, 36),
        (4, 1 << 36, 18),
        (7, 1 << 36, 13),
        (16, 1 << 36, 9),
        (3, 1, 0),
        (3, 10, 3),
    ];
    for (arity, leaves, height) in table {
        assert_eq!(TreeShape::for_leaves(arity, leaves).unwrap().height, height);
    }
    for (arity, leaves) in [(1, 8), (17, 8), (2, 0)] {
        assert!(matches!(
            TreeShape::for_leaves(arity, leaves),
            Err(StatementError::Config(_))
        ));
    }
}

#[test]
fn bad_witnesses_are_errors_not_panics() {
    let cfg = StatementConfig {
        arity: 4,
        leaves: 64,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    let shape = cfg.shape().unwrap();
    let hashes = cfg.native_hashes().unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    // secret equal to the nullifier domain
    let mut w = Witness::random(&mut rng, CircuitKind::Spend, &shape);
    if let Witness::Spend(s) = &mut w {
        s.secret = domain_nullifier();
    }
    assert!(matches!(
        PublicInputs::compute(&hashes, &shape, &w),
        Err(StatementError::Witness(_))
    ));
    // a level with a missing sibling
    let mut path = MerklePath::random(&mut rng, &shape);
    path.siblings[1].pop();
    let w = Witness::Membership(MembershipWitness {
        leaf: Fr::from(1u64),
        path,
    });
    assert!(PublicInputs::compute(&hashes, &shape, &w).is_err());
    // an index beyond the capacity
    let mut path = MerklePath::random(&mut rng, &shape);
    path.index = 64;
    assert!(path.root(&hashes, &shape, Fr::from(1u64)).is_err());
    // a batch of the wrong size
    let batch_cfg = StatementConfig {
        circuit: CircuitKind::BatchRoot,
        ..cfg.clone()
    };
    let w = Witness::BatchRoot(zkbench_statement::BatchWitness {
        leaves: vec![Fr::from(1u64); 3],
    });
    assert!(PublicInputs::compute(&hashes, &batch_cfg.shape().unwrap(), &w).is_err());
    // batches too large for a circuit
    let huge = StatementConfig {
        leaves: 1 << 20,
        ..batch_cfg
    };
    assert!(matches!(huge.shape(), Err(StatementError::Config(_))));
}

#[test]
fn circuit_names_round_trip() {
    for k in CircuitKind::ALL {
        assert_eq!(k.name().parse::<CircuitKind>().unwrap(), k);
    }
    assert!("spent".parse::<CircuitKind>().is_err());
}
