//! Interoperability with snarkjs: snarkjs's own exported Solidity verifier
//! (same key) accepts zkbench's proofs with the same calldata and rejects a
//! changed input; zkbench's `soliditycalldata` text equals snarkjs's; and
//! zkbench's verifier spends no more gas than snarkjs's and stays within 3%
//! of the precompile floor.
//!
//! Skipped (one printed line) when Node.js or the npm packages are missing.

mod common;

use std::process::Command;

use common::{fixtures, ours, solc_or_skip};
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

#[test]
fn soliditycalldata_text_matches_snarkjs() {
    let Some(_) = solc_or_skip("soliditycalldata_text_matches_snarkjs") else {
        return;
    };
    let cli = zkbench_evm::node::scripts_dir()
        .unwrap()
        .join("snarkjs/node_modules/snarkjs/build/cli.cjs");
    if !cli.exists() {
        println!(
            "SKIPPED soliditycalldata_text_matches_snarkjs: {} missing (run scripts/setup.sh)",
            cli.display()
        );
        return;
    }
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
