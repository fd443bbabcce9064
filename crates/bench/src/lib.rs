//! # zkbench-bench
//!
//! The benchmark harness behind `zkbench run`, `zkbench report` and
//! `zkbench compare`:
//!
//! - [`suite`]: declarative TOML suites (`suites/*.toml`) and their grids;
//! - [`runner`]: each case in its own child process, with timeouts, a time
//!   budget and progress; failures are recorded as data;
//! - [`measure`] / [`sys`]: phases timed separately (wall + CPU), warm-up and
//!   repetitions by time budget, peak RSS per phase, environment capture;
//! - [`backends`]: the registry of backends; [`proof`]: the measurement loop of
//!   every `zkbench_core::ProofSystem`; [`native`]: hash throughput; [`primitives`]:
//!   MSM, FFT, pairing, field and polynomial-commitment cases; [`evm`]:
//!   Solidity verifiers' gas in an embedded EVM; [`pool`]: seed 003's private pool
//!   and the Tornado Cash baseline end to end (prove times, gas per transaction);
//! - [`results`]: the versioned results schema (`docs/results-schema.md`, owned
//!   by `zkbench-core`) and CSV;
//! - [`report`]: self-contained HTML report and Markdown summary ([`report_seed003`]:
//!   seed 003's grid, hash × proof system × Merkle depth; [`report_wasm_engines`]: seed
//!   001's WebAssembly engines);
//! - [`compare`]: ratios between two runs with a noise threshold.
#![deny(missing_docs)]

pub mod backend;
pub mod backends;
pub mod build_info;
pub mod compare;
pub mod evm;
pub mod headline;
pub mod measure;
pub mod native;
pub mod pool;
pub mod primitives;
pub mod proof;
pub mod report;
pub mod report_pool;
pub mod report_primitives;
pub mod report_seed003;
pub mod report_wasm_engines;
pub mod runner;
pub mod scaling;
pub mod suite;
pub mod sys;

/// The results schema, from `zkbench-core`.
pub use zkbench_core::{case, results, stats};
