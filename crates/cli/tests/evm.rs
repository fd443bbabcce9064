//! `zkbench verifier` and `zkbench calldata` end to end: a proof directory
//! from `zkbench prove`, the Solidity source, both calldata formats, clean
//! errors for unsupported systems and missing directories.

use assert_cmd::Command;

fn zkbench() -> Command {
    Command::cargo_bin("zkbench").expect("binary built")
}

fn run_ok(cmd: &mut Command) -> String {
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn verifier_and_calldata_for_a_proof_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proof");
    run_ok(
        zkbench()
            .args([
                "prove",
                "--hash",
                "poseidon2",
                "--arity",
                "2",
                "--leaves",
                "2^4",
                "--out",
            ])
            .arg(&dir)
            .arg("--keys")
            .arg(tmp.path().join("keys")),
    );

    let sol = tmp.path().join("Verifier.sol");
    run_ok(
        zkbench()
            .args(["verifier", "--system", "groth16", "--dir"])
            .arg(&dir)
            .arg("--out")
            .arg(&sol),
    );
    let source = std::fs::read_to_string(&sol).unwrap();
    assert!(source.contains("contract Groth16Verifier {"));
    assert!(source.contains(
        "uint[2] calldata _pA,\n        uint[2][2] calldata _pB,\n        uint[2] calldata _pC,\n        uint[3] calldata _pubSignals"
    ));
    // without --out the same source goes to stdout
    assert_eq!(
        run_ok(zkbench().args(["verifier", "--dir"]).arg(&dir)),
        source
    );

    let expected = zkbench_evm::groth16_calldata_for_dir(&dir).unwrap();
    let text = run_ok(
        zkbench()
            .args(["calldata", "--system", "groth16", "--dir"])
            .arg(&dir),
    );
    assert_eq!(text.trim(), expected.snarkjs_text());
    assert!(text.starts_with("[\"0x") && text.matches("\"0x").count() == 8 + 3);
    let hex = run_ok(zkbench().args(["calldata", "--hex", "--dir"]).arg(&dir));
    let want: String = expected
        .abi_encode()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(hex.trim(), format!("0x{want}"));
    assert_eq!(hex.trim().len(), 2 + 2 * (4 + 32 * (8 + 3)));
}

#[test]
fn unsupported_systems_and_missing_directories_are_clean_errors() {
    for args in [
        &["verifier", "--system", "halo2-kzg", "--dir", "."][..],
        &["calldata", "--system", "plonk", "--dir", "."][..],
        &["verifier", "--dir", "/nonexistent/zkbench-proof"][..],
        &["calldata", "--dir", "/nonexistent/zkbench-proof"][..],
    ] {
        let o = zkbench().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.starts_with("error:") && !err.contains("panicked"),
            "{err}"
        );
    }
}

#[test]
fn halo2_verifier_and_calldata_for_a_keccak_proof_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = tmp.path().join("keys");
    let prove = |dir: &std::path::Path, transcript: &str| {
        run_ok(
            zkbench()
                .args(["prove", "--system", "halo2-kzg", "--transcript", transcript])
                .args(["--arity", "2", "--leaves", "2^4", "--out"])
                .arg(dir)
                .arg("--keys")
                .arg(&keys),
        )
    };
    let dir = tmp.path().join("keccak");
    assert!(prove(&dir, "keccak").contains("keccak transcript"));
    run_ok(
        zkbench()
            .args(["verify", "--system", "halo2-kzg", "--dir"])
            .arg(&dir)
            .arg("--keys")
            .arg(&keys),
    );
    let sol = tmp.path().join("Halo2Verifier.yul");
    run_ok(
        zkbench()
            .args(["verifier", "--system", "halo2-kzg", "--dir"])
            .arg(&dir)
            .arg("--keys")
            .arg(&keys)
            .arg("--out")
            .arg(&sol),
    );
    let src = std::fs::read_to_string(&sol).unwrap();
    assert!(src.contains("object \"Halo2Verifier\"") && src.contains("checked_scalar"));
    let hex = run_ok(
        zkbench()
            .args(["calldata", "--system", "halo2-kzg", "--dir"])
            .arg(&dir)
            .arg("--keys")
            .arg(&keys),
    );
    // three public inputs, then the proof
    let proof = std::fs::read(dir.join("proof.bin")).unwrap();
    assert_eq!(hex.trim().len(), 2 + 2 * (3 * 32 + proof.len()));

    // a Blake2b proof has no EVM calldata: a clean error saying which transcript to use
    let blake = tmp.path().join("blake2b");
    prove(&blake, "blake2b");
    let o = zkbench()
        .args(["calldata", "--system", "halo2-kzg", "--dir"])
        .arg(&blake)
        .arg("--keys")
        .arg(&keys)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--transcript keccak"), "{err}");
}
