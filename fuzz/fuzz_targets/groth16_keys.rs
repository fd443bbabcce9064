//! Groth16 key files: decoding arbitrary bytes never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = zkbench_groth16::keys::verifying_key_from_bytes(data);
    let _ = zkbench_groth16::keys::proving_key_from_bytes(data);
});
