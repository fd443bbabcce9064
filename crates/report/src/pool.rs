//! The report's private-pool section (suite `pool`): the pool paper's
//! (Guo et al., docs/papers.md) figure 10 measured here — prove time of the batch and withdraw circuits
//! and gas per transaction against slot depth (era depth 20) and era depth
//! (slot depth 5) — with the Tornado Cash baseline of the same run (its
//! table 2) as a reference line, and a table of every configuration.
//!
//! [`html`] and [`markdown`] return nothing when the records have no `pool`
//! case, so other suites' reports are unchanged.

use std::collections::BTreeMap;

use zkbench_results::{
    case::CaseKind,
    results::{Record, Status},
};

use crate::{
    charts::{line_chart, Series},
    format::{fmt_seconds, fmt_thousands},
    table::{Cell, Table},
};

/// The paper's gas per transaction at slot depth 5, era depth 20 (its table 2, quoted).
pub const PAPER_GAS_PER_TX: f64 = 331_331.0;
/// The paper's Tornado Cash gas per transaction (its table 2, quoted).
pub const PAPER_TORNADO_GAS_PER_TX: f64 = 1_206_624.0;

/// The era depth of the slot-depth charts and the slot depth of the era-depth charts
/// (the paper's configuration).
const ERA: u32 = 20;
const SLOT: u32 = 5;

/// One configuration of this design: what the records of one case say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DesignRow {
    /// Slot depth (batches of `2^slot` deposits).
    pub slot: u32,
    /// Era depth.
    pub era: u32,
    /// Median batch proof, s.
    pub prove_batch_s: Option<f64>,
    /// Median withdrawal proof, s.
    pub prove_withdraw_s: Option<f64>,
    /// Metrics of the `simulate` record (`gas_*`, `constraints_*`).
    pub metrics: BTreeMap<String, f64>,
}

/// The Tornado baseline's record metrics and withdrawal proof time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BaselineRow {
    /// Tree depth.
    pub depth: u32,
    /// Median withdrawal proof, s.
    pub prove_withdraw_s: Option<f64>,
    /// Metrics of its `simulate` record.
    pub metrics: BTreeMap<String, f64>,
}

fn ok_pool<'a>(recs: &[&'a Record], system: &str) -> Vec<&'a Record> {
    recs.iter()
        .copied()
        .filter(|r| r.case.kind == CaseKind::Pool && r.case.system == system)
        .filter(|r| r.status == Status::Ok)
        .collect()
}

/// This design's configurations measured, by (slot, era).
pub fn design_rows(recs: &[&Record]) -> Vec<DesignRow> {
    let mut m: BTreeMap<(u32, u32), DesignRow> = BTreeMap::new();
    for r in ok_pool(recs, "zkbench") {
        let Some((slot, era)) = r.case.pool_depths() else {
            continue;
        };
        let row = m.entry((slot, era)).or_insert_with(|| DesignRow {
            slot,
            era,
            ..Default::default()
        });
        match r.phase.as_str() {
            "prove_batch" => row.prove_batch_s = r.median(),
            "prove_withdraw" => row.prove_withdraw_s = r.median(),
            "simulate" => row.metrics = r.metrics.clone(),
            _ => {}
        }
    }
    m.into_values().collect()
}

/// The Tornado baseline measured in these records, if any (the first one).
pub fn baseline_row(recs: &[&Record]) -> Option<BaselineRow> {
    let t = ok_pool(recs, "tornado");
    let sim = t.iter().find(|r| r.phase == "simulate")?;
    Some(BaselineRow {
        depth: sim.case.leaves.map(|l| l.trailing_zeros()).unwrap_or(0),
        prove_withdraw_s: t
            .iter()
            .find(|r| r.phase == "prove_withdraw" && r.case_id == sim.case_id)
            .and_then(|r| r.median()),
        metrics: sim.metrics.clone(),
    })
}

fn gas(m: &BTreeMap<String, f64>, k: &str) -> String {
    m.get(k)
        .map(|v| fmt_thousands(*v))
        .unwrap_or_else(|| "-".into())
}

fn secs(v: Option<f64>) -> String {
    v.map(fmt_seconds).unwrap_or_else(|| "-".into())
}

fn vs_tornado(row: &DesignRow, base: Option<&BaselineRow>) -> String {
    match (
        row.metrics.get("gas_per_tx"),
        base.and_then(|b| b.metrics.get("gas_per_tx")),
    ) {
        (Some(a), Some(b)) if *b > 0.0 => format!("{:.1}%", a / b * 100.0),
        _ => "-".into(),
    }
}

const HEADERS: [&str; 13] = [
    "slot depth",
    "era depth",
    "batch",
    "constraints batch / withdraw",
    "prove batch",
    "prove withdraw",
    "deposit gas",
    "commit gas (steady)",
    "commit / deposit",
    "withdraw gas",
    "gas per tx",
    "vs Tornado (same run)",
    "commit gas, 1st batch (escrow)",
];

fn cells(r: &DesignRow, base: Option<&BaselineRow>) -> [String; 13] {
    let m = &r.metrics;
    let b = m.get("batch_size").copied().unwrap_or(0.0);
    [
        r.slot.to_string(),
        r.era.to_string(),
        format!("{b:.0}"),
        format!(
            "{} / {}",
            gas(m, "constraints_batch"),
            gas(m, "constraints_withdraw")
        ),
        secs(r.prove_batch_s),
        secs(r.prove_withdraw_s),
        gas(m, "gas_deposit"),
        gas(m, "gas_commit"),
        match m.get("gas_commit") {
            Some(c) if b > 0.0 => fmt_thousands(c / b),
            _ => "-".into(),
        },
        gas(m, "gas_withdraw"),
        gas(m, "gas_per_tx"),
        vs_tornado(r, base),
        gas(m, "gas_commit_first"),
    ]
}

fn baseline_cells(b: &BaselineRow) -> [String; 13] {
    let m = &b.metrics;
    [
        format!("Tornado Cash (tree depth {})", b.depth),
        "-".into(),
        "1".into(),
        format!("- / {}", gas(m, "constraints_withdraw")),
        "-".into(),
        secs(b.prove_withdraw_s),
        gas(m, "gas_deposit"),
        "-".into(),
        "-".into(),
        gas(m, "gas_withdraw"),
        gas(m, "gas_per_tx"),
        "100%".into(),
        "-".into(),
    ]
}

/// A constant line across the x range of `series` (a reference value).
fn reference(name: &str, y: f64, series: &Series) -> Option<(String, Vec<(f64, f64)>)> {
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.0))
        .collect();
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo.is_finite() && hi > lo).then(|| (name.to_string(), vec![(lo, y), (hi, y)]))
}

/// Figure 10's charts: prove time and gas per transaction, first against slot depth (at era
/// depth [`ERA`]), then against era depth (at slot depth [`SLOT`]).
fn charts(rows: &[DesignRow], base: Option<&BaselineRow>) -> Vec<String> {
    let mut out = Vec::new();
    for (by_slot, title_x, x_label) in [
        (
            true,
            format!("slot depth (era depth {ERA})"),
            "slot depth (batch of 2^slot deposits)",
        ),
        (
            false,
            format!("era depth (slot depth {SLOT})"),
            "era depth (era tree of 2^era slots)",
        ),
    ] {
        let axis = Axis::new(rows, by_slot);
        out.extend(line_chart(
            &format!("Prove time vs {title_x}"),
            x_label,
            "median prove time (s)",
            &axis.prove_series(),
            true,
        ));
        out.extend(line_chart(
            &format!("Gas per transaction vs {title_x}"),
            x_label,
            "gas per transaction (gas)",
            &axis.gas_series(base),
            false,
        ));
    }
    out
}

/// The configurations along one x axis of figure 10: slot depth (at era depth [`ERA`]) or era
/// depth (at slot depth [`SLOT`]).
struct Axis<'a> {
    /// x is the slot depth (else the era depth).
    by_slot: bool,
    /// The rows on this axis, in `rows`' order.
    sel: Vec<&'a DesignRow>,
}

impl<'a> Axis<'a> {
    /// The rows of `rows` on the slot-depth axis (`by_slot`) or the era-depth one.
    fn new(rows: &'a [DesignRow], by_slot: bool) -> Self {
        let sel = rows
            .iter()
            .filter(|r| {
                if by_slot {
                    r.era == ERA
                } else {
                    r.slot == SLOT
                }
            })
            .collect();
        Self { by_slot, sel }
    }

    /// The points (x, `f(row)`) of the rows where `f` has a value.
    fn line(&self, f: &dyn Fn(&DesignRow) -> Option<f64>) -> Vec<(f64, f64)> {
        let x = |r: &DesignRow| if self.by_slot { r.slot } else { r.era } as f64;
        self.sel
            .iter()
            .filter_map(|r| Some((x(r), f(r)?)))
            .collect()
    }

    /// The prove-time lines: the batch and the withdraw circuit.
    fn prove_series(&self) -> Series {
        vec![
            (
                "batch (slot-insert) circuit".into(),
                self.line(&|r| r.prove_batch_s),
            ),
            (
                "withdraw (note-spend) circuit".into(),
                self.line(&|r| r.prove_withdraw_s),
            ),
        ]
    }

    /// The gas lines (per tx and its parts), then the reference lines: the Tornado baseline
    /// of `base` when it has a gas per tx, and the paper's quoted figure.
    fn gas_series(&self, base: Option<&BaselineRow>) -> Series {
        let m = |k: &'static str| move |r: &DesignRow| r.metrics.get(k).copied();
        let per_deposit = |r: &DesignRow| {
            Some(r.metrics.get("gas_commit")? / r.metrics.get("batch_size").copied()?)
        };
        let mut g: Series = vec![
            (
                "per tx: deposit + commit / batch + withdraw".into(),
                self.line(&m("gas_per_tx")),
            ),
            ("withdraw".into(), self.line(&m("gas_withdraw"))),
            ("commit / batch".into(), self.line(&per_deposit)),
            ("deposit".into(), self.line(&m("gas_deposit"))),
        ];
        if let Some(t) = base.and_then(|b| b.metrics.get("gas_per_tx")) {
            g.extend(reference("Tornado Cash, same run (per tx)", *t, &g));
        }
        g.extend(reference(
            "the paper at slot 5 / era 20 (quoted)",
            PAPER_GAS_PER_TX,
            &g,
        ));
        g
    }
}

/// The table of every configuration, the Tornado baseline last.
fn table(rows: &[DesignRow], base: Option<&BaselineRow>) -> Table {
    let mut t = Table::new("Private pool (the paper's figure 10 and table 2; revm, Cancun, transaction gas; test-setup keys)")
        .columns(&[], &HEADERS);
    let body = rows.iter().map(|r| cells(r, base));
    for row in body.chain(base.map(baseline_cells)) {
        t.row(row.into_iter().map(Cell::from).collect());
    }
    t
}

/// The pool section of the Markdown summary (empty without pool records).
pub fn markdown(recs: &[&Record]) -> String {
    let rows = design_rows(recs);
    let base = baseline_row(recs);
    if rows.is_empty() && base.is_none() {
        return String::new();
    }
    table(&rows, base.as_ref()).markdown()
        + &format!(
            "The paper's table 2 (quoted): its protocol {} gas per tx at slot 5 / era 20, Tornado Cash {}.\n\n",
            fmt_thousands(PAPER_GAS_PER_TX),
            fmt_thousands(PAPER_TORNADO_GAS_PER_TX)
        )
}

/// The pool section of the HTML report: figure 10's charts and the table
/// (empty without pool records).
pub fn html(recs: &[&Record]) -> String {
    let rows = design_rows(recs);
    let base = baseline_row(recs);
    if rows.is_empty() && base.is_none() {
        return String::new();
    }
    let mut h = String::from("<h2>Private pool: the paper's figure 10 and table 2, measured</h2>");
    h += &format!(
        "<p class=meta>Each configuration ran end to end on the embedded EVM (revm, Cancun): two \
         batches of 2<sup>slot</sup> deposits, the sequencer's commits, withdrawals to fresh \
         addresses with a 0.1% relayer fee, every attack tried. Gas is transaction gas; per tx = \
         deposit + commit / batch + withdraw, with the steady-state commit (the second batch). \
         Prove times: medians with the case's test-setup keys, witness generation included. \
         Reference lines: the Tornado Cash baseline measured in the same run, and the paper's \
         {} gas per tx at slot 5 / era 20 (its table 2, quoted; Tornado there: {}).</p>",
        fmt_thousands(PAPER_GAS_PER_TX),
        fmt_thousands(PAPER_TORNADO_GAS_PER_TX)
    );
    h += "<div class=charts>";
    for c in charts(&rows, base.as_ref()) {
        h += &format!("<figure>{c}</figure>");
    }
    h + "</div>" + &table(&rows, base.as_ref()).html_table()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::case::Case;

    fn rec(system: &str, slot: Option<u32>, leaves: u64, phase: &str, v: f64) -> Record {
        let case = Case {
            leaves: Some(leaves),
            depth: slot,
            ..Case::new(CaseKind::Pool, system, "poseidon2")
        };
        let mut r = Record::new(&case, phase, 1, &Default::default());
        r.set_samples(vec![v], vec![]);
        if phase == "simulate" {
            for (k, x) in [
                ("gas_per_tx", 300_000.0 + v),
                ("gas_withdraw", 270_000.0),
                ("gas_deposit", 35_000.0),
                ("gas_commit", 500_000.0),
                ("batch_size", 2f64.powi(slot.unwrap_or(0) as i32)),
            ] {
                r.metrics.insert(k.into(), x);
            }
        }
        r
    }

    #[test]
    fn pool_section_draws_figure_10_and_the_table() {
        let mut recs = Vec::new();
        for s in 1..=3u32 {
            let l = 1u64 << (s + ERA);
            recs.push(rec("zkbench", Some(s), l, "simulate", s as f64));
            recs.push(rec("zkbench", Some(s), l, "prove_batch", 0.1 * s as f64));
            recs.push(rec("zkbench", Some(s), l, "prove_withdraw", 0.5));
        }
        let mut t = rec("tornado", None, 1 << 20, "simulate", 0.0);
        t.metrics.insert("gas_per_tx".into(), 1_200_000.0);
        recs.push(t);
        let refs: Vec<&Record> = recs.iter().collect();
        let rows = design_rows(&refs);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1].prove_batch_s, Some(0.2));
        let h = html(&refs);
        assert!(h.contains("Prove time vs slot depth (era depth 20)"), "{h}");
        assert!(h.contains("Gas per transaction vs slot depth"));
        assert!(h.contains("Tornado Cash, same run (per tx)"));
        assert!(h.contains("gas per transaction (gas)"));
        let md = markdown(&refs);
        assert!(md.contains("| 2 | 20 | 4 |"), "{md}");
        assert!(md.contains("| Tornado Cash (tree depth 20) |"), "{md}");
        assert!(md.contains("25.0%"), "300,001 / 1,200,000: {md}");
        assert!(markdown(&[]).is_empty() && html(&[]).is_empty());
    }
}
