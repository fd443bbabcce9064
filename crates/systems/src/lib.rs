//! zkbench's proof systems by name: the one front door to the backends.
//!
//! - [`SystemId`]: the closed set of zkbench's own provers (`groth16`,
//!   `halo2-kzg`, `halo2-kzg-keccak`, `stark-babybear`, `stark-babybear-128`), with [`FromStr`](std::str::FromStr),
//!   [`Display`](std::fmt::Display) and serde as the same strings that
//!   suites, results (`case.system`), the CLI's `--system` and the browser
//!   bindings use.
//! - [`ProofConfig`]: the one parser from a configuration (system, hash,
//!   alpha, arity, leaves, circuit) to a checked statement for a system.
//! - [`SystemId::dispatch`] with [`WithSystem`]: runs code that is generic
//!   over [`ProofSystem`] with the prover of a [`SystemId`] (the one `match`
//!   from a name to a backend type), and [`SystemId::prover`] with
//!   [`Prover`] for code that needs the concrete backend type.
//!
//! Peers measured by the harness (`gnark-groth16`, `snarkjs-…`, `rapidsnark`
//! …) are not zkbench provers: their `case.system` values stay strings in the
//! results schema, and [`SystemId`] covers only the provers compiled into
//! zkbench.

#![deny(missing_docs)]

mod config;
mod id;

pub use config::{parse_statement, ConfigError, ProofConfig};
pub use id::{Prover, SystemId, UnknownSystem, WithSystem};
pub use zkbench_core::ProofSystem;
