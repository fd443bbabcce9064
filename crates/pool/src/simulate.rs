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

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::{Add, Div};
use std::path::PathBuf;
use std::time::Instant;

use ark_ff::{BigInteger, PrimeField, UniformRand};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;
use zkbench_evm::{Address, CallStatus, Groth16Calldata, Log, Solc, U256};
use zkbench_hash::{Fr, HashFamily};
use zkbench_merkle::EraSlotTree;
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

/// Median of `v`: the middle value, or the mean of the two middle values for
/// an even count (rounded down for integers); 0 if empty.
pub fn median<T>(v: &[T]) -> T
where
    T: Copy + PartialOrd + From<u8> + Add<Output = T> + Div<Output = T>,
{
    if v.is_empty() {
        return T::from(0);
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / T::from(2)
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
    tree: &EraSlotTree,
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
    let denomination_wei = check_config(cfg, provers)?;
    // the attack checks send transactions that must be rejected on chain
    chain.set_send_reverting(true);
    let (mut run, gas_deploy) = Run::deploy(chain, cfg, provers)?;
    let acc = run.accounts()?;
    let (notes, gas_deposit) = run.deposit_all(&acc.depositors)?;
    let undeposited_commitment_rejected = run.try_undeposited_commitment()?;
    let what_if = run.what_if_tree(&notes)?;
    let commits = run.commit_batches()?;
    let (blocklisted_excluded, gas_claim) = run.check_blocklist(&notes, commits.excluded_seen)?;
    let w = run.withdraw_all(&notes, &acc.recipients, &what_if)?;
    let pending_deposits = run.seq.pending();
    let live = run.check_liveness(&acc.live_depositors)?;
    let balance_conserved = run.check_balances(&acc, w.made.count)?;
    let shape = cfg.shape;
    Ok(SimulationReport {
        chain: run.chain.describe(),
        hash: cfg.family.name().into(),
        slot_depth: shape.slot_depth,
        era_depth: shape.era_depth,
        batch_size: run.b,
        deposits: cfg.deposits,
        withdrawals: w.made.count,
        batches: commits.gas.len(),
        blocklisted: 1,
        pending_deposits,
        liveness_deposits: acc.live_depositors.len(),
        reclaimed: 1,
        liveness_timeout_s: cfg.liveness_timeout_s,
        denomination_wei,
        fee_wei: cfg.fee.try_into().unwrap_or(u128::MAX),
        pool_address: format!("{:#x}", run.p.pool),
        gas: gas_report(
            run.b,
            &gas_deposit,
            &commits,
            gas_claim,
            &w,
            &live,
            gas_deploy,
        ),
        checks: Checks {
            double_spend_rejected: w.attacks.double,
            blocklisted_excluded,
            wrong_root_rejected: w.attacks.wrong_root,
            forged_proof_rejected: w.attacks.forged,
            balance_conserved,
            front_running_rejected: w.attacks.front,
            fee_above_denomination_rejected: w.attacks.fee_high,
            undeposited_commitment_rejected,
            stalled_deposit_reclaimed: live.ok,
        },
        answers: run.answers,
        provers: prover_report(provers, &commits, &w),
        withdraw_txs: w.txs,
        existing_recipients: cfg.existing_recipients,
        notes_dir: cfg.notes_dir.display().to_string(),
    })
}

/// Refuses a configuration the simulation cannot run (provers of another
/// shape or family, no withdrawal, less than a batch, no timeout, a fee above
/// the denomination); returns the denomination in wei.
fn check_config(cfg: &SimulateConfig, provers: &PoolProvers) -> Result<u128, PoolError> {
    let shape = cfg.shape;
    require(
        provers.shape == shape && provers.family == cfg.family,
        format!(
            "provers for slot depth {} / era depth {} / {} given to a simulation of slot depth {} / era depth {} / {}",
            provers.shape.slot_depth,
            provers.shape.era_depth,
            provers.family.name(),
            shape.slot_depth,
            shape.era_depth,
            cfg.family.name()
        ),
    )?;
    require(
        cfg.max_withdrawals != Some(0),
        "max_withdrawals = 0: the checks need at least one withdrawal",
    )?;
    let b = shape.batch_size();
    require(
        cfg.deposits >= b,
        format!(
            "{} deposits do not fill one batch of 2^{} = {b}; pass --deposits {b} or more",
            cfg.deposits, shape.slot_depth
        ),
    )?;
    require(
        cfg.liveness_timeout_s != 0,
        "liveness timeout 0: a reclaim before the timeout could not be tried",
    )?;
    require(
        cfg.fee <= cfg.denomination,
        "the relayer fee exceeds the denomination",
    )?;
    cfg.denomination
        .try_into()
        .map_err(|_| PoolError::Config("denomination above 2^128 wei".into()))
}

/// `Ok(())` if `holds`, else a configuration error saying `why`.
pub(crate) fn require(holds: bool, why: impl Into<String>) -> Result<(), PoolError> {
    if holds {
        Ok(())
    } else {
        Err(PoolError::Config(why.into()))
    }
}

/// The fixed parties of a run: the pool, its sequencer, the relayer, the
/// blocklisted depositor (of deposit `blocked_at`) and the front-runner.
struct Parties {
    pool: Address,
    sequencer: Address,
    relayer: Address,
    blocked: Address,
    blocked_at: usize,
    attacker: Address,
}

/// Who deposits and who receives, and every account that will ever hold
/// ether in the run with its balance before.
struct Accounts {
    depositors: Vec<Address>,
    live_depositors: Vec<Address>,
    recipients: Vec<Address>,
    everyone: Vec<Address>,
    before: Vec<U256>,
}

/// The honest commits: gas and proof time of each, and whether the first
/// one excluded the blocklisted deposit.
struct Commits {
    gas: Vec<u64>,
    prove_s: Vec<f64>,
    excluded_seen: bool,
}

/// The attacks tried around the first withdrawal: whether each was rejected.
#[derive(Default)]
struct Attacks {
    front: bool,
    fee_high: bool,
    forged: bool,
    wrong_root: bool,
    double: bool,
}

/// The withdrawals: how many, gas, transaction hashes and proof time of
/// each, and the attacks tried around the first.
#[derive(Default)]
struct Withdrawals {
    made: Tally,
    txs: Vec<String>,
    attacks: Attacks,
}

/// What the withdrawal loops of the pool and of the Tornado baseline keep:
/// how many withdrawals were made, and the gas and proof time of each.
#[derive(Default)]
pub(crate) struct Tally {
    /// Withdrawals made.
    pub(crate) count: usize,
    /// Gas of each.
    pub(crate) gas: Vec<u64>,
    /// Proof time of each, in seconds.
    pub(crate) prove_s: Vec<f64>,
}

impl Tally {
    /// Whether `max` withdrawals (`None`: no limit) have been made.
    pub(crate) fn reached(&self, max: Option<usize>) -> bool {
        max.is_some_and(|m| self.count >= m)
    }

    /// Runs `prove` and records its wall time.
    pub(crate) fn timed<T>(&mut self, prove: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let out = prove();
        self.prove_s.push(t.elapsed().as_secs_f64());
        out
    }

    /// Records one withdrawal that used `gas`.
    pub(crate) fn record(&mut self, gas: u64) {
        self.gas.push(gas);
        self.count += 1;
    }
}

/// The liveness check: whether it held, and the gas of the reclaim and of
/// the commit that excluded the reclaimed deposit.
struct Liveness {
    ok: bool,
    gas_reclaim: u64,
    gas_commit: u64,
}

/// A simulation in progress: the chain, the sequencer, the randomness, what
/// the protocol moved (the ledger) and what the contract answered.
struct Run<'a> {
    chain: &'a mut dyn PoolChain,
    cfg: &'a SimulateConfig,
    provers: &'a PoolProvers,
    rng: ChaCha20Rng,
    ledger: Ledger,
    answers: BTreeMap<String, String>,
    seq: Sequencer,
    p: Parties,
    /// Deposits per batch.
    b: usize,
}

impl<'a> Run<'a> {
    /// Deploys the pool and its verifiers and makes the fixed parties;
    /// returns the run and the gas of the three creations.
    fn deploy(
        chain: &'a mut dyn PoolChain,
        cfg: &'a SimulateConfig,
        provers: &'a PoolProvers,
    ) -> Result<(Self, [u64; 3]), PoolError> {
        let rng = ChaCha20Rng::seed_from_u64(cfg.seed);
        let solc = Solc::locate()?;
        let sequencer = chain.senders(0x5e, 1, U256::ZERO)?[0];
        let dep = contracts::deploy(
            chain,
            &solc,
            provers,
            cfg.denomination,
            sequencer,
            cfg.liveness_timeout_s,
        )?;
        let pool = dep.pool;
        let relayer = chain.senders(0x7e, 1, U256::ZERO)?[0];
        let blocked = chain.senders(0xbb, 1, cfg.denomination)?[0];
        let b = cfg.shape.batch_size();
        let seq = Sequencer::new(sequencer, pool, provers, [blocked].into_iter().collect())?;
        let attacker = chain.receivers(0xa7, 1, U256::ZERO, pool.as_slice())?[0];
        let p = Parties {
            pool,
            sequencer,
            relayer,
            blocked,
            blocked_at: b - 1,
            attacker,
        };
        let run = Self {
            chain,
            cfg,
            provers,
            rng,
            ledger: Ledger::default(),
            answers: BTreeMap::new(),
            seq,
            p,
            b,
        };
        Ok((run, dep.gas_deploy))
    }

    /// Funds the depositors (the blocklisted one at `blocked_at`; on a node
    /// the node's accounts, reused in turn) and the liveness check's, makes
    /// the recipients, and reads every account's balance.
    fn accounts(&mut self) -> Result<Accounts, PoolError> {
        let (cfg, b, p) = (self.cfg, self.b, &self.p);
        let chain = &mut *self.chain;
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
                if i == p.blocked_at {
                    p.blocked
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
        let recipients = chain.receivers(0xee, cfg.deposits, recipient_start, p.pool.as_slice())?;
        let mut everyone: Vec<Address> = depositors.clone();
        everyone.extend(&live_depositors);
        everyone.extend(&recipients);
        everyone.extend([p.relayer, p.attacker, p.sequencer, p.pool]);
        everyone.sort_unstable();
        everyone.dedup();
        let before = everyone
            .iter()
            .map(|a| chain.balance(*a))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Accounts {
            depositors,
            live_depositors,
            recipients,
            everyone,
            before,
        })
    }

    /// Sends `data` to the pool from `from` and books its gas fee.
    fn send(&mut self, from: Address, data: &[u8]) -> Result<TxResult, PoolError> {
        let r = self.chain.send(from, self.p.pool, data, U256::ZERO)?;
        self.ledger.fee(from, &r);
        Ok(r)
    }

    /// Sends `data` like [`Self::send`] and records the contract's answer
    /// (`ok` or its error name) under `name`.
    fn attempt(
        &mut self,
        name: &str,
        from: Address,
        data: &[u8],
    ) -> Result<(TxResult, String), PoolError> {
        let r = self.send(from, data)?;
        let d = abi::describe(&r.status);
        self.answers.insert(name.into(), d.clone());
        Ok((r, d))
    }

    /// A fresh note deposited from `from` (the wallet writes it before
    /// sending; `what` names the deposit in an error); returns it and the
    /// deposit's gas.
    fn deposit(&mut self, what: &str, from: Address) -> Result<(Note, u64), PoolError> {
        let (cfg, pool) = (self.cfg, self.p.pool);
        let note = Note::random(&mut self.rng, &self.chain.network(), cfg.denomination, pool);
        let hashes = self.provers.hashes();
        let (_, r) = wallet::deposit(&mut *self.chain, from, &note, &cfg.notes_dir, hashes)?;
        self.ledger.fee(from, &r);
        require_ok(what, &r.status)?;
        self.ledger.transfer(from, pool, cfg.denomination);
        self.seq.observe(&r.logs);
        Ok((note, r.gas_tx))
    }

    /// One deposit from each of `depositors`: the notes and the gas of each.
    fn deposit_all(&mut self, depositors: &[Address]) -> Result<(Vec<Note>, Vec<u64>), PoolError> {
        let mut notes = Vec::with_capacity(depositors.len());
        let mut gas = Vec::new();
        for (i, d) in depositors.iter().enumerate() {
            let (note, g) = self.deposit(&format!("deposit {i}"), *d)?;
            notes.push(note);
            gas.push(g);
        }
        Ok((notes, gas))
    }

    /// A dishonest batch: a commitment nobody deposited, with a valid proof;
    /// whether the pool reverted `BatchMismatch`.
    fn try_undeposited_commitment(&mut self) -> Result<bool, PoolError> {
        let mut plan = self
            .seq
            .plan(self.b)
            .ok_or_else(|| PoolError::Config("the sequencer saw no full batch".into()))?;
        let forged_leaf = Fr::rand(&mut self.rng);
        plan.commitments[0] = abi::fr_u256(&forged_leaf);
        plan.leaves[0] = forged_leaf;
        let call = prove_commit_call(self.provers, self.seq.tree(), &plan, &mut self.rng)?;
        let (_, a) = self.attempt(
            "commit_with_undeposited_commitment",
            self.p.sequencer,
            &call,
        )?;
        Ok(a == "BatchMismatch")
    }

    /// The tree the blocklisted note would have been in: its roots never
    /// reach the chain.
    fn what_if_tree(&self, notes: &[Note]) -> Result<EraSlotTree, PoolError> {
        let mut what_if = self.seq.tree().clone();
        let mut leaves = self.seq.plan(self.b).map(|p| p.leaves).unwrap_or_default();
        let at = self.p.blocked_at;
        leaves[at] = notes[at].commitment(self.provers.hashes());
        what_if.commit_slot(&leaves)?;
        Ok(what_if)
    }

    /// Honest commits of every full batch.
    fn commit_batches(&mut self) -> Result<Commits, PoolError> {
        let mut c = Commits {
            gas: Vec::new(),
            prove_s: Vec::new(),
            excluded_seen: false,
        };
        while let Some(rep) = self
            .seq
            .commit_next(&mut *self.chain, self.provers, &mut self.rng)?
        {
            self.ledger.fee(self.p.sequencer, &rep.receipt);
            c.gas.push(rep.receipt.gas_tx);
            c.prove_s.push(rep.prove_s);
            let ev = abi::excluded_events(self.p.pool, &rep.receipt.logs);
            if rep.slot == 0 && ev.contains(&(0, self.p.blocked_at as u64, self.p.blocked)) {
                c.excluded_seen = true;
            }
        }
        Ok(c)
    }

    /// Blocklist policy: the blocklisted note is not in the tree, its
    /// deposit was escrowed and `claimEscrow` pays it back; returns whether
    /// all held (with `excluded_seen`) and the claim's gas.
    fn check_blocklist(
        &mut self,
        notes: &[Note],
        excluded_seen: bool,
    ) -> Result<(bool, u64), PoolError> {
        let (pool, blocked, at) = (self.p.pool, self.p.blocked, self.p.blocked_at);
        let denom = self.cfg.denomination;
        let leaf_empty = self.seq.tree().slot_leaves(0)?[at] == pool_empty_leaf();
        let commitment = notes[at].commitment(self.provers.hashes());
        let not_in_tree = find_leaf(self.seq.tree(), &commitment).is_none();
        let escrowed = read(
            &mut *self.chain,
            pool,
            "escrow(address)",
            Some(address_word(blocked)),
        )? == denom;
        let blocked_before = self.chain.balance(blocked)?;
        let (r, _) = self.attempt("claim_escrow", blocked, &abi::claim_escrow_call())?;
        let claimed =
            ok(&r.status) && self.chain.balance(blocked)? + r.fee_wei == blocked_before + denom;
        if ok(&r.status) {
            self.ledger.transfer(pool, blocked, denom);
        }
        let held = excluded_seen && leaf_empty && not_in_tree && escrowed && claimed;
        Ok((held, r.gas_tx))
    }

    /// Withdraws every committed note (at most `max_withdrawals`) through the
    /// relayer to `recipients`; around the first, tries the attacks
    /// ([`Self::try_attacks`]) and then the same withdrawal again.
    fn withdraw_all(
        &mut self,
        notes: &[Note],
        recipients: &[Address],
        what_if: &EraSlotTree,
    ) -> Result<Withdrawals, PoolError> {
        let provers = self.provers;
        let (cfg, pool, relayer) = (self.cfg, self.p.pool, self.p.relayer);
        let mut w = Withdrawals::default();
        for (i, note) in notes.iter().enumerate() {
            if w.made.reached(cfg.max_withdrawals) {
                break;
            }
            let commitment = note.commitment(provers.hashes());
            if i == self.p.blocked_at || find_leaf(self.seq.tree(), &commitment).is_none() {
                continue;
            }
            let tree = self.seq.tree();
            let (proof, args) = w.made.timed(|| {
                provers.prove_withdrawal(tree, note, recipients[i], relayer, cfg.fee, &mut self.rng)
            })?;
            let first = w.made.count == 0;
            if first {
                let blocked_note = &notes[self.p.blocked_at];
                w.attacks = self.try_attacks(note, &proof, &args, what_if, blocked_note)?;
            }
            let call = abi::withdraw_call(&proof, &args);
            let r = self.send(relayer, &call)?;
            require_ok(&format!("withdrawal of note {i}"), &r.status)?;
            self.ledger
                .transfer(pool, recipients[i], cfg.denomination - cfg.fee);
            self.ledger.transfer(pool, relayer, cfg.fee);
            w.made.record(r.gas_tx);
            w.txs.extend(r.tx_hash);
            if first {
                let (_, d) = self.attempt("withdraw_double_spend", relayer, &call)?;
                w.attacks.double = d == "NullifierAlreadySpent";
            }
        }
        Ok(w)
    }

    /// Sends a withdrawal through the relayer and records the answer.
    fn try_withdraw(
        &mut self,
        name: &str,
        proof: &Groth16Calldata,
        args: &abi::WithdrawArgs,
    ) -> Result<String, PoolError> {
        let call = abi::withdraw_call(proof, args);
        Ok(self.attempt(name, self.p.relayer, &call)?.1)
    }

    /// Before `note`'s withdrawal (`proof`, `args`): a front-run (same proof,
    /// other recipient or fee), a forged proof, a fee above the
    /// denomination, and a proof of `blocked_note` against `what_if`'s root,
    /// which the pool never had.
    fn try_attacks(
        &mut self,
        note: &Note,
        proof: &Groth16Calldata,
        args: &abi::WithdrawArgs,
        what_if: &EraSlotTree,
        blocked_note: &Note,
    ) -> Result<Attacks, PoolError> {
        let (provers, cfg) = (self.provers, self.cfg);
        let (relayer, attacker) = (self.p.relayer, self.p.attacker);
        let stolen = abi::WithdrawArgs {
            recipient: attacker,
            ..*args
        };
        let mut front = self.try_withdraw("withdraw_front_run_other_recipient", proof, &stolen)?
            == "InvalidProof";
        let more_fee = abi::WithdrawArgs {
            fee: args.fee + U256::from(1u8),
            ..*args
        };
        front &=
            self.try_withdraw("withdraw_front_run_other_fee", proof, &more_fee)? == "InvalidProof";
        let forged =
            self.try_withdraw("withdraw_forged_proof", &forge(proof), args)? == "InvalidProof";
        let over = cfg.denomination + U256::from(1u8);
        let tree = self.seq.tree();
        let (p_over, a_over) =
            provers.prove_withdrawal(tree, note, args.recipient, relayer, over, &mut self.rng)?;
        let fee_high =
            self.try_withdraw("withdraw_fee_above_denomination", &p_over, &a_over)? == "FeeTooHigh";
        let (p_wr, a_wr) = provers.prove_withdrawal(
            what_if,
            blocked_note,
            attacker,
            relayer,
            cfg.fee,
            &mut self.rng,
        )?;
        let wrong_root = self.try_withdraw("withdraw_unknown_root", &p_wr, &a_wr)? == "UnknownRoot";
        Ok(Attacks {
            front,
            fee_high,
            forged,
            wrong_root,
            double: false,
        })
    }

    /// Liveness: `depositors` fill the open batch, the sequencer stalls, the
    /// first depositor reclaims (refused before the timeout, paid after it,
    /// refused again), a commit that does not exclude the reclaimed deposit
    /// is refused and the honest one excludes it with no escrow credit.
    fn check_liveness(&mut self, depositors: &[Address]) -> Result<Liveness, PoolError> {
        let mut notes = Vec::with_capacity(depositors.len());
        for (i, d) in depositors.iter().enumerate() {
            notes.push(self.deposit(&format!("liveness deposit {i}"), *d)?.0);
        }
        let (reclaimer, note) = (depositors[0], &notes[0]);
        let denom = self.cfg.denomination;
        let (_, early) = self.reclaim("reclaim_before_timeout", reclaimer, note)?;
        let mut live_ok = early == "NotStalled";
        self.chain.advance_time(self.cfg.liveness_timeout_s + 1)?;
        let before = self.chain.balance(reclaimer)?;
        let (r, _) = self.reclaim("reclaim_after_timeout", reclaimer, note)?;
        live_ok &= ok(&r.status) && self.chain.balance(reclaimer)? + r.fee_wei == before + denom;
        if ok(&r.status) {
            self.ledger.transfer(self.p.pool, reclaimer, denom);
        }
        let (_, twice) = self.reclaim("reclaim_twice", reclaimer, note)?;
        live_ok &= twice == "AlreadyReclaimed";
        live_ok &= self.try_commit_without_reclaimed_excluded()?;
        let (excluded, gas_commit) = self.commit_with_reclaim(&r.logs, reclaimer, note)?;
        Ok(Liveness {
            ok: live_ok && excluded,
            gas_reclaim: r.gas_tx,
            gas_commit,
        })
    }

    /// `from` reclaims `note`'s deposit; records the answer under `name`.
    fn reclaim(
        &mut self,
        name: &str,
        from: Address,
        note: &Note,
    ) -> Result<(TxResult, String), PoolError> {
        let r = wallet::reclaim(&mut *self.chain, from, note, self.provers.hashes())?;
        self.ledger.fee(from, &r);
        let d = abi::describe(&r.status);
        self.answers.insert(name.into(), d.clone());
        Ok((r, d))
    }

    /// The sequencer's batch as it was before it saw the `Reclaimed` event
    /// (a valid proof): whether the pool reverted `ReclaimedNotExcluded`.
    fn try_commit_without_reclaimed_excluded(&mut self) -> Result<bool, PoolError> {
        let stale = self
            .seq
            .plan(self.b)
            .ok_or_else(|| PoolError::Config("the liveness batch is not full".into()))?;
        let call = prove_commit_call(self.provers, self.seq.tree(), &stale, &mut self.rng)?;
        let (_, d) = self.attempt("commit_without_reclaimed_excluded", self.p.sequencer, &call)?;
        Ok(d == "ReclaimedNotExcluded")
    }

    /// The honest commit after the sequencer saw `reclaim_logs`: whether it
    /// excluded the reclaimed deposit (no escrow for `reclaimer`, `note` not
    /// in the tree), and its gas.
    fn commit_with_reclaim(
        &mut self,
        reclaim_logs: &[Log],
        reclaimer: Address,
        note: &Note,
    ) -> Result<(bool, u64), PoolError> {
        self.seq.observe(reclaim_logs);
        let rep = self
            .seq
            .commit_next(&mut *self.chain, self.provers, &mut self.rng)?
            .ok_or_else(|| PoolError::Config("the liveness batch is not full".into()))?;
        self.ledger.fee(self.p.sequencer, &rep.receipt);
        let escrow = Some(address_word(reclaimer));
        let excluded = rep.reclaimed == [self.cfg.deposits % self.b]
            && read(&mut *self.chain, self.p.pool, "escrow(address)", escrow)? == U256::ZERO
            && find_leaf(self.seq.tree(), &note.commitment(self.provers.hashes())).is_none();
        Ok((excluded, rep.receipt.gas_tx))
    }

    /// Balances: exact for every account (what the protocol moved, less the
    /// gas fees it paid), the pool's exact, and the total unchanged but for
    /// fees.
    fn check_balances(&mut self, acc: &Accounts, withdrawals: usize) -> Result<bool, PoolError> {
        let (cfg, pool) = (self.cfg, self.p.pool);
        let left = cfg.deposits - withdrawals - 1 + acc.live_depositors.len() - 1;
        let mut balanced = self.chain.balance(pool)? == cfg.denomination * U256::from(left as u64)
            && read(&mut *self.chain, pool, "totalEscrow()", None)? == U256::ZERO;
        let mut total_before = U256::ZERO;
        let mut total_after = U256::ZERO;
        for (a, b0) in acc.everyone.iter().zip(&acc.before) {
            let after = self.chain.balance(*a)?;
            balanced &= self.ledger.holds(*a, *b0, after);
            total_before += *b0;
            total_after += after;
        }
        Ok(balanced && total_after + self.ledger.total_fees() == total_before)
    }
}

/// Gas medians of the run's deposits, commits and withdrawals, and the gas
/// of the one-off transactions.
fn gas_report(
    b: usize,
    deposits: &[u64],
    commits: &Commits,
    claim_escrow: u64,
    w: &Withdrawals,
    live: &Liveness,
    deploy: [u64; 3],
) -> GasReport {
    let (gd, gc, gw) = (median(deposits), median(&commits.gas), median(&w.made.gas));
    GasReport {
        deposit: gd,
        commit: gc,
        withdraw: gw,
        per_tx_amortized: gd + (gc + b as u64 / 2) / b as u64 + gw,
        commits: commits.gas.clone(),
        claim_escrow,
        reclaim: live.gas_reclaim,
        commit_with_reclaim: live.gas_commit,
        deploy_pool: deploy[2],
        deploy_withdraw_verifier: deploy[0],
        deploy_batch_verifier: deploy[1],
    }
}

/// Median proof times of the run and the circuits' sizes.
fn prover_report(provers: &PoolProvers, commits: &Commits, w: &Withdrawals) -> ProverReport {
    ProverReport {
        batch_prove_s: median(&commits.prove_s),
        withdraw_prove_s: median(&w.made.prove_s),
        batch_constraints: provers.batch_keys.matrices.num_constraints,
        withdraw_constraints: provers.spend_keys.matrices.num_constraints,
        test_setup: provers.batch_keys.test_setup && provers.spend_keys.test_setup,
    }
}
