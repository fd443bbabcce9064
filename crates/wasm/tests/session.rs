//! The browser provers' Rust code run natively: keys through bytes (the
//! static key files), prove, verify, snarkjs JSON, bad configurations.

use zkbench_wasm::{session, ProveConfig, Session, WasmError};

fn cfg(
    system: &str,
    hash: &str,
    alpha: Option<u64>,
    arity: usize,
    leaves: u64,
    circuit: &str,
) -> ProveConfig {
    ProveConfig {
        system: system.into(),
        hash: hash.into(),
        alpha,
        arity,
        leaves,
        circuit: circuit.into(),
    }
}

/// Setup, keys to bytes and back into a fresh session (a cold start), prove,
/// verify; the proof also verifies from its bytes and fails for other
/// public inputs.
fn round_trip(c: &ProveConfig) -> Session {
    let mut s = Session::new(c).unwrap();
    s.setup(7).unwrap();
    let bytes = s.keys_to_bytes().unwrap();
    let mut cold = Session::new(c).unwrap();
    cold.load_keys(&bytes, 7).unwrap();
    cold.witness(1).unwrap();
    let proof = cold.prove().unwrap();
    assert!(cold.verify().unwrap());
    let public = cold.public_inputs().unwrap();
    assert!(
        s.verify_bytes(&proof, &public).unwrap(),
        "keys from bytes prove for the original keys"
    );
    let mut wrong = public.clone();
    wrong.0[0] += zkbench_hash::Fr::from(1u64);
    assert!(!cold.verify_bytes(&proof, &wrong).unwrap());
    assert!(
        !cold.verify_bytes(&[1, 2, 3], &public).unwrap(),
        "malformed bytes: false"
    );
    let m = cold.metrics().unwrap();
    assert!(m.get("proof_bytes").copied().unwrap_or(0.0) > 0.0);
    cold
}

#[test]
fn groth16_spend_through_key_bytes_and_snarkjs_json() {
    let s = round_trip(&cfg("groth16", "griffin", None, 7, 1 << 12, "spend"));
    let j = s.snarkjs_json().unwrap();
    assert!(session::verify_snarkjs(&j["verification_key"], &j["proof"], &j["public"]).unwrap());
    let mut tampered = j["public"].clone();
    tampered[0] = serde_json::json!("1");
    assert!(!session::verify_snarkjs(&j["verification_key"], &j["proof"], &tampered).unwrap());
}

#[test]
fn groth16_membership_poseidon_binary() {
    let s = round_trip(&cfg("groth16", "poseidon", None, 2, 1 << 4, "membership"));
    assert_eq!(
        s.public_inputs().unwrap().0.len(),
        1,
        "membership: the root"
    );
}

#[test]
fn halo2_spend_through_key_bytes() {
    let s = round_trip(&cfg("halo2-kzg", "poseidon2", Some(7), 7, 1 << 12, "spend"));
    assert!(matches!(s.snarkjs_json(), Err(WasmError::Unsupported(_))));
}

#[test]
fn keys_of_another_circuit_or_damaged_are_errors() {
    let c = cfg("groth16", "griffin", None, 7, 1 << 12, "spend");
    let mut s = Session::new(&c).unwrap();
    s.setup(1).unwrap();
    let bytes = s.keys_to_bytes().unwrap();
    let mut m = Session::new(&cfg("groth16", "griffin", None, 7, 1 << 12, "membership")).unwrap();
    assert!(m.load_keys(&bytes, 1).is_err());
    let mut fresh = Session::new(&c).unwrap();
    assert!(fresh.load_keys(&bytes[..bytes.len() / 2], 1).is_err());
    assert!(fresh.load_keys(&[], 1).is_err());
}

#[test]
fn bad_configurations_say_what_is_wrong() {
    let bad = [
        cfg("plonky9", "poseidon", None, 2, 16, "spend"),
        cfg("groth16", "sha256", None, 2, 16, "spend"),
        cfg("groth16", "poseidon", None, 1, 16, "spend"),
        cfg("groth16", "poseidon", None, 2, 16, "teleport"),
        cfg("groth16", "poseidon", Some(9), 2, 16, "spend"),
        cfg("halo2-kzg", "griffin", None, 2, 16, "spend"),
    ];
    for c in bad {
        let e = Session::new(&c)
            .err()
            .unwrap_or_else(|| panic!("{c:?} accepted"));
        assert!(!e.to_string().is_empty());
    }
    let mut s = Session::new(&cfg("groth16", "poseidon", None, 2, 16, "membership")).unwrap();
    assert!(matches!(s.prove(), Err(WasmError::State(_))));
}

#[test]
fn hash_throughput_per_family() {
    for f in session_families() {
        let t = zkbench_wasm::hashes::hash_throughput(f, None, None, 2).unwrap();
        assert_eq!(t.samples_s.len(), 2);
        assert!(t.samples_s.iter().all(|s| *s > 0.0));
    }
    assert!(zkbench_wasm::hashes::hash_throughput("nope", None, None, 1).is_err());
}

fn session_families() -> Vec<&'static str> {
    zkbench_wasm::hashes::families()
}

#[test]
fn public_inputs_from_decimals() {
    assert!(session::public_from_decimals(&["12".into()]).is_ok());
    assert!(session::public_from_decimals(&["x".into()]).is_err());
    let p = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
    assert!(
        session::public_from_decimals(&[p.into()]).is_err(),
        "the modulus itself"
    );
}

#[test]
fn stark_spend_through_key_bytes() {
    // transparent "keys" (level and AIR shape); BabyBear Poseidon2 has x^7 only,
    // arity 2 (width 16) and 4 or 8 (the width-24 sponge)
    for arity in [2, 4] {
        round_trip(&cfg(
            "stark-babybear",
            "poseidon2",
            Some(7),
            arity,
            1 << 8,
            "spend",
        ));
    }
    let e = Session::new(&cfg("stark-babybear", "poseidon2", Some(7), 3, 81, "spend"))
        .err()
        .unwrap();
    assert!(e.to_string().contains("arity 3"), "{e}");
}

/// A seeded proof is the same bytes for the same seed (what the page's
/// SIMD128-against-scalar check compares), another seed another proof, and
/// both verify.
#[test]
fn seeded_proofs_repeat() {
    let mut s = Session::new(&cfg("groth16", "poseidon", None, 2, 16, "membership")).unwrap();
    s.setup(3).unwrap();
    s.witness(4).unwrap();
    let a = s.prove_seeded(11).unwrap();
    assert!(s.verify().unwrap());
    let b = s.prove_seeded(11).unwrap();
    let c = s.prove_seeded(12).unwrap();
    assert!(s.verify().unwrap());
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Keys decoded where they lie (`load_keys_owned`: Groth16's tables stay in
/// the key file's buffer, as the page's key buffer in WebAssembly memory
/// does) prove exactly what keys copied out of the bytes prove (Groth16:
/// the same seeded proof bytes; Halo2, whose prover draws more randomness
/// than the seed: a proof that verifies); foreign or damaged bytes are
/// errors there too.
#[test]
fn keys_decoded_in_place_prove_the_same() {
    for c in [
        cfg("groth16", "poseidon", None, 2, 16, "membership"),
        cfg("groth16", "griffin", None, 7, 1 << 12, "spend"),
        cfg("halo2-kzg", "poseidon2", Some(7), 2, 16, "membership"),
    ] {
        let mut s = Session::new(&c).unwrap();
        s.setup(5).unwrap();
        let bytes = s.keys_to_bytes().unwrap();
        let mut copied = Session::new(&c).unwrap();
        copied.load_keys(&bytes, 5).unwrap();
        let mut shared = Session::new(&c).unwrap();
        shared.load_keys_owned(bytes.clone(), 5).unwrap();
        for t in [&mut copied, &mut shared] {
            t.witness(6).unwrap();
        }
        let a = copied.prove_seeded(9).unwrap();
        let b = shared.prove_seeded(9).unwrap();
        if c.system == "groth16" {
            assert_eq!(a, b, "{}: in place against copied", c.system);
        }
        assert!(shared.verify().unwrap());
        assert!(copied
            .verify_bytes(&b, &shared.public_inputs().unwrap())
            .unwrap());
        let mut fresh = Session::new(&c).unwrap();
        assert!(fresh
            .load_keys_owned(bytes[..bytes.len() / 2].to_vec(), 5)
            .is_err());
        assert!(fresh.load_keys_owned(Vec::new(), 5).is_err());
        if c.system == "groth16" {
            // the tables' checksum (XXH3) catches one flipped bit
            let mut flipped = bytes.clone();
            let at = flipped.len() - 100;
            flipped[at] ^= 1;
            assert!(
                fresh.load_keys_owned(flipped, 5).is_err(),
                "a flipped byte in the tables"
            );
        }
    }
    let spend = cfg("groth16", "griffin", None, 7, 1 << 12, "spend");
    let mut s = Session::new(&spend).unwrap();
    s.setup(1).unwrap();
    let mut m = Session::new(&cfg("groth16", "griffin", None, 7, 1 << 12, "membership")).unwrap();
    assert!(m.load_keys_owned(s.keys_to_bytes().unwrap(), 1).is_err());
}

/// A first visit's compact Groth16 key file is smaller and proves the same
/// bytes as the full one from the same randomness; Halo2 has none (an
/// error, not a panic).
#[test]
fn compact_keys_prove_the_same() {
    let c = cfg("groth16", "griffin", None, 7, 1 << 12, "spend");
    let mut s = Session::new(&c).unwrap();
    s.setup(5).unwrap();
    let full = s.keys_to_bytes().unwrap();
    s.witness(6).unwrap();
    let want = s.prove_seeded(9).unwrap();
    for rows in [4, 1] {
        let compact = s.compact_keys_to_bytes(rows).unwrap();
        assert!(compact.len() < full.len() / 2, "rows {rows}");
        let mut t = Session::new(&c).unwrap();
        t.load_keys_owned(compact, 5).unwrap();
        t.witness(6).unwrap();
        assert_eq!(t.prove_seeded(9).unwrap(), want, "rows {rows}");
    }
    let mut h = Session::new(&cfg("halo2-kzg", "poseidon2", Some(7), 2, 16, "membership")).unwrap();
    h.setup(5).unwrap();
    assert!(h.compact_keys_to_bytes(4).is_err());
}

/// A first proof made while the key file arrives (`stream_keys_*`) is the
/// seeded proof of the same randomness, its keys prove and verify after it;
/// a cut or damaged file is an error, and so is the call order broken or a
/// system without streamed keys (errors, never a panic or a wait).
#[test]
fn streamed_keys_prove_the_same() {
    let c = cfg("groth16", "griffin", None, 7, 1 << 12, "spend");
    let mut s = Session::new(&c).unwrap();
    s.setup(5).unwrap();
    s.witness(6).unwrap();
    let want = s.prove_seeded(9).unwrap();
    let compact = s.compact_keys_to_bytes(4).unwrap();
    let mut t = Session::new(&c).unwrap();
    assert!(t.stream_keys_begin(Some(9)).is_err(), "no witness yet");
    assert!(t.stream_keys_push(&[1]).is_err(), "not begun");
    assert!(t.stream_keys_end().is_err(), "not begun");
    t.witness(6).unwrap();
    t.stream_keys_begin(Some(9)).unwrap();
    for chunk in compact.chunks(65_536) {
        t.stream_keys_push(chunk).unwrap();
    }
    assert_eq!(t.stream_keys_end().unwrap(), want);
    assert!(t.verify().unwrap());
    // when the streamed proof reached its milestones, in the metrics as a prover's parts
    let m = t.metrics().unwrap();
    assert!(
        m["phase_stream_proof_s"] >= m["phase_stream_msms_s"],
        "{m:?}"
    );
    assert_eq!(
        t.prove_seeded(9).unwrap(),
        want,
        "the keys decoded on the way"
    );
    // cut, then damaged
    t.stream_keys_begin(None).unwrap();
    t.stream_keys_push(&compact[..compact.len() / 2]).unwrap();
    let e = t.stream_keys_end().unwrap_err().to_string();
    assert!(e.contains("ended"), "{e}");
    let mut bad = compact.clone();
    let at = bad.len() - 10;
    bad[at] ^= 0x40;
    t.stream_keys_begin(None).unwrap();
    t.stream_keys_push(&bad).unwrap();
    let e = t.stream_keys_end().unwrap_err().to_string();
    assert!(e.contains("checksum"), "{e}");
    // a stream begun again drops the first; the second still proves
    t.stream_keys_begin(Some(9)).unwrap();
    t.stream_keys_push(&compact[..100]).unwrap();
    t.stream_keys_begin(Some(9)).unwrap();
    t.stream_keys_push(&compact).unwrap();
    assert_eq!(t.stream_keys_end().unwrap(), want);
    let mut h = Session::new(&cfg("halo2-kzg", "poseidon2", Some(7), 2, 16, "membership")).unwrap();
    h.witness(1).unwrap();
    let e = h.stream_keys_begin(None).unwrap_err().to_string();
    assert!(e.contains("Groth16 has one"), "{e}");
}

/// The warm-up (what a page runs right after loading the module) takes
/// every path a first visit takes and its proofs verify.
#[test]
fn warm_up_runs_the_first_visit_s_paths() {
    zkbench_wasm::session::warm_up().unwrap();
}
