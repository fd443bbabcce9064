//! `zkbench audit`: soundness audits (mutation tests of every circuit) and
//! malformed-proof fuzzing of every verifier.

use std::process::ExitCode;

use clap::Args;
use zkbench_bench::{backend::Backend, backends};
use zkbench_core::{
    fuzz::FuzzReport,
    statement::{CircuitKind, StatementConfig},
    AuditReport,
};
use zkbench_hash::HashFamily;
use zkbench_systems::SystemId;

/// Arguments of `zkbench audit`.
#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Only this proof system (default: every registered one).
    #[arg(long)]
    pub system: Option<String>,
    /// Only this circuit: spend, membership or batch-root.
    #[arg(long)]
    pub circuit: Option<String>,
    /// Only this hash family.
    #[arg(long)]
    pub hash: Option<String>,
    /// Only this arity.
    #[arg(long)]
    pub arity: Option<usize>,
    /// Also feed each backend's verifier this many malformed proofs (on the
    /// first circuit it proves).
    #[arg(long, default_value_t = 0)]
    pub fuzz: u64,
    /// Every arity the suites use (2, 3, 4, 7, 8, 16), not only 2, 4 and 7.
    #[arg(long)]
    pub full: bool,
    /// RNG seed of the witnesses, mutations and malformed proofs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON (one object: audits and fuzz reports) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One audited configuration.
#[derive(serde::Serialize)]
struct Row {
    system: String,
    config: StatementConfig,
    #[serde(skip_serializing_if = "Option::is_none")]
    audit: Option<AuditReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fuzz: Option<FuzzReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The statements audited for `system`: small trees (height 2, batches of
/// `arity` and 4 leaves) of every hash family the backend proves.
fn grid(system: &str, a: &AuditArgs) -> anyhow::Result<Vec<StatementConfig>> {
    // the STARK's AIR: BabyBear Poseidon2 (x^7), arity 2, 4 and 8, spend and membership
    let stark = matches!(
        system.parse(),
        Ok(SystemId::StarkBabyBear | SystemId::StarkBabyBear128)
    );
    let families: Vec<(HashFamily, Option<u64>)> = match system.parse() {
        _ if stark => vec![(HashFamily::Poseidon2, Some(7))],
        // chips exist for these two families only
        Ok(SystemId::Halo2Kzg) => vec![
            (HashFamily::Poseidon2, Some(5)),
            (HashFamily::Poseidon2, Some(7)),
            (HashFamily::Poseidon, None),
        ],
        _ => HashFamily::ALL
            .iter()
            .flat_map(|f| f.alphas().iter().map(move |al| (*f, Some(*al))))
            .collect(),
    };
    let arities: Vec<usize> = match (a.arity, a.full) {
        (Some(x), _) => vec![x],
        (None, true) => vec![2, 3, 4, 7, 8, 16],
        (None, false) => vec![2, 4, 7],
    };
    let circuits: Vec<CircuitKind> = match &a.circuit {
        Some(c) => vec![c.parse()?],
        None => CircuitKind::ALL.to_vec(),
    };
    let want_hash = a
        .hash
        .as_deref()
        .map(str::parse::<HashFamily>)
        .transpose()?;
    let mut out = vec![];
    for (family, alpha) in families {
        if want_hash.is_some_and(|h| h != family) {
            continue;
        }
        for &arity in &arities {
            // families with fewer node arities (poseidon2-gnark: 2 only)
            if family.node_hasher(arity, alpha).is_err() {
                continue;
            }
            for &circuit in &circuits {
                let no_air = zkbench_stark::native::TreeHash::for_arity(arity).is_err();
                if stark && (no_air || circuit == CircuitKind::BatchRoot) {
                    continue;
                }
                let leaves = match circuit {
                    CircuitKind::BatchRoot if arity == 2 => 4,
                    CircuitKind::BatchRoot => arity as u64,
                    _ => (arity * arity) as u64,
                };
                out.push(StatementConfig {
                    family,
                    alpha,
                    arity,
                    leaves,
                    circuit,
                });
            }
        }
    }
    Ok(out)
}

/// `zkbench audit`.
pub fn run(a: AuditArgs) -> anyhow::Result<ExitCode> {
    let registry = backends::all();
    let names = backends::proof_system_names();
    check_system(&a, &names)?;
    let mut rows = vec![];
    for b in registry.iter().filter(|b| names.contains(&b.name())) {
        if a.system.as_deref().is_some_and(|s| s != b.name()) {
            continue;
        }
        let Some(fuzz) = fuzz_budget(&a, b.name()) else {
            continue;
        };
        audit_backend(b.as_ref(), &a, fuzz, &mut rows)?;
    }
    let totals = Totals::of(&rows);
    print_totals(&a, &rows, &totals)?;
    Ok(if totals.unsound == 0 && totals.unclean == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Fails when `--system` names no registered proof system.
fn check_system(a: &AuditArgs, names: &[&str]) -> anyhow::Result<()> {
    if let Some(s) = &a.system {
        if !names.contains(&s.as_str()) {
            anyhow::bail!(
                "unknown proof system {s:?}; available: {}",
                names.join(", ")
            );
        }
    }
    Ok(())
}

/// How many malformed proofs backend `name` gets, or `None` (with a note on stderr)
/// when the all-systems run audits it through another backend.
fn fuzz_budget(a: &AuditArgs, name: &str) -> Option<u64> {
    if a.system.is_none() && name == SystemId::StarkBabyBear128.name() {
        // the same AIR as stark-babybear with other FRI parameters
        eprintln!(
            "{0}: the AIR of {1} (audited here); fuzz its verifier with --system {0}",
            SystemId::StarkBabyBear128,
            SystemId::StarkBabyBear
        );
        return None;
    }
    if a.system.is_none() && name == SystemId::Halo2KzgKeccak.name() {
        // the same circuits and keys as halo2-kzg (the transcript is not part of the
        // circuit): only its verifier differs, fuzzed with --system halo2-kzg-keccak
        eprintln!(
            "{0}: the circuits of {1} (audited here); fuzz its verifier with --system {0}",
            SystemId::Halo2KzgKeccak,
            SystemId::Halo2Kzg
        );
        return None;
    }
    let mut fuzz = a.fuzz; // the first circuit this backend proves gets the fuzzing
    if a.system.is_none() && name == SystemId::StarkBabyBear.name() && fuzz > 0 {
        // a STARK verification opens dozens of Merkle paths (tens of ms a proof):
        // its verifier is fuzzed on its own, with --system
        eprintln!(
            "{0}: verifier not fuzzed in the all-systems run; fuzz it with --system {0} --fuzz N",
            SystemId::StarkBabyBear
        );
        fuzz = 0;
    }
    Some(fuzz)
}

/// Audits every configuration of `b`'s grid, printing (unless `--json`) and collecting the rows.
fn audit_backend(
    b: &dyn Backend,
    a: &AuditArgs,
    mut fuzz: u64,
    rows: &mut Vec<Row>,
) -> anyhow::Result<()> {
    for cfg in grid(b.name(), a)? {
        let Some(result) = b.audit(&cfg, fuzz, a.seed) else {
            continue;
        };
        let mut row = Row {
            system: b.name().into(),
            config: cfg.clone(),
            audit: None,
            fuzz: None,
            error: None,
        };
        match result {
            Ok((audit, fuzzed)) => {
                row.audit = Some(audit);
                row.fuzz = fuzzed;
                fuzz = 0;
            }
            // a family without a gadget at this arity is skipped, not a failure
            Err(e) => row.error = Some(e),
        }
        if !a.json {
            print_row(&row);
        }
        rows.push(row);
    }
    Ok(())
}

/// The totals over the audited rows.
struct Totals {
    /// Circuits audited.
    audited: usize,
    /// Audited circuits with findings.
    unsound: usize,
    /// Verifiers whose fuzzing found something.
    unclean: usize,
    /// Mutations tried.
    mutations: usize,
    /// Mutations killed.
    killed: usize,
    /// Malformed proofs tried.
    fuzzed: u64,
}

impl Totals {
    /// Sums the rows that were audited.
    fn of(rows: &[Row]) -> Totals {
        let audited: Vec<&Row> = rows.iter().filter(|r| r.audit.is_some()).collect();
        let unsound = audited
            .iter()
            .filter(|r| !r.audit.as_ref().is_some_and(AuditReport::is_sound))
            .count();
        let unclean = audited
            .iter()
            .filter(|r| r.fuzz.as_ref().is_some_and(|f| !f.is_clean()))
            .count();
        let mutations: usize = audited
            .iter()
            .map(|r| r.audit.as_ref().map_or(0, |x| x.mutations))
            .sum();
        let killed: usize = audited
            .iter()
            .map(|r| r.audit.as_ref().map_or(0, |x| x.killed))
            .sum();
        let fuzzed: u64 = audited
            .iter()
            .map(|r| r.fuzz.as_ref().map_or(0, |f| f.tried))
            .sum();
        Totals {
            audited: audited.len(),
            unsound,
            unclean,
            mutations,
            killed,
            fuzzed,
        }
    }
}

/// Prints the totals: one JSON object with every row under `--json`, else a summary line.
fn print_totals(a: &AuditArgs, rows: &[Row], t: &Totals) -> anyhow::Result<()> {
    let Totals {
        audited,
        unsound,
        unclean,
        mutations,
        killed,
        fuzzed,
    } = *t;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "circuits": audited,
                "mutations": mutations,
                "killed": killed,
                "malformed_proofs": fuzzed,
                "unsound_circuits": unsound,
                "verifiers_with_findings": unclean,
                "rows": rows,
            }))?
        );
    } else {
        println!(
            "\n{audited} circuits audited: {killed}/{mutations} mutations killed, {unsound} with findings; \
             {fuzzed} malformed proofs, {unclean} verifier(s) with findings; {} configurations not provable by their backend",
            rows.len() - audited
        );
    }
    Ok(())
}

fn print_row(r: &Row) {
    let c = &r.config;
    // the exponent only where the family has several (poseidon2-a5 / -a7)
    let hash = match c.alpha {
        Some(a) if c.family.alphas().len() > 1 => format!("{}-a{a}", c.family.name()),
        _ => c.family.name().to_string(),
    };
    let name = format!(
        "{:<9} {:<10} {hash:<15} arity {:<2} leaves {:<4}",
        r.system,
        c.circuit.name(),
        c.arity,
        c.leaves
    );
    let Some(a) = &r.audit else {
        println!("{name}  skipped: {}", r.error.as_deref().unwrap_or("-"));
        return;
    };
    let mut line = format!(
        "{name}  {:>5} targets {:>5}/{:<5} killed ({:.1}%)",
        a.targets,
        a.killed,
        a.mutations,
        a.killed_percent()
    );
    if let Some(f) = &r.fuzz {
        line += &format!(
            "  fuzz {} rejected {} accepted {} panics {}",
            f.tried,
            f.rejected_decode + f.rejected_verify,
            f.accepted.len(),
            f.panics
        );
    }
    println!("{line}");
    for s in &a.survivors {
        println!(
            "    SURVIVOR {} ({}): {}",
            s.location,
            s.mutation,
            s.justification.as_deref().unwrap_or("UNEXPLAINED")
        );
    }
    for u in &a.unconstrained {
        println!("    UNCONSTRAINED {u}");
    }
    if let Some(f) = &r.fuzz {
        for acc in &f.accepted {
            println!("    ACCEPTED MALFORMED {acc}");
        }
    }
}
