//! Known-answer tests for `neptune` (testdata/neptune.json).
//!
//! Sources per case (see each case's `source`): permutation and `zklib_compress2`
//! outputs come from hanzeG/zklib_circom's own JS reference (Guo et al.) and agree with
//! the independent Python re-implementation `scripts/gen-testdata/gmimc_neptune.py`;
//! `node` (sponge Merkle node) outputs come from that Python script only.

#[macro_use]
mod common;

use common::KatFile;
use zkbench_hash::neptune::{self, NeptuneBn254};

fn load() -> KatFile {
    kat_file!("neptune", "neptune")
}

#[test]
fn kat_neptune_permutation() {
    load().run("permutation", 5, |c| {
        let p = neptune::permutation(c.width()).unwrap();
        assert_eq!(p.permute(&c.input()).unwrap(), c.output());
    });
}

#[test]
fn kat_neptune_node() {
    load().run("node", 5, |c| {
        let h = neptune::node_hasher(c.arity()).unwrap();
        assert_eq!(h.hash_node(&c.input()), c.output()[0]);
    });
}

#[test]
fn kat_neptune_zklib_compress2() {
    let p = NeptuneBn254::instance(4).unwrap();
    load().run("zklib_compress2", 2, |c| {
        let i = c.input();
        assert_eq!(p.zklib_compress2(i[0], i[1]), c.output()[0]);
    });
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&["permutation", "node", "zklib_compress2"]);
}
