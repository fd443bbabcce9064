//! The integration tests of `zkbench-groth16`, one test binary for the crate: every file
//! in this folder is a module here, so `cargo test` links one binary, not one a file.
//! Run one file's tests with `cargo test -p <crate> --test integration <file>::`.

mod audit;
mod common;
mod differential;
mod families;
mod gadgets;
mod merkle;
mod pipeline;
mod pool;
mod prover;
mod ptau;
mod snarkjs;
mod snarkjs_differential;
