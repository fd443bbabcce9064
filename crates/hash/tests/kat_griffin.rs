//! Known-answer tests for Griffin (`testdata/griffin.json`): the test vectors of
//! TaceoLabs/noir-griffin (`src/bn254/perm.nr`, `src/lib.nr`) and the shared reference.

use crate::common::KatFile;
use zkbench_hash::griffin::{self, GriffinHasher};
use zkbench_hash::FieldHasher;

fn load() -> KatFile {
    kat_file!("griffin", "griffin")
}

#[test]
fn kat_griffin_permutation() {
    load().run("permutation", 7, |c| {
        assert_eq!(c.alpha(), 5);
        let perm = griffin::permutation(c.width()).unwrap();
        assert_eq!(perm.permute(&c.input()).unwrap(), c.output());
    });
}

#[test]
fn kat_griffin_hash() {
    let n = load().run("hash", 3, |c| {
        let got = GriffinHasher::new(c.width())
            .unwrap()
            .hash(&c.input())
            .unwrap();
        assert_eq!(vec![got], c.output());
    });
    assert_eq!(n, 3);
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&["permutation", "hash"]);
}
