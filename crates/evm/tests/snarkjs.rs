//! Interoperability with snarkjs: snarkjs's own exported Solidity verifier
//! (same key) accepts zkbench's proofs with the same calldata and rejects a
//! changed input; zkbench's `soliditycalldata` text equals snarkjs's; and
//! zkbench's verifier spends no more gas than snarkjs's and stays within 3%
//! of the precompile floor.
//!
//! Skipped (one printed line) when Node.js or the npm packages are missing.

use std::process::Command;

use crate::common::{fixtures, ours, solc_or_skip};
use zkbench_evm::{measure_verifier, precompile_floor_gas, snarkjs, Groth16Calldata};

#[test]
fn snarkjs_verifier_accepts_zkbench_proofs_and_costs_more_gas() {
    let Some(solc) = solc_or_skip("snarkjs_verifier_accepts_zkbench_proofs") else {
        return;
    };
    for f in fixtures() {
        let src = match snarkjs::snarkjs_verifier_source(&f.dir.join("verification_key.json")) {
            Ok(s) => s,
            Err(e @ zkbench_evm::EvmError::ToolMissing { .. }) => {
                println!("SKIPPED snarkjs_verifier_accepts_zkbench_proofs: {e}");
                return;
            }
            Err(e) => panic!("{e}"),
        };
        let theirs = solc.compile(&src, snarkjs::SNARKJS_CONTRACT).unwrap();
        let ours = ours(&solc, &f.vk);
        let (proof, public) = &f.proofs[0];
        let data = Groth16Calldata::new(proof, public).abi_encode();
        let t = measure_verifier(&theirs, &data).unwrap();
        let o = measure_verifier(&ours, &data).unwrap();
        assert!(
            t.accepted,
            "{}: snarkjs's verifier rejected our proof",
            f.name
        );
        assert!(o.accepted, "{}: our verifier rejected our proof", f.name);
        let mut bad = Groth16Calldata::new(proof, public);
        bad.public[0][31] ^= 1;
        assert!(
            !measure_verifier(&theirs, &bad.abi_encode())
                .unwrap()
                .accepted
        );
        let floor = precompile_floor_gas(public.0.len());
        println!(
            "{:>10} (l={}): ours {} gas ({} B), snarkjs {} gas ({} B), floor {floor}",
            f.name,
            public.0.len(),
            o.gas_verify,
            o.bytecode_bytes,
            t.gas_verify,
            t.bytecode_bytes
        );
        assert!(
            o.gas_verify <= t.gas_verify,
            "{}: more gas than snarkjs",
            f.name
        );
        assert!(
            o.gas_verify as f64 <= floor as f64 * 1.03,
            "{}: {} gas is more than 3% above the floor {floor}",
            f.name,
            o.gas_verify
        );
    }
}

/// The pinned snarkjs CLI (`scripts/snarkjs`), or `None` after printing one SKIPPED line for `test`.
fn snarkjs_cli_or_skip(test: &str) -> Option<std::path::PathBuf> {
    let cli = zkbench_evm::node::scripts_dir()
        .unwrap()
        .join("snarkjs/node_modules/snarkjs/build/cli.cjs");
    if !cli.exists() {
        println!(
            "SKIPPED {test}: {} missing (run scripts/setup.sh)",
            cli.display()
        );
        return None;
    }
    Some(cli)
}

#[test]
fn soliditycalldata_text_matches_snarkjs() {
    let Some(_) = solc_or_skip("soliditycalldata_text_matches_snarkjs") else {
        return;
    };
    let Some(cli) = snarkjs_cli_or_skip("soliditycalldata_text_matches_snarkjs") else {
        return;
    };
    let f = &fixtures()[0];
    let out = Command::new("node")
        .arg(&cli)
        .args(["zkey", "export", "soliditycalldata"])
        .arg(f.dir.join("public.json"))
        .arg(f.dir.join("proof.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let ours = zkbench_evm::groth16_calldata_for_dir(&f.dir)
        .unwrap()
        .snarkjs_text();
    assert_eq!(ours, theirs);
}

/// zkbench's Solidity verifier accepts a proof that **snarkjs's prover** made with a `.zkey`
/// exported from a zkbench key (`zkbench prove --zkey`), and agrees with the native verifier on
/// it and on the same proof with a changed public input.
#[test]
fn zkbench_verifier_accepts_snarkjs_proofs_for_our_exported_zkey() {
    use ark_ff::One;
    use rand::SeedableRng;
    use std::sync::Arc;
    use zkbench_groth16::{snarkjs as sj, testing, zkey, Circuit, CircuitKind, SpendConfig};

    let Some(solc) = solc_or_skip("zkbench_verifier_accepts_snarkjs_proofs_for_our_exported_zkey")
    else {
        return;
    };
    let Some(cli) =
        snarkjs_cli_or_skip("zkbench_verifier_accepts_snarkjs_proofs_for_our_exported_zkey")
    else {
        return;
    };
    let cfg = SpendConfig {
        family: zkbench_hash::HashFamily::Poseidon,
        alpha: None,
        arity: 2,
        leaves: 4,
        circuit: CircuitKind::Spend,
    };
    let c = Circuit::with_backend(&cfg, Arc::new(testing::toy_backend(2))).unwrap();
    let keys = c.setup(31).unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(32);
    let assignment = c.witness(&c.random_witness(&mut rng)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    zkey::write_zkey(&dir.path().join("k.zkey"), &keys.pk, &keys.matrices).unwrap();
    zkey::write_wtns(&dir.path().join("w.wtns"), &assignment.full).unwrap();
    let out = Command::new("node")
        .arg(&cli)
        .args([
            "groth16",
            "prove",
            "k.zkey",
            "w.wtns",
            "proof.json",
            "public.json",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.path().join(f)).unwrap()).unwrap()
    };
    let proof = sj::proof_from_json(&read("proof.json")).unwrap();
    let public = sj::public_from_json(&read("public.json")).unwrap();
    let verifier = ours(&solc, keys.vk());
    let good = measure_verifier(
        &verifier,
        &Groth16Calldata::new(&proof, &public).abi_encode(),
    )
    .unwrap();
    assert!(
        good.accepted,
        "zkbench's EVM verifier rejected snarkjs's proof"
    );
    assert!(zkbench_groth16::verify(&keys.pvk, &public, &proof).unwrap());
    let mut changed = public.clone();
    changed.0[1] += ark_bn254::Fr::one();
    let bad = measure_verifier(
        &verifier,
        &Groth16Calldata::new(&proof, &changed).abi_encode(),
    )
    .unwrap();
    assert!(!bad.accepted);
    assert!(!zkbench_groth16::verify(&keys.pvk, &changed, &proof).unwrap());
    println!(
        "snarkjs proof for our zkey: EVM verify {} gas, accepted; changed input rejected",
        good.gas_verify
    );
}
