//! # zkbench-bench
//!
//! The benchmark harness behind `zkbench run` (the report, headline and
//! compare code is `zkbench-report`, re-exported here as [`report`],
//! [`headline`] and [`compare`]):
//!
//! - [`suite`]: declarative TOML suites (`suites/*.toml`) and their grids;
//! - [`runner`]: each case in its own child process, with timeouts, a time
//!   budget and progress; failures are recorded as data;
//! - [`measure`] / [`sys`]: phases timed separately (wall + CPU), warm-up and
//!   repetitions by time budget, peak RSS per phase, environment capture;
//! - [`backends`]: the registry of backends; [`proof`]: the measurement loop of
//!   every `zkbench_core::ProofSystem`; [`native`]: hash throughput; [`primitives`]:
//!   MSM, FFT, pairing, field and polynomial-commitment cases; [`evm`]:
//!   Solidity verifiers' gas in an embedded EVM; [`pool`]: the private pool
//!   and the Tornado Cash baseline end to end (prove times, gas per transaction);
//! - [`results`]: the versioned results schema (`docs/results-schema.md`, owned
//!   by `zkbench-results`) and CSV;
//! - [`report_context`]: what the report needs from the registry (zkbench's
//!   proof systems, hash families' default exponents).
#![deny(missing_docs)]

pub mod backend;
pub mod backends;
pub mod build_info;
pub mod evm;
pub mod measure;
pub mod native;
pub mod pool;
pub mod primitives;
pub mod proof;
pub mod runner;
pub mod suite;
pub mod sys;

/// The results schema, from `zkbench-results` (through `zkbench-core`).
pub use zkbench_core::{case, results, stats};
/// The report, headline and compare, from `zkbench-report`.
pub use zkbench_report::{compare, headline, report};

/// The report's [`Context`](zkbench_report::Context) for this build:
/// zkbench's proof systems are those of the registry
/// ([`backends::proof_system_names`]), default exponents those of
/// `zkbench-hash`'s families.
pub fn report_context() -> zkbench_report::Context {
    zkbench_report::Context::new(&backends::proof_system_names(), |hash| {
        hash.parse::<zkbench_hash::HashFamily>()
            .ok()
            .map(|f| f.alphas()[0])
    })
}
