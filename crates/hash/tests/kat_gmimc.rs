//! Known-answer tests for `gmimc` (testdata/gmimc.json).
//!
//! Sources per case (see each case's `source`): permutation and `zklib_compress2`
//! outputs come from hanzeG/zklib_circom's own JS reference (seed 003) and agree with
//! the independent Python re-implementation `scripts/gen-testdata/gmimc_neptune.py`;
//! `node` (sponge Merkle node) outputs come from that Python script only.

use serde_json::Value;
use zkbench_hash::gmimc::{self, GmimcErfBn254};
use zkbench_hash::{parse_fr, Fr};

const DATA: &str = include_str!("../../../testdata/gmimc.json");

fn cases(mode: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(DATA).expect("valid JSON");
    assert_eq!(v["family"], "gmimc");
    let all: Vec<Value> = v["cases"].as_array().expect("cases").clone();
    let picked: Vec<Value> = all.into_iter().filter(|c| c["mode"] == mode).collect();
    assert!(!picked.is_empty(), "no {mode} cases");
    picked
}

fn frs(v: &Value) -> Vec<Fr> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| parse_fr(x.as_str().expect("string")).expect("field element"))
        .collect()
}

#[test]
fn kat_gmimc_permutation() {
    for c in cases("permutation") {
        let name = c["name"].as_str().unwrap();
        let width = c["width"].as_u64().unwrap() as usize;
        let p = gmimc::permutation(width).unwrap();
        let got = p.permute(&frs(&c["input"])).unwrap();
        assert_eq!(got, frs(&c["output"]), "case {name}");
    }
}

#[test]
fn kat_gmimc_node() {
    for c in cases("node") {
        let name = c["name"].as_str().unwrap();
        let arity = c["arity"].as_u64().unwrap() as usize;
        let h = gmimc::node_hasher(arity).unwrap();
        assert_eq!(
            h.hash_node(&frs(&c["input"])),
            frs(&c["output"])[0],
            "case {name}"
        );
    }
}

#[test]
fn kat_gmimc_zklib_compress2() {
    let p = GmimcErfBn254::instance(3).unwrap();
    for c in cases("zklib_compress2") {
        let name = c["name"].as_str().unwrap();
        let i = frs(&c["input"]);
        assert_eq!(
            p.zklib_compress2(i[0], i[1]),
            frs(&c["output"])[0],
            "case {name}"
        );
    }
}
