//! The `wasm-engines` suite's exports (`zkbench_wasm::engines`): natively, and
//! in the WebAssembly module as the suite's Node runner runs it
//! (`peers/wasm-engines/run.mjs --child`: no wasm-bindgen glue, imports
//! stubbed): its MiMC output equals the native hash, and it accepts
//! zkbench's native Groth16 proof.
//!
//! The Node part is skipped, with a message saying so on stderr, when `node`
//! or the module (`target/wasm-node/zkbench_wasm_bg.wasm`, written by
//! `bash scripts/build-web.sh`) is absent.

use std::process::Command;

use zkbench_hash::{mimc_sponge, Fr};
use zkbench_wasm::{engines, ProveConfig, Session};

use crate::common;
use crate::common::repo;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A small note-spend proof (MiMCSponge, binary, 4 leaves; TEST setup) as
/// the engines' input: `{verification_key, proof, public}`.
fn verify_input() -> Vec<u8> {
    let cfg = ProveConfig {
        system: "groth16".into(),
        hash: "mimc-sponge".into(),
        alpha: None,
        arity: 2,
        leaves: 4,
        circuit: "spend".into(),
    };
    let mut s = Session::new(&cfg).unwrap();
    s.setup(1).unwrap();
    s.witness(2).unwrap();
    s.prove().unwrap();
    serde_json::to_vec(&s.snarkjs_json().unwrap()).unwrap()
}

#[test]
fn native_exports_hash_and_verify() {
    // one hash is Tornado Cash's hashLeftRight(h, i + 2) from h = 1
    assert_eq!(
        engines::mimc_chain(1),
        mimc_sponge::hash_left_right(Fr::from(1u64), Fr::from(2u64))
    );
    assert_eq!(engines::mimc_chain(0), Fr::from(1u64));
    assert_eq!(engines::mimc_to_buffer(3), 32);

    assert_eq!(engines::verify_loaded(1), -1, "nothing loaded yet");
    let bad = b"{\"proof\": 1}";
    engines::buffer_resize(0);
    // the buffer is too short for the asked length: an error, not a panic
    assert!(engines::groth16_load(bad.len() as u32) < 0);

    let input = engines::VerifyInput::from_json(&verify_input()).unwrap();
    assert_eq!(input.public_inputs(), 3);
    assert!(input.verify().unwrap());
    let err = engines::VerifyInput::from_json(bad)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("verification_key"), "{err}");
}

#[test]
fn node_runner_mimc_equals_native_and_verifies_native_proof() {
    let Some(pkg) = common::wasm_node("the wasm-engines Node runner") else {
        return;
    };
    let module = pkg.join("zkbench_wasm_bg.wasm");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.json");
    std::fs::write(&input, verify_input()).unwrap();
    let out = Command::new("node")
        .arg(repo().join("peers/wasm-engines/run.mjs"))
        .args(["--child", "--engine", "wasm-v8-turbofan", "--module"])
        .arg(&module)
        .arg("--input")
        .arg(&input)
        .args([
            "--sampling",
            r#"{"warmup":0,"min_samples":1,"max_samples":1,"target_seconds":0}"#,
        ])
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "run.mjs --child failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let native_one = engines::fr_to_le_bytes(&mimc_sponge::hash_left_right(
        Fr::from(1u64),
        Fr::from(2u64),
    ));
    assert_eq!(line["mimc"]["check_hex"], hex(&native_one), "{line}");
    let batch = line["mimc"]["batch"].as_u64().unwrap() as u32;
    assert_eq!(
        line["mimc"]["out_hex"],
        hex(&engines::fr_to_le_bytes(&engines::mimc_chain(batch))),
        "{line}"
    );
    assert_eq!(line["verify"]["accepted"], true, "{line}");
    assert_eq!(line["verify"]["public_inputs"], 3, "{line}");
}
