//! `zkbench pool …`: the private pool of Guo et al. (crates/pool, docs/pool.md).

use std::{path::PathBuf, process::ExitCode};

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use zkbench_evm::Address;
use zkbench_evm::U256;
use zkbench_hash::HashFamily;
use zkbench_pool::chain::{PoolChain, RpcChain};
use zkbench_pool::contracts::{PoolProvers, TEST_SETUP_SEED};
use zkbench_pool::tornado::{simulate_tornado, TornadoConfig, TornadoProver, TORNADO_SETUP_SEED};
use zkbench_pool::wallet::Note;
use zkbench_pool::{simulate, simulate_on, SimulateConfig};
use zkbench_statement::pool::PoolShape;

/// `zkbench pool` subcommands.
#[derive(Subcommand, Debug)]
pub enum PoolCmd {
    /// Run the whole protocol (deposits, sequencer batches, withdrawals, attacks) and report gas.
    Simulate(SimulateArgs),
    /// Deploy a pool (both verifiers, test-setup keys) on a JSON-RPC node; prints its address.
    Deploy(DeployArgs),
    /// Deposit into a pool: writes the note file (synced) BEFORE sending the transaction.
    Deposit(DepositArgs),
    /// Withdraw a note: rebuilds the era tree from the pool's events, proves, sends.
    Withdraw(WithdrawArgs),
    /// The sequencer: watches Deposit events, applies the blocklist, proves and commits
    /// each full batch of 2^slot_depth deposits.
    Sequencer(SequencerArgs),
    /// Take a deposit back when the pool is stalled (no commit for its liveness timeout
    /// while deposits wait); the note must not be committed yet.
    Reclaim(ReclaimArgs),
    /// Take back the escrow of deposits the sequencer excluded (a blocklisted depositor's
    /// way back): pays the sending account's escrow to it.
    ClaimEscrow(ClaimEscrowArgs),
}

/// Where a wallet/sequencer command runs: a node, and which of its keys signs.
#[derive(Args, Debug)]
pub struct NodeArgs {
    /// The JSON-RPC node (http://…). Keys: Hardhat's public test keys, or ZKBENCH_POOL_KEYS
    /// (comma-separated hex private keys; never printed).
    #[arg(long)]
    pub rpc: Option<String>,
    /// Which key sends the transactions (index into the keys).
    #[arg(long, default_value_t = 0)]
    pub account: usize,
    /// Hash family of the pool's trees and notes.
    #[arg(long, default_value = "poseidon2")]
    pub hash: String,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Send a transaction even when the node's eth_call says the pool will revert it (the
    /// rejection then happens on chain and costs gas); by default such a transaction is not
    /// sent and the command fails naming the pool's error.
    #[arg(long)]
    pub send_anyway: bool,
    /// Key cache directory: the pool's proving keys are set up once and read from here after
    /// (default as for `zkbench prove`).
    #[arg(long)]
    pub keys: Option<PathBuf>,
}

/// Arguments of `zkbench pool claim-escrow`.
#[derive(Args, Debug)]
pub struct ClaimEscrowArgs {
    #[command(flatten)]
    pub node: NodeArgs,
    /// The pool's address.
    #[arg(long)]
    pub pool: String,
}

/// Arguments of `zkbench pool deploy`.
#[derive(Args, Debug)]
pub struct DeployArgs {
    #[command(flatten)]
    pub node: NodeArgs,
    /// Depth of each slot (batch) tree: 2^S deposits per batch.
    #[arg(long, default_value_t = 5)]
    pub slot_depth: u32,
    /// Depth of the era tree: 2^E slots.
    #[arg(long, default_value_t = 20)]
    pub era_depth: u32,
    /// Denomination in wei (default 0.1 ether).
    #[arg(long, default_value = "100000000000000000")]
    pub denomination_wei: String,
    /// The sequencer's address (default: the deploying account).
    #[arg(long)]
    pub sequencer: Option<String>,
    /// Seconds without progress (no commit while deposits wait) after which depositors
    /// of uncommitted batches may reclaim (default: one day).
    #[arg(long, default_value_t = zkbench_pool::contracts::DEFAULT_LIVENESS_TIMEOUT_S)]
    pub liveness_timeout_s: u64,
}

/// Arguments of `zkbench pool reclaim`.
#[derive(Args, Debug)]
pub struct ReclaimArgs {
    #[command(flatten)]
    pub node: NodeArgs,
    /// The note file written by `zkbench pool deposit` (sent from the account that deposited it).
    #[arg(long)]
    pub note: PathBuf,
}

/// Arguments of `zkbench pool deposit`.
#[derive(Args, Debug)]
pub struct DepositArgs {
    #[command(flatten)]
    pub node: NodeArgs,
    /// The pool's address.
    #[arg(long)]
    pub pool: String,
    /// Directory the note file is written to (created if needed).
    #[arg(long, default_value = "notes")]
    pub notes_dir: PathBuf,
}

/// Arguments of `zkbench pool withdraw`.
#[derive(Args, Debug)]
pub struct WithdrawArgs {
    #[command(flatten)]
    pub node: NodeArgs,
    /// The note file written by `zkbench pool deposit`.
    #[arg(long)]
    pub note: PathBuf,
    /// Who receives the denomination less the fee.
    #[arg(long)]
    pub recipient: String,
    /// Who receives the fee (default: the sending account).
    #[arg(long)]
    pub relayer: Option<String>,
    /// Relayer fee in wei.
    #[arg(long, default_value = "0")]
    pub fee_wei: String,
}

/// Arguments of `zkbench pool sequencer`.
#[derive(Args, Debug)]
pub struct SequencerArgs {
    #[command(flatten)]
    pub node: NodeArgs,
    /// The pool's address.
    #[arg(long)]
    pub pool: String,
    /// Blocklist file: one 0x address per line, `#` comments.
    #[arg(long)]
    pub blocklist: Option<PathBuf>,
    /// Commit every full batch pending now, then exit (default: keep watching).
    #[arg(long)]
    pub once: bool,
    /// Seconds between polls of the node when watching.
    #[arg(long, default_value_t = 2)]
    pub poll_s: u64,
}

/// Arguments of `zkbench pool simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of deposits (at least one batch of 2^slot-depth).
    #[arg(long, default_value_t = 32)]
    pub deposits: usize,
    /// Depth of each slot (batch) tree: 2^S deposits per batch (1..=12).
    #[arg(long, default_value_t = 5)]
    pub slot_depth: u32,
    /// Depth of the era tree: 2^E slots.
    #[arg(long, default_value_t = 20)]
    pub era_depth: u32,
    /// Hash family of the trees and notes.
    #[arg(long, default_value = "poseidon2")]
    pub hash: String,
    /// Denomination in wei (default 0.1 ether).
    #[arg(long, default_value = "100000000000000000")]
    pub denomination_wei: String,
    /// Relayer fee per withdrawal in wei (default: 0.1% of the denomination).
    #[arg(long)]
    pub fee_wei: Option<String>,
    /// Directory for the notes (default: a new directory under the system's temporary directory).
    #[arg(long)]
    pub notes_dir: Option<PathBuf>,
    /// Withdraw to accounts that already hold ether (as a Hardhat node's accounts do) instead
    /// of fresh addresses (which cost 25,000 gas more per withdrawal: account creation).
    #[arg(long)]
    pub existing_recipients: bool,
    /// Withdraw at most this many notes (default: every committed note).
    #[arg(long)]
    pub max_withdrawals: Option<usize>,
    /// The pool's liveness timeout in seconds (the liveness check moves the clock past it;
    /// on a node it must exceed the run's wall time).
    #[arg(long, default_value_t = zkbench_pool::contracts::DEFAULT_LIVENESS_TIMEOUT_S)]
    pub liveness_timeout_s: u64,
    /// Seed of the notes' and proofs' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A JSON-RPC node (http://…) to run against instead of the embedded EVM; keys: Hardhat's
    /// public test keys, or ZKBENCH_POOL_KEYS (comma-separated hex private keys).
    #[arg(long)]
    pub rpc: Option<String>,
    /// Also run the Tornado Cash baseline (table 2 of Guo et al.) in the same harness: the
    /// classic design with an on-chain MiMCSponge tree, same number of deposits and
    /// withdrawals, reported as `baseline` (needs scripts/circomlibjs, scripts/setup.sh).
    #[arg(long)]
    pub baseline: bool,
    /// Depth of the baseline's tree (Tornado Cash: 20).
    #[arg(long, default_value_t = zkbench_pool::tornado::TORNADO_LEVELS)]
    pub baseline_levels: u32,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `zkbench pool …`.
pub fn run(cmd: PoolCmd) -> anyhow::Result<ExitCode> {
    match cmd {
        PoolCmd::Simulate(a) => simulate_cmd(a),
        PoolCmd::Deploy(a) => deploy_cmd(a),
        PoolCmd::Deposit(a) => deposit_cmd(a),
        PoolCmd::Withdraw(a) => withdraw_cmd(a),
        PoolCmd::Sequencer(a) => sequencer_cmd(a),
        PoolCmd::Reclaim(a) => reclaim_cmd(a),
        PoolCmd::ClaimEscrow(a) => claim_escrow_cmd(a),
    }
}

/// The pool's provers (test-setup keys) through the key cache of `n`.
fn provers(n: &NodeArgs, shape: PoolShape, fam: HashFamily) -> anyhow::Result<PoolProvers> {
    let dir = crate::cmd_prove::key_cache_dir(n.keys.as_ref());
    let (p, cached) = PoolProvers::load_or_setup(shape, fam, TEST_SETUP_SEED, &dir)?;
    if !cached && !n.json {
        eprintln!(
            "set up the pool's test-setup keys (slot depth {}, era depth {}) and cached them in {}",
            shape.slot_depth,
            shape.era_depth,
            dir.display()
        );
    }
    Ok(p)
}

fn family(hash: &str) -> anyhow::Result<HashFamily> {
    hash.parse()
        .map_err(|e| anyhow::anyhow!("--hash {hash:?}: {e}"))
}

fn address(s: &str, what: &str) -> anyhow::Result<Address> {
    match s.strip_prefix("0x").map(|_| s.parse::<Address>()) {
        Some(Ok(a)) => Ok(a),
        _ => bail!("{what} {s:?}: not a 0x-hex 20-byte address"),
    }
}

/// The node and the signing account of a wallet/sequencer command.
fn connect(n: &NodeArgs, command: &str) -> anyhow::Result<(RpcChain, Address)> {
    let Some(url) = &n.rpc else {
        bail!("zkbench pool {command} needs --rpc URL (a JSON-RPC node); on the embedded EVM use `zkbench pool simulate`");
    };
    let mut chain = RpcChain::connect(url)?;
    chain.set_send_reverting(n.send_anyway);
    let from = *chain.accounts().get(n.account).ok_or_else(|| {
        anyhow::anyhow!(
            "--account {}: only {} keys",
            n.account,
            chain.accounts().len()
        )
    })?;
    Ok((chain, from))
}

fn print(json: bool, v: serde_json::Value, text: String) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{text}");
    }
    Ok(())
}

/// Prints a wallet command's transaction: `fields` plus `tx` (its hash) and
/// `gas` as JSON, or `text(tx)`; success.
fn print_tx(
    json: bool,
    r: &zkbench_pool::chain::TxResult,
    mut fields: serde_json::Value,
    text: impl FnOnce(&str) -> String,
) -> anyhow::Result<ExitCode> {
    let tx = r.tx_hash.clone().unwrap_or_default();
    fields["tx"] = tx.clone().into();
    fields["gas"] = r.gas_tx.into();
    print(json, fields, text(&tx))?;
    Ok(ExitCode::SUCCESS)
}

fn deploy_cmd(a: DeployArgs) -> anyhow::Result<ExitCode> {
    let fam = family(&a.node.hash)?;
    let shape =
        PoolShape::new(a.slot_depth, a.era_depth).context("invalid --slot-depth/--era-depth")?;
    let denomination = wei(&a.denomination_wei, "--denomination-wei")?;
    if denomination.is_zero() {
        bail!("--denomination-wei must be positive");
    }
    let (mut chain, from) = connect(&a.node, "deploy")?;
    let sequencer = match &a.sequencer {
        Some(s) => address(s, "--sequencer")?,
        None => from,
    };
    if from != chain.deployer() {
        bail!("zkbench pool deploy sends from the first key; leave out --account");
    }
    let solc = zkbench_evm::Solc::locate()?;
    let provers = provers(&a.node, shape, fam)?;
    let d = zkbench_pool::contracts::deploy(
        &mut chain,
        &solc,
        &provers,
        denomination,
        sequencer,
        a.liveness_timeout_s,
    )?;
    print(
        a.node.json,
        serde_json::json!({
            "pool_address": format!("{:#x}", d.pool),
            "withdraw_verifier": format!("{:#x}", d.withdraw_verifier),
            "batch_verifier": format!("{:#x}", d.batch_verifier),
            "sequencer": format!("{sequencer:#x}"),
            "denomination_wei": denomination.to_string(),
            "slot_depth": shape.slot_depth,
            "era_depth": shape.era_depth,
            "hash": fam.name(),
            "network": chain.network(),
            "liveness_timeout_s": a.liveness_timeout_s,
            "gas_deploy": d.gas_deploy,
            "test_setup": true,
        }),
        format!(
            "pool {:#x} on {} · slot depth {} · era depth {} · {} wei · sequencer {sequencer:#x} · test-setup keys",
            d.pool,
            chain.describe(),
            shape.slot_depth,
            shape.era_depth,
            denomination
        ),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn deposit_cmd(a: DepositArgs) -> anyhow::Result<ExitCode> {
    let fam = family(&a.node.hash)?;
    let pool = address(&a.pool, "--pool")?;
    let (mut chain, from) = connect(&a.node, "deposit")?;
    let info = zkbench_pool::contracts::pool_info(&mut chain, pool)?;
    let hashes = zkbench_statement::NativeHashes::for_family(fam, None, 2)?;
    let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::from_entropy();
    let note = Note::random(&mut rng, &chain.network(), info.denomination, pool);
    let (path, r) = zkbench_pool::wallet::deposit(&mut chain, from, &note, &a.notes_dir, &hashes)?;
    let answer = zkbench_pool::abi::describe(&r.status);
    if answer != "ok" {
        bail!(
            "deposit reverted on chain: {answer} (the note {} was written first and holds no funds)",
            path.display()
        );
    }
    let tx = r.tx_hash.unwrap_or_default();
    print(
        a.node.json,
        serde_json::json!({
            "note_file": path.display().to_string(),
            "tx": tx,
            "gas": r.gas_tx,
            "pool_address": format!("{pool:#x}"),
            "denomination_wei": info.denomination.to_string(),
        }),
        format!(
            "deposited {} wei into {pool:#x} (tx {tx}, gas {}); note in {}",
            info.denomination,
            r.gas_tx,
            path.display()
        ),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn withdraw_cmd(a: WithdrawArgs) -> anyhow::Result<ExitCode> {
    let fam = family(&a.node.hash)?;
    let note = Note::load(&a.note)?;
    let recipient = address(&a.recipient, "--recipient")?;
    let fee = wei(&a.fee_wei, "--fee-wei")?;
    let (mut chain, from) = connect(&a.node, "withdraw")?;
    let relayer = match &a.relayer {
        Some(r) => address(r, "--relayer")?,
        None => from,
    };
    // every check that needs no key first: the note, its deposit, its nullifier
    let hashes = zkbench_statement::NativeHashes::for_family(fam, None, 2)?;
    let info = zkbench_pool::wallet::check_withdrawable(&mut chain, &note, &hashes)?;
    let provers = provers(&a.node, info.shape, fam)?;
    let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::from_entropy();
    let r = zkbench_pool::wallet::withdraw(
        &mut chain, &provers, &note, from, recipient, relayer, fee, &mut rng,
    )?;
    print_tx(
        a.node.json,
        &r,
        serde_json::json!({
            "recipient": format!("{recipient:#x}"),
            "relayer": format!("{relayer:#x}"),
            "fee_wei": fee.to_string(),
            "pool_address": format!("{:#x}", note.pool),
        }),
        |tx| {
            format!(
                "withdrew {} wei to {recipient:#x} (fee {fee} to {relayer:#x}; tx {tx}, gas {})",
                note.denomination - fee,
                r.gas_tx
            )
        },
    )
}

fn reclaim_cmd(a: ReclaimArgs) -> anyhow::Result<ExitCode> {
    let fam = family(&a.node.hash)?;
    let note = Note::load(&a.note)?;
    let (mut chain, from) = connect(&a.node, "reclaim")?;
    if note.network != chain.network() {
        bail!(
            "the note is for network {:?}, this chain is {:?}",
            note.network,
            chain.network()
        );
    }
    let hashes = zkbench_statement::NativeHashes::for_family(fam, None, 2)?;
    let r = zkbench_pool::wallet::reclaim(&mut chain, from, &note, &hashes)?;
    if !matches!(r.status, zkbench_evm::CallStatus::Returned(_)) {
        bail!(
            "reclaim reverted on chain: {}",
            zkbench_pool::abi::explain(&r.status)
        );
    }
    print_tx(
        a.node.json,
        &r,
        serde_json::json!({
            "reclaimed_wei": note.denomination.to_string(),
            "depositor": format!("{from:#x}"),
            "pool_address": format!("{:#x}", note.pool),
        }),
        |tx| {
            format!(
                "reclaimed {} wei from {:#x} to {from:#x} (tx {tx}, gas {})",
                note.denomination, note.pool, r.gas_tx
            )
        },
    )
}

fn claim_escrow_cmd(a: ClaimEscrowArgs) -> anyhow::Result<ExitCode> {
    let pool = address(&a.pool, "--pool")?;
    let (mut chain, from) = connect(&a.node, "claim-escrow")?;
    let (amount, r) = zkbench_pool::wallet::claim_escrow(&mut chain, pool, from)?;
    print_tx(
        a.node.json,
        &r,
        serde_json::json!({
            "claimed_wei": amount.to_string(),
            "account": format!("{from:#x}"),
            "pool_address": format!("{pool:#x}"),
        }),
        |tx| {
            format!(
                "claimed the escrow of {amount} wei from {pool:#x} to {from:#x} (tx {tx}, gas {})",
                r.gas_tx
            )
        },
    )
}

fn sequencer_cmd(a: SequencerArgs) -> anyhow::Result<ExitCode> {
    let fam = family(&a.node.hash)?;
    let pool = address(&a.pool, "--pool")?;
    let blocklist = match &a.blocklist {
        Some(p) => zkbench_pool::sequencer::read_blocklist(p)?,
        None => Default::default(),
    };
    let (mut chain, from) = connect(&a.node, "sequencer")?;
    let info = zkbench_pool::contracts::pool_info(&mut chain, pool)?;
    if info.sequencer != from {
        bail!(
            "pool {pool:#x}'s sequencer is {:#x}, --account {} is {from:#x}",
            info.sequencer,
            a.node.account
        );
    }
    let provers = provers(&a.node, info.shape, fam)?;
    let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::from_entropy();
    let mut commits = Vec::new();
    loop {
        // The pool's history is the state: rebuilt on every round (cheap at these sizes).
        let mut seq =
            zkbench_pool::sequencer::resume(&mut chain, pool, from, &provers, blocklist.clone())?;
        while let Some(rep) = seq.commit_next(&mut chain, &provers, &mut rng)? {
            let line = serde_json::json!({
                "slot": rep.slot,
                "tx": rep.receipt.tx_hash.clone().unwrap_or_default(),
                "gas": rep.receipt.gas_tx,
                "excluded": rep.excluded.iter().map(|(i, d)| serde_json::json!({"position": i, "depositor": format!("{d:#x}")})).collect::<Vec<_>>(),
                "prove_s": rep.prove_s,
            });
            if !a.node.json {
                println!(
                    "committed slot {} (tx {}, gas {}, {} excluded, proof {:.2} s)",
                    rep.slot,
                    rep.receipt.tx_hash.as_deref().unwrap_or(""),
                    rep.receipt.gas_tx,
                    rep.excluded.len(),
                    rep.prove_s
                );
            }
            commits.push(line);
        }
        if a.once {
            let pending = seq.pending();
            print(
                a.node.json,
                serde_json::json!({"commits": commits, "pending_deposits": pending}),
                format!(
                    "{} batches committed, {pending} deposits pending",
                    commits.len()
                ),
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        std::thread::sleep(std::time::Duration::from_secs(a.poll_s.max(1)));
    }
}

fn wei(s: &str, what: &str) -> anyhow::Result<U256> {
    U256::from_str_radix(s, 10)
        .map_err(|_| anyhow::anyhow!("{what} {s:?} is not a decimal number of wei"))
}

fn simulate_cmd(a: SimulateArgs) -> anyhow::Result<ExitCode> {
    let cfg = simulate_config(&a)?;
    check_simulate_modes(&a)?;
    let r = run_simulation(&a, &cfg)?;
    let baseline = run_baseline(&a, &cfg)?;
    let baseline_ok = baseline.as_ref().is_none_or(|b| b.all_checks_passed());
    let all_ok = baseline_ok && r.checks.all_passed();
    if a.json {
        print_simulation_json(&r, baseline.as_ref())?;
    } else {
        print_simulation_text(&r);
        if let Some(b) = &baseline {
            print_baseline_text(b);
        }
        println!("checks: {}", if all_ok { "all passed" } else { "FAILED" });
        println!("notes in {}", r.notes_dir);
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Parses and checks the protocol arguments of `pool simulate` into its configuration.
fn simulate_config(a: &SimulateArgs) -> anyhow::Result<SimulateConfig> {
    let family: HashFamily = a
        .hash
        .parse()
        .map_err(|e| anyhow::anyhow!("--hash {:?}: {e}", a.hash))?;
    let shape =
        PoolShape::new(a.slot_depth, a.era_depth).context("invalid --slot-depth/--era-depth")?;
    if a.max_withdrawals == Some(0) {
        bail!("--max-withdrawals 0: the checks need at least one withdrawal");
    }
    let denomination = wei(&a.denomination_wei, "--denomination-wei")?;
    if denomination.is_zero() {
        bail!("--denomination-wei must be positive");
    }
    let fee = match &a.fee_wei {
        Some(f) => wei(f, "--fee-wei")?,
        None => denomination / U256::from(1000u16),
    };
    let notes_dir = match &a.notes_dir {
        Some(d) => d.clone(),
        None => std::env::temp_dir().join(format!(
            "zkbench-pool-notes-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        )),
    };
    Ok(SimulateConfig {
        deposits: a.deposits,
        shape,
        family,
        denomination,
        fee,
        notes_dir,
        seed: a.seed,
        existing_recipients: a.existing_recipients,
        max_withdrawals: a.max_withdrawals,
        liveness_timeout_s: a.liveness_timeout_s,
    })
}

/// Rejects combinations of `--baseline`, `--rpc` and `--existing-recipients` that cannot run.
fn check_simulate_modes(a: &SimulateArgs) -> anyhow::Result<()> {
    if a.baseline && !(1..=31).contains(&a.baseline_levels) {
        bail!("--baseline-levels {}: not in 1..=31", a.baseline_levels);
    }
    if a.rpc.is_some() && a.baseline {
        bail!("--baseline runs on the embedded EVM only; leave out --rpc or --baseline");
    }
    if a.rpc.is_some() && a.existing_recipients {
        bail!("on a node, recipients are fresh addresses (they cannot be funded); leave out --rpc or --existing-recipients");
    }
    Ok(())
}

/// Runs the pool protocol on the node of `--rpc`, or on the embedded EVM.
fn run_simulation(
    a: &SimulateArgs,
    cfg: &SimulateConfig,
) -> anyhow::Result<zkbench_pool::SimulationReport> {
    Ok(match &a.rpc {
        Some(url) => {
            let mut chain = RpcChain::connect(url)?;
            zkbench_evm::Solc::locate()?;
            let provers = PoolProvers::setup(cfg.shape, cfg.family, TEST_SETUP_SEED)?;
            simulate_on(&mut chain, cfg, &provers)?
        }
        None => simulate(cfg)?,
    })
}

/// Runs the Tornado Cash baseline when `--baseline` is given.
fn run_baseline(
    a: &SimulateArgs,
    cfg: &SimulateConfig,
) -> anyhow::Result<Option<zkbench_pool::tornado::TornadoReport>> {
    if !a.baseline {
        return Ok(None);
    }
    let prover = TornadoProver::setup(a.baseline_levels, TORNADO_SETUP_SEED)?;
    Ok(Some(simulate_tornado(
        &TornadoConfig {
            deposits: cfg.deposits,
            denomination: cfg.denomination,
            fee: cfg.fee,
            max_withdrawals: cfg.max_withdrawals,
            seed: cfg.seed,
        },
        &prover,
    )?))
}

/// Prints the simulation report as JSON, with the baseline's under "baseline".
fn print_simulation_json(
    r: &zkbench_pool::SimulationReport,
    baseline: Option<&zkbench_pool::tornado::TornadoReport>,
) -> anyhow::Result<()> {
    let mut v = serde_json::to_value(r)?;
    if let (Some(b), Some(o)) = (baseline, v.as_object_mut()) {
        o.insert("baseline".into(), serde_json::to_value(b)?);
    }
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}

/// Prints the pool's simulation report as text (shape, counts, gas, proofs, answers).
fn print_simulation_text(r: &zkbench_pool::SimulationReport) {
    println!(
        "pool {} on {} · {} · slot depth {} (batch {}) · era depth {} · test-setup keys",
        r.pool_address, r.chain, r.hash, r.slot_depth, r.batch_size, r.era_depth
    );
    println!(
        "{} deposits, {} batches, {} withdrawals, {} blocklisted (refunded), {} pending; liveness: {} more deposits, {} reclaimed after {} s",
        r.deposits,
        r.batches,
        r.withdrawals,
        r.blocklisted,
        r.pending_deposits,
        r.liveness_deposits,
        r.reclaimed,
        r.liveness_timeout_s
    );
    println!(
        "gas (median): deposit {} · commit {} · withdraw {} · per tx amortized {}",
        r.gas.deposit, r.gas.commit, r.gas.withdraw, r.gas.per_tx_amortized
    );
    println!(
        "proofs: batch {:.3} s ({} constraints) · withdraw {:.3} s ({} constraints)",
        r.provers.batch_prove_s,
        r.provers.batch_constraints,
        r.provers.withdraw_prove_s,
        r.provers.withdraw_constraints
    );
    for (k, v) in &r.answers {
        println!("  {k}: {v}");
    }
}

/// Prints the Tornado Cash baseline's report as text.
fn print_baseline_text(b: &zkbench_pool::tornado::TornadoReport) {
    println!(
        "baseline {} (tree depth {}): deposit {} · withdraw {} · per tx {} · one MiMCSponge call {} · withdraw proof {:.3} s ({} constraints)",
        b.design,
        b.levels,
        b.gas.deposit,
        b.gas.withdraw,
        b.gas.per_tx,
        b.gas.mimc_sponge_call,
        b.withdraw_prove_s,
        b.withdraw_constraints
    );
    for (k, v) in &b.answers {
        println!("  baseline {k}: {v}");
    }
}
