//! Sparse-tree paths across arities 2..=16 and capacities up to 2^36, with
//! tampering and malformed-path checks. Uses the NON-CRYPTOGRAPHIC toy hasher
//! of `common/` (tree logic only; real hashes are in `tornado.rs`).

use crate::common::toy;
use rand::{rngs::StdRng, Rng, SeedableRng};
use zkbench_merkle::{height_for, Fr, MerkleError, MerklePath, SparseMerkleTree};

fn rand_fr(rng: &mut StdRng) -> Fr {
    Fr::from(rng.gen::<u128>())
}

#[test]
fn height_for_values() {
    assert_eq!(height_for(0, 2), 0);
    assert_eq!(height_for(1, 2), 0);
    assert_eq!(height_for(2, 2), 1);
    assert_eq!(height_for(1 << 36, 2), 36);
    assert_eq!(height_for((1 << 36) + 1, 2), 37);
    assert_eq!(height_for(1 << 36, 16), 9);
    assert_eq!(height_for(1 << 36, 3), 23);
    assert_eq!(height_for(1 << 36, 7), 13);
    assert_eq!(height_for(8, 8), 1);
    assert_eq!(height_for(9, 8), 2);
    assert_eq!(height_for(u128::MAX, 2), 128);
}

#[test]
fn random_paths_verify_all_arities_and_capacities() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    for arity in 2..=16usize {
        let h = toy(arity);
        for capacity in [1u128, 2, 1000, 1 << 20, 1 << 36] {
            let mut t = SparseMerkleTree::new(h.clone(), capacity, Fr::from(0u64)).unwrap();
            assert_eq!(t.height(), height_for(capacity, arity));
            let mut inserted = Vec::new();
            for _ in 0..6 {
                let idx = (rng.gen::<u128>() % capacity) as u64;
                let leaf = rand_fr(&mut rng);
                t.insert(idx, leaf).unwrap();
                inserted.retain(|&(i, _)| i != idx);
                inserted.push((idx, leaf));
            }
            // The last and first capacity indices too.
            let last = (capacity - 1) as u64;
            t.insert(last, Fr::from(99u64)).unwrap();
            inserted.retain(|&(i, _)| i != last);
            inserted.push((last, Fr::from(99u64)));
            let root = t.root();
            for &(idx, leaf) in &inserted {
                let p = t.path(idx).unwrap();
                assert_eq!(p.height(), t.height() as usize);
                assert!(
                    p.verify(&leaf, &root, h.as_ref()),
                    "A={arity} cap={capacity} i={idx}"
                );
                assert!(t.verify(&leaf, &p));
            }
            // An empty leaf's path verifies with the empty value.
            if capacity > 1 {
                let empty_idx = (0..capacity as u64).find(|i| inserted.iter().all(|x| x.0 != *i));
                if let Some(e) = empty_idx {
                    assert!(t
                        .path(e)
                        .unwrap()
                        .verify(&Fr::from(0u64), &root, h.as_ref()));
                }
            }
            assert!(matches!(
                t.path(capacity as u64),
                Err(MerkleError::IndexOutOfRange { .. })
            ));
        }
    }
}

#[test]
fn batch_equals_sequential_on_2_pow_36() {
    let mut rng = StdRng::seed_from_u64(7);
    for arity in [2usize, 4, 16] {
        let h = toy(arity);
        let entries: Vec<(u64, Fr)> = (0..500)
            .map(|_| (rng.gen::<u64>() % (1 << 36), rand_fr(&mut rng)))
            .collect();
        let mut a = SparseMerkleTree::with_defaults(h.clone());
        let mut b = SparseMerkleTree::with_defaults(h.clone());
        for &(i, l) in &entries {
            a.insert(i, l).unwrap();
        }
        b.insert_batch(&entries).unwrap();
        assert_eq!(a.root(), b.root());
        assert_eq!(a.stored_nodes(), b.stored_nodes());
        // A bad index anywhere in the batch leaves the tree untouched.
        let before = b.root();
        let bad = [(1u64, Fr::from(5u64)), (1u64 << 36, Fr::from(1u64))];
        assert!(matches!(
            b.insert_batch(&bad),
            Err(MerkleError::IndexOutOfRange { index, capacity })
                if index == 1 << 36 && capacity == 1 << 36
        ));
        assert_eq!(b.root(), before);
    }
}

fn sample(arity: usize) -> (SparseMerkleTree, u64, Fr) {
    let h = toy(arity);
    let mut t = SparseMerkleTree::new(h, 1 << 20, Fr::from(0u64)).unwrap();
    for i in 0..50u64 {
        t.insert(i * 977 % (1 << 20), Fr::from(i + 1)).unwrap();
    }
    let idx = 5 * 977;
    (t, idx, Fr::from(6u64))
}

#[test]
fn tampering_is_rejected() {
    for arity in [2usize, 3, 8, 16] {
        let (t, idx, leaf) = sample(arity);
        let h = t.hasher().clone();
        let root = t.root();
        let p = t.path(idx).unwrap();
        assert!(p.verify(&leaf, &root, h.as_ref()));
        // Wrong leaf, wrong root.
        assert!(!p.verify(&(leaf + Fr::from(1u64)), &root, h.as_ref()));
        assert!(!p.verify(&leaf, &(root + Fr::from(1u64)), h.as_ref()));
        // Every single sibling changed.
        for level in 0..p.siblings.len() {
            for k in 0..arity - 1 {
                let mut q = p.clone();
                q.siblings[level][k] += Fr::from(1u64);
                assert!(!q.verify(&leaf, &root, h.as_ref()), "sibling {level}/{k}");
            }
        }
        // Every position changed (leaf_index kept consistent, so only the root differs).
        for level in 0..p.positions.len() {
            let mut q = p.clone();
            q.positions[level] = ((p.positions[level] as usize + 1) % arity) as u8;
            q.leaf_index = q.index_from_positions().unwrap();
            assert!(q.compute_root(&leaf, h.as_ref()).is_ok());
            assert!(!q.verify(&leaf, &root, h.as_ref()), "position {level}");
        }
        // The path of another leaf.
        let other = t.path(idx + 1).unwrap();
        assert!(!other.verify(&leaf, &root, h.as_ref()));
        // A hasher of another arity.
        let other_h = toy(if arity == 2 { 3 } else { 2 });
        assert!(matches!(
            p.compute_root(&leaf, other_h.as_ref()),
            Err(MerkleError::ArityMismatch { .. })
        ));
        assert!(!p.verify(&leaf, &root, other_h.as_ref()));
    }
}

#[test]
fn malformed_paths_error_without_panicking() {
    let (t, idx, leaf) = sample(4);
    let h = t.hasher().clone();
    let root = t.root();
    let p = t.path(idx).unwrap();
    let check = |q: &MerklePath, what: &str| {
        let r = q.compute_root(&leaf, h.as_ref());
        assert!(r.is_err(), "{what} accepted");
        assert!(!q.verify(&leaf, &root, h.as_ref()));
        r.unwrap_err()
    };

    let mut q = p.clone();
    q.siblings.pop();
    assert!(matches!(
        check(&q, "missing level"),
        MerkleError::Length { .. }
    ));

    let mut q = p.clone();
    q.positions.push(0);
    assert!(matches!(
        check(&q, "extra digit"),
        MerkleError::Length { .. }
    ));

    let mut q = p.clone();
    q.siblings[3].push(Fr::from(1u64));
    assert!(matches!(
        check(&q, "long level"),
        MerkleError::Length {
            expected: 3,
            got: 4,
            ..
        }
    ));

    let mut q = p.clone();
    q.siblings[0].clear();
    assert!(matches!(
        check(&q, "empty level"),
        MerkleError::Length { .. }
    ));

    let mut q = p.clone();
    q.positions[2] = 4;
    assert!(matches!(
        check(&q, "digit = A"),
        MerkleError::PositionOutOfRange {
            level: 2,
            digit: 4,
            arity: 4
        }
    ));
    q.positions[2] = 255;
    assert!(matches!(
        check(&q, "digit 255"),
        MerkleError::PositionOutOfRange { .. }
    ));

    let mut q = p.clone();
    q.leaf_index += 1;
    assert!(matches!(
        check(&q, "index mismatch"),
        MerkleError::LeafIndexMismatch { .. }
    ));

    let mut q = p.clone();
    q.arity = 1;
    assert!(matches!(
        check(&q, "arity 1"),
        MerkleError::UnsupportedArity { arity: 1 }
    ));
    q.arity = 0;
    check(&q, "arity 0");
    q.arity = 17;
    check(&q, "arity 17");

    // 70 levels of digit 3: the encoded index overflows u64.
    let q = MerklePath {
        leaf_index: 0,
        arity: 4,
        siblings: vec![vec![Fr::from(0u64); 3]; 70],
        positions: vec![3; 70],
    };
    assert!(matches!(
        check(&q, "overflow"),
        MerkleError::LeafIndexMismatch { .. }
    ));

    let q = MerklePath {
        leaf_index: 0,
        arity: 4,
        siblings: vec![],
        positions: vec![],
    };
    // Height 0 is a well-formed path whose root is the leaf itself.
    assert_eq!(q.compute_root(&leaf, h.as_ref()).unwrap(), leaf);
}

#[test]
fn json_round_trip_and_malformed_json() {
    let (t, idx, leaf) = sample(3);
    let h = t.hasher().clone();
    let p = t.path(idx).unwrap();
    let json = p.to_json();
    assert!(
        json.contains("\"siblings\":[[\""),
        "field elements are decimal strings: {json}"
    );
    let back = MerklePath::from_json(&json).unwrap();
    assert_eq!(back, p);
    assert!(back.verify(&leaf, &t.root(), h.as_ref()));
    assert!(matches!(
        MerklePath::from_json("{\"leaf_index\":1}"),
        Err(MerkleError::Json(_))
    ));
    let bad = json.replacen("\"siblings\":[[\"", "\"siblings\":[[\"x", 1);
    assert!(matches!(
        MerklePath::from_json(&bad),
        Err(MerkleError::Json(_))
    ));
    // A digit that does not fit u8 is a JSON error, not a panic.
    let bad = json.replacen("\"positions\":[", "\"positions\":[300,", 1);
    assert!(MerklePath::from_json(&bad).is_err());
}

#[test]
fn memory_is_proportional_to_inserted_leaves() {
    let mut rng = StdRng::seed_from_u64(3);
    for arity in [2usize, 5, 16] {
        let mut t = SparseMerkleTree::with_defaults(toy(arity));
        let hp1 = t.height() as usize + 1;
        for n in 1..=300usize {
            t.insert(rng.gen::<u64>() % (1 << 36), Fr::from(n as u64))
                .unwrap();
            assert!(t.stored_nodes() <= t.len() * hp1);
        }
        assert!(t.len() <= 300);
        assert!(t.stored_nodes() >= t.len() + t.height() as usize);
        // Independent of the capacity: the same leaves on a 2^20 tree store
        // no more nodes per leaf than its height allows.
        let mut small = SparseMerkleTree::new(toy(arity), 1 << 20, Fr::from(0u64)).unwrap();
        small
            .insert_batch(&[(0, Fr::from(1u64)), (1, Fr::from(2u64))])
            .unwrap();
        assert!(small.stored_nodes() <= 2 * (small.height() as usize + 1));
    }
}
