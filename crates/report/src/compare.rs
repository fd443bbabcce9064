//! `zkbench compare base.json new.json`: per case × phase ratio of medians,
//! with a noise threshold; regressions beyond it make the command fail.

use std::collections::BTreeMap;

use zkbench_results::results::{ResultsFile, Status};

/// Verdict for one case × phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// New is slower by more than the threshold.
    Regression,
    /// New is faster by more than the threshold.
    Improvement,
    /// Within the threshold (noise).
    Unchanged,
    /// Present in one file only, or not measured in one of them.
    Missing,
}

impl Verdict {
    /// The verdict as the table shows it (`REGRESSION`, `faster`, `~`, `missing`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Regression => "REGRESSION",
            Self::Improvement => "faster",
            Self::Unchanged => "~",
            Self::Missing => "missing",
        }
    }
}

/// The noise threshold `zkbench compare` uses unless told otherwise (10 %).
pub const DEFAULT_THRESHOLD: f64 = 0.10;

/// One compared row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Case id.
    pub case_id: String,
    /// Phase.
    pub phase: String,
    /// Base median (s).
    pub base: Option<f64>,
    /// New median (s).
    pub new: Option<f64>,
    /// new / base.
    pub ratio: Option<f64>,
    /// Classification.
    pub verdict: Verdict,
}

/// Result of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Rows sorted by case id then phase.
    pub rows: Vec<Row>,
    /// Relative threshold used (e.g. 0.10 = 10 %).
    pub threshold: f64,
}

impl Comparison {
    /// Whether any row is a regression.
    pub fn has_regression(&self) -> bool {
        self.rows.iter().any(|r| r.verdict == Verdict::Regression)
    }

    /// Markdown table.
    pub fn to_markdown(&self) -> String {
        let mut s = "| case | phase | base (median) | new (median) | new/base | verdict |\n|---|---|---:|---:|---:|---|\n".to_string();
        for r in &self.rows {
            let f = |v: Option<f64>| {
                v.map(crate::format::fmt_seconds)
                    .unwrap_or_else(|| "-".into())
            };
            let verdict = r.verdict.label();
            s += &format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                r.case_id,
                r.phase,
                f(r.base),
                f(r.new),
                r.ratio
                    .map(|x| format!("{x:.3}"))
                    .unwrap_or_else(|| "-".into()),
                verdict
            );
        }
        s += &format!(
            "\nthreshold ±{:.0}%: {} regression(s), {} improvement(s), {} unchanged, {} missing\n",
            self.threshold * 100.0,
            self.count(Verdict::Regression),
            self.count(Verdict::Improvement),
            self.count(Verdict::Unchanged),
            self.count(Verdict::Missing)
        );
        s
    }

    /// Number of rows with verdict `v`.
    pub fn count(&self, v: Verdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == v).count()
    }
}

/// Compares two result files. `threshold` is relative (0.10 = 10 %).
pub fn compare(base: &ResultsFile, new: &ResultsFile, threshold: f64) -> Comparison {
    let index = |f: &ResultsFile| -> BTreeMap<(String, String), Option<f64>> {
        f.records
            .iter()
            .map(|r| {
                (
                    (r.case_id.clone(), r.phase.clone()),
                    if r.status == Status::Ok {
                        r.median()
                    } else {
                        None
                    },
                )
            })
            .collect()
    };
    let (b, n) = (index(base), index(new));
    let mut keys: Vec<&(String, String)> = b.keys().chain(n.keys()).collect();
    keys.sort();
    keys.dedup();
    let rows = keys
        .into_iter()
        .map(|k| {
            let (bv, nv) = (b.get(k).copied().flatten(), n.get(k).copied().flatten());
            let ratio = match (bv, nv) {
                (Some(x), Some(y)) if x > 0.0 => Some(y / x),
                _ => None,
            };
            let verdict = match ratio {
                None => Verdict::Missing,
                Some(r) if r > 1.0 + threshold => Verdict::Regression,
                Some(r) if r < 1.0 / (1.0 + threshold) => Verdict::Improvement,
                Some(_) => Verdict::Unchanged,
            };
            Row {
                case_id: k.0.clone(),
                phase: k.1.clone(),
                base: bv,
                new: nv,
                ratio,
                verdict,
            }
        })
        .collect();
    Comparison { rows, threshold }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::{
        case::{Case, CaseKind},
        env::Environment,
        results::Record,
    };

    fn file(entries: &[(&str, &[f64])]) -> ResultsFile {
        let env = Environment::default();
        let mut f = ResultsFile::new("t", "quick", env.clone());
        for (hash, samples) in entries {
            let case = Case {
                width: Some(3),
                threads: 1,
                ..Case::new(CaseKind::Hash, "native", hash)
            };
            let mut r = Record::new(&case, "hash", 1, &env);
            r.set_samples(samples.to_vec(), samples.to_vec());
            f.records.push(r);
        }
        f
    }

    #[test]
    fn classifies_with_threshold() {
        let base = file(&[
            ("a", &[1.0, 1.0, 1.0]),
            ("b", &[1.0]),
            ("c", &[1.0]),
            ("d", &[1.0]),
        ]);
        let new = file(&[("a", &[1.05]), ("b", &[1.5]), ("c", &[0.5]), ("e", &[1.0])]);
        let c = compare(&base, &new, 0.10);
        let v: BTreeMap<String, Verdict> = c
            .rows
            .iter()
            .map(|r| (r.case_id.split('/').nth(1).unwrap().to_string(), r.verdict))
            .collect();
        assert_eq!(v["a"], Verdict::Unchanged);
        assert_eq!(v["b"], Verdict::Regression);
        assert_eq!(v["c"], Verdict::Improvement);
        assert_eq!(v["d"], Verdict::Missing);
        assert_eq!(v["e"], Verdict::Missing);
        assert!(c.has_regression());
        assert!(c.to_markdown().contains("REGRESSION"));
        assert!(!compare(&base, &base, 0.10).has_regression());
        let r_b = c.rows.iter().find(|r| r.case_id.contains("/b/")).unwrap();
        assert!((r_b.ratio.unwrap() - 1.5).abs() < 1e-12);
    }
}
