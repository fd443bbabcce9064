//! Known-answer tests for `gmimc` (testdata/gmimc.json).
//!
//! Sources per case (see each case's `source`): permutation and `zklib_compress2`
//! outputs come from hanzeG/zklib_circom's own JS reference (Guo et al.) and agree with
//! the independent Python re-implementation `scripts/gen-testdata/gmimc_neptune.py`;
//! `node` (sponge Merkle node) outputs come from that Python script only.

#[macro_use]
mod common;

use common::KatFile;
use zkbench_hash::gmimc::{self, GmimcErfBn254};

fn load() -> KatFile {
    kat_file!("gmimc", "gmimc")
}

#[test]
fn kat_gmimc_permutation() {
    load().run("permutation", 5, |c| {
        let p = gmimc::permutation(c.width()).unwrap();
        assert_eq!(p.permute(&c.input()).unwrap(), c.output());
    });
}

#[test]
fn kat_gmimc_node() {
    load().run("node", 5, |c| {
        let h = gmimc::node_hasher(c.arity()).unwrap();
        assert_eq!(h.hash_node(&c.input()), c.output()[0]);
    });
}

#[test]
fn kat_gmimc_zklib_compress2() {
    let p = GmimcErfBn254::instance(3).unwrap();
    load().run("zklib_compress2", 2, |c| {
        let i = c.input();
        assert_eq!(p.zklib_compress2(i[0], i[1]), c.output()[0]);
    });
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&["permutation", "node", "zklib_compress2"]);
}
