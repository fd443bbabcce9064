//! snarkjs JSON artifacts (proof.json, public.json, verification_key.json):
//! parsing arbitrary text never panics; public inputs >= r are rejected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkbench_groth16::snarkjs;

fuzz_target!(|data: &[u8]| {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = snarkjs::proof_from_json(&v);
    let _ = snarkjs::public_from_json(&v);
    let _ = snarkjs::vk_from_json(&v);
});
