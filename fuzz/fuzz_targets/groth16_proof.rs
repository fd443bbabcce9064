//! Groth16 proof bytes: decoding and verification never panic and never
//! accept (a valid proof for these inputs is astronomically unlikely).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use zkbench_core::ProofSystem;
use zkbench_groth16::Groth16;

mod common;

fuzz_target!(|data: &[u8]| {
    static F: OnceLock<(zkbench_groth16::Circuit, zkbench_groth16::Keys, zkbench_core::statement::PublicInputs)> =
        OnceLock::new();
    let (c, k, public) = F.get_or_init(|| common::fixture(&Groth16));
    if let Ok(p) = Groth16.proof_from_bytes(data) {
        assert!(!Groth16.verify(c, k, public, &p).unwrap_or(false));
    }
});
