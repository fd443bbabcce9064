//! # zkbench-core
//!
//! What every layer of zkbench above the statement agrees on:
//!
//! - [`proof_system`]: the [`ProofSystem`] trait that every backend
//!   (`zkbench-groth16`, `zkbench-halo2`, ...) implements and that the
//!   harness, the CLI, the WebAssembly bindings and the pool program against;
//! - [`audit`]: the report of a soundness (mutation) audit; [`fuzz`]: the
//!   malformed-proof fuzzer every verifier must survive;
//! - [`case`], [`results`], [`stats`], [`env`]: the versioned results schema
//!   (`docs/results-schema.md`): a benchmark case, one record per case × phase,
//!   summaries, and the environment a record was measured in. The harness
//!   writes it, the report and the results server read it.
#![deny(missing_docs)]

pub mod audit;
pub mod case;
pub mod env;
pub mod fuzz;
pub mod proof_system;
pub mod results;
pub mod stats;

pub use audit::{AuditReport, Survivor};
pub use case::{Case, CaseKind, Circuit};
pub use env::Environment;
pub use proof_system::{Metrics, PhaseParts, PhaseTimings, ProofSystem};
pub use results::{Record, ResultsError, ResultsFile, Status, SCHEMA, SCHEMA_VERSION};
pub use zkbench_statement as statement;
