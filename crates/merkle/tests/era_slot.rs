//! Era/slot tree (Guo et al.) vs. one tree of depth d_slot + d_era (Theorem 2),
//! with the NON-CRYPTOGRAPHIC toy hasher of `common/` (tree logic only).

use crate::common::toy;
use rand::{rngs::StdRng, Rng, SeedableRng};
use zkbench_merkle::{EraSlotPath, EraSlotTree, Fr, SparseMerkleTree};

#[test]
fn seed_configuration_slot5_era20_equals_depth_25_tree() {
    let mut rng = StdRng::seed_from_u64(25);
    let h = toy(2);
    let empty = Fr::from(0u64);
    let mut es = EraSlotTree::new(h.clone(), 5, 20, empty).unwrap();
    let mut flat = SparseMerkleTree::with_height(h.clone(), 25, empty).unwrap();
    assert_eq!(es.slot_size(), 32);
    assert_eq!(es.root(), flat.root());
    for s in 0..4u64 {
        let leaves: Vec<Fr> = (0..32).map(|_| Fr::from(rng.gen::<u128>())).collect();
        assert_eq!(es.commit_slot(&leaves).unwrap(), s);
        let batch: Vec<_> = leaves
            .iter()
            .enumerate()
            .map(|(i, l)| (s * 32 + i as u64, *l))
            .collect();
        flat.insert_batch(&batch).unwrap();
        assert_eq!(es.root(), flat.root());
        assert!(es.is_known_root(&flat.root()));
    }
    let root = es.root();
    for s in 0..4u64 {
        let leaves = es.slot_leaves(s).unwrap().to_vec();
        for i in [0u64, 7, 31] {
            let p = es.path(s, i).unwrap();
            let leaf = leaves[i as usize];
            assert!(p.verify(&leaf, &root, h.as_ref()));
            assert_eq!(
                p.slot_root(&leaf, h.as_ref()).unwrap(),
                es.slot_root(&leaves).unwrap()
            );
            let flat_path = p.flatten().unwrap();
            assert_eq!(flat_path, flat.path(s * 32 + i).unwrap());
            assert!(flat_path.verify(&leaf, &root, h.as_ref()));
            // Wrong leaf, tampered slot or era level, wrong root.
            assert!(!p.verify(&(leaf + Fr::from(1u64)), &root, h.as_ref()));
            let mut q = p.clone();
            q.slot_path.siblings[4][0] += Fr::from(1u64);
            assert!(!q.verify(&leaf, &root, h.as_ref()));
            let mut q = p.clone();
            q.era_path.siblings[19][0] += Fr::from(1u64);
            assert!(!q.verify(&leaf, &root, h.as_ref()));
            assert!(!p.verify(&leaf, &(root + Fr::from(1u64)), h.as_ref()));
            // Malformed: a missing level errors instead of panicking.
            let mut q = p.clone();
            q.era_path.positions.pop();
            assert!(q.compute_root(&leaf, h.as_ref()).is_err());
            // JSON round trip.
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<EraSlotPath>(&json).unwrap(), p);
        }
    }
}

#[test]
fn a_ary_era_slot_trees() {
    let mut rng = StdRng::seed_from_u64(9);
    for arity in [3usize, 4, 8, 16] {
        let h = toy(arity);
        let (ds, de) = (2u32, 3u32);
        let empty = Fr::from(123u64);
        let mut es = EraSlotTree::new(h.clone(), ds, de, empty).unwrap();
        let mut flat = SparseMerkleTree::with_height(h.clone(), ds + de, empty).unwrap();
        let size = es.slot_size() as u64;
        for s in 0..(arity as u64 + 1) {
            let leaves: Vec<Fr> = (0..size).map(|_| Fr::from(rng.gen::<u64>())).collect();
            es.commit_slot(&leaves).unwrap();
            let batch: Vec<_> = leaves
                .iter()
                .enumerate()
                .map(|(i, l)| (s * size + i as u64, *l))
                .collect();
            flat.insert_batch(&batch).unwrap();
            assert_eq!(es.root(), flat.root(), "A={arity} slot {s}");
            let i = rng.gen_range(0..size);
            let p = es.path(s, i).unwrap();
            assert!(p.verify(&leaves[i as usize], &es.root(), h.as_ref()));
            assert_eq!(p.flatten().unwrap(), flat.path(s * size + i).unwrap());
        }
    }
}
