//! # zkbench-report
//!
//! Everything that reads results files and shows them, depending on the
//! results schema (`zkbench-results`) only:
//!
//! - [`report`]: the self-contained HTML report ([`html_report`]) and the
//!   Markdown summary printed after a run ([`markdown_summary`]);
//! - its sections: [`headline`] (zkbench against each peer on the same
//!   statement), [`hash_depth`] (batch-root circuits by hash, proof system and
//!   Merkle depth), [`wasm_engines`] (one WebAssembly module per engine),
//!   [`pool`] (the private pool against the Tornado Cash baseline) and
//!   [`primitives`] (MSM, FFT, polynomial commitments, prover parts),
//!   [`security`] (the security table of the configurations) and [`pareto`]
//!   (prove time against verify gas against proof size, the front's chart);
//! - [`scaling`]: speed against threads (ratio to the peer, work overhead,
//!   a speedup chart per case), first in the summary when a run has it;
//! - [`compare`]: `zkbench compare`, the ratio of medians of two files;
//! - the building blocks: [`table::Table`] (one table, rendered as Markdown
//!   or HTML), [`charts`] (every SVG chart) and [`mod@format`] (numbers and text).
//!
//! What only the harness knows (which proof systems are zkbench's, a hash
//! family's default exponent) comes in a [`Context`].
#![deny(missing_docs)]

pub mod charts;
pub mod compare;
pub mod format;
pub mod hash_depth;
pub mod headline;
pub mod pareto;
pub mod pool;
pub mod primitives;
pub mod report;
pub mod scaling;
pub mod security;
pub mod table;
pub mod wasm_engines;

pub use report::{html_report, markdown_summary};
pub use table::Table;

/// What the report needs to know beyond the records: which proof systems
/// are zkbench's (every other one is a peer) and each hash family's default
/// S-box exponent (so that `poseidon2` with α = 5 and a peer's plain
/// `poseidon2` are the same statement).
#[derive(Clone, Debug)]
pub struct Context {
    /// zkbench's proof systems (`groth16`, `halo2-kzg`, ...).
    pub proof_systems: Vec<String>,
    /// The default exponent of a hash family by name, `None` when unknown.
    pub default_alpha: fn(&str) -> Option<u64>,
}

impl Context {
    /// A context for `proof_systems` with `default_alpha`.
    pub fn new(proof_systems: &[&str], default_alpha: fn(&str) -> Option<u64>) -> Self {
        Self {
            proof_systems: proof_systems.iter().map(|s| s.to_string()).collect(),
            default_alpha,
        }
    }

    /// [`Context::proof_systems`] as string slices.
    pub fn ours(&self) -> Vec<&str> {
        self.proof_systems.iter().map(String::as_str).collect()
    }
}

impl Default for Context {
    /// No zkbench proof system and no default exponents (every proof
    /// system is then a peer, and no headline is drawn).
    fn default() -> Self {
        Self::new(&[], |_| None)
    }
}

/// Test fixtures shared by the sections' tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use zkbench_results::case::{Case, CaseKind, Circuit};

    /// A membership proof of `system` with `hash`, arity 2, 2^32 leaves, all threads:
    /// the statement most of the tests compare on.
    pub(crate) fn membership_case(system: &str, hash: &str) -> Case {
        Case {
            arity: Some(2),
            leaves: Some(1 << 32),
            circuit: Some(Circuit::Membership),
            ..Case::new(CaseKind::Proof, system, hash)
        }
    }
}
