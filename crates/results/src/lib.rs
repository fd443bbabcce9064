//! # zkbench-results
//!
//! The versioned results schema (`docs/results-schema.md`) that the harness
//! writes and the report, `zkbench compare` and the results server read:
//!
//! - [`case`]: a benchmark case (what is measured, with which parameters) and
//!   its stable id;
//! - [`results`]: one [`Record`] per case × phase, the [`ResultsFile`] that
//!   holds them, reading, checking, writing and CSV export;
//! - [`stats`]: the order statistics of a record's samples ([`Summary`]) and
//!   the one [`median`](stats::median);
//! - [`mod@env`]: the machine and build a record was measured on;
//! - [`security`]: the security table (hash families' claimed levels and
//!   attacks, the curve's and FRI's estimates), with citations.
//!
//! It depends on serde only, so readers of results (the report, the server)
//! do not pull in the provers or their curves.
#![deny(missing_docs)]

pub mod case;
pub mod env;
pub mod results;
pub mod security;
pub mod stats;
pub mod subject;

pub use case::{Case, CaseKind, Circuit};
pub use env::Environment;
pub use results::{Record, ResultsError, ResultsFile, Status, SCHEMA, SCHEMA_VERSION};
pub use stats::Summary;
pub use subject::{Primitive, PrimitiveKind, Subject};
