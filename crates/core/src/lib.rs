//! # zkbench-core
//!
//! What every layer of zkbench above the statement agrees on:
//!
//! - [`proof_system`]: the [`ProofSystem`] trait that every backend
//!   (`zkbench-groth16`, `zkbench-halo2`, ...) implements and that the
//!   harness, the CLI, the WebAssembly bindings and the pool program against;
//! - [`audit`]: the report of a soundness (mutation) audit; [`fuzz`]: the
//!   malformed-proof fuzzer every verifier must survive;
//! - [`case`], [`results`], [`stats`], [`mod@env`]: the versioned results schema
//!   (`docs/results-schema.md`), defined in `zkbench-results` and re-exported
//!   here at the same paths; [`case`] adds the link from a case to its
//!   statement ([`CaseStatement`]).
#![deny(missing_docs)]

pub mod audit;
pub mod case;
pub mod fuzz;
pub mod proof_system;
pub use zkbench_results::{env, results, stats};

pub use audit::{AuditReport, Survivor};
pub use case::{Case, CaseKind, CaseStatement, Circuit};
pub use proof_system::{Metrics, PhaseParts, PhaseTimings, ProofSystem};
pub use zkbench_results::{
    Environment, Primitive, PrimitiveKind, Record, ResultsError, ResultsFile, Status, Subject,
    Summary, SCHEMA, SCHEMA_VERSION,
};
pub use zkbench_statement as statement;
