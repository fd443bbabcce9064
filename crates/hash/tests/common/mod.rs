//! Shared harness for the known-answer tests (`tests/kat_*.rs`).
//!
//! Every family's vectors live in `testdata/<family>.json` with the schema of the
//! project brief: `{"family": .., "cases": [{"name", "mode", "width", "alpha",
//! "key"?, "input", "output", "source", ..family-specific fields}]}` (field
//! elements as decimal or `0x` strings). [`kat_file!`] embeds a file with
//! `include_str!` (use `#[macro_use] mod common;`) and parses it into a [`KatFile`] (checking the family name, that
//! case names are unique and that every case names its source);
//! [`KatFile::run`] asserts every case of one mode, by name, reporting all failing
//! cases at once, and returns how many it checked; [`KatFile::assert_modes`]
//! makes sure no case of an unexpected mode is silently skipped.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde::Deserialize;
use serde_json::{Map, Value};
use zkbench_hash::{parse_fr, Fr};

/// One `testdata/<file>.json` document.
#[derive(Debug, Deserialize)]
pub struct KatFile {
    /// Family name as written in the file (`"mimc-sponge"`, `"rescue-prime"`, ..).
    pub family: String,
    /// All cases, in file order.
    pub cases: Vec<KatCase>,
    /// Other top-level fields (`generator`, `round_constants`, `description`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One known-answer case.
#[derive(Clone, Debug, Deserialize)]
pub struct KatCase {
    /// Unique case name.
    pub name: String,
    /// `permutation`, `hash` or a family-specific mode.
    pub mode: String,
    /// Permutation width `t`, if the case has one.
    pub width: Option<usize>,
    /// S-box exponent, if the case has one.
    pub alpha: Option<u64>,
    /// Merkle node arity (`node` cases of gmimc / neptune).
    pub arity: Option<usize>,
    /// Key (MiMC), as a field-element string.
    pub key: Option<String>,
    /// Number of squeezed outputs (MiMCSponge `multi_hash`).
    pub num_outputs: Option<usize>,
    /// Tree level (Tornado `hash_left_right`).
    pub level: Option<usize>,
    /// The expected output as hex (Tornado), next to the decimal `output`.
    pub output_hex: Option<String>,
    /// Input field elements.
    #[serde(default)]
    pub input: Vec<String>,
    /// Expected output field elements.
    #[serde(default)]
    pub output: Vec<String>,
    /// Where the expected output comes from.
    pub source: String,
    /// Any further fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Embeds `testdata/<file>.json` and parses it, expecting family `family`.
macro_rules! kat_file {
    ($file:literal, $family:literal) => {
        $crate::common::KatFile::parse(
            include_str!(concat!("../../../testdata/", $file, ".json")),
            $family,
        )
    };
}

/// The known-answer tests of a family of Guo et al.'s zklib_circom
/// (`zkbench_hash::$module`, instance type `$ty` of width `$width`, vectors in
/// `testdata/$file.json`): its `permutation`, sponge `node` and
/// `zklib_compress2` cases, and no case of another mode.
#[allow(unused_macros)]
macro_rules! zklib_kat_tests {
    ($module:ident, $ty:ident, $width:literal, $file:literal) => {
        use zkbench_hash::$module::{self, $ty};

        fn load() -> $crate::common::KatFile {
            kat_file!($file, $file)
        }

        #[test]
        fn kat_permutation() {
            load().run("permutation", 5, |c| {
                let p = $module::permutation(c.width()).unwrap();
                assert_eq!(p.permute(&c.input()).unwrap(), c.output());
            });
        }

        #[test]
        fn kat_node() {
            load().run("node", 5, |c| {
                let h = $module::node_hasher(c.arity()).unwrap();
                assert_eq!(h.hash_node(&c.input()), c.output()[0]);
            });
        }

        #[test]
        fn kat_zklib_compress2() {
            let p = $ty::instance($width).unwrap();
            load().run("zklib_compress2", 2, |c| {
                let i = c.input();
                assert_eq!(p.zklib_compress2(i[0], i[1]), c.output()[0]);
            });
        }

        #[test]
        fn no_unknown_modes() {
            load().assert_modes(&["permutation", "node", "zklib_compress2"]);
        }
    };
}

/// Parses a list of field-element strings.
pub fn frs(xs: &[String]) -> Vec<Fr> {
    xs.iter()
        .map(|x| parse_fr(x).unwrap_or_else(|e| panic!("bad field element {x:?}: {e}")))
        .collect()
}

/// Parses one field-element string.
pub fn fr(x: &str) -> Fr {
    parse_fr(x).unwrap_or_else(|e| panic!("bad field element {x:?}: {e}"))
}

impl KatFile {
    /// Parses a document and checks the family name, unique case names and that
    /// every case names a non-empty source.
    pub fn parse(json: &str, family: &str) -> Self {
        let file: KatFile = serde_json::from_str(json)
            .unwrap_or_else(|e| panic!("testdata for {family} does not parse: {e}"));
        assert_eq!(file.family, family, "family name");
        let mut names = BTreeSet::new();
        for c in &file.cases {
            assert!(
                names.insert(c.name.as_str()),
                "duplicate case name {}",
                c.name
            );
            assert!(!c.source.trim().is_empty(), "case {} has no source", c.name);
        }
        file
    }

    /// The cases of mode `mode`, in file order (panics if there are none).
    pub fn cases(&self, mode: &str) -> Vec<&KatCase> {
        let cases: Vec<&KatCase> = self.cases.iter().filter(|c| c.mode == mode).collect();
        assert!(!cases.is_empty(), "{}: no {mode} cases", self.family);
        cases
    }

    /// The case named `name` (panics if absent).
    pub fn case(&self, name: &str) -> &KatCase {
        self.cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{}: no case {name}", self.family))
    }

    /// Runs `check` on every case of mode `mode`; a panic inside `check` marks that
    /// case failed and the others still run. Panics listing every failed case
    /// (with its message) if any failed, and if fewer than `min_cases` were checked;
    /// returns the number of cases checked.
    pub fn run(&self, mode: &str, min_cases: usize, check: impl Fn(&KatCase)) -> usize {
        let cases = self.cases(mode);
        let mut failures = Vec::new();
        for c in &cases {
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| check(c))) {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{}: {msg}", c.name));
            }
        }
        assert!(
            failures.is_empty(),
            "{}/{mode}: {} of {} cases failed:\n{}",
            self.family,
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
        assert!(
            cases.len() >= min_cases,
            "{}/{mode}: only {} cases, expected at least {min_cases}",
            self.family,
            cases.len()
        );
        println!("{}/{mode}: {} cases checked", self.family, cases.len());
        cases.len()
    }

    /// Asserts that every case's mode is one of `modes` (so none is skipped).
    pub fn assert_modes(&self, modes: &[&str]) {
        for c in &self.cases {
            assert!(
                modes.contains(&c.mode.as_str()),
                "{}: case {} has untested mode {}",
                self.family,
                c.name,
                c.mode
            );
        }
    }
}

impl KatCase {
    /// Asserts that `permute_in_place` and the registry's `registry` both map
    /// the input to the expected output.
    pub fn assert_permutation(
        &self,
        permute_in_place: impl Fn(&mut [Fr]),
        registry: &dyn zkbench_hash::Permutation,
    ) {
        let input = self.input();
        let mut state = input.clone();
        permute_in_place(&mut state);
        let via_registry = registry.permute(&input).unwrap();
        assert_eq!(state, via_registry, "registry path differs");
        assert_eq!(state, self.output());
    }

    /// The input as field elements.
    pub fn input(&self) -> Vec<Fr> {
        frs(&self.input)
    }

    /// The expected output as field elements.
    pub fn output(&self) -> Vec<Fr> {
        frs(&self.output)
    }

    /// The single expected output (panics unless there is exactly one).
    pub fn output1(&self) -> Fr {
        assert_eq!(
            self.output.len(),
            1,
            "case {}: one output expected",
            self.name
        );
        fr(&self.output[0])
    }

    /// The width (panics if absent).
    pub fn width(&self) -> usize {
        self.width
            .unwrap_or_else(|| panic!("case {}: no width", self.name))
    }

    /// The S-box exponent (panics if absent).
    pub fn alpha(&self) -> u64 {
        self.alpha
            .unwrap_or_else(|| panic!("case {}: no alpha", self.name))
    }

    /// The node arity (panics if absent).
    pub fn arity(&self) -> usize {
        self.arity
            .unwrap_or_else(|| panic!("case {}: no arity", self.name))
    }

    /// The key as a field element (panics if absent).
    pub fn key(&self) -> Fr {
        fr(self
            .key
            .as_deref()
            .unwrap_or_else(|| panic!("case {}: no key", self.name)))
    }
}
