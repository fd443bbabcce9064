//! Known-answer tests for Rescue-Prime (`testdata/rescue_prime.json`).
//!
//! No published BN254 vector exists; the cases come from a plain-Python port of
//! KULeuven-COSIC/Marvellous `rescue_prime.sage` (validated on the STARK-Anatomy
//! instance) and from the project's shared reference file. See each case's `source`.

use crate::common::KatFile;
use zkbench_hash::rescue_prime::{self, RescuePrimeHasher};
use zkbench_hash::FieldHasher;

fn load() -> KatFile {
    kat_file!("rescue_prime", "rescue-prime")
}

#[test]
fn kat_rescue_prime_permutation() {
    load().run("permutation", 11, |c| {
        assert_eq!(c.alpha(), 5);
        let perm = rescue_prime::permutation(c.width()).unwrap();
        assert_eq!(perm.permute(&c.input()).unwrap(), c.output());
    });
}

#[test]
fn kat_rescue_prime_hash() {
    load().run("hash", 10, |c| {
        let h = RescuePrimeHasher::new(c.width()).unwrap();
        assert_eq!(vec![h.hash(&c.input()).unwrap()], c.output());
    });
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&["permutation", "hash"]);
}
