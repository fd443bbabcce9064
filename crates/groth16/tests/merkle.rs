//! Witnesses from real `zkbench-merkle` sparse trees: the statement's native
//! root equals the tree's root and the circuit proves it.

use std::sync::Arc;

use ark_ff::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{
    statement::{note_commitment, SpendWitness},
    verify, Circuit, MerklePath, SpendConfig, Witness,
};
use zkbench_hash::{Fr, HashFamily};
use zkbench_merkle::SparseMerkleTree;

#[test]
fn spend_from_a_sparse_tree() {
    let mut rng = ChaCha20Rng::seed_from_u64(41);
    for (family, arity) in [
        (HashFamily::Poseidon, 2),
        (HashFamily::Poseidon2, 4),
        (HashFamily::Griffin, 7),
    ] {
        let cfg = SpendConfig {
            arity,
            ..SpendConfig::new(family)
        };
        let c = Circuit::new(&cfg).unwrap();
        let hasher = family.node_hasher(arity, None).unwrap();
        let mut tree = SparseMerkleTree::new(Arc::clone(&hasher), 1 << 36, Fr::from(0u64)).unwrap();
        assert_eq!(tree.height() as usize, c.shape().height);
        let (n, s) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
        let leaf = note_commitment(c.backend().native(), n, s);
        let index = 123_456_789u64;
        tree.insert(index, leaf).unwrap();
        tree.insert(5, Fr::rand(&mut rng)).unwrap();
        let path = MerklePath::from_merkle(&tree.path(index).unwrap(), c.shape()).unwrap();
        let w = Witness::Spend(SpendWitness {
            nullifier: n,
            secret: s,
            path,
            ext_data_hash: Fr::from(42u64),
        });
        let public = c.public_inputs(&w).unwrap();
        assert_eq!(public.0[0], tree.root(), "{family} arity {arity}");
        if family == HashFamily::Griffin {
            let keys = c.setup(2).unwrap();
            let (proof, p2, _) = c.prove(&keys, &w, &mut rng).unwrap();
            assert_eq!(p2, public);
            assert!(verify(&keys.pvk, &public, &proof).unwrap());
        }
    }
}
