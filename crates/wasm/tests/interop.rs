//! A proof made in WebAssembly verifies with the native verifier, and a native
//! proof verifies in WebAssembly: Node runs the wasm-bindgen `nodejs` build of
//! this crate (`target/wasm-node`, written by `bash scripts/build-web.sh`)
//! through `web/scripts/interop.mjs`.
//!
//! Skipped, with a message saying so on stderr, when that build or `node` is
//! absent (the build takes minutes; see scripts/build-web.sh).

use std::{path::PathBuf, process::Command};

use zkbench_wasm::{session, ProveConfig, Session};

use crate::common;
use crate::common::repo;

/// The wasm-bindgen nodejs build, or `None` (with the reason printed) to skip.
fn wasm_node() -> Option<PathBuf> {
    common::wasm_node("wasm/native interop")
}

fn node(args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new("node")
        .arg(repo().join("web/scripts/interop.mjs"))
        .args(args)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "node interop.mjs {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn read_json(p: PathBuf) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

#[test]
fn wasm_proofs_verify_natively_and_native_proofs_in_wasm() {
    let Some(pkg) = wasm_node() else { return };
    let dir = tempfile::tempdir().unwrap();
    node(&["prove".as_ref(), pkg.as_os_str(), dir.path().as_os_str()]);

    for system in ["groth16", "halo2-kzg"] {
        let d = dir.path().join(system);
        let cfg: ProveConfig = serde_json::from_value(read_json(d.join("config.json"))).unwrap();
        let keys = std::fs::read(d.join("keys.bin")).unwrap();
        let proof = std::fs::read(d.join("proof.bin")).unwrap();
        let public: Vec<String> = serde_json::from_value(read_json(d.join("public.json"))).unwrap();
        let public = session::public_from_decimals(&public).unwrap();

        // the wasm keys, read natively; the wasm proof verifies natively ...
        let mut native = Session::new(&cfg).unwrap();
        native.load_keys(&keys, 5).unwrap();
        assert!(
            native.verify_bytes(&proof, &public).unwrap(),
            "{system}: wasm proof rejected natively"
        );
        let mut wrong = public.clone();
        wrong.0[0] += zkbench_hash::Fr::from(1u64);
        assert!(!native.verify_bytes(&proof, &wrong).unwrap());

        // ... and natively made keys from the same seed are the same keys
        let mut fresh = Session::new(&cfg).unwrap();
        fresh.setup(5).unwrap();
        assert!(
            fresh.verify_bytes(&proof, &public).unwrap(),
            "{system}: native setup differs from wasm"
        );

        if system == "groth16" {
            // snarkjs JSON from wasm verifies with the native verifier
            let ok = session::verify_snarkjs(
                &read_json(d.join("verification_key.json")),
                &read_json(d.join("proof.json")),
                &read_json(d.join("public.json")),
            )
            .unwrap();
            assert!(ok, "wasm snarkjs JSON rejected natively");

            // a native proof verifies in wasm
            native.witness(11).unwrap();
            native.prove().unwrap();
            let j = native.snarkjs_json().unwrap();
            let nd = dir.path().join("native");
            std::fs::create_dir_all(&nd).unwrap();
            for (f, k) in [
                ("proof.json", "proof"),
                ("public.json", "public"),
                ("verification_key.json", "verification_key"),
            ] {
                std::fs::write(nd.join(f), j[k].to_string()).unwrap();
            }
            assert_eq!(
                node(&["verify".as_ref(), pkg.as_os_str(), nd.as_os_str()]).trim(),
                "true"
            );
            // and a tampered one does not
            let mut bad = j["public"].clone();
            bad[0] = serde_json::json!("1");
            std::fs::write(nd.join("public.json"), bad.to_string()).unwrap();
            assert_eq!(
                node(&["verify".as_ref(), pkg.as_os_str(), nd.as_os_str()]).trim(),
                "false"
            );
        }
    }
}
