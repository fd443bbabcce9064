//! Private-pool cases (`kind = "pool"`, suite `pool`): figure 10 of the
//! hash-benchmark paper (Guo et al.)
//! (prove time of the batch and withdraw circuits, gas per transaction,
//! against slot and era depth) and its table 2's Tornado Cash baseline, on
//! the embedded EVM (revm) with zkbench-pool.
//!
//! | `system` | what runs |
//! |---|---|
//! | `zkbench` | this design (`contracts/Pool.sol`, docs/pool.md): `2·2^slot` deposits, two sequencer batches, a few withdrawals, every attack of `zkbench pool simulate` tried |
//! | `tornado` | the classic design (`contracts/tornado/`): deposits insert into an on-chain MiMCSponge tree, a withdrawal proves membership in it |
//!
//! Records of a `zkbench` case (one per phase):
//!
//! * `setup`: the test setups of both circuits (one sample); metrics
//!   `constraints_batch`, `constraints_withdraw`;
//! * `simulate`: the protocol end to end (one sample, wall time); metrics
//!   `gas_deposit` (median), `gas_commit` (the last batch's: no blocklisted
//!   deposit in it, slot counter already written, i.e. the steady state),
//!   `gas_commit_first` (the first batch's, with the blocklisted deposit's
//!   escrow credit), `gas_withdraw` (median, to a fresh address with a 0.1%
//!   relayer fee), `gas_per_tx` (`deposit + commit / batch + withdraw`),
//!   `batch_size`, `slot_depth`, `era_depth`, `constraints_batch`,
//!   `constraints_withdraw`, `deposits`, `withdrawals`; a failed check makes
//!   the record an error;
//! * `prove_batch`, `prove_withdraw`: proof times sampled by the profile with
//!   the case's keys (witness generation included, as in the simulation);
//!   metric `constraints`.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_evm::{Address, U256};
use zkbench_hash::{Fr, HashFamily};
use zkbench_pool::{
    contracts::{PoolProvers, TEST_SETUP_SEED},
    simulate_with,
    tornado::{simulate_tornado, TornadoConfig, TornadoProver, TORNADO_SETUP_SEED},
    wallet::Note,
    SimulateConfig, SimulationReport,
};
use zkbench_statement::pool::PoolShape;

use crate::{
    backend::Backend,
    case::{Case, CaseKind},
    measure,
    results::{Record, Status},
    suite::{Profile, POOL_SYSTEMS},
    sys::Environment,
};

/// The backend's name (not a proof system).
pub const BACKEND_NAME: &str = "pool";

/// Denomination of the benchmark pools: 0.1 ether (Tornado's smallest ETH pool).
pub const DENOMINATION_WEI: u64 = 100_000_000_000_000_000;

/// Withdrawals per simulation (gas medians; every withdrawal of a design
/// costs the same up to calldata zero bytes).
pub const WITHDRAWALS: usize = 3;

/// The private pool on the embedded EVM.
pub struct PoolBench;

impl Backend for PoolBench {
    fn name(&self) -> &'static str {
        BACKEND_NAME
    }

    fn description(&self) -> &'static str {
        "private pool (pool cases): zkbench's pool design and the Tornado Cash baseline end to end in revm: prove times of the batch and withdraw circuits, gas of deposit, commit and withdraw"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Pool && POOL_SYSTEMS.contains(&case.system.as_str())
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        let measured = match case.system.as_str() {
            "tornado" => measure_tornado(case, profile, env),
            _ => measure_design(case, profile, env),
        };
        measured.unwrap_or_else(|e| vec![Record::failed(case, "all", Status::Error, e, env)])
    }
}

/// The simulation's configuration for a benchmark of `shape`: two full
/// batches, [`WITHDRAWALS`] withdrawals to fresh addresses with a 0.1% fee.
pub fn bench_config(shape: PoolShape, family: HashFamily) -> SimulateConfig {
    let denomination = U256::from(DENOMINATION_WEI);
    SimulateConfig {
        deposits: 2 * shape.batch_size(),
        shape,
        family,
        denomination,
        fee: denomination / U256::from(1000u16),
        notes_dir: std::env::temp_dir().join(format!(
            "zkbench-pool-bench-{}-s{}-e{}",
            std::process::id(),
            shape.slot_depth,
            shape.era_depth
        )),
        seed: 1,
        existing_recipients: false,
        max_withdrawals: Some(WITHDRAWALS),
        liveness_timeout_s: zkbench_pool::contracts::DEFAULT_LIVENESS_TIMEOUT_S,
    }
}

/// The checks of a simulation that failed (empty: all passed).
pub fn failed_checks(r: &SimulationReport) -> Vec<&'static str> {
    let c = &r.checks;
    [
        ("double_spend_rejected", c.double_spend_rejected),
        ("blocklisted_excluded", c.blocklisted_excluded),
        ("wrong_root_rejected", c.wrong_root_rejected),
        ("forged_proof_rejected", c.forged_proof_rejected),
        ("balance_conserved", c.balance_conserved),
        ("front_running_rejected", c.front_running_rejected),
        (
            "fee_above_denomination_rejected",
            c.fee_above_denomination_rejected,
        ),
        (
            "undeposited_commitment_rejected",
            c.undeposited_commitment_rejected,
        ),
        ("stalled_deposit_reclaimed", c.stalled_deposit_reclaimed),
    ]
    .into_iter()
    .filter(|(_, ok)| !ok)
    .map(|(n, _)| n)
    .collect()
}

fn record(
    case: &Case,
    phase: &str,
    s: measure::PhaseSamples,
    env: &Environment,
    metrics: &[(&str, f64)],
) -> Record {
    let mut r = Record::new(case, phase, 0, env);
    r.set_samples(s.wall, s.cpu);
    r.peak_rss_bytes = s.peak_rss;
    r.test_setup = true;
    for (k, v) in metrics {
        r.metrics.insert((*k).into(), *v);
    }
    r
}

/// Samples `prove` under the profile as the record `phase` of the case,
/// with metrics `constraints` and `public_inputs`.
fn sampled_proof<E: std::fmt::Display>(
    (case, profile, env): (&Case, &Profile, &Environment),
    phase: &str,
    constraints: f64,
    public_inputs: usize,
    prove: impl FnMut() -> Result<(), E>,
) -> Result<Record, String> {
    let s = measure::sample(profile, prove).map_err(|e| format!("{phase}: {e}"))?;
    Ok(record(
        case,
        phase,
        s,
        env,
        &[
            ("constraints", constraints),
            ("public_inputs", public_inputs as f64),
        ],
    ))
}

/// Samples the withdrawal proof `prove(to, relayer)` of a note to the recipient `0xee…ee`
/// with the relayer `0x7e…7e` as the record `prove_withdraw` ([`sampled_proof`]; a
/// withdrawal has 3 public inputs), for this design and the Tornado baseline alike.
fn sampled_withdrawal<E: std::fmt::Display>(
    ctx: (&Case, &Profile, &Environment),
    constraints: f64,
    mut prove: impl FnMut(Address, Address) -> Result<(), E>,
) -> Result<Record, String> {
    let (to, relayer) = (Address::repeat_byte(0xee), Address::repeat_byte(0x7e));
    sampled_proof(ctx, "prove_withdraw", constraints, 3, || prove(to, relayer))
}

/// Measures a case of this design: setup, one simulation, and the batch and withdrawal proofs.
fn measure_design(
    case: &Case,
    profile: &Profile,
    env: &Environment,
) -> Result<Vec<Record>, String> {
    let (slot, era) = case.pool_depths().ok_or_else(|| {
        format!(
            "pool case {} has no slot depth (depth) and capacity (leaves = 2^(slot + era))",
            case.id()
        )
    })?;
    let family: HashFamily = case.hash.parse().map_err(|e| format!("{e}"))?;
    let shape = PoolShape::new(slot, era).map_err(|e| e.to_string())?;
    // the compiler first: a missing solc-js fails fast, not after the setup
    zkbench_evm::Solc::locate().map_err(|e| e.to_string())?;
    let (provers, setup) = measure::once(|| PoolProvers::setup(shape, family, TEST_SETUP_SEED))
        .map_err(|e| format!("setup: {e}"))?;
    let cb = provers.batch_keys.matrices.num_constraints as f64;
    let cw = provers.spend_keys.matrices.num_constraints as f64;
    let mut out = vec![record(
        case,
        "setup",
        setup,
        env,
        &[("constraints_batch", cb), ("constraints_withdraw", cw)],
    )];

    let cfg = bench_config(shape, family);
    let (r, b) = simulate_design(case, env, &cfg, &provers, (slot, era), (cb, cw))?;
    out.push(r);
    out.extend(sampled_design_proofs(
        (case, profile, env),
        &cfg,
        &provers,
        shape,
        b,
        (cb, cw),
    )?);
    Ok(out)
}

/// Times one run of the whole protocol as the record `simulate` (gas, sizes, constraint
/// counts; an error status when a check failed); also returns the batch size.
fn simulate_design(
    case: &Case,
    env: &Environment,
    cfg: &SimulateConfig,
    provers: &PoolProvers,
    (slot, era): (u32, u32),
    (cb, cw): (f64, f64),
) -> Result<(Record, u64), String> {
    let sim = measure::once(|| simulate_with(cfg, provers));
    let _ = std::fs::remove_dir_all(&cfg.notes_dir);
    let (rep, sim) = sim.map_err(|e| format!("simulation: {e}"))?;
    let b = rep.batch_size as u64;
    let commit = rep.gas.commits.last().copied().unwrap_or(rep.gas.commit);
    let per_tx = rep.gas.deposit + (commit + b / 2) / b + rep.gas.withdraw;
    let mut r = record(
        case,
        "simulate",
        sim,
        env,
        &[
            ("gas_deposit", rep.gas.deposit as f64),
            ("gas_commit", commit as f64),
            (
                "gas_commit_first",
                rep.gas.commits.first().copied().unwrap_or(0) as f64,
            ),
            ("gas_withdraw", rep.gas.withdraw as f64),
            ("gas_per_tx", per_tx as f64),
            ("gas_deploy_pool", rep.gas.deploy_pool as f64),
            ("batch_size", b as f64),
            ("slot_depth", slot as f64),
            ("era_depth", era as f64),
            ("constraints_batch", cb),
            ("constraints_withdraw", cw),
            ("deposits", rep.deposits as f64),
            ("withdrawals", rep.withdrawals as f64),
        ],
    );
    let failed = failed_checks(&rep);
    if !failed.is_empty() {
        r.status = Status::Error;
        r.error = Some(format!("checks failed: {}", failed.join(", ")));
    }
    Ok((r, b))
}

/// Proof times with the case's keys: a batch of `b` notes into the empty era tree
/// (`prove_batch`), and the withdrawal of a note committed in it (`prove_withdraw`).
fn sampled_design_proofs(
    ctx: (&Case, &Profile, &Environment),
    cfg: &SimulateConfig,
    provers: &PoolProvers,
    shape: PoolShape,
    b: u64,
    (cb, cw): (f64, f64),
) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let hashes = provers.hashes().clone();
    let note = Note::random(&mut rng, "revm", cfg.denomination, Address::ZERO);
    let mut leaves: Vec<Fr> = (0..b)
        .map(|_| {
            Note::random(&mut rng, "revm", cfg.denomination, Address::ZERO).commitment(&hashes)
        })
        .collect();
    leaves[0] = note.commitment(&hashes);
    let empty = provers.empty_tree().map_err(|e| e.to_string())?;
    out.push(sampled_proof(
        ctx,
        "prove_batch",
        cb,
        shape.slot_insert_inputs(),
        || provers.prove_batch(&empty, &leaves, &mut rng).map(|_| ()),
    )?);
    let mut tree = empty.clone();
    tree.commit_slot(&leaves).map_err(|e| e.to_string())?;
    out.push(sampled_withdrawal(ctx, cw, |to, relayer| {
        provers
            .prove_withdrawal(&tree, &note, to, relayer, cfg.fee, &mut rng)
            .map(|_| ())
    })?);
    Ok(out)
}

/// Deposits of a Tornado case: past the 30-root ring, so that both the
/// first deposits (fresh root words) and the steady state are measured.
pub const TORNADO_DEPOSITS: usize = 34;

/// Measures a Tornado Cash baseline case: setup, one simulation, and the withdrawal proof.
fn measure_tornado(
    case: &Case,
    profile: &Profile,
    env: &Environment,
) -> Result<Vec<Record>, String> {
    let levels = tornado_levels(case)?;
    zkbench_evm::Solc::locate().map_err(|e| e.to_string())?;
    let (prover, setup) = measure::once(|| TornadoProver::setup(levels, TORNADO_SETUP_SEED))
        .map_err(|e| format!("setup: {e}"))?;
    let cw = prover.keys.matrices.num_constraints as f64;
    let mut out = vec![record(
        case,
        "setup",
        setup,
        env,
        &[("constraints_withdraw", cw)],
    )];
    let denomination = U256::from(DENOMINATION_WEI);
    let cfg = TornadoConfig {
        deposits: TORNADO_DEPOSITS,
        denomination,
        fee: denomination / U256::from(1000u16),
        max_withdrawals: Some(WITHDRAWALS),
        seed: 1,
    };
    out.push(simulate_tornado_case(case, env, &cfg, &prover, levels, cw)?);
    out.push(sampled_tornado_withdrawal(
        (case, profile, env),
        &cfg,
        &prover,
        cw,
    )?);
    Ok(out)
}

/// The tree levels of a Tornado case: `log2(leaves)`, which must be a power of two, of a
/// `mimc-sponge` tree.
fn tornado_levels(case: &Case) -> Result<u32, String> {
    let leaves = case.leaves.ok_or("tornado case without leaves")?;
    if case.hash != "mimc-sponge" || !leaves.is_power_of_two() {
        return Err("the Tornado baseline is a binary mimc-sponge tree of 2^levels leaves".into());
    }
    Ok(leaves.trailing_zeros())
}

/// Times one run of the Tornado protocol as the record `simulate` (gas, sizes, the
/// constraint count `cw`; an error status when a check failed).
fn simulate_tornado_case(
    case: &Case,
    env: &Environment,
    cfg: &TornadoConfig,
    prover: &TornadoProver,
    levels: u32,
    cw: f64,
) -> Result<Record, String> {
    let (rep, sim) =
        measure::once(|| simulate_tornado(cfg, prover)).map_err(|e| format!("simulation: {e}"))?;
    let g = &rep.gas;
    let mut metrics = vec![
        ("gas_deposit", g.deposit as f64),
        ("gas_withdraw", g.withdraw as f64),
        ("gas_per_tx", g.per_tx as f64),
        ("gas_mimc_sponge_call", g.mimc_sponge_call as f64),
        ("gas_deploy_pool", g.deploy_pool as f64),
        ("gas_deploy_hasher", g.deploy_hasher as f64),
        ("levels", levels as f64),
        ("constraints_withdraw", cw),
        ("deposits", rep.deposits as f64),
        ("withdrawals", rep.withdrawals as f64),
    ];
    if let Some(w) = g.deposit_ring_wrapped {
        metrics.push(("gas_deposit_ring_wrapped", w as f64));
    }
    let mut r = record(case, "simulate", sim, env, &metrics);
    if !rep.all_checks_passed() {
        r.status = Status::Error;
        r.error = Some(format!("checks failed: {:?}", rep.checks));
    }
    Ok(r)
}

/// Proof times of a Tornado withdrawal (`prove_withdraw`, `cw` constraints) with the case's
/// keys: a note of `cfg`'s denomination in a tree of a few leaves.
fn sampled_tornado_withdrawal(
    ctx: (&Case, &Profile, &Environment),
    cfg: &TornadoConfig,
    prover: &TornadoProver,
    cw: f64,
) -> Result<Record, String> {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let hashes = prover.hashes().clone();
    let note = Note::random(&mut rng, "revm", cfg.denomination, Address::ZERO);
    let mut tree = prover.empty_tree().map_err(|e| e.to_string())?;
    tree.insert(note.commitment(&hashes))
        .map_err(|e| e.to_string())?;
    sampled_withdrawal(ctx, cw, |to, relayer| {
        prover
            .prove_withdrawal(&tree, &note, to, relayer, cfg.fee, &mut rng)
            .map(|_| ())
    })
}
