//! The configurations measured in results files, and the cost model.
//!
//! A configuration is a statement (proof system, hash, arity, leaves,
//! circuit) proved on a target (native or browser) with a thread count.
//! Its circuit size, proof size and verify gas do not depend on the target
//! or threads, so one measurement of a statement gives them for all; its
//! prove time does. The model predicts the prove time of a statement on a
//! (system, target, threads) where it was not run, by ordinary least squares
//! of the measured prove times of that system, target and thread count
//! against circuit size (`y = a + b·x`; Groth16's prover is a handful of
//! MSMs and FFTs linear in the constraints up to the log factor of
//! Pippenger's method, Groth, EUROCRYPT 2016). Circuit size is `constraints`
//! (R1CS) or, for Halo2, `2^k · advice columns` (the cells the prover commits to).

use std::collections::BTreeMap;

use serde::Serialize;
use zkbench_report::report::BROWSER_PREFIX;
use zkbench_results::{
    case::{Case, CaseKind, Circuit},
    stats::median,
    Record, Status,
};

use crate::budget::Target;

/// A statement: what is proved, whatever the target and threads.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Statement {
    /// The proof case with `threads` 0.
    pub case: Case,
}

impl Statement {
    /// The statement of a proof record.
    pub fn of(case: &Case) -> Self {
        Self {
            case: Case {
                threads: 0,
                ..case.clone()
            },
        }
    }

    /// The case id without its threads part (`groth16/griffin/spend/arity7/2^36`).
    pub fn label(&self) -> String {
        let id = self.case.id();
        id.rsplit_once('/')
            .map_or(id.clone(), |(s, _)| s.to_string())
    }
}

/// What one statement's records say, whatever the threads.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Facts {
    /// Circuit size ([`size_of`]).
    pub size: Option<f64>,
    /// Proof size, bytes.
    pub proof_bytes: Option<f64>,
    /// Warm prove time (median of the files' medians), ms, per (target, threads).
    pub prove_ms: BTreeMap<(Target, usize), f64>,
}

/// The circuit size of a proof record: `constraints`, or `2^k · advice_columns`.
pub fn size_of(r: &Record) -> Option<f64> {
    let m = &r.metrics;
    m.get("constraints").copied().or_else(|| {
        let k = *m.get("k")?;
        Some(2f64.powf(k) * m.get("advice_columns")?)
    })
}

/// The target a record was measured on.
pub fn target_of(r: &Record) -> Target {
    if r.case_id.starts_with(BROWSER_PREFIX) {
        Target::Browser
    } else {
        Target::Native
    }
}

/// Every spend or membership statement with an ok `prove` record, with its facts.
pub fn statements(recs: &[&Record]) -> BTreeMap<Statement, Facts> {
    let mut times: BTreeMap<Statement, BTreeMap<(Target, usize), Vec<f64>>> = BTreeMap::new();
    let mut out: BTreeMap<Statement, Facts> = BTreeMap::new();
    for r in recs.iter().filter(|r| {
        r.case.kind == CaseKind::Proof
            && r.phase == "prove"
            && r.status == Status::Ok
            && matches!(r.case.circuit, Some(Circuit::Spend | Circuit::Membership))
    }) {
        let Some(ms) = r.median().map(|s| s * 1e3) else {
            continue;
        };
        let s = Statement::of(&r.case);
        let f = out.entry(s.clone()).or_default();
        f.size = f.size.or(size_of(r));
        f.proof_bytes = f.proof_bytes.or(r.metrics.get("proof_bytes").copied());
        let t = times.entry(s).or_default();
        t.entry((target_of(r), r.threads)).or_default().push(ms);
    }
    for (s, t) in times {
        let f = out.get_mut(&s).expect("every timed statement has facts");
        f.prove_ms = t
            .into_iter()
            .filter_map(|(k, v)| Some((k, median(&v)?)))
            .collect();
    }
    out
}

/// How a fit was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FitKind {
    /// Least squares `y = a + b·x` over two or more circuit sizes.
    Linear,
    /// One circuit size only: `y = (ȳ / x̄)·x`, proportional.
    Proportional,
}

/// One measured point of a fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The statement.
    pub statement: String,
    /// Circuit size.
    pub size: f64,
    /// Measured prove time, ms.
    pub prove_ms: f64,
}

/// The cost model of one proof system on one target and thread count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// Proof system.
    pub system: String,
    /// Target.
    pub target: Target,
    /// Threads.
    pub threads: usize,
    /// How it was fitted.
    pub kind: FitKind,
    /// Intercept, ms.
    pub a: f64,
    /// Slope, ms per unit of size.
    pub b: f64,
    /// Coefficient of determination on the points (1 for a proportional fit of one size).
    pub r2: f64,
    /// The measured points it rests on.
    pub points: Vec<Point>,
}

impl Fit {
    /// Least squares on `points` (at least one).
    pub fn new(system: &str, target: Target, threads: usize, points: Vec<Point>) -> Option<Self> {
        let n = points.len() as f64;
        if points.is_empty() {
            return None;
        }
        let xm = points.iter().map(|p| p.size).sum::<f64>() / n;
        let ym = points.iter().map(|p| p.prove_ms).sum::<f64>() / n;
        let sxx: f64 = points.iter().map(|p| (p.size - xm).powi(2)).sum();
        let sxy: f64 = points
            .iter()
            .map(|p| (p.size - xm) * (p.prove_ms - ym))
            .sum();
        let (kind, a, b) = if sxx > 0.0 {
            (FitKind::Linear, ym - sxy / sxx * xm, sxy / sxx)
        } else if xm > 0.0 {
            (FitKind::Proportional, 0.0, ym / xm)
        } else {
            return None;
        };
        let ss_tot: f64 = points.iter().map(|p| (p.prove_ms - ym).powi(2)).sum();
        let ss_res: f64 = points
            .iter()
            .map(|p| (p.prove_ms - a - b * p.size).powi(2))
            .sum();
        let r2 = if ss_tot > 0.0 {
            1.0 - ss_res / ss_tot
        } else {
            1.0
        };
        Some(Self {
            system: system.into(),
            target,
            threads,
            kind,
            a,
            b,
            r2,
            points,
        })
    }

    /// The predicted prove time of a circuit of `size`.
    pub fn predict(&self, size: f64) -> Prediction {
        let (lo, hi) = self.points.iter().fold((f64::MAX, f64::MIN), |(l, h), p| {
            (l.min(p.size), h.max(p.size))
        });
        Prediction {
            prove_ms: (self.a + self.b * size).max(0.0),
            size,
            extrapolates: self.kind == FitKind::Proportional || size < lo || size > hi,
            fit: self.clone(),
        }
    }
}

/// A predicted prove time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// Predicted warm prove time, ms.
    pub prove_ms: f64,
    /// The circuit size it was predicted for.
    pub size: f64,
    /// Whether the size lies outside the measured sizes (or the fit had one size only).
    pub extrapolates: bool,
    /// The fit, with its points.
    pub fit: Fit,
}

/// The fits of every (system, target, threads) the statements were measured on.
pub fn fits(statements: &BTreeMap<Statement, Facts>) -> BTreeMap<(String, Target, usize), Fit> {
    let mut points: BTreeMap<(String, Target, usize), Vec<Point>> = BTreeMap::new();
    for (s, f) in statements {
        let Some(size) = f.size else { continue };
        for (&(target, threads), &ms) in &f.prove_ms {
            points
                .entry((s.case.system.clone(), target, threads))
                .or_default()
                .push(Point {
                    statement: s.label(),
                    size,
                    prove_ms: ms,
                });
        }
    }
    points
        .into_iter()
        .filter_map(|((sys, t, th), p)| Some(((sys.clone(), t, th), Fit::new(&sys, t, th, p)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(size: f64, ms: f64) -> Point {
        Point {
            statement: format!("s{size}"),
            size,
            prove_ms: ms,
        }
    }

    #[test]
    fn least_squares_and_extrapolation() {
        let f = Fit::new(
            "groth16",
            Target::Native,
            2,
            vec![pt(1e4, 12.0), pt(2e4, 22.0), pt(3e4, 32.0)],
        )
        .unwrap();
        assert_eq!(f.kind, FitKind::Linear);
        assert!(
            (f.a - 2.0).abs() < 1e-9 && (f.b - 1e-3).abs() < 1e-12,
            "{f:?}"
        );
        assert!((f.r2 - 1.0).abs() < 1e-12);
        let inside = f.predict(2.5e4);
        assert!((inside.prove_ms - 27.0).abs() < 1e-9 && !inside.extrapolates);
        assert!(f.predict(5e4).extrapolates);
        let one = Fit::new("halo2-kzg", Target::Native, 1, vec![pt(100.0, 50.0)]).unwrap();
        assert_eq!(one.kind, FitKind::Proportional);
        let p = one.predict(200.0);
        assert!((p.prove_ms - 100.0).abs() < 1e-9 && p.extrapolates);
        assert!(Fit::new("x", Target::Native, 1, vec![]).is_none());
    }
}
