//! `.ptau` files against the real snarkjs (pinned in `scripts/snarkjs`):
//! a test file written by zkbench passes `snarkjs powersoftau verify` and gives
//! a working `snarkjs groth16 setup` (when circom2 from `peers/snarkjs` is
//! installed); a file snarkjs made itself (new + contribute + prepare phase2)
//! is read and checked by zkbench; malformed files give errors.
//!
//! Skipped (with a printed reason) when node is not installed or snarkjs's
//! node_modules are missing (scripts/setup.sh installs them).

use std::{path::PathBuf, process::Command};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{ptau, Circuit, CircuitKind, SpendConfig};
use zkbench_hash::{Fr, HashFamily};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn snarkjs_cli() -> Option<PathBuf> {
    let cli = root().join("scripts/snarkjs/node_modules/snarkjs/build/cli.cjs");
    let node = Command::new("node").arg("--version").output();
    if node.map(|o| o.status.success()).unwrap_or(false) && cli.exists() {
        Some(cli)
    } else {
        eprintln!("SKIPPED: node or scripts/snarkjs/node_modules missing (run scripts/setup.sh)");
        None
    }
}

fn snarkjs(cli: &PathBuf, args: &[&str], cwd: &std::path::Path) -> (bool, String) {
    let out = Command::new("node")
        .arg(cli)
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("running node");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn zkbench_test_ptau_passes_snarkjs_verify_and_groth16_setup() {
    let Some(cli) = snarkjs_cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t8.ptau");
    ptau::write_test_ptau(&f, 8, 1).unwrap();
    let (ok, out) = snarkjs(&cli, &["powersoftau", "verify", "t8.ptau"], dir.path());
    assert!(ok && out.contains("Powers of Tau Ok!"), "{out}");
    assert!(
        out.contains("TEST SETUP"),
        "contribution name not shown: {out}"
    );

    // A tiny circuit through circom2 (peers/snarkjs) and `snarkjs groth16 setup` with the file.
    let circom = root().join("peers/snarkjs/node_modules/circom2/cli.js");
    if !circom.exists() {
        eprintln!("SKIPPED (groth16 setup part): peers/snarkjs/node_modules missing");
        return;
    }
    std::fs::write(
        dir.path().join("c.circom"),
        "pragma circom 2.0.0;\ntemplate M() { signal input a; signal input b; signal output c; c <== a * b; }\ncomponent main = M();\n",
    )
    .unwrap();
    let st = Command::new("node")
        .arg(&circom)
        .args(["c.circom", "--r1cs", "--wasm", "-o", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    std::fs::write(dir.path().join("in.json"), r#"{"a": "3", "b": "11"}"#).unwrap();
    for args in [
        &["groth16", "setup", "c.r1cs", "t8.ptau", "c.zkey"][..],
        &["zkey", "export", "verificationkey", "c.zkey", "vk.json"],
        &[
            "groth16",
            "fullprove",
            "in.json",
            "c_js/c.wasm",
            "c.zkey",
            "proof.json",
            "public.json",
        ],
        &["groth16", "verify", "vk.json", "public.json", "proof.json"],
        &["plonk", "setup", "c.r1cs", "t8.ptau", "p.zkey"],
    ] {
        let (ok, out) = snarkjs(&cli, args, dir.path());
        assert!(ok, "snarkjs {args:?} failed: {out}");
    }
    // zkbench reads its own file back, consistent.
    let p = ptau::read_ptau(&f, None).unwrap();
    assert!(p.is_test_setup() && p.prepared);
    p.check_consistency("t8").unwrap();
}

#[test]
fn snarkjs_made_ptau_is_read_and_checked() {
    let Some(cli) = snarkjs_cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["powersoftau", "new", "bn128", "8", "p0.ptau"][..],
        &[
            "powersoftau",
            "contribute",
            "p0.ptau",
            "p1.ptau",
            "--name=first",
            "-e=some entropy",
        ],
        &["powersoftau", "prepare", "phase2", "p1.ptau", "p2.ptau"],
    ] {
        let (ok, out) = snarkjs(&cli, args, dir.path());
        assert!(ok, "snarkjs {args:?}: {out}");
    }
    let p = ptau::read_ptau(&dir.path().join("p2.ptau"), None).unwrap();
    assert_eq!((p.power, p.tau_g1.len(), p.tau_g2.len()), (8, 511, 256));
    assert!(p.prepared && !p.is_test_setup());
    assert_eq!(p.contributions.len(), 1);
    assert_eq!(p.contributions[0].name.as_deref(), Some("first"));
    p.check_consistency("p2").unwrap();
    // Keys from the ceremony file (phase 2 drawn here) prove and verify; a changed public
    // input is rejected.
    let cfg = SpendConfig {
        family: HashFamily::Poseidon,
        alpha: None,
        arity: 2,
        leaves: 2,
        circuit: CircuitKind::Membership,
    };
    let circuit = Circuit::new(&cfg).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let keys = circuit
        .setup_from_ptau(&dir.path().join("p2.ptau"), &mut rng)
        .unwrap();
    assert!(!keys.test_setup);
    let w = circuit.random_witness(&mut rng);
    let (proof, public, _) = circuit.prove(&keys, &w, &mut rng).unwrap();
    assert!(zkbench_groth16::verify(&keys.pvk, &public, &proof).unwrap());
    let mut bad_public = public.clone();
    bad_public.0[0] += Fr::from(1u64);
    assert!(!zkbench_groth16::verify(&keys.pvk, &bad_public, &proof).unwrap());
    // The unprepared file cannot give Groth16 keys, and says why.
    let e = circuit
        .setup_from_ptau(&dir.path().join("p1.ptau"), &mut rng)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("prepare"), "{e}");

    // An unprepared file reads too (prepared = false); a partial read stops at the power asked.
    let p1 = ptau::read_ptau(&dir.path().join("p1.ptau"), Some(2)).unwrap();
    assert!(!p1.prepared);
    assert_eq!(p1.tau_g1.len(), 7);

    // Malformed: not a ptau, a truncated file, a point moved off the curve.
    let good = std::fs::read(dir.path().join("p2.ptau")).unwrap();
    let bad = dir.path().join("bad.ptau");
    std::fs::write(&bad, b"not a ptau file at all").unwrap();
    let e = ptau::read_ptau(&bad, None).unwrap_err().to_string();
    assert!(e.contains("magic"), "{e}");
    std::fs::write(&bad, &good[..good.len() / 3]).unwrap();
    let e = ptau::read_ptau(&bad, None).unwrap_err().to_string();
    assert!(e.contains("past the end") || e.contains("section"), "{e}");
    let mut m = good.clone();
    m[12 + 12 + 44 + 12 + 64 + 5] ^= 0x10; // tauG1[1].x
    std::fs::write(&bad, &m).unwrap();
    let e = ptau::read_ptau(&bad, None).unwrap_err().to_string();
    assert!(e.contains("tauG1[1]"), "{e}");
}
