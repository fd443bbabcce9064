//! `zkbench pool …`: seed 003's private pool (crates/pool, docs/pool.md).

use std::{path::PathBuf, process::ExitCode};

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use zkbench_evm::U256;
use zkbench_hash::HashFamily;
use zkbench_pool::tornado::{simulate_tornado, TornadoConfig, TornadoProver, TORNADO_SETUP_SEED};
use zkbench_pool::{simulate, SimulateConfig};
use zkbench_statement::pool::PoolShape;

/// `zkbench pool` subcommands.
#[derive(Subcommand, Debug)]
pub enum PoolCmd {
    /// Run the whole protocol (deposits, sequencer batches, withdrawals, attacks) and report gas.
    Simulate(SimulateArgs),
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
    /// Seed of the notes' and proofs' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A JSON-RPC node to run against instead of the embedded EVM (not supported yet).
    #[arg(long)]
    pub rpc: Option<String>,
    /// Also run the Tornado Cash baseline (seed 003's table 2) in the same harness: the
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
    }
}

fn wei(s: &str, what: &str) -> anyhow::Result<U256> {
    U256::from_str_radix(s, 10)
        .map_err(|_| anyhow::anyhow!("{what} {s:?} is not a decimal number of wei"))
}

fn simulate_cmd(a: SimulateArgs) -> anyhow::Result<ExitCode> {
    if let Some(url) = &a.rpc {
        bail!(
            "--rpc {url}: running the pool on a JSON-RPC node is not implemented yet; \
             leave out --rpc to use the embedded EVM (revm)"
        );
    }
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
    let notes_dir = match a.notes_dir {
        Some(d) => d,
        None => std::env::temp_dir().join(format!(
            "zkbench-pool-notes-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        )),
    };
    let cfg = SimulateConfig {
        deposits: a.deposits,
        shape,
        family,
        denomination,
        fee,
        notes_dir,
        seed: a.seed,
        existing_recipients: a.existing_recipients,
        max_withdrawals: a.max_withdrawals,
    };
    if a.baseline && !(1..=31).contains(&a.baseline_levels) {
        bail!("--baseline-levels {}: not in 1..=31", a.baseline_levels);
    }
    let r = simulate(&cfg)?;
    let baseline = if a.baseline {
        let prover = TornadoProver::setup(a.baseline_levels, TORNADO_SETUP_SEED)?;
        Some(simulate_tornado(
            &TornadoConfig {
                deposits: cfg.deposits,
                denomination,
                fee,
                max_withdrawals: cfg.max_withdrawals,
                seed: cfg.seed,
            },
            &prover,
        )?)
    } else {
        None
    };
    let baseline_ok = baseline.as_ref().is_none_or(|b| b.all_checks_passed());
    let all_ok = baseline_ok
        && [
            r.checks.double_spend_rejected,
            r.checks.blocklisted_excluded,
            r.checks.wrong_root_rejected,
            r.checks.forged_proof_rejected,
            r.checks.balance_conserved,
            r.checks.front_running_rejected,
            r.checks.fee_above_denomination_rejected,
            r.checks.undeposited_commitment_rejected,
        ]
        .iter()
        .all(|&x| x);
    if a.json {
        let mut v = serde_json::to_value(&r)?;
        if let (Some(b), Some(o)) = (&baseline, v.as_object_mut()) {
            o.insert("baseline".into(), serde_json::to_value(b)?);
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "pool {} on {} · {} · slot depth {} (batch {}) · era depth {} · test-setup keys",
            r.pool_address, r.chain, r.hash, r.slot_depth, r.batch_size, r.era_depth
        );
        println!(
            "{} deposits, {} batches, {} withdrawals, {} blocklisted (refunded), {} pending",
            r.deposits, r.batches, r.withdrawals, r.blocklisted, r.pending_deposits
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
        if let Some(b) = &baseline {
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
        println!("checks: {}", if all_ok { "all passed" } else { "FAILED" });
        println!("notes in {}", r.notes_dir);
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
