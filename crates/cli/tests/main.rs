//! The integration tests of `zkbench-cli`, one test binary for the crate: every file
//! in this folder is a module here, so `cargo test` links one binary, not one a file.
//! Run one file's tests with `cargo test -p <crate> --test integration <file>::`.

mod browser;
mod cli;
mod common;
mod evm;
mod layering;
mod peers;
mod pool;
mod recommend;
mod run_browser;
mod serve;
