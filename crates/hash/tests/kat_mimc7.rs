//! Known-answer tests for MiMC-7 (`testdata/mimc7.json`, generated with circomlibjs 0.1.7).

use crate::common::{fr, KatFile};
use zkbench_hash::{
    mimc7::{self, Mimc7Bn254, Mimc7Hasher},
    FieldHasher, Fr, HashFamily, Permutation,
};

fn load() -> KatFile {
    kat_file!("mimc7", "mimc7")
}

#[test]
fn hash_cases() {
    load().run("hash", 9, |c| {
        let input = c.input();
        let expected = c.output();
        let k = c.key();
        assert_eq!(mimc7::hash(input[0], k), expected[0], "mimc7::hash");
        let perm = Mimc7Bn254::with_key(k);
        assert_eq!(perm.permute(&input).unwrap(), expected, "Permutation");
    });
}

#[test]
fn multi_hash_cases() {
    load().run("multi_hash", 28, |c| {
        let input = c.input();
        let expected = c.output()[0];
        let k = c.key();
        assert_eq!(mimc7::multi_hash(&input, k), expected, "multi_hash");
        assert_eq!(
            Mimc7Hasher::new(k).hash(&input).unwrap(),
            expected,
            "FieldHasher"
        );
        if k == Fr::from(0u64) && (2..=16).contains(&input.len()) {
            let node = HashFamily::Mimc7.node_hasher(input.len(), None).unwrap();
            assert_eq!(node.hash_node(&input), expected, "NodeHasher");
        }
    });
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&["hash", "multi_hash"]);
}

#[test]
fn round_constants_match_generator() {
    let file = load();
    let rc = &file.extra["round_constants"];
    assert_eq!(rc["rounds"].as_u64().unwrap() as usize, mimc7::ROUNDS);
    let cts = Mimc7Bn254::round_constants();
    for (i, c) in rc["selected"].as_object().unwrap() {
        let i: usize = i.parse().unwrap();
        assert_eq!(cts[i], fr(c.as_str().unwrap()), "c_{i}");
    }
}
