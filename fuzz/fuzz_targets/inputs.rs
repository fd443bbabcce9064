//! The CLI's input parsing: field elements (decimal / 0x-hex), leaf counts
//! (decimal / 2^K), circuit and family names: errors, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = zkbench_hash::field::parse_fr(s);
    let _ = zkbench_bench::case::parse_leaves(s);
    let _ = s.parse::<zkbench_core::statement::CircuitKind>();
    let _ = s.parse::<zkbench_hash::HashFamily>();
});
