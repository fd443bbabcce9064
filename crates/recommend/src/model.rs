//! The configurations measured in results files, and the cost model.
//!
//! A configuration is a statement (proof system, hash, arity, leaves,
//! circuit) proved on a target (native or browser) with a thread count.
//! Its circuit size, proof size and verify gas do not depend on the target
//! or threads, so one measurement of a statement gives them for all; its
//! prove time does. A configuration's prove time comes, in this order of
//! preference, from:
//!
//! 1. **its own measurement** on that target and thread count (the median
//!    of its samples);
//! 2. **its own measurement on another thread count or target, scaled**
//!    by the proof system's measured ratio between the two ([`Scaling`]:
//!    the median, over the statements of the system measured at both, of
//!    time there over time here), which carries over everything the
//!    circuit size does not say (hash families with equal constraint
//!    counts prove at different speeds);
//! 3. **a size fit** ([`Fit`]) of the system's measured prove times on that
//!    target and thread count against circuit size, only for a statement
//!    measured nowhere at all. Three forms are tried and the one with the
//!    smallest leave-one-out error is used (cross-validatory choice, Stone,
//!    *J. R. Stat. Soc. B* 36, 1974): least squares `y = a + b·x`
//!    (Groth16's prover is a handful of MSMs and FFTs linear in the
//!    constraints up to the log factor of Pippenger's method, Groth,
//!    EUROCRYPT 2016), a power law `y = a·x^b` (least squares in log
//!    space), and a per-hash-family power law (the family's own points
//!    moved along the shared exponent).
//!
//! Circuit size is `constraints` (R1CS) or, for Halo2, `2^k · advice
//! columns` (the cells the prover commits to).

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

/// Where and how a prove time was measured: target and thread count.
pub type Setting = (Target, usize);

/// What one statement's records say, whatever the threads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Circuit size ([`size_of`]).
    pub size: Option<f64>,
    /// Proof size, bytes.
    pub proof_bytes: Option<f64>,
    /// Warm prove time (median of every record's samples), ms, per setting.
    pub prove_ms: BTreeMap<Setting, f64>,
    /// How many samples that median is of, per setting.
    pub samples: BTreeMap<Setting, usize>,
}

/// The circuit size of a proof record: `constraints`, or `2^k · advice_columns`.
pub fn size_of(r: &Record) -> Option<f64> {
    let m = &r.metrics;
    m.get("constraints").copied().or_else(|| {
        let k = *m.get("k")?;
        Some(2f64.powf(k) * m.get("advice_columns")?)
    })
}

/// The target a record was measured on: the browser when its case id starts
/// with `browser/` or its environment has a user agent (the page's records of
/// `zkbench run browser` carry the page's env, `web/scripts/browser.mjs`).
pub fn target_of(r: &Record) -> Target {
    if r.case_id.starts_with(BROWSER_PREFIX) || r.env.user_agent.is_some() {
        Target::Browser
    } else {
        Target::Native
    }
}

/// A record's prove samples, ms (its median when it kept no samples).
fn samples_ms(r: &Record) -> Vec<f64> {
    if r.samples_s.is_empty() {
        r.median().map(|s| vec![s * 1e3]).unwrap_or_default()
    } else {
        r.samples_s.iter().map(|s| s * 1e3).collect()
    }
}

/// Every spend or membership statement with an ok `prove` record, with its facts.
pub fn statements(recs: &[&Record]) -> BTreeMap<Statement, Facts> {
    let mut times: BTreeMap<Statement, BTreeMap<Setting, Vec<f64>>> = BTreeMap::new();
    let mut out: BTreeMap<Statement, Facts> = BTreeMap::new();
    for r in recs.iter().filter(|r| {
        r.case.kind == CaseKind::Proof
            && r.phase == "prove"
            && r.status == Status::Ok
            && matches!(r.case.circuit, Some(Circuit::Spend | Circuit::Membership))
    }) {
        let ms = samples_ms(r);
        if ms.is_empty() {
            continue;
        }
        let s = Statement::of(&r.case);
        let f = out.entry(s.clone()).or_default();
        f.size = f.size.or(size_of(r));
        f.proof_bytes = f.proof_bytes.or(r.metrics.get("proof_bytes").copied());
        let t = times.entry(s).or_default();
        t.entry((target_of(r), r.threads)).or_default().extend(ms);
    }
    for (s, t) in times {
        let f = out.get_mut(&s).expect("every timed statement has facts");
        for (k, v) in t {
            if let Some(m) = median(&v) {
                f.prove_ms.insert(k, m);
                f.samples.insert(k, v.len());
            }
        }
    }
    out
}

/// One statement measured at both settings of a [`Scaling`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pair {
    /// The statement.
    pub statement: String,
    /// Prove time at the setting measured, ms.
    pub from_ms: f64,
    /// Prove time at the setting asked, ms.
    pub to_ms: f64,
}

/// A proof system's measured ratio of prove times between two settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scaling {
    /// Proof system.
    pub system: String,
    /// Target measured.
    pub from_target: Target,
    /// Threads measured.
    pub from_threads: usize,
    /// Target asked.
    pub to_target: Target,
    /// Threads asked.
    pub to_threads: usize,
    /// Median of `to_ms / from_ms` over the pairs.
    pub ratio: f64,
    /// The statements measured at both.
    pub pairs: Vec<Pair>,
}

/// `system`'s scaling from setting `from` to `to`, from the statements measured at both.
pub fn scaling(
    stmts: &BTreeMap<Statement, Facts>,
    system: &str,
    from: Setting,
    to: Setting,
) -> Option<Scaling> {
    let pairs: Vec<Pair> = stmts
        .iter()
        .filter(|(s, _)| s.case.system == system)
        .filter_map(|(s, f)| {
            let (&a, &b) = (f.prove_ms.get(&from)?, f.prove_ms.get(&to)?);
            (a > 0.0).then(|| Pair {
                statement: s.label(),
                from_ms: a,
                to_ms: b,
            })
        })
        .collect();
    let ratios: Vec<f64> = pairs.iter().map(|p| p.to_ms / p.from_ms).collect();
    Some(Scaling {
        system: system.into(),
        from_target: from.0,
        from_threads: from.1,
        to_target: to.0,
        to_threads: to.1,
        ratio: median(&ratios)?,
        pairs,
    })
}

/// A prove time scaled from the statement's own measurement at another setting.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scaled {
    /// Predicted warm prove time, ms.
    pub prove_ms: f64,
    /// The statement's own measurement at the other setting, ms.
    pub measured_ms: f64,
    /// The ratio applied, with the pairs it is the median of.
    pub scaling: Scaling,
}

/// The best scaling of statement `s` (measured at `f.prove_ms`'s settings) to `to`:
/// the same target first, then the most pairs, then the nearest thread count.
pub fn scale(
    stmts: &BTreeMap<Statement, Facts>,
    s: &Statement,
    f: &Facts,
    to: Setting,
) -> Option<Scaled> {
    f.prove_ms
        .iter()
        .filter(|(k, _)| **k != to)
        .filter_map(|(&k, &ms)| {
            let sc = scaling(stmts, &s.case.system, k, to)?;
            Some(Scaled {
                prove_ms: ms * sc.ratio,
                measured_ms: ms,
                scaling: sc,
            })
        })
        .min_by_key(|x| {
            let sc = &x.scaling;
            (
                sc.from_target != to.0,
                std::cmp::Reverse(sc.pairs.len()),
                sc.from_threads.abs_diff(to.1),
            )
        })
}

/// The form of a size fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FitKind {
    /// Least squares `y = a + b·x` over two or more circuit sizes.
    Linear,
    /// Least squares in log space: `y = a·x^b`.
    PowerLaw,
    /// The statement's hash family's own points moved along the exponent the
    /// families share (`y = median of y_i·(x/x_i)^b` over the family's points,
    /// `b` fitted in log space with an intercept per family; the pooled power
    /// law when the family has none).
    PerHash,
    /// One circuit size only: `y = (ȳ / x̄)·x`, proportional.
    Proportional,
}

impl FitKind {
    /// The forms tried by leave-one-out, simplest first (ties go to the simpler).
    pub const TRIED: [FitKind; 3] = [Self::Linear, Self::PowerLaw, Self::PerHash];
}

/// One measured point of a fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The statement.
    pub statement: String,
    /// Its hash (with its exponent when one was chosen).
    pub hash: String,
    /// Circuit size.
    pub size: f64,
    /// Measured prove time, ms.
    pub prove_ms: f64,
}

/// The leave-one-out error of one form of fit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LooError {
    /// The form.
    pub kind: FitKind,
    /// Mean of `|predicted − measured| / measured` over the points, each
    /// predicted by the form fitted on the others.
    pub mean_rel_error: f64,
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
    /// The form used: the smallest leave-one-out error of [`FitKind::TRIED`]
    /// with three points or more, else linear (proportional with one size).
    pub kind: FitKind,
    /// Intercept, ms (`Linear`), or factor `a` of `a·x^b` (`PowerLaw`, `PerHash`).
    pub a: f64,
    /// Slope, ms per unit of size (`Linear`, `Proportional`), or exponent `b`.
    pub b: f64,
    /// Coefficient of determination of the form on the points (1 for one size).
    pub r2: f64,
    /// Leave-one-out error of every form tried (empty under three points).
    pub loo: Vec<LooError>,
    /// The measured points it rests on.
    pub points: Vec<Point>,
}

/// Least squares `y = a + b·x`; `None` when all `x` are equal.
fn ols(xy: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = xy.len() as f64;
    let xm = xy.iter().map(|p| p.0).sum::<f64>() / n;
    let ym = xy.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = xy.iter().map(|p| (p.0 - xm).powi(2)).sum();
    let sxy: f64 = xy.iter().map(|p| (p.0 - xm) * (p.1 - ym)).sum();
    (sxx > 0.0).then(|| (ym - sxy / sxx * xm, sxy / sxx))
}

/// `(a, b)` of `y = a·x^b` by least squares on `(ln x, ln y)`.
fn power(points: &[Point]) -> Option<(f64, f64)> {
    if points.iter().any(|p| p.size <= 0.0 || p.prove_ms <= 0.0) {
        return None;
    }
    let xy: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.size.ln(), p.prove_ms.ln()))
        .collect();
    ols(&xy).map(|(a, b)| (a.exp(), b))
}

/// `(a, b)` of the per-hash-family form: `a` the pooled power law's factor,
/// `b` the exponent shared by the families (least squares in log space with
/// an intercept per family, the within-family slope; the pooled power law's
/// when no family has two sizes).
fn per_hash(points: &[Point]) -> Option<(f64, f64)> {
    let (a, pooled) = power(points)?;
    let mut fam: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for p in points {
        fam.entry(&p.hash)
            .or_default()
            .push((p.size.ln(), p.prove_ms.ln()));
    }
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for xy in fam.values() {
        let n = xy.len() as f64;
        let xm = xy.iter().map(|p| p.0).sum::<f64>() / n;
        let ym = xy.iter().map(|p| p.1).sum::<f64>() / n;
        sxx += xy.iter().map(|p| (p.0 - xm).powi(2)).sum::<f64>();
        sxy += xy.iter().map(|p| (p.0 - xm) * (p.1 - ym)).sum::<f64>();
    }
    Some((a, if sxx > 0.0 { sxy / sxx } else { pooled }))
}

/// The prediction of form `kind` fitted on `points` for a statement of `size` and `hash`.
fn form_predict(kind: FitKind, points: &[Point], size: f64, hash: &str) -> Option<f64> {
    if points.is_empty() {
        return None;
    }
    match kind {
        FitKind::Linear => {
            let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.size, p.prove_ms)).collect();
            ols(&xy).map(|(a, b)| a + b * size)
        }
        FitKind::PowerLaw => power(points).map(|(a, b)| a * size.powf(b)),
        FitKind::PerHash => {
            let (a, b) = per_hash(points)?;
            let own: Vec<f64> = points
                .iter()
                .filter(|p| p.hash == hash)
                .map(|p| p.prove_ms * (size / p.size).powf(b))
                .collect();
            median(&own).or(Some(a * size.powf(b)))
        }
        FitKind::Proportional => {
            let n = points.len() as f64;
            let xm = points.iter().map(|p| p.size).sum::<f64>() / n;
            let ym = points.iter().map(|p| p.prove_ms).sum::<f64>() / n;
            (xm > 0.0).then(|| ym / xm * size)
        }
    }
}

/// Mean relative error of form `kind` predicting each point from the others.
fn leave_one_out(kind: FitKind, points: &[Point]) -> Option<f64> {
    let mut sum = 0.0;
    for (i, p) in points.iter().enumerate() {
        let rest: Vec<Point> = points
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, q)| q.clone())
            .collect();
        let y = form_predict(kind, &rest, p.size, &p.hash)?;
        sum += (y - p.prove_ms).abs() / p.prove_ms;
    }
    Some(sum / points.len() as f64)
}

impl Fit {
    /// The fit of `points` (at least one): the form with the smallest leave-one-out error.
    pub fn new(system: &str, target: Target, threads: usize, points: Vec<Point>) -> Option<Self> {
        let loo: Vec<LooError> = if points.len() >= 3 {
            FitKind::TRIED
                .iter()
                .filter_map(|&kind| {
                    let e = leave_one_out(kind, &points)?;
                    Some(LooError {
                        kind,
                        mean_rel_error: e,
                    })
                })
                .collect()
        } else {
            vec![]
        };
        // the simplest form (in `TRIED` order) within rounding of the smallest error
        let min = loo
            .iter()
            .map(|e| e.mean_rel_error)
            .fold(f64::INFINITY, f64::min);
        let best = loo
            .iter()
            .find(|e| e.mean_rel_error <= min * (1.0 + 1e-9) + 1e-12)
            .map(|e| e.kind);
        let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.size, p.prove_ms)).collect();
        let kind = match best {
            Some(k) => k,
            None if !points.is_empty() && ols(&xy).is_some() => FitKind::Linear,
            None => FitKind::Proportional,
        };
        let (a, b) = match kind {
            FitKind::Linear => ols(&xy)?,
            FitKind::PowerLaw => power(&points)?,
            FitKind::PerHash => per_hash(&points)?,
            FitKind::Proportional => (0.0, form_predict(kind, &points, 1.0, "")?),
        };
        let n = points.len() as f64;
        let ym = points.iter().map(|p| p.prove_ms).sum::<f64>() / n;
        let ss_tot: f64 = points.iter().map(|p| (p.prove_ms - ym).powi(2)).sum();
        let ss_res: f64 = points
            .iter()
            .map(|p| {
                let y = form_predict(kind, &points, p.size, &p.hash).unwrap_or(0.0);
                (p.prove_ms - y).powi(2)
            })
            .sum();
        Some(Self {
            system: system.into(),
            target,
            threads,
            kind,
            a,
            b,
            r2: if ss_tot > 0.0 {
                1.0 - ss_res / ss_tot
            } else {
                1.0
            },
            loo,
            points,
        })
    }

    /// The predicted prove time of a statement of `size` and `hash`.
    pub fn predict(&self, size: f64, hash: &str) -> Prediction {
        let (lo, hi) = self.points.iter().fold((f64::MAX, f64::MIN), |(l, h), p| {
            (l.min(p.size), h.max(p.size))
        });
        Prediction {
            prove_ms: form_predict(self.kind, &self.points, size, hash)
                .unwrap_or(0.0)
                .max(0.0),
            size,
            extrapolates: self.kind == FitKind::Proportional || size < lo || size > hi,
            fit: self.clone(),
        }
    }
}

/// A prove time predicted by a size fit.
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

/// The key of a fit: proof system, target, threads.
pub type FitKey = (String, Target, usize);

/// The fits of every (system, target, threads) the statements were measured on.
pub fn fits(statements: &BTreeMap<Statement, Facts>) -> BTreeMap<FitKey, Fit> {
    let mut points: BTreeMap<FitKey, Vec<Point>> = BTreeMap::new();
    for (s, f) in statements {
        let Some(size) = f.size else { continue };
        for (&(target, threads), &ms) in &f.prove_ms {
            points
                .entry((s.case.system.clone(), target, threads))
                .or_default()
                .push(Point {
                    statement: s.label(),
                    hash: s.case.hash_label(),
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
    use zkbench_results::Environment;

    fn pt(hash: &str, size: f64, ms: f64) -> Point {
        Point {
            statement: format!("{hash}{size}"),
            hash: hash.into(),
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
            vec![pt("h", 1e4, 12.0), pt("h", 2e4, 22.0), pt("h", 3e4, 32.0)],
        )
        .unwrap();
        assert_eq!(f.kind, FitKind::Linear);
        assert!(
            (f.a - 2.0).abs() < 1e-9 && (f.b - 1e-3).abs() < 1e-12,
            "{f:?}"
        );
        assert!((f.r2 - 1.0).abs() < 1e-12);
        assert_eq!(f.loo.len(), 3);
        let inside = f.predict(2.5e4, "h");
        assert!((inside.prove_ms - 27.0).abs() < 1e-9 && !inside.extrapolates);
        assert!(f.predict(5e4, "h").extrapolates);
        let one = Fit::new("halo2-kzg", Target::Native, 1, vec![pt("h", 100.0, 50.0)]).unwrap();
        assert_eq!(one.kind, FitKind::Proportional);
        let p = one.predict(200.0, "h");
        assert!((p.prove_ms - 100.0).abs() < 1e-9 && p.extrapolates);
        assert!(Fit::new("x", Target::Native, 1, vec![]).is_none());
    }

    #[test]
    fn leave_one_out_picks_power_law_and_per_hash() {
        // y = 0.5·x^0.7 exactly: the power law predicts every left-out point
        let pts: Vec<Point> = [1e3, 2e3, 4e3, 8e3]
            .iter()
            .map(|&x| pt("h", x, 0.5 * f64::powf(x, 0.7)))
            .collect();
        let f = Fit::new("groth16", Target::Native, 1, pts).unwrap();
        assert_eq!(f.kind, FitKind::PowerLaw, "{:?}", f.loo);
        assert!((f.b - 0.7).abs() < 1e-9 && (f.r2 - 1.0).abs() < 1e-9);
        // two hash families, the same sizes, one 3× slower: only per-hash predicts them
        let mut pts = vec![];
        for &x in &[1e3, 2e3, 4e3] {
            pts.push(pt("fast", x, 0.01 * x));
            pts.push(pt("slow", x, 0.03 * x));
        }
        let f = Fit::new("groth16", Target::Native, 1, pts).unwrap();
        assert_eq!(f.kind, FitKind::PerHash, "{:?}", f.loo);
        let per_hash = f.loo.iter().find(|e| e.kind == FitKind::PerHash).unwrap();
        assert!(per_hash.mean_rel_error < 1e-9, "{:?}", f.loo);
        assert!((f.predict(3e3, "slow").prove_ms - 90.0).abs() < 1e-6);
        assert!((f.predict(3e3, "fast").prove_ms - 30.0).abs() < 1e-6);
        // an unmeasured family gets the shared power law (between the two)
        let other = f.predict(3e3, "other").prove_ms;
        assert!(other > 30.0 && other < 90.0, "{other}");
    }

    fn facts(size: f64, times: &[(Setting, f64)]) -> Facts {
        Facts {
            size: Some(size),
            proof_bytes: Some(128.0),
            prove_ms: times.iter().copied().collect(),
            samples: times.iter().map(|(k, _)| (*k, 5)).collect(),
        }
    }

    fn stmt(system: &str, hash: &str) -> Statement {
        Statement::of(&Case {
            arity: Some(4),
            leaves: Some(1 << 36),
            circuit: Some(Circuit::Spend),
            ..Case::new(CaseKind::Proof, system, hash)
        })
    }

    #[test]
    fn scales_own_measurement_by_the_median_ratio() {
        let (n1, n2, b4) = (
            (Target::Native, 1),
            (Target::Native, 2),
            (Target::Browser, 4),
        );
        let mut m = BTreeMap::new();
        m.insert(stmt("groth16", "a"), facts(1e3, &[(n1, 10.0), (n2, 6.0)]));
        m.insert(
            stmt("groth16", "b"),
            facts(2e3, &[(n1, 20.0), (n2, 10.0), (b4, 40.0)]),
        );
        m.insert(stmt("groth16", "c"), facts(3e3, &[(n1, 30.0), (n2, 21.0)]));
        m.insert(stmt("groth16", "d"), facts(4e3, &[(n1, 100.0)]));
        m.insert(stmt("halo2-kzg", "e"), facts(4e3, &[(n1, 50.0)]));
        let (d, fd) = m.iter().find(|(s, _)| s.case.hash == "d").unwrap();
        // ratios 0.6, 0.5, 0.7: median 0.6 → 60 ms, from its own 100 ms
        let s = scale(&m, d, fd, n2).unwrap();
        assert!((s.scaling.ratio - 0.6).abs() < 1e-12 && (s.prove_ms - 60.0).abs() < 1e-9);
        assert_eq!((s.scaling.from_threads, s.scaling.pairs.len()), (1, 3));
        // to the browser: d was measured on 1 native thread only, and b gives the
        // one pair from there (20 → 40 ms)
        let s = scale(&m, d, fd, b4).unwrap();
        assert_eq!(
            (s.scaling.from_target, s.scaling.from_threads),
            (Target::Native, 1)
        );
        assert!((s.prove_ms - 200.0).abs() < 1e-9);
        // another system's pairs are not borrowed
        let (e, fe) = m.iter().find(|(s, _)| s.case.hash == "e").unwrap();
        assert!(scale(&m, e, fe, n2).is_none());
    }

    #[test]
    fn measured_is_the_median_of_every_sample() {
        let c = Case {
            threads: 2,
            ..stmt("groth16", "poseidon").case
        };
        let mut r1 = Record::new(&c, "prove", 2, &Environment::default());
        r1.set_samples(vec![0.010, 0.011, 0.030], vec![0.0; 3]);
        r1.metrics.insert("constraints".into(), 1e3);
        let mut r2 = r1.clone();
        r2.set_samples(vec![0.012, 0.013], vec![0.0; 2]);
        let m = statements(&[&r1, &r2]);
        let f = m.values().next().unwrap();
        assert!((f.prove_ms[&(Target::Native, 2)] - 12.0).abs() < 1e-9);
        assert_eq!(f.samples[&(Target::Native, 2)], 5);
        // the page's records (same case id as the native ones) carry a user agent
        assert_eq!(target_of(&r1), Target::Native);
        r1.env.user_agent = Some("Mozilla/5.0 HeadlessChrome".into());
        assert_eq!(target_of(&r1), Target::Browser);
    }
}
