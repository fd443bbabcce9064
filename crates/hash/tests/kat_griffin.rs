//! Known-answer tests for Griffin (`testdata/griffin.json`): the test vectors of
//! TaceoLabs/noir-griffin (`src/bn254/perm.nr`, `src/lib.nr`) and the shared reference.

use serde_json::Value;
use zkbench_hash::griffin::{self, GriffinHasher};
use zkbench_hash::{parse_fr, FieldHasher, Fr};

const KAT: &str = include_str!("../../../testdata/griffin.json");

fn frs(v: &Value) -> Vec<Fr> {
    v.as_array()
        .expect("array of field elements")
        .iter()
        .map(|x| parse_fr(x.as_str().expect("string")).expect("field element"))
        .collect()
}

fn cases(mode: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(KAT).expect("valid JSON");
    assert_eq!(doc["family"], "griffin");
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["mode"] == mode)
        .cloned()
        .collect()
}

#[test]
fn kat_griffin_permutation() {
    let cases = cases("permutation");
    assert!(cases.len() >= 7);
    for c in &cases {
        let name = c["name"].as_str().unwrap();
        let width = c["width"].as_u64().unwrap() as usize;
        assert_eq!(c["alpha"], 5, "{name}");
        let perm = griffin::permutation(width).unwrap();
        let got = perm.permute(&frs(&c["input"])).unwrap();
        assert_eq!(got, frs(&c["output"]), "case {name}");
    }
}

#[test]
fn kat_griffin_hash() {
    let cases = cases("hash");
    assert_eq!(cases.len(), 3);
    for c in &cases {
        let name = c["name"].as_str().unwrap();
        let width = c["width"].as_u64().unwrap() as usize;
        let got = GriffinHasher::new(width)
            .unwrap()
            .hash(&frs(&c["input"]))
            .unwrap();
        assert_eq!(vec![got], frs(&c["output"]), "case {name}");
    }
}
