//! Runs the real snarkjs (pinned in `scripts/snarkjs/package.json`) on our
//! Groth16 artifacts: `snarkjs groth16 verify` must print OK for our proof and
//! reject a tampered public input; `vk_alphabeta_12` must equal ffjavascript's
//! own pairing of `vk_alpha_1` and `vk_beta_2`.
//!
//! Skipped (with a printed reason) only when `node`/`npm` are not installed.
//! If `scripts/snarkjs/node_modules` is missing, `npm ci` is run there first.

use std::{path::PathBuf, process::Command, sync::Arc};

use ark_ff::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{artifacts, snarkjs, testing, Circuit, CircuitKind, SpendConfig};
use zkbench_hash::{Fr, HashFamily};

use crate::common::{ensure_snarkjs, snarkjs_dir};

/// Runs `snarkjs groth16 verify vk public proof` on the files in `dir`; returns (exit ok, output).
fn snarkjs_verify(dir: &std::path::Path) -> (bool, String) {
    snarkjs_cli(
        dir,
        &[
            "groth16",
            "verify",
            "verification_key.json",
            "public.json",
            "proof.json",
        ],
    )
}

/// The circuit of a configuration; `family: None` uses the toy backend of
/// `zkbench_groth16::testing`.
fn circuit(
    family: Option<HashFamily>,
    kind: CircuitKind,
    arity: usize,
    leaves: u64,
) -> (SpendConfig, Circuit) {
    let cfg = SpendConfig {
        family: family.unwrap_or(HashFamily::Poseidon),
        alpha: None,
        arity,
        leaves,
        circuit: kind,
    };
    let c = match family {
        Some(_) => Circuit::new(&cfg).unwrap(),
        None => Circuit::with_backend(&cfg, Arc::new(testing::toy_backend(arity))).unwrap(),
    };
    (cfg, c)
}

/// `family: None` uses the toy backend of `zkbench_groth16::testing`.
fn write_dir(
    family: Option<HashFamily>,
    kind: CircuitKind,
    arity: usize,
    leaves: u64,
    name: &str,
) -> PathBuf {
    let (cfg, c) = circuit(family, kind, arity, leaves);
    let keys = c.setup(11).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let w = c.random_witness(&mut rng);
    let (proof, public, t) = c.prove(&keys, &w, &mut rng).unwrap();
    assert!(zkbench_groth16::verify(&keys.pvk, &public, &proof).unwrap());
    let dir =
        std::env::temp_dir().join(format!("zkbench-g16-snarkjs-{name}-{}", std::process::id()));
    let meta = artifacts::meta_json(&cfg, 11, None, &t, 128, None, keys.vk_size());
    artifacts::write_artifacts(
        &dir,
        &artifacts::Artifacts {
            proof,
            public,
            vk: keys.vk().clone(),
            meta,
        },
    )
    .unwrap();
    dir
}

#[test]
fn snarkjs_verifies_our_proofs() {
    if !ensure_snarkjs() {
        return;
    }
    for (family, kind, arity, leaves, name) in [
        (
            Some(HashFamily::Poseidon),
            CircuitKind::Spend,
            2,
            256,
            "spend",
        ),
        (
            Some(HashFamily::Poseidon2),
            CircuitKind::BatchRoot,
            4,
            16,
            "batch",
        ),
        (None, CircuitKind::Membership, 3, 100, "membership-toy"),
    ] {
        let dir = write_dir(family, kind, arity, leaves, name);
        let (ok, out) = snarkjs_verify(&dir);
        println!("snarkjs groth16 verify ({name}): {}", out.trim());
        assert!(
            ok && out.contains("OK"),
            "snarkjs rejected our {name} proof:\n{out}"
        );

        // tampered public input → rejected
        let good = std::fs::read(dir.join("public.json")).unwrap();
        let mut p = artifacts::read_artifacts(&dir).unwrap().public;
        p.0[0] += Fr::from(1u64);
        std::fs::write(
            dir.join("public.json"),
            snarkjs::to_snarkjs_string(&snarkjs::public_to_json(&p)),
        )
        .unwrap();
        let (ok, out) = snarkjs_verify(&dir);
        println!("snarkjs groth16 verify (tampered {name}): {}", out.trim());
        assert!(
            !ok && !out.contains("OK!"),
            "snarkjs accepted a tampered input:\n{out}"
        );
        // tampered proof → rejected
        std::fs::write(dir.join("public.json"), good).unwrap();
        let mut a = artifacts::read_artifacts(&dir).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(13);
        a.proof.c = (a.proof.c * Fr::rand(&mut rng)).into();
        std::fs::write(
            dir.join("proof.json"),
            snarkjs::to_snarkjs_string(&snarkjs::proof_to_json(&a.proof)),
        )
        .unwrap();
        let (ok, out) = snarkjs_verify(&dir);
        assert!(!ok, "snarkjs accepted a tampered proof:\n{out}");

        if name == "spend" {
            let out = Command::new("node")
                .arg(snarkjs_dir().join("alphabeta.mjs"))
                .arg(dir.join("verification_key.json"))
                .current_dir(snarkjs_dir())
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            println!("vk_alphabeta_12 vs ffjavascript pairing: {}", text.trim());
            assert!(
                out.status.success() && text.contains("MATCH"),
                "{text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Runs the pinned snarkjs CLI with `args` in `dir`; returns (exit ok, stdout + stderr).
fn snarkjs_cli(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let cli = snarkjs_dir().join("node_modules/snarkjs/build/cli.cjs");
    let out = Command::new("node")
        .arg(cli)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("running snarkjs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The other direction of interoperability: snarkjs's own prover (`snarkjs groth16 prove`)
/// proves with a `.zkey` exported from a zkbench key and a `.wtns` of a zkbench witness;
/// zkbench's verifier accepts snarkjs's proof (and rejects it with a changed public input);
/// `snarkjs zkey export verificationkey` gives back zkbench's `verification_key.json`; a witness
/// that does not satisfy the circuit gives snarkjs a proof that zkbench rejects.
#[test]
fn snarkjs_proves_with_our_zkey() {
    use zkbench_groth16::zkey;
    if !ensure_snarkjs() {
        return;
    }
    for (family, kind, arity, leaves, name) in [
        (
            Some(HashFamily::Poseidon2),
            CircuitKind::Spend,
            4,
            256,
            "spend",
        ),
        (None, CircuitKind::Membership, 3, 100, "membership-toy"),
    ] {
        let (_, c) = circuit(family, kind, arity, leaves);
        let keys = c.setup(21).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(22);
        let w = c.random_witness(&mut rng);
        let assignment = c.witness(&w).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let info =
            zkey::write_zkey(&dir.path().join("circuit.zkey"), &keys.pk, &keys.matrices).unwrap();
        zkey::write_wtns(&dir.path().join("witness.wtns"), &assignment.full).unwrap();
        println!("{name}: {info:?}");

        let (ok, out) = snarkjs_cli(
            dir.path(),
            &[
                "groth16",
                "prove",
                "circuit.zkey",
                "witness.wtns",
                "proof.json",
                "public.json",
            ],
        );
        assert!(
            ok,
            "snarkjs groth16 prove failed on our zkey ({name}):\n{out}"
        );
        let read = |f: &str| -> serde_json::Value {
            serde_json::from_slice(&std::fs::read(dir.path().join(f)).unwrap()).unwrap()
        };
        let proof = snarkjs::proof_from_json(&read("proof.json")).unwrap();
        let public = snarkjs::public_from_json(&read("public.json")).unwrap();
        assert_eq!(public, assignment.public_inputs(), "{name}: public signals");
        assert!(
            zkbench_groth16::verify(&keys.pvk, &public, &proof).unwrap(),
            "{name}: zkbench rejected snarkjs's proof made with our zkey"
        );
        let mut changed = public.clone();
        changed.0[0] += Fr::from(1u64);
        assert!(!zkbench_groth16::verify(&keys.pvk, &changed, &proof).unwrap());

        // snarkjs reads our verifying key back from the zkey exactly
        let (ok, out) = snarkjs_cli(
            dir.path(),
            &[
                "zkey",
                "export",
                "verificationkey",
                "circuit.zkey",
                "vk.json",
            ],
        );
        assert!(ok, "{out}");
        let theirs = snarkjs::vk_from_json(&read("vk.json")).unwrap();
        assert_eq!(
            &theirs,
            keys.vk(),
            "{name}: verification key read back by snarkjs"
        );

        // a witness that violates the circuit: snarkjs still outputs a proof (it never checks),
        // zkbench's verifier must reject it
        let mut bad = assignment.full.clone();
        let last = bad.len() - 1;
        bad[last] += Fr::from(1u64);
        zkey::write_wtns(&dir.path().join("bad.wtns"), &bad).unwrap();
        let (ok, out) = snarkjs_cli(
            dir.path(),
            &[
                "groth16",
                "prove",
                "circuit.zkey",
                "bad.wtns",
                "bad_proof.json",
                "bad_public.json",
            ],
        );
        assert!(ok, "{out}");
        let proof = snarkjs::proof_from_json(&read("bad_proof.json")).unwrap();
        let public = snarkjs::public_from_json(&read("bad_public.json")).unwrap();
        assert!(
            !zkbench_groth16::verify(&keys.pvk, &public, &proof).unwrap(),
            "{name}: a proof of an unsatisfied witness verified"
        );
    }
}
