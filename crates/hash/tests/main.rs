//! The integration tests of `zkbench-hash`, one test binary for the crate: every file
//! in this folder is a module here, so `cargo test` links one binary, not one a file.
//! Run one file's tests with `cargo test -p <crate> --test integration <file>::`.

#[macro_use]
mod common;
mod kat_anemoi;
mod kat_gmimc;
mod kat_griffin;
mod kat_mimc7;
mod kat_mimc_sponge;
mod kat_neptune;
mod kat_poseidon;
mod kat_poseidon2;
mod kat_poseidon2_gnark;
mod kat_rescue_prime;
mod round_numbers;
