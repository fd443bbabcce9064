//! Known-answer tests for Anemoi / Jive over BN254 Fr (`testdata/anemoi.json`).
//!
//! Modes: `permutation` (state `x ‖ y` in, full state out), `jive` (input `x ‖ y`,
//! one output), `sponge_hash` and `stream_cipher` (noah's variable-length sponge;
//! `output` holds the squeezed words). `width` selects the instance (2: l = 1, 4: l = 2).
//! Each case carries its source; see the JSON file.

use serde_json::Value;
use zkbench_hash::anemoi::{self, AnemoiBn254};
use zkbench_hash::{parse_fr, Fr, Permutation};

const KAT: &str = include_str!("../../../testdata/anemoi.json");

struct Case {
    name: String,
    width: usize,
    input: Vec<Fr>,
    output: Vec<Fr>,
}

fn cases(mode: &str) -> Vec<Case> {
    let doc: Value = serde_json::from_str(KAT).expect("valid JSON");
    assert_eq!(doc["family"], "anemoi");
    let fr_list = |v: &Value| -> Vec<Fr> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|s| parse_fr(s.as_str().expect("string")).expect("field element"))
            .collect()
    };
    let out: Vec<Case> = doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["mode"] == mode)
        .map(|c| {
            assert_eq!(c["alpha"], 5);
            assert!(c["source"].as_str().is_some_and(|s| !s.is_empty()));
            Case {
                name: c["name"].as_str().expect("name").to_string(),
                width: c["width"].as_u64().expect("width") as usize,
                input: fr_list(&c["input"]),
                output: fr_list(&c["output"]),
            }
        })
        .collect();
    assert!(!out.is_empty(), "no {mode} cases");
    out
}

fn instance(width: usize) -> &'static AnemoiBn254 {
    AnemoiBn254::with_columns(width / 2).expect("supported width")
}

#[test]
fn kat_permutation() {
    for c in cases("permutation") {
        let perm = anemoi::permutation(c.width).expect("width");
        assert_eq!(perm.permute(&c.input).unwrap(), c.output, "case {}", c.name);
    }
}

#[test]
fn kat_jive() {
    for c in cases("jive") {
        let l = c.width / 2;
        let (x, y) = c.input.split_at(l);
        assert_eq!(vec![anemoi::jive(x, y)], c.output, "case {}", c.name);
        assert_eq!(
            vec![instance(c.width).jive(x, y)],
            c.output,
            "case {}",
            c.name
        );
    }
}

#[test]
fn kat_sponge_hash() {
    for c in cases("sponge_hash") {
        let got = instance(c.width).sponge_hash(&c.input);
        assert_eq!(vec![got], c.output, "case {}", c.name);
    }
}

#[test]
fn kat_stream_cipher() {
    for c in cases("stream_cipher") {
        let inst = instance(c.width);
        for n in 1..=c.output.len() {
            assert_eq!(
                inst.stream_cipher(&c.input, n),
                c.output[..n].to_vec(),
                "case {} (first {n} words)",
                c.name
            );
        }
    }
}

/// The Merkle node hashers for arity 2, 3, 4 are the Jive cases above.
#[test]
fn node_hashers_are_jive() {
    let f = |v: u64| Fr::from(v);
    let h2 = anemoi::node_hasher(2).unwrap();
    assert_eq!(h2.hash_node(&[f(1), f(2)]), anemoi::jive(&[f(1)], &[f(2)]));
    let h3 = anemoi::node_hasher(3).unwrap();
    assert_eq!(
        h3.hash_node(&[f(1), f(2), f(3)]),
        anemoi::jive(&[f(1), f(2)], &[f(3), f(0)])
    );
    let h4 = anemoi::node_hasher(4).unwrap();
    assert_eq!(
        h4.hash_node(&[f(1), f(2), f(3), f(4)]),
        anemoi::jive(&[f(1), f(2)], &[f(3), f(4)])
    );
    // noah test_jive through the ternary node hasher
    let noah = cases("jive")
        .into_iter()
        .find(|c| c.name == "jive_l2_noah_test_jive")
        .unwrap();
    assert_eq!(h3.hash_node(&noah.input[..3]), noah.output[0]);
    let p = AnemoiBn254::l2();
    assert_eq!(p.width(), 4);
}
