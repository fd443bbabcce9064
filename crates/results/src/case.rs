//! One benchmark case: a point of a suite's grid.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::subject::Subject;

/// What a case measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaseKind {
    /// Native hash-permutation throughput.
    Hash,
    /// Native Merkle tree operations (insert, path, verify).
    Merkle,
    /// A proof: setup, witness, prove, verify.
    Proof,
    /// On-chain verification: a Solidity verifier's gas and bytecode size in
    /// an embedded EVM; `system` names the verifier (`zkbench`, `snarkjs`, `gnark`).
    Evm,
    /// Multi-scalar multiplication of `size` points (`hash`: the group,
    /// `bn254-g1` or `bn254-g2`; `system`: `zkbench`, `arkworks`, `halo2curves`,
    /// `gnark-crypto`).
    Msm,
    /// FFT/NTT of `size` coefficients over the BN254 scalar field (`hash`: `bn254-fr`).
    Fft,
    /// Pairing (`size` = 1) or multi-pairing of `size` pairs on BN254.
    Pairing,
    /// Field multiplication and inversion (`hash`: the field, `bn254-fr` or `bn254-fq`).
    Field,
    /// Polynomial commitment of `size` coefficients (`hash`: the scheme,
    /// `kzg-bn254`, `ipa-pasta`, `fri-babybear`, `fri-goldilocks`).
    PcsCommit,
    /// Opening proof of a committed polynomial at one point.
    PcsOpen,
    /// Verification of an opening proof.
    PcsVerify,
    /// A private pool on the embedded EVM: prove times of its circuits and
    /// gas per transaction. `system`: `zkbench` (this
    /// design: sequencer batches of `2^depth` deposits in an era tree; its
    /// `leaves` are `2^(slot depth + era depth)`) or `tornado` (the classic
    /// design, an on-chain MiMCSponge incremental tree of `leaves`).
    Pool,
}

impl CaseKind {
    /// Whether the kind measures a primitive or a polynomial commitment
    /// (`msm`, `fft`, `pairing`, `field`, `pcs-*`): such cases have a `size`
    /// and their `hash` names a group, field or scheme.
    pub fn is_primitive(self) -> bool {
        matches!(
            self,
            Self::Msm
                | Self::Fft
                | Self::Pairing
                | Self::Field
                | Self::PcsCommit
                | Self::PcsOpen
                | Self::PcsVerify
        )
    }

    /// The kebab-case name used in suites and records (`pcs-commit`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Hash => "hash",
            Self::Merkle => "merkle",
            Self::Proof => "proof",
            Self::Evm => "evm",
            Self::Msm => "msm",
            Self::Fft => "fft",
            Self::Pairing => "pairing",
            Self::Field => "field",
            Self::PcsCommit => "pcs-commit",
            Self::PcsOpen => "pcs-open",
            Self::PcsVerify => "pcs-verify",
            Self::Pool => "pool",
        }
    }
}

/// The circuit of a proof case: which statement it proves. Its names are
/// those of `zkbench_statement::CircuitKind` (`zkbench-core` converts
/// between the two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Circuit {
    /// Note spend: public root, nullifier hash, external-data hash.
    Spend,
    /// Membership only: public root.
    Membership,
    /// Root of a full tree over public leaves.
    BatchRoot,
}

impl Circuit {
    /// All circuits.
    pub const ALL: [Circuit; 3] = [Circuit::Spend, Circuit::Membership, Circuit::BatchRoot];

    /// Command-line and record name (`spend`, `membership`, `batch-root`).
    pub fn name(self) -> &'static str {
        match self {
            Circuit::Spend => "spend",
            Circuit::Membership => "membership",
            Circuit::BatchRoot => "batch-root",
        }
    }
}

impl std::str::FromStr for Circuit {
    type Err = String;

    /// Accepts the names and the aliases `note-spend` and `batch`, in any
    /// case, with `_` for `-`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "spend" | "note-spend" => Ok(Circuit::Spend),
            "membership" => Ok(Circuit::Membership),
            "batch-root" | "batch" => Ok(Circuit::BatchRoot),
            _ => Err(format!(
                "unknown circuit {s:?}; known: spend, membership, batch-root"
            )),
        }
    }
}

impl fmt::Display for Circuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One measured configuration. Fields that do not apply to the kind are `None`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Case {
    /// What is measured.
    pub kind: CaseKind,
    /// Proof system (`groth16`, ...) or `native`; for external runners the runner's name;
    /// for `evm` cases the verifier (`zkbench`, `snarkjs`, `gnark`).
    pub system: String,
    /// Hash family name (zkbench-hash registry name); for primitive cases
    /// ([`CaseKind::is_primitive`]) the group, field, curve or commitment
    /// scheme (`bn254-g1`, `bn254-fr`, `kzg-bn254`, `fri-babybear`, ...): a
    /// [`Subject`], written as that one string.
    pub hash: Subject,
    /// S-box exponent, when the family has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<u64>,
    /// Permutation width (hash cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Merkle arity (tree and proof cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arity: Option<usize>,
    /// Tree capacity in leaves (spend and membership).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaves: Option<u64>,
    /// Tree depth (batch-root: the tree has arity^depth leaves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Circuit (proof cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circuit: Option<Circuit>,
    /// Worker threads; 0 means all available.
    pub threads: usize,
    /// Primitive cases: number of points (MSM), coefficients (FFT, PCS),
    /// pairs (pairing) or operations per batch (field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl Case {
    /// A case of `kind` for `system` on `hash` (a hash family, or the group,
    /// field or scheme of a primitive case) with every other field unset:
    /// no exponent, width, tree, circuit or size, all threads (0). The base
    /// that the other constructors and struct updates (`..Case::new(..)`)
    /// fill in.
    pub fn new(kind: CaseKind, system: &str, hash: &str) -> Self {
        Self {
            kind,
            system: system.into(),
            hash: hash.into(),
            alpha: None,
            width: None,
            arity: None,
            leaves: None,
            depth: None,
            circuit: None,
            threads: 0,
            size: None,
        }
    }

    /// A primitive case ([`CaseKind::is_primitive`]): `system` on the group,
    /// field or scheme `object` with `size` items, on `threads` threads.
    pub fn primitive(
        kind: CaseKind,
        system: &str,
        object: &str,
        size: u64,
        threads: usize,
    ) -> Self {
        Self {
            threads,
            size: Some(size),
            ..Self::new(kind, system, object)
        }
    }

    /// Slot and era depths of a `pool` case of this design (`depth` is the
    /// slot depth, `leaves` is `2^(slot + era)`); `None` for other cases.
    pub fn pool_depths(&self) -> Option<(u32, u32)> {
        if self.kind != CaseKind::Pool {
            return None;
        }
        let slot = self.depth?;
        let l = self.leaves?;
        if !l.is_power_of_two() || l.trailing_zeros() < slot {
            return None;
        }
        Some((slot, l.trailing_zeros() - slot))
    }

    /// Stable identifier used to match cases across result files
    /// (`evm` and primitive cases start with their kind, e.g.
    /// `msm/arkworks/bn254-g1/2^16/threads2`).
    pub fn id(&self) -> String {
        let mut parts = vec![self.system.clone(), self.hash_label()];
        if self.kind == CaseKind::Evm || self.kind == CaseKind::Pool || self.kind.is_primitive() {
            parts.insert(0, self.kind.name().into());
        }
        if let Some((slot, era)) = self.pool_depths() {
            parts.push(format!("slot{slot}"));
            parts.push(format!("era{era}"));
            parts.push(self.threads_label());
            return parts.join("/");
        }
        if let Some(n) = self.size {
            parts.push(format_leaves(n));
        }
        if let Some(c) = self.circuit {
            parts.push(c.name().into());
        }
        if let Some(w) = self.width {
            parts.push(format!("t{w}"));
        }
        if let Some(a) = self.arity {
            parts.push(format!("arity{a}"));
        }
        if let Some(l) = self.leaves {
            parts.push(format_leaves(l));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth{d}"));
        }
        parts.push(self.threads_label());
        parts.join("/")
    }

    /// The id's thread part: `threads-all` (0) or `threads<n>`.
    fn threads_label(&self) -> String {
        if self.threads == 0 {
            "threads-all".into()
        } else {
            format!("threads{}", self.threads)
        }
    }

    /// Hash name with its exponent when one was chosen, e.g. `poseidon2-a7`.
    pub fn hash_label(&self) -> String {
        match self.alpha {
            Some(a) => format!("{}-a{a}", self.hash),
            None => self.hash.to_string(),
        }
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

/// `2^k` when `l` is a power of two, else decimal.
pub fn format_leaves(l: u64) -> String {
    if l.is_power_of_two() {
        format!("2^{}", l.trailing_zeros())
    } else {
        l.to_string()
    }
}

/// Parses a leaf count: decimal or `2^K` (K ≤ 63).
pub fn parse_leaves(s: &str) -> Result<u64, String> {
    let bad = || {
        format!("invalid leaf count {s:?}; accepted: a positive integer or 2^K with 1 <= K <= 63")
    };
    let v = match s.trim().split_once('^') {
        Some(("2", k)) => {
            let k: u32 = k.trim().parse().map_err(|_| bad())?;
            if !(1..=63).contains(&k) {
                return Err(bad());
            }
            1u64 << k
        }
        Some(_) => return Err(bad()),
        None => s.trim().parse::<u64>().map_err(|_| bad())?,
    };
    if v < 2 {
        return Err(bad());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_parse_and_format() {
        assert_eq!(parse_leaves("2^36").unwrap(), 1 << 36);
        assert_eq!(parse_leaves("1000").unwrap(), 1000);
        assert_eq!(format_leaves(1 << 36), "2^36");
        assert_eq!(format_leaves(1000), "1000");
        for bad in ["", "2^0", "2^64", "3^4", "x", "1", "-5"] {
            assert!(parse_leaves(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        let c = Case {
            kind: CaseKind::Proof,
            system: "groth16".into(),
            hash: "poseidon2".into(),
            alpha: Some(7),
            width: None,
            arity: Some(4),
            leaves: Some(1 << 36),
            depth: None,
            circuit: Some(Circuit::Spend),
            threads: 0,
            size: None,
        };
        assert_eq!(c.id(), "groth16/poseidon2-a7/spend/arity4/2^36/threads-all");
        let mut d = c.clone();
        d.threads = 1;
        assert_ne!(c.id(), d.id());
        let mut e = c.clone();
        e.kind = CaseKind::Evm;
        e.system = "zkbench".into();
        assert_eq!(
            e.id(),
            "evm/zkbench/poseidon2-a7/spend/arity4/2^36/threads-all"
        );
        let m = Case {
            kind: CaseKind::Msm,
            system: "arkworks".into(),
            hash: "bn254-g1".into(),
            alpha: None,
            arity: None,
            leaves: None,
            circuit: None,
            threads: 2,
            size: Some(1 << 16),
            ..c.clone()
        };
        assert_eq!(m.id(), "msm/arkworks/bn254-g1/2^16/threads2");
        let p = Case {
            kind: CaseKind::Pool,
            system: "zkbench".into(),
            hash: "poseidon2".into(),
            alpha: None,
            arity: None,
            depth: Some(5),
            leaves: Some(1 << 25),
            circuit: None,
            threads: 0,
            size: None,
            ..c.clone()
        };
        assert_eq!(p.pool_depths(), Some((5, 20)));
        assert_eq!(p.id(), "pool/zkbench/poseidon2/slot5/era20/threads-all");
        let t = Case {
            system: "tornado".into(),
            hash: "mimc-sponge".into(),
            depth: None,
            leaves: Some(1 << 20),
            ..p.clone()
        };
        assert_eq!(t.pool_depths(), None);
        assert_eq!(t.id(), "pool/tornado/mimc-sponge/2^20/threads-all");
    }

    #[test]
    fn primitive_kinds_have_the_contract_names() {
        for (kind, name) in [
            (CaseKind::Msm, "msm"),
            (CaseKind::Fft, "fft"),
            (CaseKind::Pairing, "pairing"),
            (CaseKind::Field, "field"),
            (CaseKind::PcsCommit, "pcs-commit"),
            (CaseKind::PcsOpen, "pcs-open"),
            (CaseKind::PcsVerify, "pcs-verify"),
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), name);
            assert_eq!(kind.name(), name);
            assert!(kind.is_primitive());
        }
        assert!(!CaseKind::Proof.is_primitive());
        // `size` is left out when absent (schema v1 records stay unchanged)
        let c: Case = serde_json::from_str(
            r#"{"kind":"msm","system":"zkbench","hash":"bn254-g1","threads":1,"size":1024}"#,
        )
        .unwrap();
        assert_eq!(c.size, Some(1024));
        let v = serde_json::to_value(Case { size: None, ..c }).unwrap();
        assert!(v.get("size").is_none());
    }
}
