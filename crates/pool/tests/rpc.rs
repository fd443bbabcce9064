//! The pool on a real JSON-RPC node: a Hardhat node (npm, pinned in
//! scripts/hardhat) started on a free port, the same protocol checks as on
//! the embedded EVM (double spend, unknown root, forged proof, front-running
//! with another recipient or fee, fee above the denomination, blocklisted
//! deposit, commitment nobody deposited, a stalled deposit reclaimed after
//! the liveness timeout (`evm_increaseTime`), balance conservation with gas fees
//! accounted), every transaction signed with Hardhat's public test keys and
//! mined; then, as a wallet sends, transactions the pool would revert (a
//! claim without escrow, the withdrawn notes again) are refused with the
//! pool's error and nothing is sent; then a second run of the same
//! configuration on revm for the gas.
//! Skipped, saying why, only when node, solc-js or Hardhat is not installed.

use zkbench_evm::{EvmError, Solc};
use zkbench_hash::HashFamily;
use zkbench_pool::abi;
use zkbench_pool::chain::{PoolChain, RpcChain};
use zkbench_pool::contracts::{PoolProvers, TEST_SETUP_SEED};
use zkbench_pool::hardhat::HardhatNode;
use zkbench_pool::wallet::{self, Note};
use zkbench_pool::{simulate_on, simulate_with, PoolError, SimulateConfig};
use zkbench_statement::pool::PoolShape;

fn hardhat_or_skip(test: &str) -> Option<HardhatNode> {
    if let Err(e) = Solc::locate() {
        println!("SKIPPED {test}: {e}");
        return None;
    }
    match HardhatNode::start() {
        Ok(n) => Some(n),
        Err(PoolError::Evm(e @ EvmError::ToolMissing { .. })) => {
            println!("SKIPPED {test}: {e} (run scripts/setup.sh)");
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

#[test]
fn protocol_on_a_hardhat_node_rejects_every_attack_and_conserves_balances() {
    let Some(node) = hardhat_or_skip("protocol_on_a_hardhat_node") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let shape = PoolShape::new(1, 2).unwrap();
    let provers = PoolProvers::setup(shape, HashFamily::Poseidon2, TEST_SETUP_SEED).unwrap();
    let cfg = SimulateConfig::new(4, shape, dir.path().join("rpc"));
    let mut chain = RpcChain::connect(node.url()).unwrap();
    assert_eq!(chain.network(), "chain31337");
    let r = simulate_on(&mut chain, &cfg, &provers).unwrap();
    assert!(r.chain.contains("JSON-RPC"), "{}", r.chain);
    assert_eq!((r.batches, r.withdrawals, r.pending_deposits), (2, 3, 0));
    assert_eq!((r.liveness_deposits, r.reclaimed), (2, 1));
    assert_eq!(r.answers["reclaim_before_timeout"], "NotStalled");
    assert!(r.checks.all_passed(), "{r:#?}");
    assert_eq!(r.withdraw_txs.len(), 3);
    assert!(r.withdraw_txs.iter().all(|h| h.len() == 66));

    // As a wallet sends: a transaction the pool would revert is not sent
    // (no block mined, no gas spent), and the error names the pool's error.
    chain.set_send_reverting(false);
    let pool: zkbench_evm::Address = r.pool_address.parse().unwrap();
    let before = chain.block_number().unwrap();
    let who = chain.deployer();
    let e = chain
        .send(
            who,
            pool,
            &abi::claim_escrow_call(),
            zkbench_evm::U256::ZERO,
        )
        .unwrap_err();
    assert!(matches!(e, PoolError::Refused { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("NothingToClaim (this account has no escrow"),
        "{e}"
    );
    let e = wallet::claim_escrow(&mut chain, pool, who).unwrap_err();
    assert!(e.to_string().contains("NothingToClaim"), "{e}");
    // the withdrawn notes: refused before any key or proof
    let mut spent = 0;
    for entry in std::fs::read_dir(&r.notes_dir).unwrap() {
        let note = Note::load(&entry.unwrap().path()).unwrap();
        if let Err(e) = wallet::check_withdrawable(&mut chain, &note, provers.hashes()) {
            if e.to_string()
                .contains("NullifierAlreadySpent (this note was already withdrawn)")
            {
                spent += 1;
            }
        }
    }
    assert_eq!(spent, r.withdrawals);
    assert_eq!(chain.block_number().unwrap(), before, "nothing was sent");

    // The same run on the embedded EVM: the deposit (same calldata) costs
    // exactly the same gas; commit and withdraw differ only by the calldata
    // of the addresses (Hardhat's accounts have no zero bytes).
    let revm = simulate_with(
        &SimulateConfig {
            notes_dir: dir.path().join("revm"),
            ..cfg.clone()
        },
        &provers,
    )
    .unwrap();
    println!(
        "hardhat vs revm gas: deposit {} / {}, commit {} / {}, withdraw {} / {}",
        r.gas.deposit,
        revm.gas.deposit,
        r.gas.commit,
        revm.gas.commit,
        r.gas.withdraw,
        revm.gas.withdraw
    );
    assert_eq!(r.gas.deposit, revm.gas.deposit);
    for (a, b) in [
        (r.gas.commit, revm.gas.commit),
        (r.gas.withdraw, revm.gas.withdraw),
    ] {
        assert!(a.abs_diff(b) * 100 < b, "{a} vs {b}");
    }
}
