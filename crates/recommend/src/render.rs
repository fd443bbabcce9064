//! The recommendation as text.

use std::fmt::Write;

use zkbench_report::format::{fmt_bytes, fmt_count};

use crate::{
    model::{Fit, FitKind, Scaling},
    recommend::{Breach, Candidate, ProveTime, Recommendation},
};

fn prove_text(c: &Candidate) -> String {
    match &c.prove {
        ProveTime::Measured { prove_ms, samples } => {
            format!("{prove_ms:.1} ms measured ({samples} samples)")
        }
        ProveTime::Scaled(s) => {
            let sc = &s.scaling;
            let on = if sc.from_target == sc.to_target {
                String::new()
            } else {
                format!("{} ", sc.from_target)
            };
            format!(
                "{:.1} ms scaled from {on}{} threads ({:.1} ms × {:.3})",
                s.prove_ms, sc.from_threads, s.measured_ms, sc.ratio
            )
        }
        ProveTime::Predicted(p) => format!(
            "{:.1} ms fitted{}",
            p.prove_ms,
            if p.extrapolates {
                " (EXTRAPOLATED)"
            } else {
                ""
            }
        ),
        ProveTime::Unknown { .. } => "unknown".into(),
    }
}

fn opt(v: Option<f64>, f: fn(f64) -> String) -> String {
    v.map_or("-".into(), f)
}

fn line(c: &Candidate) -> String {
    format!(
        "{} · {} threads · {} · gas {} · proof {} · {}",
        c.statement,
        c.threads,
        prove_text(c),
        opt(c.verify_gas, fmt_count),
        opt(c.proof_bytes, fmt_bytes),
        c.security.bits.map_or(
            format!("security unknown ({})", c.security.limited_by),
            |b| { format!("{b} bits ({})", c.security.limited_by) }
        )
    ) + if c.security.attacked {
        " · hash under published attack"
    } else {
        ""
    }
}

/// Why a configuration was left out, in words.
pub fn breach_text(b: &Breach) -> String {
    match b {
        Breach::ProveTime { prove_ms, max } => format!("prove {prove_ms:.1} ms > {max} ms"),
        Breach::ProveUnknown { why } => format!("prove time unknown: {why}"),
        Breach::ProofBytes { bytes, max } => format!("proof {bytes} B > {max} B"),
        Breach::VerifyGas { gas, max } => format!("verify gas {gas} > {max}"),
        Breach::GasUnknown { evm_verifier: true } => "verify gas unknown: no evm record verifying this system's proofs of this circuit (zkbench run evm)".into(),
        Breach::GasUnknown { evm_verifier: false } => "no EVM verifier for this proof system: verify gas unknown".into(),
        Breach::SizeUnknown => "proof size unknown".into(),
        Breach::Leaves { leaves, min } => format!("{leaves} leaves < {min}"),
        Breach::Security { bits, min, limited_by } => match bits {
            Some(b) => format!("security {b} bits < {min} (limited by {limited_by})"),
            None => format!("security unknown < {min} ({limited_by})"),
        },
        Breach::Circuit { circuit } => format!(
            "circuit {} not the one asked",
            circuit.map_or("-".to_string(), |c| c.to_string())
        ),
    }
}

fn kind_name(k: FitKind) -> &'static str {
    match k {
        FitKind::Linear => "least squares",
        FitKind::PowerLaw => "power law",
        FitKind::PerHash => "per hash family",
        FitKind::Proportional => "one size: proportional",
    }
}

fn fit_text(f: &Fit) -> String {
    let formula = match f.kind {
        FitKind::Linear | FitKind::Proportional => {
            format!("prove ms = {:.3} + {:.6} × size", f.a, f.b)
        }
        FitKind::PowerLaw => format!("prove ms = {:.5} × size^{:.3}", f.a, f.b),
        FitKind::PerHash => format!(
            "prove ms = family's point × (size / its size)^{:.3} (power law {:.5} × size^{:.3} for another family)",
            f.b, f.a, f.b
        ),
    };
    let loo: Vec<String> = f
        .loo
        .iter()
        .map(|e| format!("{} {:.1}%", kind_name(e.kind), 100.0 * e.mean_rel_error))
        .collect();
    let mut s = format!(
        "{} · {} · {} threads: {formula} ({}, R² {:.3}{}) on",
        f.system,
        f.target,
        f.threads,
        kind_name(f.kind),
        f.r2,
        if loo.is_empty() {
            String::new()
        } else {
            format!("; leave-one-out error: {}", loo.join(", "))
        }
    );
    for p in &f.points {
        let _ = write!(
            s,
            "\n      {} (size {}): {:.1} ms",
            p.statement, p.size, p.prove_ms
        );
    }
    s
}

fn scaling_text(s: &Scaling) -> String {
    let mut out = format!(
        "{} · {} {} threads → {} {} threads: × {:.3}, the median of {} statement(s) measured at both:",
        s.system,
        s.from_target,
        s.from_threads,
        s.to_target,
        s.to_threads,
        s.ratio,
        s.pairs.len()
    );
    for p in &s.pairs {
        let _ = write!(
            out,
            "\n      {}: {:.1} → {:.1} ms (× {:.3})",
            p.statement,
            p.from_ms,
            p.to_ms,
            p.to_ms / p.from_ms
        );
    }
    out
}

/// The scalings some candidate of `r` used, each once.
fn scalings(r: &Recommendation) -> Vec<&Scaling> {
    let mut out: Vec<&Scaling> = vec![];
    for c in r
        .ranked
        .iter()
        .chain(r.excluded.iter().map(|e| &e.candidate))
    {
        if let ProveTime::Scaled(s) = &c.prove {
            if !out.contains(&&s.scaling) {
                out.push(&s.scaling);
            }
        }
    }
    out
}

impl Recommendation {
    /// The recommendation as text: ranked, front, predictions with their points, exclusions.
    pub fn text(&self) -> String {
        let mut s = format!(
            "Budget: {}\nData: {} records from {} source(s)\n\n",
            self.budget.describe(),
            self.records,
            self.files
        );
        if self.ranked.is_empty() {
            s += "No configuration meets every budget (the exclusions below say which budget each breaks).\n";
        } else {
            let _ = writeln!(
                s,
                "Meeting every budget, best first ({:?}):",
                self.budget.optimize
            );
            for (i, c) in self.ranked.iter().enumerate() {
                let mark = if c.pareto { " [Pareto]" } else { "" };
                let _ = writeln!(s, "  {}. {}{mark}", i + 1, line(c));
            }
            let front: Vec<String> = self
                .ranked
                .iter()
                .filter(|c| c.pareto)
                .map(|c| format!("{} ({} threads)", c.statement, c.threads))
                .collect();
            let axes = if self.ranked.iter().all(|c| c.verify_gas.is_none()) {
                "prove time, proof size; no verify gas known"
            } else {
                "prove time, verify gas, proof size"
            };
            let _ = writeln!(s, "\nPareto front ({axes}): {}", front.join("; "));
        }
        let scaled = scalings(self);
        if !scaled.is_empty() {
            s += "\nScaled times rest on these measured ratios:\n";
            for sc in scaled {
                let _ = writeln!(s, "  {}", scaling_text(sc));
            }
        }
        if !self.fits.is_empty() {
            s += "\nFitted times (statements measured nowhere on the target) rest on these fits:\n";
            for f in &self.fits {
                let _ = writeln!(s, "  {}", fit_text(f));
            }
        }
        if !self.excluded.is_empty() {
            s += "\nExcluded:\n";
            for e in &self.excluded {
                let why: Vec<String> = e.breaks.iter().map(breach_text).collect();
                let _ = writeln!(
                    s,
                    "  {} · {} threads · {}: {}",
                    e.candidate.statement,
                    e.candidate.threads,
                    prove_text(&e.candidate),
                    why.join("; ")
                );
            }
        }
        s
    }
}
