//! # zkbench-wasm
//!
//! zkbench's Groth16 and Halo2-KZG provers and verifiers, for the note-spend
//! and membership statements, and the native hash families, compiled for
//! `wasm32-unknown-unknown` and exposed to JavaScript with wasm-bindgen. It is
//! the same Rust code as the native harness: every proof goes through
//! `zkbench_core::ProofSystem` as implemented by `zkbench-groth16` and
//! `zkbench-halo2`.
//!
//! * [`session`]: the provers in plain Rust ([`Session`], [`ProveConfig`]),
//!   usable natively (the crate's tests run them and check that proofs made in
//!   WebAssembly verify natively);
//! * [`hashes`]: permutation throughput per hash family;
//! * [`inputs`]: a proof's inputs from a dapp's JSON, and Merkle paths for
//!   membership proofs;
//! * [`engines`]: the Ewasm post's MiMC hash and Groth16 verification behind
//!   number-only exports, for engines outside the browser (`wasm-engines`);
//! * [`bindings`]: the JavaScript API (`Prover`, `hashThroughput`, ...);
//!   with the `parallel` feature on wasm32, `initThreadPool` from
//!   wasm-bindgen-rayon starts the Web Worker pool the provers' rayon uses.
//!
//! Build it with `bash scripts/build-web.sh` (threaded and single-threaded
//! modules for the page in `web/`).
#![deny(missing_docs)]

pub mod bindings;
pub mod engines;
pub mod hashes;
pub mod inputs;
pub mod kernel_bench;
pub mod sampling;
pub mod session;
pub mod streamed;

pub use session::{ProveConfig, Session};

/// Why a call failed; JavaScript receives [`WasmError`]'s message as an
/// `Error`.
#[derive(Debug, thiserror::Error)]
pub enum WasmError {
    /// The configuration (system, hash, arity, leaves, circuit) is invalid.
    #[error("bad configuration: {0}")]
    Config(String),
    /// The proof system failed (setup, key decoding, witness, proof).
    #[error("{system}: {message}")]
    Backend {
        /// `case.system` of the backend.
        system: String,
        /// Its error message.
        message: String,
    },
    /// A call came before the one it needs (e.g. `prove` before `setup`).
    #[error("{0}")]
    State(&'static str),
    /// The system does not offer this (e.g. snarkjs JSON for Halo2).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// JSON in or out.
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Threads the provers use: rayon's pool size with the `parallel` feature
/// (on wasm32, the pool `initThreadPool` started), otherwise 1.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Bytes of WebAssembly linear memory now (it only grows, so this is also
/// the peak); natively `None`.
pub fn wasm_memory_bytes() -> Option<u64> {
    #[cfg(target_arch = "wasm32")]
    {
        Some(core::arch::wasm32::memory_size(0) as u64 * 65536)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}
