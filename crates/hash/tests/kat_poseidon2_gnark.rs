//! Known-answer tests for `poseidon2-gnark` (`testdata/poseidon2_gnark.json`,
//! generated from gnark-crypto v0.22.0 by `scripts/gen-testdata/poseidon2-gnark`):
//! the permutation, every round key of the Keccak chain, gnark's `Compress`, its
//! Merkle–Damgård hash and binary Merkle roots.

use crate::common::KatFile;
use zkbench_hash::poseidon2_gnark::{self, GnarkMerkleDamgard};
use zkbench_hash::{FieldHasher, HashFamily};

fn load() -> KatFile {
    kat_file!("poseidon2_gnark", "poseidon2-gnark")
}

#[test]
fn permutation_cases() {
    load().run("permutation", 3, |c| {
        let registry = HashFamily::Poseidon2Gnark
            .permutation(Some(2), None)
            .unwrap();
        c.assert_permutation(
            |s| poseidon2_gnark::instance().permute_in_place(s),
            registry.as_ref(),
        );
    });
}

/// Round keys in gnark's order: `R_F/2 · t` external, `R_P` internal, `R_F/2 · t` external.
#[test]
fn round_constant_cases() {
    load().run("round_constants", 1, |c| {
        let inst = poseidon2_gnark::instance();
        assert_eq!(inst.round_constants_in_order(), c.output());
    });
}

#[test]
fn compress_cases() {
    load().run("compress", 3, |c| {
        let x = c.input();
        let node = HashFamily::Poseidon2Gnark.node_hasher(2, None).unwrap();
        assert_eq!(vec![node.hash_node(&x)], c.output());
        assert_eq!(vec![poseidon2_gnark::compress(x[0], x[1])], c.output());
    });
}

#[test]
fn merkle_damgard_cases() {
    load().run("hash", 3, |c| {
        assert_eq!(
            vec![GnarkMerkleDamgard.hash(&c.input()).unwrap()],
            c.output()
        );
    });
}

#[test]
fn merkle_root_cases() {
    load().run("merkle_root", 2, |c| {
        let node = HashFamily::Poseidon2Gnark.node_hasher(2, None).unwrap();
        let mut level = c.input();
        while level.len() > 1 {
            level = level.chunks(2).map(|p| node.hash_node(p)).collect();
        }
        assert_eq!(level, c.output());
    });
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&[
        "permutation",
        "round_constants",
        "compress",
        "hash",
        "merkle_root",
    ]);
}
