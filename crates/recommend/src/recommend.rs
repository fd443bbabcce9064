//! Candidates, the budgets each breaks, the ranking and the Pareto front.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use zkbench_report::pareto::{front, has_evm_verifier, verify_gas};
use zkbench_results::{
    security::{configuration_bits, Level},
    Case, Circuit, Record, ResultsFile,
};

use crate::{
    budget::{Budget, Objective, Target},
    model::{fits, scale, statements, Facts, Fit, FitKey, Prediction, Scaled, Statement},
};

/// Where a candidate's prove time comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "source")]
pub enum ProveTime {
    /// Measured on this target and thread count (median of the files' medians).
    Measured {
        /// Milliseconds.
        prove_ms: f64,
        /// How many samples it is the median of.
        samples: usize,
    },
    /// The configuration's own measurement at another thread count or
    /// target, scaled by the proof system's measured ratio between the two.
    Scaled(Scaled),
    /// Predicted by a size fit (the statement was measured nowhere on this target).
    Predicted(Prediction),
    /// Neither measured nor predictable.
    Unknown {
        /// Why.
        why: String,
    },
}

impl ProveTime {
    /// The time, ms, when known.
    pub fn ms(&self) -> Option<f64> {
        match self {
            Self::Measured { prove_ms, .. } => Some(*prove_ms),
            Self::Scaled(s) => Some(s.prove_ms),
            Self::Predicted(p) => Some(p.prove_ms),
            Self::Unknown { .. } => None,
        }
    }

    /// Where it comes from, in words: `measured`, `scaled from 1 threads`, `fitted`
    /// (`fitted, EXTRAPOLATED`), `unknown`.
    pub fn source(&self) -> String {
        match self {
            Self::Measured { .. } => "measured".into(),
            Self::Scaled(s) if s.scaling.from_target != s.scaling.to_target => format!(
                "scaled from {} {} threads",
                s.scaling.from_target, s.scaling.from_threads
            ),
            Self::Scaled(s) => format!("scaled from {} threads", s.scaling.from_threads),
            Self::Predicted(p) if p.extrapolates => "fitted, EXTRAPOLATED".into(),
            Self::Predicted(_) => "fitted".into(),
            Self::Unknown { .. } => "unknown".into(),
        }
    }
}

/// One configuration: a statement on the budget's target at a thread count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The case that measures it (`zkbench run` of this case checks the prediction).
    pub case: Case,
    /// The statement (`groth16/griffin/spend/arity7/2^36`).
    pub statement: String,
    /// Proof system.
    pub system: String,
    /// Hash (with its exponent when one was chosen).
    pub hash: String,
    /// Threads.
    pub threads: usize,
    /// Target.
    pub target: Target,
    /// Warm prove time.
    pub prove: ProveTime,
    /// Proof size, bytes.
    pub proof_bytes: Option<f64>,
    /// Verify transaction gas.
    pub verify_gas: Option<f64>,
    /// The `evm` case the gas was read from.
    pub gas_from: Option<String>,
    /// Tree capacity.
    pub leaves: Option<u64>,
    /// Circuit.
    pub circuit: Option<Circuit>,
    /// Security level ([`configuration_bits`]).
    pub security: Level,
    /// Whether it is on the Pareto front of the eligible configurations.
    pub pareto: bool,
}

/// A budget a configuration breaks, or a value it needs that is unknown.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "budget")]
pub enum Breach {
    /// Slower than `--max-prove-ms`.
    ProveTime {
        /// ms.
        prove_ms: f64,
        /// The budget.
        max: f64,
    },
    /// No prove time on this target and thread count.
    ProveUnknown {
        /// Why.
        why: String,
    },
    /// Larger than `--max-proof-bytes`.
    ProofBytes {
        /// Bytes.
        bytes: f64,
        /// The budget.
        max: u64,
    },
    /// More than `--max-verify-gas`.
    VerifyGas {
        /// Gas.
        gas: f64,
        /// The budget.
        max: u64,
    },
    /// Gas needed (budget or objective) but no `evm` record gives it.
    GasUnknown {
        /// Whether the proof system has an EVM verifier at all (if so,
        /// `zkbench run evm` measures its gas).
        evm_verifier: bool,
    },
    /// Proof size needed but unknown.
    SizeUnknown,
    /// Fewer leaves than `--min-leaves`.
    Leaves {
        /// Leaves.
        leaves: u64,
        /// The budget.
        min: u64,
    },
    /// Below `--min-security` (or unknown).
    Security {
        /// Bits, when known.
        bits: Option<u32>,
        /// The budget.
        min: u32,
        /// The weakest part.
        limited_by: String,
    },
    /// Another circuit than `--circuit`.
    Circuit {
        /// This configuration's.
        circuit: Option<Circuit>,
    },
}

/// A configuration left out, with every budget it breaks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Excluded {
    /// The configuration.
    pub candidate: Candidate,
    /// Why.
    pub breaks: Vec<Breach>,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recommendation {
    /// The budget asked.
    pub budget: Budget,
    /// Configurations meeting every budget, best first.
    pub ranked: Vec<Candidate>,
    /// Every other configuration, with the budgets it breaks.
    pub excluded: Vec<Excluded>,
    /// The cost models used for predictions.
    pub fits: Vec<Fit>,
    /// How many records were read, from how many files.
    pub records: usize,
    /// Files read.
    pub files: usize,
}

fn candidate(
    stmts: &BTreeMap<Statement, Facts>,
    (s, f): (&Statement, &Facts),
    all: &[&Record],
    to: (Target, usize),
    models: &BTreeMap<FitKey, Fit>,
) -> Candidate {
    let c = &s.case;
    let (target, threads) = to;
    let prove = if let Some(&ms) = f.prove_ms.get(&to) {
        ProveTime::Measured {
            prove_ms: ms,
            samples: f.samples.get(&to).copied().unwrap_or(0),
        }
    } else if let Some(sc) = scale(stmts, s, f, to) {
        ProveTime::Scaled(sc)
    } else {
        match (f.size, models.get(&(c.system.clone(), target, threads))) {
            (Some(size), Some(m)) => ProveTime::Predicted(m.predict(size, &c.hash_label())),
            (None, _) => ProveTime::Unknown {
                why: "no circuit size to predict from".into(),
            },
            (_, None) => ProveTime::Unknown {
                why: format!(
                    "no {target} measurement of {} on {threads} threads",
                    c.system
                ),
            },
        }
    };
    let gas = verify_gas(all, c);
    Candidate {
        case: Case {
            threads,
            ..c.clone()
        },
        statement: s.label(),
        system: c.system.clone(),
        hash: c.hash_label(),
        threads,
        target,
        prove,
        proof_bytes: f.proof_bytes,
        verify_gas: gas.as_ref().map(|g| g.gas),
        gas_from: gas.map(|g| g.from),
        leaves: c.leaves,
        circuit: c.circuit,
        security: configuration_bits(&c.system, &c.hash),
        pareto: false,
    }
}

/// Every budget `c` breaks under `b`.
pub fn breaches(c: &Candidate, b: &Budget) -> Vec<Breach> {
    let mut out = vec![];
    if b.circuit.is_some() && c.circuit != b.circuit {
        out.push(Breach::Circuit { circuit: c.circuit });
    }
    match (&c.prove, b.max_prove_ms) {
        (ProveTime::Unknown { why }, _) => out.push(Breach::ProveUnknown { why: why.clone() }),
        (p, Some(max)) if p.ms().is_some_and(|ms| ms > max) => out.push(Breach::ProveTime {
            prove_ms: p.ms().unwrap_or_default(),
            max,
        }),
        _ => {}
    }
    let gas_needed = b.max_verify_gas.is_some() || b.optimize == Objective::Gas;
    match (c.verify_gas, b.max_verify_gas) {
        (None, _) if gas_needed => out.push(Breach::GasUnknown {
            evm_verifier: has_evm_verifier(&c.system),
        }),
        (Some(gas), Some(max)) if gas > max as f64 => out.push(Breach::VerifyGas { gas, max }),
        _ => {}
    }
    let size_needed = b.max_proof_bytes.is_some() || b.optimize == Objective::Size;
    match (c.proof_bytes, b.max_proof_bytes) {
        (None, _) if size_needed => out.push(Breach::SizeUnknown),
        (Some(bytes), Some(max)) if bytes > max as f64 => {
            out.push(Breach::ProofBytes { bytes, max })
        }
        _ => {}
    }
    if let Some(min) = b.min_leaves {
        let leaves = c.leaves.unwrap_or(0);
        if leaves < min {
            out.push(Breach::Leaves { leaves, min });
        }
    }
    if let Some(min) = b.min_security {
        if c.security.bits.is_none_or(|bits| bits < min) {
            out.push(Breach::Security {
                bits: c.security.bits,
                min,
                limited_by: c.security.limited_by.clone(),
            });
        }
    }
    out
}

/// The objective's value (smaller is better) and the tie-breaks after it.
fn key(c: &Candidate, o: Objective) -> [f64; 3] {
    let p = c.prove.ms().unwrap_or(f64::INFINITY);
    let g = c.verify_gas.unwrap_or(f64::INFINITY);
    let s = c.proof_bytes.unwrap_or(f64::INFINITY);
    match o {
        Objective::Prove => [p, g, s],
        Objective::Gas => [g, p, s],
        Objective::Size => [s, p, g],
    }
}

/// Recommends configurations for `budget` from `files`.
pub fn recommend(files: &[ResultsFile], budget: &Budget) -> Result<Recommendation, String> {
    budget.check()?;
    let all: Vec<&Record> = files.iter().flat_map(|f| &f.records).collect();
    let stmts = statements(&all);
    if stmts.is_empty() {
        return Err(format!(
            "the results ({} records in {} files) hold no successful spend or membership proof; \
             measure some with `zkbench recommend --quick` or `zkbench run`",
            all.len(),
            files.len()
        ));
    }
    let models = fits(&stmts);
    let threads = thread_counts(&stmts, budget)?;
    let (mut ranked, excluded) = split_candidates(&stmts, &all, budget, &threads, &models);
    rank(&mut ranked, budget.optimize);
    let fits = used_fits(models, &ranked, &excluded);
    Ok(Recommendation {
        fits,
        budget: budget.clone(),
        ranked,
        excluded,
        records: all.len(),
        files: files.len(),
    })
}

/// The thread counts to consider: the budget's, else every one measured on
/// its target (an error when there is none).
fn thread_counts(
    stmts: &BTreeMap<Statement, Facts>,
    budget: &Budget,
) -> Result<BTreeSet<usize>, String> {
    let threads: BTreeSet<usize> = match budget.threads {
        Some(t) => [t].into(),
        None => stmts
            .values()
            .flat_map(|f| f.prove_ms.keys())
            .filter(|(t, _)| *t == budget.target)
            .map(|(_, th)| *th)
            .collect(),
    };
    if threads.is_empty() {
        return Err(format!(
            "the results hold no {} prove times; run `zkbench run browser` for browser ones, or pass --target native",
            budget.target
        ));
    }
    Ok(threads)
}

/// Every statement at every thread count as a candidate, sorted into those
/// that meet `budget` (unranked) and those excluded with the budgets they
/// break, each in statement then thread order.
fn split_candidates(
    stmts: &BTreeMap<Statement, Facts>,
    all: &[&Record],
    budget: &Budget,
    threads: &BTreeSet<usize>,
    models: &BTreeMap<FitKey, Fit>,
) -> (Vec<Candidate>, Vec<Excluded>) {
    let (mut ranked, mut excluded) = (vec![], vec![]);
    for (s, f) in stmts {
        for &t in threads {
            let c = candidate(stmts, (s, f), all, (budget.target, t), models);
            let breaks = breaches(&c, budget);
            if breaks.is_empty() {
                ranked.push(c);
            } else {
                excluded.push(Excluded {
                    candidate: c,
                    breaks,
                });
            }
        }
    }
    (ranked, excluded)
}

/// Ranks `ranked` by `optimize` (then the tie-breaks of [`key`]; a stable
/// sort) and marks the Pareto front of prove time, gas and proof size.
fn rank(ranked: &mut [Candidate], optimize: Objective) {
    ranked.sort_by(|a, b| {
        let (ka, kb) = (key(a, optimize), key(b, optimize));
        ka.partial_cmp(&kb).unwrap_or(std::cmp::Ordering::Equal)
    });
    // with no gas known at all, the front is of prove time and proof size
    let no_gas = ranked.iter().all(|c| c.verify_gas.is_none());
    let points: Vec<[f64; 3]> = ranked
        .iter()
        .map(|c| {
            let [p, g, s] = key(c, Objective::Prove);
            [p, if no_gas { 0.0 } else { g }, s]
        })
        .collect();
    let on = front(&points);
    for (c, f) in ranked.iter_mut().zip(on) {
        c.pareto = f;
    }
}

/// The fits that some prediction of `ranked` or `excluded` used.
fn used_fits(
    models: BTreeMap<FitKey, Fit>,
    ranked: &[Candidate],
    excluded: &[Excluded],
) -> Vec<Fit> {
    let used: BTreeSet<FitKey> = ranked
        .iter()
        .chain(excluded.iter().map(|e| &e.candidate))
        .filter_map(|c| match &c.prove {
            ProveTime::Predicted(p) => Some((p.fit.system.clone(), p.fit.target, p.fit.threads)),
            _ => None,
        })
        .collect();
    models
        .into_iter()
        .filter(|(k, _)| used.contains(k))
        .map(|(_, f)| f)
        .collect()
}
