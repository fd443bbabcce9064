//! The measurement trait: what runs a [`Case`] inside the (child) process
//! and returns its records.

use zkbench_core::{fuzz::FuzzReport, statement::StatementConfig, AuditReport};

use crate::{case::Case, results::Record, suite::Profile, sys::Environment};

/// What a soundness audit returns: the mutation-audit report and, when
/// malformed proofs were asked for, the fuzzer's report; or why it failed.
pub type AuditOutcome = Result<(AuditReport, Option<FuzzReport>), String>;

/// Something that can measure cases.
pub trait Backend: Send + Sync {
    /// Name as used in suites (`system` of proof cases; `native` for hash/merkle cases).
    fn name(&self) -> &'static str;
    /// One line describing the backend (for `zkbench list`).
    fn description(&self) -> &'static str;
    /// Whether this backend handles `case`.
    fn handles(&self, case: &Case) -> bool;
    /// Measures the case; failures are returned as records with a non-ok status.
    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record>;

    /// Soundness audit of the circuit of `cfg` (mutation test from a random
    /// valid witness) and, when `fuzz > 0`, `fuzz` malformed proofs fed to
    /// the verifier. `None` for backends that prove nothing.
    fn audit(&self, cfg: &StatementConfig, fuzz: u64, seed: u64) -> Option<AuditOutcome> {
        let _ = (cfg, fuzz, seed);
        None
    }
}
