//! Known-answer tests for MiMC-7 (`testdata/mimc7.json`, generated with circomlibjs 0.1.7).

use serde_json::Value;
use zkbench_hash::{
    mimc7::{self, Mimc7Bn254, Mimc7Hasher},
    parse_fr, FieldHasher, Fr, HashFamily, Permutation,
};

const DOC: &str = include_str!("../../../testdata/mimc7.json");

fn frs(v: &Value) -> Vec<Fr> {
    v.as_array()
        .expect("array of field elements")
        .iter()
        .map(|x| parse_fr(x.as_str().expect("field element as string")).unwrap())
        .collect()
}

fn cases(mode: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(DOC).unwrap();
    assert_eq!(v["family"], "mimc7");
    let all = v["cases"].as_array().unwrap().clone();
    let mut names: Vec<&str> = all.iter().map(|c| c["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len(), "case names must be unique");
    all.into_iter().filter(|c| c["mode"] == mode).collect()
}

fn key(c: &Value) -> Fr {
    parse_fr(c["key"].as_str().unwrap()).unwrap()
}

#[test]
fn hash_cases() {
    let cs = cases("hash");
    assert!(cs.len() >= 5);
    for c in &cs {
        let name = c["name"].as_str().unwrap();
        let input = frs(&c["input"]);
        let expected = frs(&c["output"]);
        let k = key(c);
        assert_eq!(mimc7::hash(input[0], k), expected[0], "case {name}");
        let perm = Mimc7Bn254::with_key(k);
        assert_eq!(
            perm.permute(&input).unwrap(),
            expected,
            "case {name} (Permutation)"
        );
    }
}

#[test]
fn multi_hash_cases() {
    let cs = cases("multi_hash");
    assert!(cs.len() >= 10);
    for c in &cs {
        let name = c["name"].as_str().unwrap();
        let input = frs(&c["input"]);
        let expected = frs(&c["output"])[0];
        let k = key(c);
        assert_eq!(mimc7::multi_hash(&input, k), expected, "case {name}");
        assert_eq!(
            Mimc7Hasher::new(k).hash(&input).unwrap(),
            expected,
            "case {name} (FieldHasher)"
        );
        if k == Fr::from(0u64) && (2..=16).contains(&input.len()) {
            let node = HashFamily::Mimc7.node_hasher(input.len(), None).unwrap();
            assert_eq!(node.hash_node(&input), expected, "case {name} (NodeHasher)");
        }
    }
}

#[test]
fn round_constants_match_generator() {
    let v: Value = serde_json::from_str(DOC).unwrap();
    let rc = &v["round_constants"];
    assert_eq!(rc["rounds"].as_u64().unwrap() as usize, mimc7::ROUNDS);
    let cts = Mimc7Bn254::round_constants();
    for (i, c) in rc["selected"].as_object().unwrap() {
        let i: usize = i.parse().unwrap();
        assert_eq!(cts[i], parse_fr(c.as_str().unwrap()).unwrap(), "c_{i}");
    }
}
