//! Declarative benchmark suites (TOML files in `suites/`), their repetition
//! profiles, and the expansion of a suite's sweeps into [`Case`]s.
//!
//! ```toml
//! name = "default"
//! description = "..."
//! default_profile = "quick"
//! time_budget_seconds = 300          # the runner stops starting new cases after this
//!
//! [profiles.quick]
//! warmup = 1                          # unmeasured runs before sampling (after the cold run)
//! min_samples = 3
//! max_samples = 10
//! target_seconds = 2.0                # keep sampling a phase until this much time was spent
//! case_timeout_seconds = 120          # a case still running after this is killed (status "timeout")
//!
//! [[sweep]]
//! kind = "proof"                      # proof | hash | merkle | evm (systems: zkbench, snarkjs verifiers) | pool
//! systems = ["groth16"]
//! hashes = ["poseidon", "poseidon2"]  # or ["all"]
//! alphas = [5, 7]                     # optional; each family uses those it has (default: its default)
//! arities = [2, 4, 8]
//! leaves = ["2^36"]                   # spend / membership
//! depths = [0, 1, 2]                  # batch-root
//! circuits = ["spend"]
//! threads = [0]                       # 0 = all cores
//!
//! [[sweep]]                           # the private pool (docs/pool.md), figure 10 of Guo et al.
//! kind = "pool"
//! systems = ["zkbench"]               # this design; "tornado": the classic design (leaves = ["2^20"])
//! hashes = ["poseidon2"]
//! depths = [1, 2, 3, 4, 5, 6, 7]      # slot depths
//! era_depths = [20]
//!
//! [[sweep]]                           # primitives (docs/primitives.md)
//! kind = "msm"                        # msm | fft | pairing | field | pcs-commit (records commit, open, verify)
//! systems = ["zkbench", "arkworks", "halo2curves"]
//! groups = ["bn254-g1", "bn254-g2"]   # group, field or scheme (kzg-bn254, fri-babybear, ...); recorded as case.hash
//! sizes = ["2^10", "2^12"]            # points / coefficients / pairs / operations; recorded as case.size
//! threads = [1, 2]
//!
//! [[external]]                        # peers in other languages (see docs/external-runners.md)
//! name = "snarkjs"
//! command = ["node", "peers/snarkjs/run.js"]
//! ```

use std::{collections::BTreeMap, path::Path};

use serde::{Deserialize, Serialize};
use zkbench_hash::HashFamily;

use crate::case::{parse_leaves, Case, CaseKind, Circuit};

/// How many times each phase is repeated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Unmeasured warm-up runs after the cold run.
    pub warmup: usize,
    /// Minimum measured samples per phase.
    pub min_samples: usize,
    /// Maximum measured samples per phase.
    pub max_samples: usize,
    /// Sampling continues (up to `max_samples`) until this much time was spent on a phase.
    pub target_seconds: f64,
    /// A case running longer than this is killed and recorded as a timeout.
    pub case_timeout_seconds: f64,
    /// Primitive cases (`msm`, `fft`, `pcs-commit` ...) with a size above
    /// `2^k` are left out, `k` looked up by the case's group or scheme
    /// (`ipa-pasta`), then its kind (`msm`), then `all`: the `quick` profile
    /// of a suite whose `full` profile doubles sizes up to the memory ceiling,
    /// e.g. `max_log_size = { msm = 18, fft = 20, all = 20 }`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub max_log_size: BTreeMap<String, u32>,
}

impl Profile {
    /// Built-in `quick` profile.
    pub fn quick() -> Self {
        Self {
            warmup: 1,
            min_samples: 3,
            max_samples: 10,
            target_seconds: 2.0,
            case_timeout_seconds: 180.0,
            max_log_size: BTreeMap::new(),
        }
    }

    /// Built-in `full` profile.
    pub fn full() -> Self {
        Self {
            warmup: 2,
            min_samples: 10,
            max_samples: 100,
            target_seconds: 10.0,
            case_timeout_seconds: 1800.0,
            max_log_size: BTreeMap::new(),
        }
    }

    /// The largest `log2(size)` the profile runs for `case` (see
    /// [`Profile::max_log_size`]).
    pub fn max_log_size_for(&self, case: &Case) -> Option<u32> {
        let m = &self.max_log_size;
        m.get(case.hash.as_str())
            .or_else(|| m.get(case.kind.name()))
            .or_else(|| m.get("all"))
            .copied()
    }

    /// Whether the profile runs `case` (its size, if any, is within
    /// [`Profile::max_log_size`]).
    pub fn admits(&self, case: &Case) -> bool {
        match (case.size, self.max_log_size_for(case)) {
            (Some(n), Some(k)) => k >= 63 || n <= 1u64 << k,
            _ => true,
        }
    }

    /// Whether another sample should be taken after `n` samples totalling `spent` seconds.
    pub fn wants_more(&self, n: usize, spent: f64) -> bool {
        n < self.min_samples || (n < self.max_samples && spent < self.target_seconds)
    }
}

/// One grid of the suite.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// What the cases measure.
    pub kind: Option<CaseKind>,
    /// Proof systems (proof sweeps), or Solidity verifiers (evm sweeps: `zkbench`, `snarkjs`).
    #[serde(default)]
    pub systems: Vec<String>,
    /// Hash families, or `["all"]`.
    #[serde(default)]
    pub hashes: Vec<String>,
    /// S-box exponents; each family keeps only those it has. Empty: each family's default.
    #[serde(default)]
    pub alphas: Vec<u64>,
    /// Permutation widths (hash sweeps); empty: all the family has.
    #[serde(default)]
    pub widths: Vec<usize>,
    /// Merkle arities.
    #[serde(default)]
    pub arities: Vec<usize>,
    /// Leaf counts (`"2^36"` or decimal).
    #[serde(default)]
    pub leaves: Vec<String>,
    /// Batch-root depths; `pool` sweeps: slot depths (batches of `2^depth`).
    #[serde(default)]
    pub depths: Vec<u32>,
    /// `pool` sweeps of system `zkbench`: era depths (the era tree holds
    /// `2^era` slots); each slot depth is paired with each era depth.
    #[serde(default)]
    pub era_depths: Vec<u32>,
    /// Circuits.
    #[serde(default)]
    pub circuits: Vec<Circuit>,
    /// Thread counts (0 = all).
    #[serde(default)]
    pub threads: Vec<usize>,
    /// Primitive sweeps: groups, fields or commitment schemes (`bn254-g1`,
    /// `bn254-fr`, `kzg-bn254`, ...; recorded as `case.hash`).
    #[serde(default)]
    pub groups: Vec<String>,
    /// Primitive sweeps: sizes (`"2^16"` or decimal; recorded as `case.size`).
    #[serde(default)]
    pub sizes: Vec<String>,
}

/// A peer implementation run as an external command (see `docs/external-runners.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct External {
    /// Runner name (becomes the records' `system` unless they set one).
    pub name: String,
    /// Program and arguments; it prints one result record (JSON) per line.
    pub command: Vec<String>,
    /// Thread counts to run it at (`zkbench run --threads` overrides; empty:
    /// once, with the machine's default). At `N` it runs pinned to `N` cores
    /// with `GOMAXPROCS`, `RAYON_NUM_THREADS` and `ZKBENCH_THREADS` set to `N`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub threads: Vec<usize>,
}

/// A benchmark suite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// Suite name.
    pub name: String,
    /// What the suite shows, one or two sentences.
    #[serde(default)]
    pub description: String,
    /// Profile used when none is given.
    #[serde(default = "default_profile")]
    pub default_profile: String,
    /// The runner starts no new case after this many seconds (remaining cases are recorded as skipped).
    #[serde(default)]
    pub time_budget_seconds: Option<f64>,
    /// Named profiles; `quick` and `full` exist unless overridden.
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
    /// Grids.
    #[serde(default, rename = "sweep")]
    pub sweeps: Vec<Sweep>,
    /// External runners.
    #[serde(default, rename = "external")]
    pub externals: Vec<External>,
}

fn default_profile() -> String {
    "quick".into()
}

/// Errors reading or expanding a suite.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// Neither a built-in suite name nor a readable file.
    #[error("no suite named {0:?}; built-in suites: {1}; or give a path to a .toml file")]
    NotFound(String, String),
    /// File could not be read.
    #[error("cannot read suite file {path}: {source}")]
    Io {
        /// Path.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// TOML syntax or schema error.
    #[error("invalid suite {name}: {message}")]
    Invalid {
        /// Suite name or path.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// Unknown profile.
    #[error("suite {suite} has no profile {given:?}; profiles: {known}")]
    UnknownProfile {
        /// Suite.
        suite: String,
        /// Requested profile.
        given: String,
        /// Available profiles.
        known: String,
    },
}

/// The suites shipped with zkbench (`suites/*.toml`, compiled in).
pub const BUILTIN: &[(&str, &str)] = &[
    ("default", include_str!("../../../suites/default.toml")),
    (
        "arity-sweep",
        include_str!("../../../suites/arity-sweep.toml"),
    ),
    (
        "hash-by-system",
        include_str!("../../../suites/hash-by-system.toml"),
    ),
    ("hashes", include_str!("../../../suites/hashes.toml")),
    ("smoke", include_str!("../../../suites/smoke.toml")),
    ("peers", include_str!("../../../suites/peers.toml")),
    ("perf", include_str!("../../../suites/perf.toml")),
    ("scaling", include_str!("../../../suites/scaling.toml")),
    ("evm", include_str!("../../../suites/evm.toml")),
    ("hash-grid", include_str!("../../../suites/hash-grid.toml")),
    (
        "primitives",
        include_str!("../../../suites/primitives.toml"),
    ),
    ("pcs", include_str!("../../../suites/pcs.toml")),
    ("browser", include_str!("../../../suites/browser.toml")),
    ("pool", include_str!("../../../suites/pool.toml")),
    (
        "wasm-engines",
        include_str!("../../../suites/wasm-engines.toml"),
    ),
];

/// Former names of built-in suites, still accepted: `(old, current)`.
pub const ALIASES: &[(&str, &str)] = &[("seed003", "hash-grid")];

impl Suite {
    /// Parses a suite from TOML text.
    pub fn from_toml(name: &str, text: &str) -> Result<Self, SuiteError> {
        let s: Suite = toml::from_str(text).map_err(|e| SuiteError::Invalid {
            name: name.into(),
            message: e.to_string(),
        })?;
        s.validate()?;
        Ok(s)
    }

    /// A built-in suite by name, or a suite file by path.
    pub fn load(name_or_path: &str) -> Result<Self, SuiteError> {
        let name_or_path = ALIASES
            .iter()
            .find(|(old, _)| *old == name_or_path)
            .map_or(name_or_path, |(_, new)| *new);
        if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            return Self::from_toml(name_or_path, text);
        }
        let p = Path::new(name_or_path);
        if p.exists() {
            let text = std::fs::read_to_string(p).map_err(|source| SuiteError::Io {
                path: name_or_path.into(),
                source,
            })?;
            return Self::from_toml(name_or_path, &text);
        }
        Err(SuiteError::NotFound(
            name_or_path.into(),
            BUILTIN
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", "),
        ))
    }

    /// The named profile (`quick`/`full` built in unless the suite overrides them).
    pub fn profile(&self, name: Option<&str>) -> Result<Profile, SuiteError> {
        let name = name.unwrap_or(&self.default_profile);
        if let Some(p) = self.profiles.get(name) {
            return Ok(p.clone());
        }
        match name {
            "quick" => Ok(Profile::quick()),
            "full" => Ok(Profile::full()),
            _ => {
                let mut known: Vec<String> = self.profiles.keys().cloned().collect();
                known.extend(["quick".to_string(), "full".to_string()]);
                known.sort();
                known.dedup();
                Err(SuiteError::UnknownProfile {
                    suite: self.name.clone(),
                    given: name.into(),
                    known: known.join(", "),
                })
            }
        }
    }

    fn validate(&self) -> Result<(), SuiteError> {
        let invalid = |m: String| SuiteError::Invalid {
            name: self.name.clone(),
            message: m,
        };
        for (i, s) in self.sweeps.iter().enumerate() {
            let Some(kind) = s.kind else {
                return Err(invalid(format!(
                    "sweep {i} has no kind (accepted: proof, hash, merkle, evm, pool, msm, fft, pairing, field, pcs-commit)"
                )));
            };
            if kind.is_primitive() {
                validate_primitive_sweep(s, kind)
                    .map_err(|m| invalid(format!("sweep {i}: {m}")))?;
                continue;
            }
            for h in &s.hashes {
                if h != "all" {
                    h.parse::<HashFamily>()
                        .map_err(|e| invalid(format!("sweep {i}: {e}")))?;
                }
            }
            for l in &s.leaves {
                parse_leaves(l).map_err(|e| invalid(format!("sweep {i}: {e}")))?;
            }
            if let Some(a) = s.arities.iter().find(|a| !(2..=16).contains(*a)) {
                return Err(invalid(format!("sweep {i}: arity {a} not in 2..=16")));
            }
            if matches!(
                s.kind,
                Some(CaseKind::Proof | CaseKind::Evm | CaseKind::Pool)
            ) && s.systems.is_empty()
            {
                return Err(invalid(format!(
                    "proof, evm or pool sweep {i} names no systems"
                )));
            }
            if kind == CaseKind::Pool {
                validate_pool_sweep(s).map_err(|m| invalid(format!("sweep {i}: {m}")))?;
            } else if !s.era_depths.is_empty() {
                return Err(invalid(format!(
                    "sweep {i}: era_depths apply to pool sweeps only"
                )));
            }
        }
        for (name, p) in &self.profiles {
            if p.min_samples == 0 || p.max_samples < p.min_samples {
                return Err(invalid(format!(
                    "profile {name}: need 1 <= min_samples <= max_samples"
                )));
            }
        }
        Ok(())
    }

    /// Expands every sweep into cases, with `threads` overriding the sweeps' thread lists.
    /// A sweep's own counts above this machine's CPUs are left out (`--threads` runs what it
    /// asks for, oversubscribed if need be).
    pub fn cases(&self, threads_override: Option<&[usize]>) -> Vec<Case> {
        let mut out = Vec::new();
        for s in &self.sweeps {
            if s.kind.is_some_and(|k| k.is_primitive()) {
                expand_primitive_sweep(s, threads_override, &mut out);
                continue;
            }
            let families: Vec<HashFamily> =
                if s.hashes.is_empty() || s.hashes.iter().any(|h| h == "all") {
                    HashFamily::ALL.to_vec()
                } else {
                    s.hashes.iter().filter_map(|h| h.parse().ok()).collect()
                };
            let threads = thread_counts(&s.threads, threads_override);
            for fam in families {
                let alphas: Vec<Option<u64>> = if s.alphas.is_empty() {
                    vec![None]
                } else {
                    let have: Vec<u64> = s
                        .alphas
                        .iter()
                        .copied()
                        .filter(|a| fam.alphas().contains(a))
                        .collect();
                    if have.is_empty() {
                        vec![None]
                    } else {
                        have.into_iter().map(Some).collect()
                    }
                };
                // Record the exponent explicitly only for families that have several.
                let alphas: Vec<Option<u64>> = alphas
                    .into_iter()
                    .map(|a| {
                        if fam.alphas().len() > 1 {
                            Some(a.unwrap_or(fam.alphas()[0]))
                        } else {
                            None
                        }
                    })
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                for alpha in alphas {
                    for &t in &threads {
                        let base = Case {
                            alpha,
                            threads: t,
                            ..Case::new(s.kind.expect("validated"), "native", fam.name())
                        };
                        expand_sweep(s, fam, base, &mut out);
                    }
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|c| seen.insert(c.id()));
        out
    }
}

/// Parses a primitive size: decimal (>= 1) or `2^K` (K <= 40).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let bad = || format!("invalid size {s:?}; accepted: a positive integer or 2^K with K <= 40");
    let v = match s.trim().split_once('^') {
        Some(("2", k)) => {
            let k: u32 = k.trim().parse().map_err(|_| bad())?;
            if k > 40 {
                return Err(bad());
            }
            1u64 << k
        }
        Some(_) => return Err(bad()),
        None => s.trim().parse::<u64>().map_err(|_| bad())?,
    };
    if v == 0 {
        return Err(bad());
    }
    Ok(v)
}

fn validate_primitive_sweep(s: &Sweep, kind: CaseKind) -> Result<(), String> {
    if matches!(kind, CaseKind::PcsOpen | CaseKind::PcsVerify) {
        return Err(format!(
            "kind {:?}: use kind = \"pcs-commit\" (a pcs case records commit, open and verify)",
            kind.name()
        ));
    }
    if s.systems.is_empty() || s.groups.is_empty() || s.sizes.is_empty() {
        return Err(format!(
            "a {} sweep needs systems, groups and sizes",
            kind.name()
        ));
    }
    if !s.hashes.is_empty() || !s.arities.is_empty() || !s.leaves.is_empty() {
        return Err(format!(
            "a {} sweep takes groups and sizes, not hashes, arities or leaves",
            kind.name()
        ));
    }
    if let Some(sys) = s.systems.iter().find(|x| !zkbench_primitives::is_system(x)) {
        return Err(format!(
            "no primitive implementation {sys:?} (see docs/primitives.md)"
        ));
    }
    for g in &s.groups {
        if !s
            .systems
            .iter()
            .any(|sys| zkbench_primitives::supported(kind, sys, g))
        {
            return Err(format!(
                "no {} implementation among {:?} for {g:?}",
                kind.name(),
                s.systems
            ));
        }
    }
    for z in &s.sizes {
        parse_size(z)?;
    }
    Ok(())
}

/// Cases of a primitive sweep: systems × groups × sizes × threads, keeping
/// the combinations an implementation exists for.
fn expand_primitive_sweep(s: &Sweep, threads_override: Option<&[usize]>, out: &mut Vec<Case>) {
    let kind = s.kind.expect("primitive sweep");
    let threads = thread_counts(&s.threads, threads_override);
    for g in &s.groups {
        for z in s.sizes.iter().filter_map(|z| parse_size(z).ok()) {
            for &t in &threads {
                for sys in &s.systems {
                    if zkbench_primitives::supported(kind, sys, g) {
                        out.push(Case::primitive(kind, sys, g, z, t));
                    }
                }
            }
        }
    }
}

/// Pool systems: `zkbench` (this design) and `tornado` (the classic design).
pub const POOL_SYSTEMS: &[&str] = &["zkbench", "tornado"];

fn validate_pool_sweep(s: &Sweep) -> Result<(), String> {
    if let Some(x) = s
        .systems
        .iter()
        .find(|x| !POOL_SYSTEMS.contains(&x.as_str()))
    {
        return Err(format!(
            "no pool system {x:?} (accepted: {})",
            POOL_SYSTEMS.join(", ")
        ));
    }
    if s.systems.iter().any(|x| x == "zkbench") {
        if s.depths.is_empty() || s.era_depths.is_empty() {
            return Err(
                "a pool sweep of system zkbench needs depths (slot depths) and era_depths".into(),
            );
        }
        if let Some(d) = s.depths.iter().find(|d| !(1..=12).contains(*d)) {
            return Err(format!("slot depth {d} not in 1..=12"));
        }
        if let Some(e) = s.era_depths.iter().find(|e| !(1..=40).contains(*e)) {
            return Err(format!("era depth {e} not in 1..=40"));
        }
    }
    if s.systems.iter().any(|x| x == "tornado") {
        if s.leaves.is_empty() {
            return Err("a pool sweep of system tornado needs leaves (e.g. [\"2^20\"])".into());
        }
        if s.hashes != ["mimc-sponge"] {
            return Err(
                "a pool sweep of system tornado hashes with MiMCSponge: hashes = [\"mimc-sponge\"]"
                    .into(),
            );
        }
        if let Some(l) = s
            .leaves
            .iter()
            .find(|l| !parse_leaves(l).is_ok_and(|n| n.is_power_of_two() && n <= 1 << 31))
        {
            return Err(format!(
                "tornado leaves {l:?}: a power of two up to 2^31 (a binary tree of depth 1..=31)"
            ));
        }
    }
    Ok(())
}

/// Whether `fam` hashes Merkle nodes of `arity` children (`poseidon2-gnark`: 2 only);
/// a sweep over `["all"]` families skips the arities a family does not have.
fn has_arity(fam: HashFamily, arity: usize, alpha: Option<u64>) -> bool {
    fam.node_hasher(arity, alpha).is_ok()
}

/// Appends the cases of sweep `s` for family `fam`, each a variation of `base`.
fn expand_sweep(s: &Sweep, fam: HashFamily, base: Case, out: &mut Vec<Case>) {
    match base.kind {
        CaseKind::Hash => expand_hash_sweep(s, fam, &base, out),
        CaseKind::Merkle => expand_merkle_sweep(s, fam, &base, out),
        CaseKind::Pool => expand_pool_sweep(s, &base, out),
        // primitive sweeps are expanded by `expand_primitive_sweep`
        CaseKind::Msm
        | CaseKind::Fft
        | CaseKind::Pairing
        | CaseKind::Field
        | CaseKind::PcsCommit
        | CaseKind::PcsOpen
        | CaseKind::PcsVerify => {}
        CaseKind::Proof | CaseKind::Evm => expand_proof_sweep(s, fam, &base, out),
    }
}

/// Hash cases: one per state width of the family (those of the sweep's `widths`, if given).
fn expand_hash_sweep(s: &Sweep, fam: HashFamily, base: &Case, out: &mut Vec<Case>) {
    let widths = fam.widths(base.alpha).unwrap_or_default();
    let widths: Vec<usize> = if s.widths.is_empty() {
        widths
    } else {
        s.widths
            .iter()
            .copied()
            .filter(|w| widths.contains(w))
            .collect()
    };
    for w in widths {
        out.push(Case {
            width: Some(w),
            ..base.clone()
        });
    }
}

/// Merkle cases: one per arity the family has and tree size.
fn expand_merkle_sweep(s: &Sweep, fam: HashFamily, base: &Case, out: &mut Vec<Case>) {
    for &a in s.arities.iter().filter(|&&a| has_arity(fam, a, base.alpha)) {
        for l in &s.leaves {
            out.push(Case {
                arity: Some(a),
                leaves: parse_leaves(l).ok(),
                ..base.clone()
            });
        }
    }
}

/// Pool cases: tornado one per tree size, zkbench one per slot depth and era depth.
fn expand_pool_sweep(s: &Sweep, base: &Case, out: &mut Vec<Case>) {
    for sys in &s.systems {
        // the pool's circuits take the family's default exponent
        let b = Case {
            system: sys.clone(),
            alpha: None,
            ..base.clone()
        };
        if sys == "tornado" {
            for l in &s.leaves {
                out.push(Case {
                    leaves: parse_leaves(l).ok(),
                    ..b.clone()
                });
            }
            continue;
        }
        for &d in &s.depths {
            for &e in &s.era_depths {
                out.push(Case {
                    depth: Some(d),
                    leaves: Some(1u64 << (d + e)),
                    ..b.clone()
                });
            }
        }
    }
}

/// Proof and EVM cases: one per system, arity the family has, circuit (default spend),
/// and tree size (batch-root: batch depth).
fn expand_proof_sweep(s: &Sweep, fam: HashFamily, base: &Case, out: &mut Vec<Case>) {
    let circuits = if s.circuits.is_empty() {
        vec![Circuit::Spend]
    } else {
        s.circuits.clone()
    };
    for sys in &s.systems {
        for &a in s.arities.iter().filter(|&&a| has_arity(fam, a, base.alpha)) {
            for &c in &circuits {
                let b = Case {
                    system: sys.clone(),
                    arity: Some(a),
                    circuit: Some(c),
                    ..base.clone()
                };
                if c == Circuit::BatchRoot {
                    for &d in &s.depths {
                        out.push(Case {
                            depth: Some(d),
                            ..b.clone()
                        });
                    }
                } else {
                    for l in &s.leaves {
                        out.push(Case {
                            leaves: parse_leaves(l).ok(),
                            ..b.clone()
                        });
                    }
                }
            }
        }
    }
}

/// The thread counts a sweep (or an external runner) runs at: `--threads`
/// as given, else its own list without the counts above this machine's CPUs
/// (the smallest kept if all are), else the machine's default (0).
pub fn thread_counts(own: &[usize], threads_override: Option<&[usize]>) -> Vec<usize> {
    if let Some(t) = threads_override {
        return t.to_vec();
    }
    let cpus = crate::sys::allowed_cpus().len();
    let mut t: Vec<usize> = own.iter().copied().filter(|&n| n <= cpus).collect();
    if t.is_empty() {
        t.extend(own.iter().copied().min());
    }
    if t.is_empty() {
        t.push(0);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_suites_parse_and_expand() {
        for (name, _) in BUILTIN {
            let s = Suite::load(name).unwrap();
            // wasm-engines is made of external runners only
            assert!(
                !s.cases(None).is_empty() || !s.externals.is_empty(),
                "suite {name} has no cases"
            );
            s.profile(None).unwrap();
        }
    }

    /// Suite `x` of the one sweep `body` (TOML keys of a `[[sweep]]`).
    fn one_sweep(body: &str) -> Result<Suite, SuiteError> {
        Suite::from_toml("x", &format!("name = \"x\"\n[[sweep]]\n{body}"))
    }

    /// [`one_sweep`] of groth16 proofs with the further keys `body`.
    fn groth16_sweep(body: &str) -> Suite {
        one_sweep(&format!(
            "kind = \"proof\"\nsystems = [\"groth16\"]\n{body}"
        ))
        .unwrap()
    }

    #[test]
    fn all_families_skip_arities_a_family_lacks() {
        let s = groth16_sweep(
            r#"
            hashes = ["all"]
            arities = [2, 4]
            leaves = ["2^8"]
            "#,
        );
        let cases = s.cases(None);
        let gnark = |a| {
            cases
                .iter()
                .any(|c| c.hash == "poseidon2-gnark" && c.arity == Some(a))
        };
        assert!(gnark(2) && !gnark(4), "poseidon2-gnark has arity 2 only");
        assert!(cases
            .iter()
            .any(|c| c.hash == "poseidon2" && c.arity == Some(4)));
    }

    #[test]
    fn grid_expansion_respects_family_alphas() {
        let s = groth16_sweep(
            r#"
            hashes = ["poseidon", "poseidon2"]
            alphas = [5, 7]
            arities = [2, 4]
            leaves = ["2^36"]
            threads = [1, 2]
            "#,
        );
        let cases = s.cases(None);
        // poseidon: alpha 5 only (recorded as None); poseidon2: 5 and 7. x 2 arities x 2 threads.
        assert_eq!(cases.len(), (1 + 2) * 2 * 2);
        assert!(cases.iter().all(|c| c.leaves == Some(1 << 36)));
        assert!(cases
            .iter()
            .filter(|c| c.hash == "poseidon")
            .all(|c| c.alpha.is_none()));
        assert_eq!(s.cases(Some(&[4])).len(), 3 * 2);
    }

    #[test]
    fn bad_suites_are_rejected_with_reasons() {
        let cases = [
            ("name = \"x\"\n[[sweep]]\nhashes = [\"poseidon\"]", "no kind"),
            ("name = \"x\"\n[[sweep]]\nkind = \"hash\"\nhashes = [\"sha256\"]", "unknown hash family"),
            ("name = \"x\"\n[[sweep]]\nkind = \"proof\"\nsystems=[\"groth16\"]\narities = [1]", "arity 1"),
            ("name = \"x\"\n[[sweep]]\nkind = \"proof\"\nsystems=[\"groth16\"]\nleaves = [\"2^99\"]", "leaf count"),
            ("name = \"x\"\nbogus = 1", "unknown field"),
        ];
        for (text, needle) in cases {
            let e = Suite::from_toml("x", text).unwrap_err().to_string();
            assert!(e.contains(needle), "{e} does not mention {needle}");
        }
        assert!(matches!(
            Suite::load("no-such-suite"),
            Err(SuiteError::NotFound(..))
        ));
        let s = Suite::load("hashes").unwrap();
        assert!(s.profile(Some("nope")).is_err());
    }

    #[test]
    fn pool_sweeps_pair_slot_and_era_depths() {
        let s = Suite::load("pool").unwrap();
        let cases = s.cases(None);
        let depths: Vec<(u32, u32)> = cases.iter().filter_map(|c| c.pool_depths()).collect();
        for d in 1..=7 {
            assert!(depths.contains(&(d, 20)), "slot depth {d}");
        }
        for e in [20, 24, 28, 32] {
            assert!(depths.contains(&(5, e)), "era depth {e}");
        }
        assert_eq!(depths.len(), 7 + 3, "(5, 20) once");
        assert!(cases
            .iter()
            .any(|c| c.system == "tornado" && c.leaves == Some(1 << 20)));
        for (text, needle) in [
            ("kind = \"pool\"\nsystems = [\"zkbench\"]\ndepths = [5]", "era_depths"),
            ("kind = \"pool\"\nsystems = [\"x\"]", "no pool system"),
            ("kind = \"pool\"\nsystems = [\"zkbench\"]\ndepths = [0]\nera_depths = [20]", "slot depth 0"),
            ("kind = \"pool\"\nsystems = [\"tornado\"]", "needs leaves"),
            ("kind = \"pool\"\nsystems = [\"tornado\"]\nhashes = [\"poseidon2\"]\nleaves = [\"2^20\"]", "MiMCSponge"),
            ("kind = \"proof\"\nsystems = [\"groth16\"]\nera_depths = [20]", "pool sweeps only"),
        ] {
            let e = one_sweep(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{e} does not mention {needle}");
        }
    }

    #[test]
    fn profile_sampling_policy() {
        let p = Profile {
            warmup: 0,
            min_samples: 3,
            max_samples: 5,
            target_seconds: 1.0,
            case_timeout_seconds: 10.0,
            max_log_size: BTreeMap::new(),
        };
        assert!(p.wants_more(0, 10.0));
        assert!(p.wants_more(2, 10.0));
        assert!(!p.wants_more(3, 1.5));
        assert!(p.wants_more(3, 0.5));
        assert!(!p.wants_more(5, 0.1));
    }

    #[test]
    fn former_suite_names_still_load() {
        for (old, new) in ALIASES {
            assert_eq!(Suite::load(old).expect("alias loads").name, *new);
        }
        assert_eq!(Suite::load("scaling").expect("scaling").name, "scaling");
    }
}
