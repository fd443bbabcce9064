//! Halo2-KZG proof bytes: verification never panics and never accepts.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use zkbench_core::ProofSystem;
use zkbench_halo2::{Halo2Circuit, Halo2Kzg, Keys};

mod common;

fuzz_target!(|data: &[u8]| {
    static F: OnceLock<(Halo2Circuit, Keys, zkbench_core::statement::PublicInputs)> =
        OnceLock::new();
    let sys = Halo2Kzg::default();
    let (c, k, public) = F.get_or_init(|| common::fixture(&sys));
    let p = sys
        .proof_from_bytes(data)
        .expect("any bytes are a transcript");
    assert!(!sys.verify(c, k, public, &p).unwrap_or(false));
});
