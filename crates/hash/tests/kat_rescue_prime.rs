//! Known-answer tests for Rescue-Prime (`testdata/rescue_prime.json`).
//!
//! No published BN254 vector exists; the cases come from a plain-Python port of
//! KULeuven-COSIC/Marvellous `rescue_prime.sage` (validated on the STARK-Anatomy
//! instance) and from the project's shared reference file. See each case's `source`.

use serde_json::Value;
use zkbench_hash::rescue_prime::{self, RescuePrimeHasher};
use zkbench_hash::{parse_fr, FieldHasher, Fr};

const KAT: &str = include_str!("../../../testdata/rescue_prime.json");

fn frs(v: &Value) -> Vec<Fr> {
    v.as_array()
        .expect("array of field elements")
        .iter()
        .map(|x| parse_fr(x.as_str().expect("string")).expect("field element"))
        .collect()
}

fn cases(mode: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(KAT).expect("valid JSON");
    assert_eq!(doc["family"], "rescue-prime");
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["mode"] == mode)
        .cloned()
        .collect()
}

#[test]
fn kat_rescue_prime_permutation() {
    let cases = cases("permutation");
    assert!(cases.len() >= 10);
    for c in &cases {
        let name = c["name"].as_str().unwrap();
        let width = c["width"].as_u64().unwrap() as usize;
        assert_eq!(c["alpha"], 5, "{name}");
        let perm = rescue_prime::permutation(width).unwrap();
        let got = perm.permute(&frs(&c["input"])).unwrap();
        assert_eq!(got, frs(&c["output"]), "case {name}");
    }
}

#[test]
fn kat_rescue_prime_hash() {
    let cases = cases("hash");
    assert!(cases.len() >= 10);
    for c in &cases {
        let name = c["name"].as_str().unwrap();
        let width = c["width"].as_u64().unwrap() as usize;
        let h = RescuePrimeHasher::new(width).unwrap();
        let got = h.hash(&frs(&c["input"])).unwrap();
        assert_eq!(vec![got], frs(&c["output"]), "case {name}");
    }
}
