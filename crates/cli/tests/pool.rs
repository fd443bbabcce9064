//! `zkbench pool simulate`: the JSON contract at small depths, and clear
//! errors (non-zero exit, no panic) for bad input.

use assert_cmd::Command;

fn zkbench() -> Command {
    Command::cargo_bin("zkbench").unwrap()
}

fn solc_installed() -> bool {
    zkbench_evm::Solc::locate().is_ok()
}

#[test]
fn simulate_prints_the_json_contract() {
    if !solc_installed() {
        println!("SKIPPED simulate_prints_the_json_contract: solc-js is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = zkbench()
        .args([
            "pool",
            "simulate",
            "--deposits",
            "2",
            "--json",
            "--slot-depth",
            "1",
            "--era-depth",
            "3",
        ])
        .arg("--notes-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for k in ["deposit", "commit", "withdraw", "per_tx_amortized"] {
        assert!(v["gas"][k].as_u64().unwrap() > 0, "gas.{k}");
    }
    assert_eq!(v["batch_size"], 2);
    assert_eq!(v["deposits"], 2);
    assert_eq!(v["withdrawals"], 1);
    assert_eq!(
        v["denomination_wei"].as_u64(),
        Some(100_000_000_000_000_000)
    );
    assert!(v["pool_address"].as_str().unwrap().starts_with("0x"));
    assert!(v["withdraw_txs"].is_array());
    for k in [
        "double_spend_rejected",
        "blocklisted_excluded",
        "wrong_root_rejected",
        "forged_proof_rejected",
        "balance_conserved",
    ] {
        assert_eq!(v["checks"][k], true, "checks.{k}");
    }
}

#[test]
fn simulate_reports_the_tornado_baseline_beside() {
    if !solc_installed() || zkbench_pool::tornado::mimc_sponge_hasher_code().is_err() {
        println!("SKIPPED simulate_reports_the_tornado_baseline_beside: needs solc-js and circomlibjs (scripts/setup.sh)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = zkbench()
        .args([
            "pool",
            "simulate",
            "--deposits",
            "2",
            "--json",
            "--slot-depth",
            "1",
            "--era-depth",
            "2",
            "--baseline",
            "--baseline-levels",
            "3",
        ])
        .arg("--notes-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = &v["baseline"];
    assert_eq!(b["levels"], 3);
    assert_eq!(b["withdrawals"], 2);
    let g = &b["gas"];
    // 3 levels: 6 hasher calls per deposit
    assert!(g["deposit"].as_u64().unwrap() > 6 * g["mimc_sponge_call"].as_u64().unwrap());
    assert_eq!(
        g["per_tx"].as_u64(),
        Some(g["deposit"].as_u64().unwrap() + g["withdraw"].as_u64().unwrap())
    );
    for (k, ok) in b["checks"].as_object().unwrap() {
        assert_eq!(ok, true, "baseline.checks.{k}");
    }
}

#[test]
fn simulate_rejects_bad_input_clearly() {
    for (args, needle) in [
        (
            vec!["--deposits", "1", "--slot-depth", "1", "--era-depth", "2"],
            "do not fill one batch",
        ),
        (vec!["--slot-depth", "0"], "slot depth"),
        (vec!["--era-depth", "70"], "era depth"),
        (vec!["--hash", "sha1"], "--hash"),
        (vec!["--denomination-wei", "0.1"], "--denomination-wei"),
        (
            vec!["--rpc", "http://127.0.0.1:8545"],
            "not implemented yet",
        ),
        (vec!["--max-withdrawals", "0"], "--max-withdrawals 0"),
        (
            vec!["--baseline", "--baseline-levels", "0"],
            "--baseline-levels 0",
        ),
    ] {
        let out = zkbench()
            .args(["pool", "simulate", "--json"])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
