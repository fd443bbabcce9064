//! The pool on the embedded EVM: the whole simulation (every attack
//! rejected, balances exact) and the contract's input checks one by one.
//! Small depths (slot 1, era 2–4) keep the proofs fast.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_evm::{Address, Solc, U256};
use zkbench_hash::HashFamily;
use zkbench_pool::abi::{self, fr_u256};
use zkbench_pool::chain::{Embedded, PoolChain};
use zkbench_pool::contracts::{deploy, PoolProvers, DEFAULT_LIVENESS_TIMEOUT_S};
use zkbench_pool::sequencer::Sequencer;
use zkbench_pool::wallet::{self, Note};
use zkbench_pool::{simulate, SimulateConfig};
use zkbench_statement::pool::{pool_empty_leaf, PoolShape};

fn solc_or_skip(test: &str) -> Option<Solc> {
    match Solc::locate() {
        Ok(s) => Some(s),
        Err(e) => {
            println!("SKIPPED {test}: {e}");
            None
        }
    }
}

const DENOM: u64 = 100_000_000_000_000_000;

#[test]
fn simulation_rejects_every_attack_and_conserves_balances() {
    if solc_or_skip("simulation").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cfg = SimulateConfig {
        fee: U256::from(DENOM / 100),
        existing_recipients: true,
        ..SimulateConfig::new(5, PoolShape::new(1, 4).unwrap(), dir.path().join("notes"))
    };
    let r = simulate(&cfg).unwrap();
    assert_eq!(r.batch_size, 2);
    assert_eq!(r.batches, 2);
    assert_eq!(r.withdrawals, 3, "{r:#?}");
    assert_eq!(r.pending_deposits, 1);
    // Liveness: one deposit fills the open batch; its depositor reclaims.
    assert_eq!((r.liveness_deposits, r.reclaimed), (1, 1));
    for (k, v) in [
        ("reclaim_before_timeout", "NotStalled"),
        ("reclaim_after_timeout", "ok"),
        ("reclaim_twice", "AlreadyReclaimed"),
        ("commit_without_reclaimed_excluded", "ReclaimedNotExcluded"),
    ] {
        assert_eq!(r.answers[k], v, "{k}");
    }
    assert!(r.gas.reclaim > 21_000 && r.gas.commit_with_reclaim > 200_000);
    assert!(r.checks.all_passed(), "{r:#?}");
    assert!(r.gas.deposit > 21_000 && r.gas.commit > 200_000 && r.gas.withdraw > 200_000);
    assert_eq!(
        r.gas.per_tx_amortized,
        r.gas.deposit + r.gas.commit.div_ceil(2) + r.gas.withdraw
    );
    // Every note was written before its deposit and parses back.
    let notes: Vec<_> = std::fs::read_dir(&cfg.notes_dir).unwrap().collect();
    assert_eq!(notes.len(), 6);
    let n = Note::load(&notes[0].as_ref().unwrap().path()).unwrap();
    assert_eq!(format!("{:#x}", n.pool), r.pool_address);
    // The JSON contract's fields.
    let v = serde_json::to_value(&r).unwrap();
    for k in [
        "deposits",
        "withdrawals",
        "batch_size",
        "denomination_wei",
        "pool_address",
        "withdraw_txs",
    ] {
        assert!(v.get(k).is_some(), "{k}");
    }
    for k in ["deposit", "commit", "withdraw", "per_tx_amortized"] {
        assert!(v["gas"][k].is_u64(), "gas.{k}");
    }
    for k in [
        "double_spend_rejected",
        "blocklisted_excluded",
        "wrong_root_rejected",
        "forged_proof_rejected",
        "balance_conserved",
        "stalled_deposit_reclaimed",
    ] {
        assert_eq!(v["checks"][k], true, "checks.{k}");
    }
}

#[test]
fn contract_checks_its_inputs() {
    let Some(solc) = solc_or_skip("contract_checks_its_inputs") else {
        return;
    };
    let shape = PoolShape::new(1, 2).unwrap();
    let provers = PoolProvers::setup(shape, HashFamily::Poseidon2, 9).unwrap();
    let hashes = provers.hashes().clone();
    let mut chain = Embedded::new();
    let seq_addr = Address::from([0x5e; 20]);
    let d = deploy(
        &mut chain,
        &solc,
        &provers,
        U256::from(DENOM),
        seq_addr,
        DEFAULT_LIVENESS_TIMEOUT_S,
    )
    .unwrap();
    let user = Address::from([0x01; 20]);
    chain
        .chain
        .set_balance(user, U256::from(10 * DENOM))
        .unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let note = Note::random(&mut rng, "revm", U256::from(DENOM), d.pool);
    let c = fr_u256(&note.commitment(&hashes));
    let send = |chain: &mut Embedded, from, data: Vec<u8>, value: u64| {
        abi::describe(
            &chain
                .send(from, d.pool, &data, U256::from(value))
                .unwrap()
                .status,
        )
    };
    assert_eq!(
        send(&mut chain, user, abi::deposit_call(c), DENOM - 1),
        "WrongDenomination"
    );
    let r = U256::from_be_bytes(abi::fr_word(&zkbench_hash::Fr::from(0u64)));
    let modulus = U256::from_str_radix(
        "21888242871839275222246405745257275088548364400416034343698204186575808495617",
        10,
    )
    .unwrap();
    assert_eq!(r, U256::ZERO);
    assert_eq!(
        send(&mut chain, user, abi::deposit_call(modulus), DENOM),
        "FieldElementTooLarge"
    );
    assert_eq!(
        send(
            &mut chain,
            user,
            abi::deposit_call(fr_u256(&pool_empty_leaf())),
            DENOM
        ),
        "EmptyLeafCommitment"
    );
    assert_eq!(
        send(&mut chain, user, abi::claim_escrow_call(), 0),
        "NothingToClaim"
    );
    // One deposit: the batch (2) is not full.
    let dir = tempfile::tempdir().unwrap();
    let (_, rcpt) = wallet::deposit(&mut chain, user, &note, dir.path(), &hashes).unwrap();
    assert_eq!(abi::describe(&rcpt.status), "ok");
    let mut seq = Sequencer::new(seq_addr, d.pool, &provers, Default::default()).unwrap();
    assert_eq!(seq.observe(&rcpt.logs), 1);
    let leaves = vec![note.commitment(&hashes), pool_empty_leaf()];
    let (proof, root, _) = provers.prove_batch(seq.tree(), &leaves, &mut rng).unwrap();
    let call = abi::commit_call(&proof, &root, &[c, c], &[user, user], U256::ZERO);
    assert_eq!(send(&mut chain, seq_addr, call.clone(), 0), "BatchNotFull");
    let note2 = Note::random(&mut rng, "revm", U256::from(DENOM), d.pool);
    let (_, rcpt) = wallet::deposit(&mut chain, user, &note2, dir.path(), &hashes).unwrap();
    seq.observe(&rcpt.logs);
    // Only the sequencer commits; a wrong-length batch and a mask beyond the batch are refused.
    assert_eq!(send(&mut chain, user, call, 0), "NotSequencer");
    let c2 = fr_u256(&note2.commitment(&hashes));
    let short = abi::commit_call(&proof, &root, &[c], &[user], U256::ZERO);
    assert_eq!(send(&mut chain, seq_addr, short, 0), "WrongBatchLength");
    let mask = abi::commit_call(&proof, &root, &[c, c2], &[user, user], U256::from(4u8));
    assert_eq!(send(&mut chain, seq_addr, mask, 0), "BadMask");
    // A valid proof of other leaves than the deposits' (leaf 1 replaced by E without the mask).
    let wrong = abi::commit_call(&proof, &root, &[c, c2], &[user, user], U256::ZERO);
    assert_eq!(send(&mut chain, seq_addr, wrong, 0), "InvalidProof");
    // The honest commit.
    let rep = seq
        .commit_next(&mut chain, &provers, &mut rng)
        .unwrap()
        .unwrap();
    assert_eq!(rep.slot, 0);
    // A refund in an ether pool and a zero recipient are refused.
    let (p, mut a) = provers
        .prove_withdrawal(
            seq.tree(),
            &note,
            Address::from([0x02; 20]),
            Address::ZERO,
            U256::ZERO,
            &mut rng,
        )
        .unwrap();
    a.refund = U256::from(1u8);
    assert_eq!(
        send(&mut chain, user, abi::withdraw_call(&p, &a), 0),
        "RefundNotSupported"
    );
    a.refund = U256::ZERO;
    let zero = abi::WithdrawArgs {
        recipient: Address::ZERO,
        ..a
    };
    assert_eq!(
        send(&mut chain, user, abi::withdraw_call(&p, &zero), 0),
        "ZeroRecipient"
    );
    assert_eq!(send(&mut chain, user, abi::withdraw_call(&p, &a), 0), "ok");
    assert_eq!(
        chain.balance(Address::from([0x02; 20])).unwrap(),
        U256::from(DENOM)
    );
    // The era (4 slots of 2) takes 8 deposits; a 9th could never be committed and is refused.
    let mut batch1 = Vec::new();
    for i in 2..8 {
        let n = Note::random(&mut rng, "revm", U256::from(DENOM), d.pool);
        let (_, r) = wallet::deposit(&mut chain, user, &n, dir.path(), &hashes).unwrap();
        assert_eq!(abi::describe(&r.status), "ok");
        if i < 4 {
            batch1.push(fr_u256(&n.commitment(&hashes)));
        }
    }
    let n = Note::random(&mut rng, "revm", U256::from(DENOM), d.pool);
    let c9 = fr_u256(&n.commitment(&hashes));
    assert_eq!(
        send(&mut chain, user, abi::deposit_call(c9), DENOM),
        "EraFull"
    );
    // Reclaims: only when stalled, of an uncommitted batch given in full, by its depositor.
    let users = [user, user];
    let reclaim = abi::reclaim_call;
    assert_eq!(
        send(&mut chain, user, reclaim(1, &batch1, &users, 0), 0),
        "NotStalled"
    );
    chain.advance_time(DEFAULT_LIVENESS_TIMEOUT_S + 1).unwrap();
    assert_eq!(
        send(&mut chain, user, reclaim(0, &[c, c2], &users, 0), 0),
        "BatchNotPending"
    );
    assert_eq!(
        send(
            &mut chain,
            user,
            reclaim(1, &batch1[..1], &users[..1], 0),
            0
        ),
        "WrongBatchLength"
    );
    let swapped = [batch1[1], batch1[0]];
    assert_eq!(
        send(&mut chain, user, reclaim(1, &swapped, &users, 0), 0),
        "BatchMismatch"
    );
    assert_eq!(
        send(&mut chain, user, reclaim(1, &batch1, &users, 2), 0),
        "NotDepositor"
    );
    let other = Address::from([0x03; 20]);
    assert_eq!(
        send(&mut chain, other, reclaim(1, &batch1, &users, 1), 0),
        "NotDepositor"
    );
    let before = chain.balance(user).unwrap();
    assert_eq!(
        send(&mut chain, user, reclaim(1, &batch1, &users, 1), 0),
        "ok"
    );
    assert_eq!(chain.balance(user).unwrap(), before + U256::from(DENOM));
    assert_eq!(
        send(&mut chain, user, reclaim(1, &batch1, &users, 1), 0),
        "AlreadyReclaimed"
    );
}

/// The wallet's key cache: the first call sets the keys up and writes them,
/// the second reads the same keys back, a damaged file is set up again.
#[test]
fn provers_come_from_the_key_cache_after_the_first_setup() {
    let dir = tempfile::tempdir().unwrap();
    let shape = PoolShape::new(1, 2).unwrap();
    let load = || PoolProvers::load_or_setup(shape, HashFamily::Poseidon2, 3, dir.path()).unwrap();
    let (a, cached) = load();
    assert!(!cached);
    let t = std::time::Instant::now();
    let (b, cached) = load();
    println!("keys from the cache in {:.3} s", t.elapsed().as_secs_f64());
    assert!(cached);
    assert_eq!(a.spend_keys.vk(), b.spend_keys.vk());
    assert_eq!(a.batch_keys.vk(), b.batch_keys.vk());
    for f in std::fs::read_dir(dir.path()).unwrap() {
        std::fs::write(f.unwrap().path(), b"not keys").unwrap();
    }
    let (c, cached) = load();
    assert!(!cached);
    assert_eq!(a.spend_keys.vk(), c.spend_keys.vk());
}
