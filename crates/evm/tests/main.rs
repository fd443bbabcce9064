//! The integration tests of `zkbench-evm`, one test binary for the crate: every file
//! in this folder is a module here, so `cargo test` links one binary, not one a file.
//! Run one file's tests with `cargo test -p <crate> --test integration <file>::`.

mod common;
mod halo2;
mod snarkjs;
mod verifier;
