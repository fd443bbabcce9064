//! `zkbench pool simulate`: the JSON contract at small depths, and clear
//! errors (non-zero exit, no panic) for bad input.

use assert_cmd::Command;

fn zkbench() -> Command {
    Command::cargo_bin("zkbench").unwrap()
}

fn solc_installed() -> bool {
    zkbench_evm::Solc::locate().is_ok()
}

/// `zkbench pool simulate --deposits 2 --json --slot-depth 1 EXTRA…` with notes in a
/// temporary directory: its JSON output, after checking it exited 0.
fn simulate_json(extra: &[&str]) -> serde_json::Value {
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
        ])
        .args(extra)
        .arg("--notes-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn simulate_prints_the_json_contract() {
    if !solc_installed() {
        println!("SKIPPED simulate_prints_the_json_contract: solc-js is not installed");
        return;
    }
    let v = simulate_json(&["--era-depth", "3"]);
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
    let v = simulate_json(&["--era-depth", "2", "--baseline", "--baseline-levels", "3"]);
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
            vec![
                "--rpc",
                "http://127.0.0.1:1",
                "--slot-depth",
                "1",
                "--era-depth",
                "2",
                "--deposits",
                "2",
            ],
            "JSON-RPC node http://127.0.0.1:1",
        ),
        (vec!["--rpc", "ws://127.0.0.1:1"], "only http://"),
        (vec!["--max-withdrawals", "0"], "--max-withdrawals 0"),
        (
            vec!["--rpc", "http://127.0.0.1:1", "--existing-recipients"],
            "leave out --rpc or --existing-recipients",
        ),
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

/// deploy → deposit (twice, one from a blocklisted account) → sequencer --once
/// → withdraw → refused double spend (nothing sent) → reclaim → claim-escrow,
/// on a Hardhat node (scripts/hardhat), balances checked.
#[test]
fn wallet_and_sequencer_commands_on_a_hardhat_node() {
    use zkbench_pool::chain::{PoolChain, RpcChain};
    use zkbench_pool::hardhat::HardhatNode;
    if !solc_installed() {
        println!(
            "SKIPPED wallet_and_sequencer_commands_on_a_hardhat_node: solc-js is not installed"
        );
        return;
    }
    let node = match HardhatNode::start() {
        Ok(n) => n,
        Err(zkbench_pool::PoolError::Evm(e @ zkbench_evm::EvmError::ToolMissing { .. })) => {
            println!("SKIPPED wallet_and_sequencer_commands_on_a_hardhat_node: {e} (run scripts/setup.sh)");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let url = node.url();
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let run = |args: &[&str]| {
        let out = zkbench()
            .args(["pool"])
            .args(args)
            .args(["--rpc", url, "--keys", keys.to_str().unwrap()])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let json = |r: (Option<i32>, String, String)| -> serde_json::Value {
        assert_eq!(r.0, Some(0), "{}", r.2);
        serde_json::from_str(&r.1).unwrap()
    };
    let d = json(run(&[
        "deploy",
        "--slot-depth",
        "1",
        "--era-depth",
        "2",
        "--json",
    ]));
    let pool = d["pool_address"].as_str().unwrap().to_string();
    let mut chain = RpcChain::connect(url).unwrap();
    let accounts = chain.accounts().to_vec();
    let blocklist = dir.path().join("blocklist.txt");
    std::fs::write(&blocklist, format!("# test\n{:#x}\n", accounts[2])).unwrap();
    let notes = dir.path().join("notes");
    let notes_s = notes.to_str().unwrap();
    let mut note_files = Vec::new();
    for acct in ["1", "2"] {
        let v = json(run(&[
            "deposit",
            "--pool",
            &pool,
            "--account",
            acct,
            "--notes-dir",
            notes_s,
            "--json",
        ]));
        let f = v["note_file"].as_str().unwrap().to_string();
        assert!(std::fs::read_to_string(&f)
            .unwrap()
            .starts_with("zkbench-chain31337-100000000000000000-0x"));
        note_files.push(f);
    }
    let seq = json(run(&[
        "sequencer",
        "--pool",
        &pool,
        "--blocklist",
        blocklist.to_str().unwrap(),
        "--once",
        "--json",
    ]));
    assert_eq!(seq["commits"].as_array().unwrap().len(), 1, "{seq}");
    assert_eq!(seq["commits"][0]["excluded"][0]["position"], 1, "{seq}");
    assert_eq!(seq["pending_deposits"], 0);
    let recipient = "0x00000000000000000000000000000000c0ffee01";
    let before = chain.balance(recipient.parse().unwrap()).unwrap();
    let withdraw = |note: &str, json: bool| {
        let mut args = vec![
            "withdraw",
            "--note",
            note,
            "--recipient",
            recipient,
            "--account",
            "3",
        ];
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let w = json(withdraw(&note_files[0], true));
    assert_eq!(w["tx"].as_str().unwrap().len(), 66);
    let after = chain.balance(recipient.parse().unwrap()).unwrap();
    assert_eq!(
        after - before,
        zkbench_evm::U256::from(100_000_000_000_000_000u64)
    );
    // The pool holds the blocklisted deposit (escrow) only.
    let pool_addr = pool.parse().unwrap();
    assert_eq!(
        chain.balance(pool_addr).unwrap(),
        zkbench_evm::U256::from(100_000_000_000_000_000u64)
    );
    // The same note again, the excluded note, a note with a changed digit and
    // one with another denomination: refused with the reason, before any key
    // work, and nothing is sent (no block mined).
    let block = chain.block_number().unwrap();
    let again = withdraw(&note_files[0], false);
    assert_eq!(again.0, Some(1));
    assert!(
        again
            .2
            .contains("NullifierAlreadySpent (this note was already withdrawn)")
            && again.2.contains("no transaction was sent"),
        "{}",
        again.2
    );
    assert_eq!(again.2.trim().lines().count(), 1, "{}", again.2);
    let excluded = withdraw(&note_files[1], false);
    assert_eq!(excluded.0, Some(1));
    assert!(excluded.2.contains("claim-escrow"), "{}", excluded.2);
    let text = std::fs::read_to_string(&note_files[0]).unwrap();
    let last = text.trim_end().chars().last().unwrap();
    let digit = if last == '0' { '1' } else { '0' };
    let changed = dir.path().join("changed.txt");
    std::fs::write(
        &changed,
        format!("{}{digit}\n", &text.trim_end()[..text.trim_end().len() - 1]),
    )
    .unwrap();
    let r = withdraw(changed.to_str().unwrap(), false);
    assert_eq!(r.0, Some(1));
    assert!(
        r.2.contains("no deposit with this note's commitment"),
        "{}",
        r.2
    );
    let other = dir.path().join("other-denomination.txt");
    std::fs::write(
        &other,
        text.replacen("-100000000000000000-", "-200000000000000000-", 1),
    )
    .unwrap();
    let r = withdraw(other.to_str().unwrap(), false);
    assert_eq!(r.0, Some(1));
    assert!(r.2.contains("takes 100000000000000000 wei"), "{}", r.2);
    assert_eq!(chain.block_number().unwrap(), block, "nothing was sent");
    // Liveness: a deposit the sequencer never commits (the batch never fills) is
    // refused back before the pool's timeout and paid back after it.
    let v = json(run(&[
        "deposit",
        "--pool",
        &pool,
        "--account",
        "4",
        "--notes-dir",
        notes_s,
        "--json",
    ]));
    let stuck = v["note_file"].as_str().unwrap().to_string();
    let reclaim = |json: bool| {
        let mut args = vec!["reclaim", "--note", &stuck, "--account", "4"];
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let block = chain.block_number().unwrap();
    let early = reclaim(false);
    assert_eq!(early.0, Some(1));
    assert!(
        early.2.contains("NotStalled (the pool made progress"),
        "{}",
        early.2
    );
    assert!(!early.2.contains("BatchNotPending"), "{}", early.2);
    assert_eq!(chain.block_number().unwrap(), block, "nothing was sent");
    chain.advance_time(86_401).unwrap();
    let r = json(reclaim(true));
    assert_eq!(r["reclaimed_wei"], "100000000000000000", "{r}");
    assert_eq!(r["tx"].as_str().unwrap().len(), 66);
    assert_eq!(
        chain.balance(pool_addr).unwrap(),
        zkbench_evm::U256::from(100_000_000_000_000_000u64)
    );
    // The blocklisted depositor takes its escrow back; a second claim is refused.
    let c = json(run(&[
        "claim-escrow",
        "--pool",
        &pool,
        "--account",
        "2",
        "--json",
    ]));
    assert_eq!(c["claimed_wei"], "100000000000000000", "{c}");
    assert_eq!(chain.balance(pool_addr).unwrap(), zkbench_evm::U256::ZERO);
    let block = chain.block_number().unwrap();
    let again = run(&["claim-escrow", "--pool", &pool, "--account", "2"]);
    assert_eq!(again.0, Some(1));
    assert!(again.2.contains("NothingToClaim"), "{}", again.2);
    assert_eq!(chain.block_number().unwrap(), block, "nothing was sent");
    // Without --rpc the wallet commands say so.
    let out = zkbench()
        .args(["pool", "deposit", "--pool", &pool])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs --rpc"));
}
