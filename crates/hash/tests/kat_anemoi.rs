//! Known-answer tests for Anemoi / Jive over BN254 Fr (`testdata/anemoi.json`).
//!
//! Modes: `permutation` (state `x ‖ y` in, full state out), `jive` (input `x ‖ y`,
//! one output), `sponge_hash` and `stream_cipher` (noah's variable-length sponge;
//! `output` holds the squeezed words). `width` selects the instance (2: l = 1, 4: l = 2).
//! Each case carries its source; see the JSON file.

use crate::common::{KatCase, KatFile};
use zkbench_hash::anemoi::{self, AnemoiBn254};
use zkbench_hash::{Fr, Permutation};

fn load() -> KatFile {
    kat_file!("anemoi", "anemoi")
}

/// Runs `check` on every case of `mode` after the checks common to all modes.
fn run(mode: &str, min_cases: usize, check: impl Fn(&KatCase)) -> usize {
    load().run(mode, min_cases, |c| {
        assert_eq!(c.alpha(), 5);
        check(c)
    })
}

fn instance(width: usize) -> &'static AnemoiBn254 {
    AnemoiBn254::with_columns(width / 2).expect("supported width")
}

#[test]
fn kat_permutation() {
    run("permutation", 10, |c| {
        let perm = anemoi::permutation(c.width()).expect("width");
        assert_eq!(perm.permute(&c.input()).unwrap(), c.output());
    });
}

#[test]
fn kat_jive() {
    run("jive", 6, |c| {
        let input = c.input();
        let (x, y) = input.split_at(c.width() / 2);
        assert_eq!(vec![anemoi::jive(x, y)], c.output(), "anemoi::jive");
        assert_eq!(vec![instance(c.width()).jive(x, y)], c.output(), "instance");
    });
}

#[test]
fn kat_sponge_hash() {
    run("sponge_hash", 2, |c| {
        let got = instance(c.width()).sponge_hash(&c.input());
        assert_eq!(vec![got], c.output());
    });
}

#[test]
fn kat_stream_cipher() {
    run("stream_cipher", 1, |c| {
        let inst = instance(c.width());
        let output = c.output();
        for n in 1..=output.len() {
            assert_eq!(
                inst.stream_cipher(&c.input(), n),
                output[..n].to_vec(),
                "first {n} words"
            );
        }
    });
}

#[test]
fn no_unknown_modes() {
    load().assert_modes(&["permutation", "jive", "sponge_hash", "stream_cipher"]);
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
    let file = load();
    let noah = file.case("jive_l2_noah_test_jive");
    assert_eq!(noah.mode, "jive");
    assert_eq!(h3.hash_node(&noah.input()[..3]), noah.output()[0]);
    let p = AnemoiBn254::l2();
    assert_eq!(p.width(), 4);
}
