//! Tornado Cash vectors with the real MiMCSponge node hasher
//! (`HashFamily::MimcSponge.node_hasher(2, None)`, tornado-core's hashLeftRight).
//!
//! `testdata/tornado.json` (made by the mimc helper with
//! `scripts/gen-testdata/mimc.js`): tornado-core
//! `contracts/MerkleTreeWithHistory.sol` @ 1ef6a263 hard-coded `zeros(i)`,
//! i = 0..=31, cross-checked there against circomlibjs@0.1.7.
//!
//! `testdata/merkle_tornado.json` (`scripts/gen-testdata/merkle/tornado_tree.js`):
//! roots and paths of Tornado trees with leaves 1..=n computed by
//! fixed-merkle-tree@0.7.3 (npm, the off-chain tree tornado-core's tests
//! compare the contract with) hashing with circomlibjs@0.1.7 MiMCSponge.

use serde_json::Value;
use zkbench_hash::{parse_fr, HashFamily};
use zkbench_merkle::{
    tornado_zero_value, EraSlotTree, Fr, IncrementalMerkleTree, SparseMerkleTree,
};

const TORNADO: &str = include_str!("../../../testdata/tornado.json");
const TREES: &str = include_str!("../../../testdata/merkle_tornado.json");

/// `zeros(i)` from the table, indexed by level.
fn tornado_zeros() -> Vec<Fr> {
    let v: Value = serde_json::from_str(TORNADO).unwrap();
    let mut out = Vec::new();
    for case in v["cases"].as_array().unwrap() {
        let level = case["level"].as_u64().unwrap() as usize;
        let name = case["name"].as_str().unwrap();
        assert_eq!(name, format!("zeros_{level}"));
        assert_eq!(level, out.len(), "cases in level order");
        out.push(parse_fr(case["output"][0].as_str().unwrap()).unwrap());
    }
    assert_eq!(out.len(), 32);
    out
}

#[test]
fn tornado_zeros_and_empty_roots() {
    let mimc = HashFamily::MimcSponge.node_hasher(2, None).unwrap();
    let zeros = tornado_zeros();
    assert_eq!(
        tornado_zero_value(),
        zeros[0],
        "zeros_0 = keccak256(\"tornado\") mod r"
    );
    let t = IncrementalMerkleTree::tornado(mimc.clone(), 31).unwrap();
    for (i, z) in zeros.iter().enumerate() {
        assert_eq!(t.zeros(i).unwrap(), *z, "zeros_{i}");
    }
    for levels in [1u32, 2, 5, 20, 31] {
        let inc = IncrementalMerkleTree::tornado(mimc.clone(), levels).unwrap();
        assert_eq!(
            inc.root(),
            zeros[levels as usize],
            "empty root, {levels} levels"
        );
        let sp = SparseMerkleTree::with_height(mimc.clone(), levels, tornado_zero_value()).unwrap();
        assert_eq!(
            sp.root(),
            zeros[levels as usize],
            "sparse empty root, {levels} levels"
        );
    }
}

#[test]
fn tornado_inserts_match_sparse_tree_with_mimc() {
    // tornado-core test/MerkleTreeWithHistory.test.js "should insert" inserts
    // leaves 1..=n and compares the contract root with fixed-merkle-tree's;
    // here the sparse tree (independent code path) plays fixed-merkle-tree.
    let mimc = HashFamily::MimcSponge.node_hasher(2, None).unwrap();
    let mut inc = IncrementalMerkleTree::tornado(mimc.clone(), 20).unwrap();
    let mut sp = SparseMerkleTree::with_height(mimc.clone(), 20, tornado_zero_value()).unwrap();
    for i in 1..=12u64 {
        inc.insert(Fr::from(i)).unwrap();
        sp.insert(i - 1, Fr::from(i)).unwrap();
        assert_eq!(inc.root(), sp.root());
        assert!(inc.is_known_root(&sp.root()));
    }
    for i in 0..12u64 {
        let p = inc.path(i).unwrap();
        assert!(p.verify(&Fr::from(i + 1), &inc.root(), mimc.as_ref()));
        assert!(!p.verify(&Fr::from(i + 2), &inc.root(), mimc.as_ref()));
    }
}

#[test]
fn seed_era_slot_with_mimc() {
    // Guo et al.'s configuration (MiMCSponge, d_slot = 5, d_era = 20) with
    // Tornado's zero leaf: the era root equals a depth-25 Tornado tree's.
    let mimc = HashFamily::MimcSponge.node_hasher(2, None).unwrap();
    let zeros = tornado_zeros();
    let mut es = EraSlotTree::new(mimc.clone(), 5, 20, tornado_zero_value()).unwrap();
    assert_eq!(es.root(), zeros[25]);
    let mut flat = IncrementalMerkleTree::tornado(mimc.clone(), 25).unwrap();
    let leaves: Vec<Fr> = (1..=32u64).map(Fr::from).collect();
    es.commit_slot(&leaves).unwrap();
    flat.insert_many(&leaves).unwrap();
    assert_eq!(es.root(), flat.root());
    let p = es.path(0, 17).unwrap();
    assert!(p.verify(&Fr::from(18u64), &es.root(), mimc.as_ref()));
    assert_eq!(p.flatten().unwrap(), flat.path(17).unwrap());
}

#[test]
fn fixed_merkle_tree_roots_and_paths() {
    let mimc = HashFamily::MimcSponge.node_hasher(2, None).unwrap();
    let v: Value = serde_json::from_str(TREES).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 7);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let levels = case["levels"].as_u64().unwrap() as u32;
        let zero = parse_fr(case["zero_value"].as_str().unwrap()).unwrap();
        assert_eq!(zero, tornado_zero_value(), "{name}");
        let leaves: Vec<Fr> = case["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| parse_fr(x.as_str().unwrap()).unwrap())
            .collect();
        let root = parse_fr(case["root"].as_str().unwrap()).unwrap();

        let mut inc = IncrementalMerkleTree::tornado(mimc.clone(), levels).unwrap();
        inc.insert_many(&leaves).unwrap();
        assert_eq!(inc.root(), root, "{name}: incremental root");

        let mut sp = SparseMerkleTree::with_height(mimc.clone(), levels, zero).unwrap();
        let batch: Vec<_> = leaves
            .iter()
            .enumerate()
            .map(|(i, l)| (i as u64, *l))
            .collect();
        sp.insert_batch(&batch).unwrap();
        assert_eq!(sp.root(), root, "{name}: sparse root");

        for p in case["paths"].as_array().unwrap() {
            let index = p["index"].as_u64().unwrap();
            let elements: Vec<Fr> = p["path_elements"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| parse_fr(x.as_str().unwrap()).unwrap())
                .collect();
            let indices: Vec<u8> = p["path_indices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u8)
                .collect();
            for path in [inc.path(index).unwrap(), sp.path(index).unwrap()] {
                assert_eq!(path.positions, indices, "{name} index {index}");
                let sib: Vec<Fr> = path.siblings.iter().map(|s| s[0]).collect();
                assert_eq!(sib, elements, "{name} index {index}");
                assert!(path.verify(&leaves[index as usize], &root, mimc.as_ref()));
            }
        }
    }
}
