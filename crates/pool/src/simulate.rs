//! `zkbench pool simulate`: the whole protocol on the embedded EVM, with a
//! real attempt behind every check.
//!
//! Deposits come from distinct funded accounts; deposit `B − 1` (the last of
//! the first batch) comes from a blocklisted account. The sequencer commits
//! every full batch (after first trying a batch with a commitment nobody
//! deposited); every committed note is withdrawn through a relayer to a fresh
//! recipient. Before the first withdrawal the simulation tries a front-run
//! (same proof, other recipient), a fee above the denomination, a forged
//! proof and a proof against a root the pool never had (the tree in which the
//! blocklisted note was included); after it, the same withdrawal again
//! (double spend). Gas price is 0, so only transferred value moves ether and
//! every account's balance can be checked exactly.
//!
//! Then liveness: new deposits fill the open batch; the sequencer stalls. A
//! reclaim before the pool's timeout is refused; after the clock is moved past
//! it, the first of those depositors reclaims exactly the denomination, a
//! second reclaim is refused, and so is a commit of that batch (valid proof)
//! that does not exclude the reclaimed deposit; the honest commit excludes it
//! with no escrow credit. This phase's deposits and commit are kept out of
//! the gas medians.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use ark_ff::{BigInteger, PrimeField, UniformRand};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;
use zkbench_evm::{Address, CallStatus, Groth16Calldata, Solc, U256};
use zkbench_hash::{Fr, HashFamily};
use zkbench_statement::pool::{pool_empty_leaf, PoolShape};

use crate::abi::{self, address_word};
use crate::chain::{tagged_account, Embedded, Ledger, PoolChain, TxResult};
use crate::contracts::{self, find_leaf, read, PoolProvers, TEST_SETUP_SEED};
use crate::sequencer::Sequencer;
use crate::wallet::{self, Note};
use crate::PoolError;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimulateConfig {
    /// Number of deposits (at least one batch).
    pub deposits: usize,
    /// Slot and era depths.
    pub shape: PoolShape,
    /// Hash family of the trees and notes.
    pub family: HashFamily,
    /// Denomination in wei.
    pub denomination: U256,
    /// Relayer fee of each withdrawal in wei (≤ denomination).
    pub fee: U256,
    /// Where the wallet writes the notes.
    pub notes_dir: PathBuf,
    /// Seed of the notes and proofs' randomness.
    pub seed: u64,
    /// Withdraw to accounts that already hold ether (1 ether each, as a
    /// Hardhat node's accounts do) instead of fresh addresses; a transfer to a
    /// fresh address costs 25,000 gas more (account creation).
    pub existing_recipients: bool,
    /// Withdraw at most this many notes (`None`: every committed note); the
    /// others stay in the pool, and the balance check accounts for them.
    /// Benchmarks of large batches use it to keep the run short.
    pub max_withdrawals: Option<usize>,
    /// The pool's liveness timeout in seconds (at least 1): after so long
    /// without progress, depositors of uncommitted batches may reclaim. On a
    /// node it must exceed the run's wall time (the check that a reclaim
    /// before the timeout is refused runs on the node's clock).
    pub liveness_timeout_s: u64,
}

impl SimulateConfig {
    /// `deposits` deposits at `shape` with Poseidon2, 0.1 ether, a 0.1%
    /// relayer fee, seed 1, fresh recipients and every note withdrawn.
    pub fn new(deposits: usize, shape: PoolShape, notes_dir: PathBuf) -> Self {
        let denomination = U256::from(100_000_000_000_000_000u64);
        Self {
            deposits,
            shape,
            family: HashFamily::Poseidon2,
            denomination,
            fee: denomination / U256::from(1000u16),
            notes_dir,
            seed: 1,
            existing_recipients: false,
            max_withdrawals: None,
            liveness_timeout_s: contracts::DEFAULT_LIVENESS_TIMEOUT_S,
        }
    }
}

/// Gas of each kind of transaction (medians of the run), transaction gas
/// (21,000 + calldata + execution).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GasReport {
    /// `deposit`.
    pub deposit: u64,
    /// `commit` (one batch).
    pub commit: u64,
    /// `withdraw`.
    pub withdraw: u64,
    /// `deposit + commit / batch_size + withdraw` (rounded).
    pub per_tx_amortized: u64,
    /// Every commit, in order: the first batch holds the blocklisted deposit
    /// (its escrow credit) and writes the slot counter for the first time,
    /// so a later batch is the steady state.
    pub commits: Vec<u64>,
    /// `claimEscrow` (the blocklisted depositor's refund).
    pub claim_escrow: u64,
    /// `reclaim` of a stalled deposit (the liveness check).
    pub reclaim: u64,
    /// The commit of the batch with the reclaimed deposit (excluded, no escrow):
    /// the liveness check's, not in `commits` nor the medians.
    pub commit_with_reclaim: u64,
    /// Creation of the pool contract.
    pub deploy_pool: u64,
    /// Creation of the note-spend verifier.
    pub deploy_withdraw_verifier: u64,
    /// Creation of the slot-insert verifier.
    pub deploy_batch_verifier: u64,
}

/// The outcome of each attack or policy check (a real attempt each).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Checks {
    /// The same withdrawal sent twice: the second reverted `NullifierAlreadySpent`.
    pub double_spend_rejected: bool,
    /// The blocklisted deposit is not in the tree (`Excluded` event, empty leaf), its
    /// depositor's escrow was credited and paid back by `claimEscrow`.
    pub blocklisted_excluded: bool,
    /// A valid proof against a root the pool never had reverted `UnknownRoot`.
    pub wrong_root_rejected: bool,
    /// A proof with a changed point reverted `InvalidProof`.
    pub forged_proof_rejected: bool,
    /// Every account's balance is what the protocol says, and the total is unchanged.
    pub balance_conserved: bool,
    /// A valid proof sent with another recipient reverted `InvalidProof`.
    pub front_running_rejected: bool,
    /// A withdrawal with a fee above the denomination reverted `FeeTooHigh`.
    pub fee_above_denomination_rejected: bool,
    /// A batch with a commitment nobody deposited (with a valid batch proof) reverted `BatchMismatch`.
    pub undeposited_commitment_rejected: bool,
    /// Liveness: a reclaim before the timeout reverted `NotStalled`; after it the depositor
    /// of a pending deposit got exactly the denomination back; a second reclaim reverted
    /// `AlreadyReclaimed`; a commit of that batch (valid proof) not excluding it reverted
    /// `ReclaimedNotExcluded`; the honest commit excluded it with no escrow credit.
    pub stalled_deposit_reclaimed: bool,
}

impl Checks {
    /// Whether every attack was rejected and every policy held.
    pub fn all_passed(&self) -> bool {
        self.double_spend_rejected
            && self.blocklisted_excluded
            && self.wrong_root_rejected
            && self.forged_proof_rejected
            && self.balance_conserved
            && self.front_running_rejected
            && self.fee_above_denomination_rejected
            && self.undeposited_commitment_rejected
            && self.stalled_deposit_reclaimed
    }
}

/// Proof times (medians, seconds) and circuit sizes.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ProverReport {
    /// Median batch (slot-insert) proof, including witness generation.
    pub batch_prove_s: f64,
    /// Median withdrawal (note-spend) proof, including witness generation.
    pub withdraw_prove_s: f64,
    /// Constraints of the slot-insert circuit.
    pub batch_constraints: usize,
    /// Constraints of the note-spend circuit.
    pub withdraw_constraints: usize,
    /// The keys come from a test setup (toxic waste derivable from a seed).
    pub test_setup: bool,
}

/// The simulation's JSON report (`zkbench pool simulate --json`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimulationReport {
    /// Where it ran.
    pub chain: String,
    /// Hash family.
    pub hash: String,
    /// Slot depth.
    pub slot_depth: u32,
    /// Era depth.
    pub era_depth: u32,
    /// Deposits per batch.
    pub batch_size: usize,
    /// Deposits made.
    pub deposits: usize,
    /// Successful withdrawals.
    pub withdrawals: usize,
    /// Batches committed.
    pub batches: usize,
    /// Deposits from blocklisted accounts (excluded and refunded).
    pub blocklisted: usize,
    /// Deposits left pending (fewer than a batch at the end).
    pub pending_deposits: usize,
    /// Deposits made after the withdrawals by the liveness check (they fill the
    /// open batch; not in `deposits` nor the gas medians).
    pub liveness_deposits: usize,
    /// Deposits reclaimed after the liveness timeout.
    pub reclaimed: usize,
    /// The pool's liveness timeout in seconds.
    pub liveness_timeout_s: u64,
    /// Denomination in wei.
    pub denomination_wei: u128,
    /// Relayer fee per withdrawal in wei.
    pub fee_wei: u128,
    /// The pool contract.
    pub pool_address: String,
    /// Hashes of the successful withdrawal transactions: only on a JSON-RPC
    /// node (the embedded EVM does not sign transactions, so it is empty there).
    pub withdraw_txs: Vec<String>,
    /// Gas medians.
    pub gas: GasReport,
    /// Outcomes of the attacks and policies tried.
    pub checks: Checks,
    /// What the contract answered to each attempt (`ok` or its error name).
    pub answers: BTreeMap<String, String>,
    /// Provers.
    pub provers: ProverReport,
    /// Whether recipients held ether before (see [`SimulateConfig::existing_recipients`]).
    pub existing_recipients: bool,
    /// Where the notes were written.
    pub notes_dir: String,
}

/// A test account: `tag` in the first byte, `i` in the last eight.
pub(crate) fn account(tag: u8, i: u64) -> Address {
    tagged_account(tag, i)
}

/// Median of `v` (mean of the two middle values for an even count, rounded down); 0 if empty.
pub fn median_u64(v: &[u64]) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2
    }
}

fn median_f64(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

fn ok(status: &CallStatus) -> bool {
    matches!(status, CallStatus::Returned(_))
}

fn require_ok(what: &str, status: &CallStatus) -> Result<(), PoolError> {
    if ok(status) {
        Ok(())
    } else {
        Err(PoolError::Transaction {
            what: what.into(),
            reason: abi::describe(status),
        })
    }
}

/// Proves `plan`'s leaves as the next slot of `tree` and returns the
/// `commit` call data of `plan` with that proof.
fn prove_commit_call(
    provers: &PoolProvers,
    tree: &zkbench_merkle::EraSlotTree,
    plan: &crate::sequencer::BatchPlan,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<u8>, PoolError> {
    let (proof, root, _) = provers.prove_batch(tree, &plan.leaves, rng)?;
    Ok(abi::commit_call(
        &proof,
        &root,
        &plan.commitments,
        &plan.depositors,
        plan.mask,
    ))
}

/// A proof with A replaced by −A (a valid curve point, a wrong proof).
pub(crate) fn forge(p: &Groth16Calldata) -> Groth16Calldata {
    let mut f = p.clone();
    let y = ark_bn254::Fq::from_be_bytes_mod_order(&p.a[1]);
    let bytes = (-y).into_bigint().to_bytes_be();
    let mut w = [0u8; 32];
    w[32 - bytes.len()..].copy_from_slice(&bytes);
    f.a[1] = w;
    f
}

/// Runs the simulation (see the module documentation), with test-setup keys
/// made for it.
pub fn simulate(cfg: &SimulateConfig) -> Result<SimulationReport, PoolError> {
    // before the (long) setup: a missing compiler is the most likely failure
    Solc::locate()?;
    let provers = PoolProvers::setup(cfg.shape, cfg.family, TEST_SETUP_SEED)?;
    simulate_with(cfg, &provers)
}

/// Runs the simulation with `provers` (made for `cfg.shape` and
/// `cfg.family`), so that a benchmark can time their setup separately and
/// reuse them.
pub fn simulate_with(
    cfg: &SimulateConfig,
    provers: &PoolProvers,
) -> Result<SimulationReport, PoolError> {
    simulate_on(&mut Embedded::new(), cfg, provers)
}

/// Runs the simulation on `chain`: the embedded EVM, or a JSON-RPC node
/// ([`crate::chain::RpcChain`]; there every transaction is signed and mined,
/// the attempts that must fail are sent too and their receipts checked, gas
/// fees are accounted in the balance check, and recipients are fresh
/// addresses). On a node, depositors are the node's accounts (Hardhat's test
/// keys), reused in turn when there are fewer keys than deposits.
pub fn simulate_on(
    chain: &mut dyn PoolChain,
    cfg: &SimulateConfig,
    provers: &PoolProvers,
) -> Result<SimulationReport, PoolError> {
    let shape = cfg.shape;
    if provers.shape != shape || provers.family != cfg.family {
        return Err(PoolError::Config(format!(
            "provers for slot depth {} / era depth {} / {} given to a simulation of slot depth {} / era depth {} / {}",
            provers.shape.slot_depth,
            provers.shape.era_depth,
            provers.family.name(),
            shape.slot_depth,
            shape.era_depth,
            cfg.family.name()
        )));
    }
    if cfg.max_withdrawals == Some(0) {
        return Err(PoolError::Config(
            "max_withdrawals = 0: the checks need at least one withdrawal".into(),
        ));
    }
    let b = shape.batch_size();
    if cfg.deposits < b {
        return Err(PoolError::Config(format!(
            "{} deposits do not fill one batch of 2^{} = {b}; pass --deposits {b} or more",
            cfg.deposits, shape.slot_depth
        )));
    }
    if cfg.liveness_timeout_s == 0 {
        return Err(PoolError::Config(
            "liveness timeout 0: a reclaim before the timeout could not be tried".into(),
        ));
    }
    if cfg.fee > cfg.denomination {
        return Err(PoolError::Config(
            "the relayer fee exceeds the denomination".into(),
        ));
    }
    let denomination_wei: u128 = cfg
        .denomination
        .try_into()
        .map_err(|_| PoolError::Config("denomination above 2^128 wei".into()))?;
    let mut rng = ChaCha20Rng::seed_from_u64(cfg.seed);
    let solc = Solc::locate()?;
    let hashes = provers.hashes().clone();
    let seq_addr = chain.senders(0x5e, 1, U256::ZERO)?[0];
    let dep = contracts::deploy(
        chain,
        &solc,
        provers,
        cfg.denomination,
        seq_addr,
        cfg.liveness_timeout_s,
    )?;
    let pool = dep.pool;
    let relayer = chain.senders(0x7e, 1, U256::ZERO)?[0];
    let blocked = chain.senders(0xbb, 1, cfg.denomination)?[0];
    let blocked_at = b - 1;
    let mut seq = Sequencer::new(seq_addr, pool, provers, [blocked].into_iter().collect())?;
    let salt = pool.to_vec();
    let attacker = chain.receivers(0xa7, 1, U256::ZERO, &salt)?[0];

    // Every account that will ever hold ether in this run.
    let n_dep = chain
        .senders_left()
        .map_or(cfg.deposits, |l| l.min(cfg.deposits));
    if n_dep == 0 {
        return Err(PoolError::Config(
            "no account left to deposit from (add keys)".into(),
        ));
    }
    let accounts = chain.senders(0xd0, n_dep, cfg.denomination)?;
    let depositors: Vec<Address> = (0..cfg.deposits)
        .map(|i| {
            if i == blocked_at {
                blocked
            } else {
                accounts[i % n_dep]
            }
        })
        .collect();
    // The liveness check's deposits fill the open batch.
    let live_n = b - cfg.deposits % b;
    let n_live = chain.senders_left().map_or(live_n, |l| l.min(live_n));
    let live_accounts = if n_live > 0 {
        chain.senders(0xd1, n_live, cfg.denomination)?
    } else {
        accounts.clone()
    };
    let live_depositors: Vec<Address> = (0..live_n)
        .map(|i| live_accounts[i % live_accounts.len()])
        .collect();
    let recipient_start = if cfg.existing_recipients {
        U256::from(10u64).pow(U256::from(18u8))
    } else {
        U256::ZERO
    };
    let recipients = chain.receivers(0xee, cfg.deposits, recipient_start, &salt)?;
    let mut everyone: Vec<Address> = depositors.clone();
    everyone.extend(&live_depositors);
    everyone.extend(&recipients);
    everyone.extend([relayer, attacker, seq_addr, pool]);
    everyone.sort_unstable();
    everyone.dedup();
    let before = everyone
        .iter()
        .map(|a| chain.balance(*a))
        .collect::<Result<Vec<_>, _>>()?;
    let mut ledger = Ledger::default();
    let sent = |chain: &mut dyn PoolChain,
                ledger: &mut Ledger,
                from: Address,
                data: &[u8]|
     -> Result<TxResult, PoolError> {
        let r = chain.send(from, pool, data, U256::ZERO)?;
        ledger.fee(from, &r);
        Ok(r)
    };

    let mut answers = BTreeMap::new();
    // Deposits: the wallet writes each note before sending.
    let mut notes = Vec::with_capacity(cfg.deposits);
    let mut gas_deposit = Vec::new();
    for (i, d) in depositors.iter().enumerate() {
        let note = Note::random(&mut rng, &chain.network(), cfg.denomination, pool);
        let (_, r) = wallet::deposit(chain, *d, &note, &cfg.notes_dir, &hashes)?;
        ledger.fee(*d, &r);
        require_ok(&format!("deposit {i}"), &r.status)?;
        ledger.transfer(*d, pool, cfg.denomination);
        gas_deposit.push(r.gas_tx);
        seq.observe(&r.logs);
        notes.push(note);
    }

    // A dishonest batch first: a commitment nobody deposited, with a valid proof.
    let mut plan = seq
        .plan(b)
        .ok_or_else(|| PoolError::Config("the sequencer saw no full batch".into()))?;
    let forged_leaf = Fr::rand(&mut rng);
    plan.commitments[0] = abi::fr_u256(&forged_leaf);
    plan.leaves[0] = forged_leaf;
    let call = prove_commit_call(provers, seq.tree(), &plan, &mut rng)?;
    let r = sent(chain, &mut ledger, seq_addr, &call)?;
    let a = abi::describe(&r.status);
    let undeposited_commitment_rejected = a == "BatchMismatch";
    answers.insert("commit_with_undeposited_commitment".into(), a);
    // The tree the blocklisted note would have been in: its roots never reach the chain.
    let mut what_if = seq.tree().clone();
    let mut leaves = seq.plan(b).map(|p| p.leaves).unwrap_or_default();
    leaves[blocked_at] = notes[blocked_at].commitment(&hashes);
    what_if.commit_slot(&leaves)?;

    // Honest commits of every full batch.
    let mut gas_commit = Vec::new();
    let mut batch_prove = Vec::new();
    let mut excluded_seen = false;
    while let Some(rep) = seq.commit_next(chain, provers, &mut rng)? {
        ledger.fee(seq_addr, &rep.receipt);
        gas_commit.push(rep.receipt.gas_tx);
        batch_prove.push(rep.prove_s);
        let ev = abi::excluded_events(pool, &rep.receipt.logs);
        if rep.slot == 0 && ev.contains(&(0, blocked_at as u64, blocked)) {
            excluded_seen = true;
        }
    }
    let batches = gas_commit.len();

    // Blocklist policy: not in the tree, escrowed, paid back.
    let leaf_empty = seq.tree().slot_leaves(0)?[blocked_at] == pool_empty_leaf();
    let not_in_tree = find_leaf(seq.tree(), &notes[blocked_at].commitment(&hashes)).is_none();
    let escrowed =
        read(chain, pool, "escrow(address)", Some(address_word(blocked)))? == cfg.denomination;
    let blocked_before = chain.balance(blocked)?;
    let r = sent(chain, &mut ledger, blocked, &abi::claim_escrow_call())?;
    let claimed =
        ok(&r.status) && chain.balance(blocked)? + r.fee_wei == blocked_before + cfg.denomination;
    if ok(&r.status) {
        ledger.transfer(pool, blocked, cfg.denomination);
    }
    answers.insert("claim_escrow".into(), abi::describe(&r.status));
    let gas_claim = r.gas_tx;
    let blocklisted_excluded = excluded_seen && leaf_empty && not_in_tree && escrowed && claimed;

    // Withdrawals.
    let mut gas_withdraw = Vec::new();
    let mut withdraw_txs = Vec::new();
    let mut withdraw_prove = Vec::new();
    let mut checks_done = false;
    let (mut front, mut fee_high, mut forged, mut wrong_root, mut double) =
        (false, false, false, false, false);
    let mut withdrawals = 0usize;
    for (i, note) in notes.iter().enumerate() {
        if cfg.max_withdrawals.is_some_and(|m| withdrawals >= m) {
            break;
        }
        if i == blocked_at || find_leaf(seq.tree(), &note.commitment(&hashes)).is_none() {
            continue;
        }
        let t = Instant::now();
        let (proof, args) = provers.prove_withdrawal(
            seq.tree(),
            note,
            recipients[i],
            relayer,
            cfg.fee,
            &mut rng,
        )?;
        withdraw_prove.push(t.elapsed().as_secs_f64());
        if !checks_done {
            let mut send = |name: &str,
                            p: &Groth16Calldata,
                            a: &abi::WithdrawArgs|
             -> Result<String, PoolError> {
                let r = sent(chain, &mut ledger, relayer, &abi::withdraw_call(p, a))?;
                let d = abi::describe(&r.status);
                answers.insert(name.into(), d.clone());
                Ok(d)
            };
            let stolen = abi::WithdrawArgs {
                recipient: attacker,
                ..args
            };
            front = send("withdraw_front_run_other_recipient", &proof, &stolen)? == "InvalidProof";
            let more_fee = abi::WithdrawArgs {
                fee: args.fee + U256::from(1u8),
                ..args
            };
            front &= send("withdraw_front_run_other_fee", &proof, &more_fee)? == "InvalidProof";
            forged = send("withdraw_forged_proof", &forge(&proof), &args)? == "InvalidProof";
            let over = cfg.denomination + U256::from(1u8);
            let (p_over, a_over) = provers.prove_withdrawal(
                seq.tree(),
                note,
                recipients[i],
                relayer,
                over,
                &mut rng,
            )?;
            fee_high = send("withdraw_fee_above_denomination", &p_over, &a_over)? == "FeeTooHigh";
            let (p_wr, a_wr) = provers.prove_withdrawal(
                &what_if,
                &notes[blocked_at],
                attacker,
                relayer,
                cfg.fee,
                &mut rng,
            )?;
            wrong_root = send("withdraw_unknown_root", &p_wr, &a_wr)? == "UnknownRoot";
        }
        let r = sent(
            chain,
            &mut ledger,
            relayer,
            &abi::withdraw_call(&proof, &args),
        )?;
        require_ok(&format!("withdrawal of note {i}"), &r.status)?;
        ledger.transfer(pool, recipients[i], cfg.denomination - cfg.fee);
        ledger.transfer(pool, relayer, cfg.fee);
        gas_withdraw.push(r.gas_tx);
        withdraw_txs.extend(r.tx_hash);
        withdrawals += 1;
        if !checks_done {
            let r = sent(
                chain,
                &mut ledger,
                relayer,
                &abi::withdraw_call(&proof, &args),
            )?;
            let d = abi::describe(&r.status);
            double = d == "NullifierAlreadySpent";
            answers.insert("withdraw_double_spend".into(), d);
            checks_done = true;
        }
    }

    // Liveness: the open batch fills, the sequencer stalls, a depositor reclaims.
    let pending = seq.pending();
    let mut live_notes = Vec::with_capacity(live_n);
    for (i, d) in live_depositors.iter().enumerate() {
        let note = Note::random(&mut rng, &chain.network(), cfg.denomination, pool);
        let (_, r) = wallet::deposit(chain, *d, &note, &cfg.notes_dir, &hashes)?;
        ledger.fee(*d, &r);
        require_ok(&format!("liveness deposit {i}"), &r.status)?;
        ledger.transfer(*d, pool, cfg.denomination);
        seq.observe(&r.logs);
        live_notes.push(note);
    }
    let reclaimer = live_depositors[0];
    let mut reclaim_answer = |name: &str,
                              chain: &mut dyn PoolChain,
                              ledger: &mut Ledger|
     -> Result<(TxResult, String), PoolError> {
        let r = wallet::reclaim(chain, reclaimer, &live_notes[0], &hashes)?;
        ledger.fee(reclaimer, &r);
        let d = abi::describe(&r.status);
        answers.insert(name.into(), d.clone());
        Ok((r, d))
    };
    let (_, early) = reclaim_answer("reclaim_before_timeout", chain, &mut ledger)?;
    let mut live_ok = early == "NotStalled";
    chain.advance_time(cfg.liveness_timeout_s + 1)?;
    let reclaimer_before = chain.balance(reclaimer)?;
    let (r, _) = reclaim_answer("reclaim_after_timeout", chain, &mut ledger)?;
    let gas_reclaim = r.gas_tx;
    live_ok &= ok(&r.status)
        && chain.balance(reclaimer)? + r.fee_wei == reclaimer_before + cfg.denomination;
    if ok(&r.status) {
        ledger.transfer(pool, reclaimer, cfg.denomination);
    }
    let reclaim_logs = r.logs;
    let (_, twice) = reclaim_answer("reclaim_twice", chain, &mut ledger)?;
    live_ok &= twice == "AlreadyReclaimed";
    // The sequencer's batch as it was before it saw the Reclaimed event: a valid proof.
    let stale = seq
        .plan(b)
        .ok_or_else(|| PoolError::Config("the liveness batch is not full".into()))?;
    let call = prove_commit_call(provers, seq.tree(), &stale, &mut rng)?;
    let r = sent(chain, &mut ledger, seq_addr, &call)?;
    let d = abi::describe(&r.status);
    live_ok &= d == "ReclaimedNotExcluded";
    answers.insert("commit_without_reclaimed_excluded".into(), d);
    // The honest commit: the reclaimed deposit excluded, no escrow for it.
    seq.observe(&reclaim_logs);
    let rep = seq
        .commit_next(chain, provers, &mut rng)?
        .ok_or_else(|| PoolError::Config("the liveness batch is not full".into()))?;
    ledger.fee(seq_addr, &rep.receipt);
    let gas_commit_reclaim = rep.receipt.gas_tx;
    live_ok &= rep.reclaimed == [cfg.deposits % b]
        && read(
            chain,
            pool,
            "escrow(address)",
            Some(address_word(reclaimer)),
        )? == U256::ZERO
        && find_leaf(seq.tree(), &live_notes[0].commitment(&hashes)).is_none();

    // Balances: exact for every account (what the protocol moved, less the
    // gas fees it paid), the pool's exact, and the total unchanged but for fees.
    let denom = cfg.denomination;
    let mut balanced = chain.balance(pool)?
        == denom * U256::from((cfg.deposits - withdrawals - 1 + live_n - 1) as u64)
        && read(chain, pool, "totalEscrow()", None)? == U256::ZERO;
    let mut total_before = U256::ZERO;
    let mut total_after = U256::ZERO;
    for (a, b0) in everyone.iter().zip(&before) {
        let after = chain.balance(*a)?;
        balanced &= ledger.holds(*a, *b0, after);
        total_before += *b0;
        total_after += after;
    }
    balanced &= total_after + ledger.total_fees() == total_before;

    let (gd, gc, gw) = (
        median_u64(&gas_deposit),
        median_u64(&gas_commit),
        median_u64(&gas_withdraw),
    );
    Ok(SimulationReport {
        chain: chain.describe(),
        hash: cfg.family.name().into(),
        slot_depth: shape.slot_depth,
        era_depth: shape.era_depth,
        batch_size: b,
        deposits: cfg.deposits,
        withdrawals,
        batches,
        blocklisted: 1,
        pending_deposits: pending,
        liveness_deposits: live_n,
        reclaimed: 1,
        liveness_timeout_s: cfg.liveness_timeout_s,
        denomination_wei,
        fee_wei: cfg.fee.try_into().unwrap_or(u128::MAX),
        pool_address: format!("{pool:#x}"),
        withdraw_txs,
        gas: GasReport {
            deposit: gd,
            commit: gc,
            withdraw: gw,
            per_tx_amortized: gd + (gc + b as u64 / 2) / b as u64 + gw,
            commits: gas_commit.clone(),
            claim_escrow: gas_claim,
            reclaim: gas_reclaim,
            commit_with_reclaim: gas_commit_reclaim,
            deploy_pool: dep.gas_deploy[2],
            deploy_withdraw_verifier: dep.gas_deploy[0],
            deploy_batch_verifier: dep.gas_deploy[1],
        },
        checks: Checks {
            double_spend_rejected: double,
            blocklisted_excluded,
            wrong_root_rejected: wrong_root,
            forged_proof_rejected: forged,
            balance_conserved: balanced,
            front_running_rejected: front,
            fee_above_denomination_rejected: fee_high,
            undeposited_commitment_rejected,
            stalled_deposit_reclaimed: live_ok,
        },
        answers,
        provers: ProverReport {
            batch_prove_s: median_f64(&batch_prove),
            withdraw_prove_s: median_f64(&withdraw_prove),
            batch_constraints: provers.batch_keys.matrices.num_constraints,
            withdraw_constraints: provers.spend_keys.matrices.num_constraints,
            test_setup: provers.batch_keys.test_setup && provers.spend_keys.test_setup,
        },
        existing_recipients: cfg.existing_recipients,
        notes_dir: cfg.notes_dir.display().to_string(),
    })
}
