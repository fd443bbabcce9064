//! A proof's inputs from a dapp's JSON (`zkbench_wasm::inputs`): the Merkle
//! path of a leaf among given members agrees with zkbench's native tree, the
//! proof made from those inputs verifies for that root, and bad inputs give
//! errors that name the field.

use serde_json::json;
use zkbench_hash::Fr;
use zkbench_statement::{MerklePath, StatementConfig};
use zkbench_wasm::{session, ProveConfig, Session};

fn membership(system: &str, arity: usize, leaves: u64) -> ProveConfig {
    ProveConfig {
        system: system.into(),
        hash: "poseidon".into(),
        alpha: None,
        arity,
        leaves,
        circuit: "membership".into(),
    }
}

fn fr(v: &serde_json::Value) -> Fr {
    session::public_from_decimals(&[v.as_str().unwrap().to_string()])
        .unwrap()
        .0[0]
}

/// The root and siblings `membership_inputs` gives recompute, through
/// `zkbench-statement`'s path (zkbench-merkle's verification), to the same root.
#[test]
fn membership_inputs_match_the_native_path() {
    for (arity, leaves, members, index) in [(2, 16, 5, 3u64), (4, 64, 7, 6), (2, 8, 8, 7)] {
        let c = membership("groth16", arity, leaves);
        let s = Session::new(&c).unwrap();
        let list: Vec<_> = (0..members)
            .map(|i| json!((i * 1000 + 17).to_string()))
            .collect();
        let out = s.membership_inputs(&list, index).unwrap();
        let st: StatementConfig = c.statement().unwrap();
        let siblings: Vec<Vec<Fr>> = out["inputs"]["siblings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_array().unwrap().iter().map(fr).collect())
            .collect();
        let path = MerklePath { index, siblings };
        let root = path
            .root(
                &st.native_hashes().unwrap(),
                &st.shape().unwrap(),
                fr(&out["inputs"]["leaf"]),
            )
            .unwrap();
        assert_eq!(
            root,
            fr(&out["root"]),
            "arity {arity}, {members} members, index {index}"
        );
        assert_eq!(
            out["inputs"]["leaf"],
            json!((index * 1000 + 17).to_string())
        );
    }
}

/// Inputs typed by a user prove membership: the proof verifies, its public
/// input is the root `membership_inputs` gave, and its snarkjs JSON carries it.
#[test]
fn a_proof_from_inputs_verifies_for_their_root() {
    let c = membership("groth16", 2, 16);
    let mut s = Session::new(&c).unwrap();
    s.setup(3).unwrap();
    let out = s
        .membership_inputs(&[json!("11"), json!(22), json!("0x21")], 2)
        .unwrap();
    s.witness_from_inputs(&out["inputs"]).unwrap();
    s.prove().unwrap();
    assert!(s.verify().unwrap());
    assert_eq!(s.public_inputs().unwrap().0, vec![fr(&out["root"])]);
    assert_eq!(out["inputs"]["leaf"], json!("33"), "0x21 is 33");
    let sj = s.snarkjs_json().unwrap();
    assert_eq!(sj["public"], json!([out["root"]]));
    assert_eq!(
        sj["verification_key"],
        s.snarkjs_verification_key().unwrap()
    );
    // a binary level may be given as one value instead of a one-element array
    let mut flat = out["inputs"].clone();
    flat["siblings"] = json!(flat["siblings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l[0].clone())
        .collect::<Vec<_>>());
    s.witness_from_inputs(&flat).unwrap();
    assert_eq!(s.public_inputs().unwrap().0, vec![fr(&out["root"])]);
}

/// Bad inputs: each error names what is wrong and what is accepted.
#[test]
fn bad_inputs_name_the_field() {
    let c = membership("groth16", 2, 4);
    let mut s = Session::new(&c).unwrap();
    let ok = json!({"leaf": "1", "index": 1, "siblings": ["2", "3"]});
    s.witness_from_inputs(&ok).unwrap();
    let cases = [
        (json!([1, 2]), "expected a JSON object"),
        (json!({"index": 1, "siblings": ["2", "3"]}), "need `leaf`"),
        (
            json!({"leaf": "1", "index": 1, "siblings": ["2", "3"], "root": "5"}),
            "unknown field `root`",
        ),
        (
            json!({"leaf": "x1", "index": 1, "siblings": ["2", "3"]}),
            "leaf: \"x1\" is not a field element",
        ),
        (
            json!({"leaf": "1", "index": 4, "siblings": ["2", "3"]}),
            "index 4 is outside the tree",
        ),
        (
            json!({"leaf": "1", "index": -1, "siblings": ["2", "3"]}),
            "index: -1 is not a non-negative integer",
        ),
        (
            json!({"leaf": "1", "index": 0, "siblings": ["2"]}),
            "needs 2 levels of siblings; got 1",
        ),
        (
            json!({"leaf": "1", "index": 0, "siblings": [["2", "4"], "3"]}),
            "siblings[0]: arity 2 has 1 siblings a level; got 2",
        ),
        (
            json!({"leaf": "21888242871839275222246405745257275088548364400416034343698204186575808495617", "index": 0, "siblings": ["2", "3"]}),
            "leaf is not below the BN254 scalar modulus",
        ),
    ];
    for (inputs, want) in cases {
        let e = s.witness_from_inputs(&inputs).unwrap_err().to_string();
        assert!(e.contains(want), "{inputs}: got {e:?}, want {want:?}");
    }
    for (members, index, want) in [
        (vec![], 0, "between 1 and 4 leaves; got 0"),
        (vec![json!(1); 5], 0, "got 5"),
        (vec![json!(1)], 1, "index 1 is not one of the 1 leaves"),
    ] {
        let e = s
            .membership_inputs(&members, index)
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "got {e:?}, want {want:?}");
    }
}
