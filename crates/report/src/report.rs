//! Reports: a self-contained HTML file (SVG charts drawn with `plotters`, a
//! sortable table, the environment) and a Markdown summary for the terminal.

use std::collections::{BTreeMap, BTreeSet};

use zkbench_results::{
    case::{format_leaves, CaseKind, Circuit},
    results::{Record, ResultsFile, Status},
};

use crate::{
    charts::{bar_chart, line_chart, Series},
    format::{esc, fmt_bytes, fmt_count, fmt_seconds, fmt_thousands, opt_count, opt_ratio},
    hash_depth, headline,
    headline::phase_median,
    pool, primitives,
    table::{non_empty, Align, Cell, Table},
    wasm_engines, Context,
};

/// All records of the given files (later files appended).
fn all_records(files: &[ResultsFile]) -> Vec<&Record> {
    files.iter().flat_map(|f| f.records.iter()).collect()
}

/// Prefix of the case ids of records measured in a browser (`zkbench run browser`,
/// docs/browser.md).
pub const BROWSER_PREFIX: &str = "browser/";

/// The records measured natively (not in a browser, not by the `wasm-engines` suite): the
/// headline tables compare native runs only; browser records have their own table
/// ([`browser_rows`]), engine records their own section (`report_wasm_engines`).
fn native_only<'a>(recs: &[&'a Record]) -> Vec<&'a Record> {
    recs.iter()
        .copied()
        .filter(|r| !r.case_id.starts_with(BROWSER_PREFIX))
        .filter(|r| !wasm_engines::is_engine_record(r))
        .collect()
}

/// One browser measurement beside the native one of the same case and phase.
#[derive(Clone, Debug, PartialEq)]
pub struct BrowserRow {
    /// The case id without the `browser/` prefix.
    pub case: String,
    /// Phase (`prove_cold`, `prove_cold_cached`, `prove`, `verify`, `hash`).
    pub phase: String,
    /// Native median of the same case id and phase in these results, if any.
    pub native_s: Option<f64>,
    /// Browser median.
    pub browser_s: f64,
}

impl BrowserRow {
    /// Browser time over native time.
    pub fn ratio(&self) -> Option<f64> {
        self.native_s.map(|n| self.browser_s / n)
    }
}

/// Browser records (`ok`, phases `prove_cold`, `prove_cold_cached` (keys from IndexedDB),
/// `prove`, `verify`, `hash`) with the native
/// median of the same case: the same id without `browser/` (hash throughput in
/// WebAssembly, system `wasm`, pairs with the native hash case, system `native`).
pub fn browser_rows(recs: &[&Record]) -> Vec<BrowserRow> {
    recs.iter()
        .filter(|r| r.status == Status::Ok && r.case_id.starts_with(BROWSER_PREFIX))
        .filter(|r| {
            matches!(
                r.phase.as_str(),
                "prove_cold" | "prove_cold_cached" | "prove" | "verify" | "hash"
            )
        })
        .filter_map(|r| {
            let browser_s = r.median()?;
            let case = r.case_id[BROWSER_PREFIX.len()..].to_string();
            let native_id = match case.strip_prefix("wasm/") {
                Some(rest) if r.phase == "hash" => format!("native/{rest}"),
                _ => case.clone(),
            };
            let native_s = recs
                .iter()
                .find(|x| x.case_id == native_id && x.phase == r.phase && x.status == Status::Ok)
                .and_then(|x| x.median());
            Some(BrowserRow {
                case,
                phase: r.phase.clone(),
                native_s,
                browser_s,
            })
        })
        .collect()
}

/// zkbench Groth16 against snarkjs on the same statement in the same page (warm prove):
/// `(zkbench s, snarkjs s, case id of the snarkjs row)`.
fn browser_same_page(rows: &[BrowserRow]) -> Vec<(f64, f64, String)> {
    rows.iter()
        .filter(|r| r.phase == "prove" && r.case.starts_with("snarkjs/"))
        .filter_map(|peer| {
            let ours_id = format!("groth16/{}", &peer.case["snarkjs/".len()..]);
            let ours = rows
                .iter()
                .find(|r| r.phase == "prove" && r.case == ours_id)?;
            Some((ours.browser_s, peer.browser_s, peer.case.clone()))
        })
        .collect()
}

/// The browser table: each browser measurement beside the native one.
fn browser_table(rows: &[BrowserRow]) -> Table {
    let mut t = Table::new(
        "In the browser (WebAssembly) vs native, same run (median; ratio = browser / native)",
    )
    .html_title("In the browser vs native")
    .note("The same cases in WebAssembly in the browser page (case ids <code>browser/…</code>) and natively in this run; ratio = browser / native median.")
    .columns(&["case", "phase"], &["native", "browser"])
    .key_column("ratio", Align::Right);
    for r in rows {
        t.row(vec![
            r.case.clone().into(),
            r.phase.clone().into(),
            r.native_s
                .map(fmt_seconds)
                .unwrap_or_else(|| "-".into())
                .into(),
            fmt_seconds(r.browser_s).into(),
            Cell::bold(opt_ratio(r.ratio())),
        ]);
    }
    t
}

/// ` · MSM kernel K` for a file that records the native MSM's vector kernel
/// (`env.msm_kernel`), else nothing.
fn msm_kernel_note(e: &zkbench_results::Environment) -> String {
    e.msm_kernel
        .as_deref()
        .map(|k| format!(" · MSM kernel {k}"))
        .unwrap_or_default()
}

/// The browser and the WebAssembly module the browser records were measured
/// in (`env.user_agent`, `env.wasm_build` of the first record with them).
fn browser_env(recs: &[&Record]) -> Option<String> {
    let env = recs
        .iter()
        .map(|r| &r.env)
        .find(|e| e.user_agent.is_some() || e.wasm_build.is_some())?;
    let parts: Vec<String> = [("browser", &env.user_agent), ("module", &env.wasm_build)]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}: {v}")))
        .collect();
    Some(parts.join("; "))
}

fn browser_markdown(recs: &[&Record]) -> String {
    let rows = browser_rows(recs);
    if rows.is_empty() {
        return String::new();
    }
    let mut out = browser_table(&rows).markdown();
    out.pop();
    if let Some(env) = browser_env(recs) {
        out += &format!("\n{env}\n");
    }
    for (ours, peer, case) in browser_same_page(&rows) {
        out += &format!(
            "\nSame page, same statement ({case}): zkbench groth16 {} / snarkjs {} = **{:.2}×**\n",
            fmt_seconds(ours),
            fmt_seconds(peer),
            ours / peer
        );
    }
    out + "\n"
}

fn browser_html(recs: &[&Record]) -> String {
    let rows = browser_rows(recs);
    if rows.is_empty() {
        return String::new();
    }
    let mut h = browser_table(&rows).html();
    if let Some(env) = browser_env(recs) {
        h += &format!("<p>{}</p>", esc(&env));
    }
    for (ours, peer, case) in browser_same_page(&rows) {
        h += &format!(
            "<p>Same page, same statement ({}): zkbench groth16 {} / snarkjs {} = <b>{:.2}×</b></p>",
            esc(&case),
            fmt_seconds(ours),
            fmt_seconds(peer),
            ours / peer
        );
    }
    h
}

/// The headline: zkbench and each peer on the same statement, in this run.
fn same_statement_table(recs: &[&Record], ctx: &Context) -> Table {
    let mut t = Table::new(
        "Same statement, same run: zkbench / peer (median prove time; below 1× zkbench is faster)",
    )
    .html_title("Same statement, same run")
    .note("zkbench's time over the peer's (median warm prove); below 1× zkbench is faster.")
    .columns(&["statement", "zkbench", "peer"], &["prove", "peer prove"])
    .key_column("ratio", Align::Right)
    .columns(&[], &["cold ratio", "constraints (zkbench / peer)"]);
    for r in &headline::same_statement(recs, ctx) {
        t.row(vec![
            r.statement.clone().into(),
            r.ours.clone().into(),
            r.peer.clone().into(),
            fmt_seconds(r.ours_prove_s).into(),
            fmt_seconds(r.peer_prove_s).into(),
            Cell::bold(format!("{:.2}×", r.ratio())),
            opt_ratio(r.cold_ratio()).into(),
            format!(
                "{} / {}",
                opt_count(r.ours_constraints),
                opt_count(r.peer_constraints)
            )
            .into(),
        ]);
    }
    t
}

/// The headline per statement: zkbench's fastest system against each peer, with the ratio;
/// a peer that failed shows its failure.
fn headline_table(recs: &[&Record], ctx: &Context) -> Table {
    let mut t = Table::new("Headline: zkbench's best against each peer, per statement (median warm prove; ratio below 1× = zkbench faster)")
        .html_title("Headline: zkbench's best against each peer")
        .note("Per statement, zkbench's fastest proof system against every peer, median warm prove time in this run; ratio = zkbench / peer (below 1× zkbench is faster). A peer that failed is shown as a failure.")
        .columns(&["statement", "zkbench best", "peer"], &["peer prove"])
        .key_column("ratio", Align::Right)
        .columns(&[], &["peer constraints"])
        .column("tampered input rejected", Align::Left);
    for s in &headline::per_statement(recs, ctx) {
        let ours = s
            .best_ours
            .as_ref()
            .map(|(n, t)| format!("{n} {}", fmt_seconds(*t)))
            .unwrap_or_else(|| "-".into());
        for p in &s.peers {
            let failure = p.failure.as_deref().unwrap_or("?");
            let (class, prove) = match p.prove_s {
                Some(t) => ("ok", Cell::new(fmt_seconds(t))),
                None => (
                    "bad",
                    Cell::new(format!("FAILED ({failure})"))
                        .with_html(format!("FAILED: {}", esc(failure))),
                ),
            };
            let ratio = match s.ratio(p) {
                Some(r) => Cell::bold(format!("{r:.2}×")),
                None => Cell::new("-").with_html("<b>-</b>"),
            };
            let rejected = match p.rejects_tampered {
                Some(true) => Cell::new("yes"),
                Some(false) => Cell::new("NO").with_html("<b>NO</b>"),
                None => Cell::new("-"),
            };
            let cells = vec![
                s.statement.clone().into(),
                ours.clone().into(),
                p.system.clone().into(),
                prove,
                ratio,
                opt_count(p.constraints).into(),
                rejected,
            ];
            t.row_with_class(class, cells);
        }
    }
    t
}

/// Each system's fastest configuration.
fn fastest_table(recs: &[&Record]) -> Table {
    let mut t = Table::new("Fastest configuration per system")
        .columns(&["system", "configuration"], &["prove", "constraints"]);
    for f in &headline::fastest_per_system(recs) {
        t.row(vec![
            f.system.clone().into(),
            f.config.clone().into(),
            fmt_seconds(f.prove_s).into(),
            opt_count(f.constraints).into(),
        ]);
    }
    t
}

/// Each family's fastest spend: what a prover pays beside what a verifier pays.
fn family_table(recs: &[&Record], ctx: &Context) -> Table {
    let mut t = Table::new("Fastest note spend per family")
        .about("zkbench's fastest spend of each proof-system family in this run, per thread count: prove time beside verify time, proof size, calldata gas (EIP-2028) and, for the STARKs, conjectured security (the BN254 systems: ~100 bits).")
        .columns(
            &["family", "system", "configuration"],
            &["prove", "verify", "proof", "calldata gas", "security bits"],
        );
    let opt = |v: Option<f64>, f: fn(f64) -> String| v.map(f).unwrap_or_else(|| "-".into());
    for f in &headline::fastest_spend_per_family(recs, ctx) {
        t.row(vec![
            f.family.name().into(),
            f.system.clone().into(),
            f.config.clone().into(),
            fmt_seconds(f.prove_s).into(),
            opt(f.verify_s, fmt_seconds).into(),
            opt(f.proof_bytes, fmt_bytes).into(),
            opt(f.calldata_gas, fmt_thousands).into(),
            opt(f.security_bits, |b| format!("{b:.0}")).into(),
        ]);
    }
    t
}

/// The headline tables (each family's fastest spend when there are several
/// families, per statement, then the fastest configuration per system when
/// there are several systems), rendered by `render`.
fn headline_tables(recs: &[&Record], ctx: &Context, render: fn(&Table) -> String) -> String {
    let mut out = String::new();
    let families = family_table(recs, ctx);
    if families.len() > 1 {
        out += &render(&families);
    }
    let head = headline_table(recs, ctx);
    if !head.is_empty() {
        out += &render(&head);
    }
    let fast = fastest_table(recs);
    if fast.len() > 1 {
        out += &render(&fast);
    }
    out
}

/// Failed, timed-out or skipped records, shown as failures (not dropped from the report).
fn failures_html(recs: &[&Record]) -> String {
    let bad: Vec<&&Record> = recs.iter().filter(|r| r.status != Status::Ok).collect();
    let mut t = Table::new(format!("Failures ({})", bad.len()))
        .columns(&["case", "phase", "status", "reason"], &[]);
    for r in bad {
        t.row_with_class(
            "bad",
            vec![
                r.case_id.clone().into(),
                r.phase.clone().into(),
                format!("{:?}", r.status).to_lowercase().into(),
                r.error.clone().unwrap_or_default().into(),
            ],
        );
    }
    non_empty(t, Table::html)
}

/// One bar chart per proof system: which of its configurations proves fastest.
fn per_system_bar_charts(recs: &[&Record]) -> Vec<String> {
    let mut by_system: BTreeMap<String, Vec<(String, f64)>> = BTreeMap::new();
    for r in recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Proof && r.phase == "prove" && r.status == Status::Ok)
    {
        if let Some(m) = r.median() {
            let mut label = format!(
                "{} {}",
                r.case.hash_label(),
                r.case.circuit.map(|c| c.name()).unwrap_or("-")
            );
            if let Some(a) = r.case.arity {
                label += &format!(" a{a}");
            }
            if let Some(l) = r.case.leaves {
                label += &format!(" {}", format_leaves(l));
            }
            if let Some(d) = r.case.depth {
                label += &format!(" d{d}");
            }
            if r.case.threads > 0 {
                label += &format!(" t{}", r.case.threads);
            }
            by_system
                .entry(r.case.system.clone())
                .or_default()
                .push((label, m));
        }
    }
    by_system
        .into_iter()
        .filter_map(|(sys, mut bars)| {
            bars.sort_by(|a, b| a.1.total_cmp(&b.1));
            bar_chart(
                &format!("{sys}: which configuration proves fastest?"),
                "median prove time, s (log scale)",
                &bars,
            )
        })
        .collect()
}

/// The Markdown summary printed after a run.
pub fn markdown_summary(files: &[ResultsFile], ctx: &Context) -> String {
    // browser records (`zkbench run browser`) have their own table; every other section is
    // about native runs
    let all = all_records(files);
    let recs = native_only(&all);
    let mut out = String::new();
    if let Some(f) = files.first() {
        let e = &f.env;
        out += &format!(
            "zkbench {} · suite `{}` ({}) · {} · {} CPUs{} · {} · commit {} · {} build\n\n",
            e.zkbench_version,
            f.suite,
            f.profile,
            e.cpu_model,
            e.logical_cpus,
            msm_kernel_note(e),
            e.date,
            e.git_commit,
            e.build_profile
        );
    }
    if let Some(t) = crate::scaling::markdown(files) {
        out += &t;
        out.push('\n');
    }
    out += &headline_tables(&recs, ctx, Table::markdown);
    out += &non_empty(same_statement_table(&recs, ctx), Table::markdown);
    out += &browser_markdown(&all);
    out += &wasm_engines::markdown(&all);
    out += &hash_depth::markdown(&recs);
    out += &non_empty(proofs_table(&recs), Table::markdown);
    out += &non_empty(gas_table(&recs), Table::markdown);
    out += &pool::markdown(&recs);
    out += &non_empty(hash_table(&recs), Table::markdown);
    out += &primitives::markdown(&recs);
    let failed: Vec<&&Record> = recs.iter().filter(|r| r.status != Status::Ok).collect();
    if !failed.is_empty() {
        out += "### Not measured\n\n";
        for r in failed {
            out += &format!(
                "- {} [{}]: {:?} — {}\n",
                r.case_id,
                r.phase,
                r.status,
                r.error.as_deref().unwrap_or("")
            );
        }
    }
    out
}

/// The proof cases' phases (median wall time), sizes and the prove / MSM ratio.
fn proofs_table(recs: &[&Record]) -> Table {
    let mut t = Table::new("Proofs (median wall time)").columns(
        &["case"],
        &[
            "constraints / rows",
            "setup",
            "witness",
            "prove (cold)",
            "prove",
            "first / later proof",
            "verify",
            "proof",
            "peak RSS (prove)",
            "G1 MSM, same size",
            "prove / MSM",
        ],
    );
    for id in &unique_ids(recs, CaseKind::Proof) {
        t.row(proof_row(recs, id));
    }
    t
}

/// One row of [`proofs_table`].
fn proof_row(recs: &[&Record], id: &str) -> Vec<Cell> {
    let dash = || "-".to_string();
    let get = |p: &str| {
        phase_median(recs, id, p)
            .map(fmt_seconds)
            .unwrap_or_else(dash)
    };
    let prove = recs.iter().find(|r| r.case_id == id && r.phase == "prove");
    let metric = |k: &str| headline::metric(recs, id, k);
    let msm = phase_median(recs, id, "msm");
    let ratio = match (phase_median(recs, id, "prove"), msm) {
        (Some(p), Some(m)) if m > 0.0 => format!("{:.1}×", p / m),
        _ => dash(),
    };
    // a user's first proof (keys from disk, witness, proof) against each
    // later one (witness, proof)
    let first = match (
        phase_median(recs, id, "prove_cold"),
        phase_median(recs, id, "witness"),
        phase_median(recs, id, "prove"),
    ) {
        (Some(c), Some(w), Some(p)) if w + p > 0.0 => format!("{:.2}×", c / (w + p)),
        _ => dash(),
    };
    let test_setup = recs.iter().any(|r| r.case_id == id && r.test_setup);
    let size = match (metric("constraints"), metric("k"), metric("rows")) {
        (Some(c), _, _) => fmt_count(c),
        (None, Some(k), Some(rows)) => format!("k={k:.0}, {rows:.0} rows"),
        _ => dash(),
    };
    [
        format!("{id}{}", if test_setup { " (test setup)" } else { "" }),
        size,
        get("setup"),
        get("witness"),
        get("prove_cold"),
        get("prove"),
        first,
        get("verify"),
        metric("proof_bytes").map(fmt_bytes).unwrap_or_else(dash),
        prove
            .and_then(|r| r.peak_rss_bytes)
            .map(|b| fmt_bytes(b as f64))
            .unwrap_or_else(dash),
        msm.map(fmt_seconds).unwrap_or_else(dash),
        ratio,
    ]
    .into_iter()
    .map(Cell::new)
    .collect()
}

/// Native hash permutations, fastest first.
fn hash_table(recs: &[&Record]) -> Table {
    let mut rows: Vec<&&Record> = recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Hash && r.status == Status::Ok)
        .collect();
    rows.sort_by(|a, b| {
        a.median()
            .partial_cmp(&b.median())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut t = Table::new("Native hash permutations (single thread)").columns(
        &["hash"],
        &["width", "time / permutation", "permutations / s"],
    );
    for r in rows {
        t.row(vec![
            r.case.hash_label().into(),
            r.case.width.unwrap_or(0).to_string().into(),
            r.median().map(fmt_seconds).unwrap_or_default().into(),
            r.metrics
                .get("permutations_per_s")
                .map(|v| fmt_count(*v))
                .unwrap_or_default()
                .into(),
        ]);
    }
    t
}

/// Rows of the on-chain verification table: one per ok `evm` record with gas metrics.
fn gas_rows<'a>(recs: &[&'a Record]) -> Vec<&'a Record> {
    let mut rows: Vec<&Record> = recs
        .iter()
        .copied()
        .filter(|r| {
            r.case.kind == CaseKind::Evm
                && r.status == Status::Ok
                && r.metrics.contains_key("gas_verify")
        })
        .collect();
    rows.sort_by(|a, b| {
        let key = |r: &Record| {
            (
                r.metrics.get("public_inputs").copied().unwrap_or(0.0) as u64,
                r.case.circuit,
                r.metrics.get("gas_verify").copied().unwrap_or(0.0) as u64,
            )
        };
        key(a).cmp(&key(b))
    });
    rows
}

/// One row's cells: verifier, statement, l, verify gas, vs floor, tx gas, deploy gas, bytecode, calldata.
fn gas_cells(r: &Record) -> [String; 9] {
    let m = |k: &str| r.metrics.get(k).copied();
    let n = |k: &str| m(k).map(fmt_thousands).unwrap_or_else(|| "-".into());
    let vs_floor = match (m("gas_verify"), m("gas_floor")) {
        (Some(g), Some(f)) if f > 0.0 => format!("{:+.2}%", (g / f - 1.0) * 100.0),
        _ => "-".into(),
    };
    let mut statement = vec![r.case.hash_label()];
    if let Some(c) = r.case.circuit {
        statement.push(c.name().into());
    }
    if let Some(a) = r.case.arity {
        statement.push(format!("arity {a}"));
    }
    if let Some(l) = r.case.leaves {
        statement.push(format!("{} leaves", format_leaves(l)));
    }
    if let Some(d) = r.case.depth {
        statement.push(format!("depth {d}"));
    }
    [
        r.case.system.clone(),
        statement.join(" · "),
        n("public_inputs"),
        match m("gas_floor") {
            Some(_) => format!("{} (floor {})", n("gas_verify"), n("gas_floor")),
            None => n("gas_verify"),
        },
        vs_floor,
        n("gas_tx"),
        n("gas_deploy"),
        format!(
            "{}{}",
            n("bytecode_bytes"),
            if m("bytecode_bytes").is_some_and(|b| b > 24_576.0) {
                " (over EIP-170)"
            } else {
                ""
            }
        ),
        n("calldata_bytes"),
    ]
}

const GAS_HEADERS: [&str; 9] = [
    "verifier",
    "statement",
    "public inputs ℓ",
    "verify gas (execution)",
    "vs floor 181,000 + 6,150·ℓ",
    "transaction gas",
    "deploy gas",
    "runtime bytecode (EIP-170: 24,576 B)",
    "calldata (B)",
];

/// The on-chain verification table.
fn gas_table(recs: &[&Record]) -> Table {
    let mut t = Table::new("On-chain verification (revm, Cancun)")
        .columns(&GAS_HEADERS[..2], &GAS_HEADERS[2..]);
    for r in gas_rows(recs) {
        t.row(gas_cells(r).into_iter().map(Cell::from).collect());
    }
    t
}

fn unique_ids(recs: &[&Record], kind: CaseKind) -> Vec<String> {
    let mut seen = BTreeSet::new();
    recs.iter()
        .filter(|r| r.case.kind == kind)
        .filter(|r| seen.insert(r.case_id.clone()))
        .map(|r| r.case_id.clone())
        .collect()
}

fn series_label(r: &Record) -> String {
    let mut s = format!("{} {}", r.case.system, r.case.hash_label());
    if let Some(l) = r.case.leaves {
        s += &format!(" {} leaves", format_leaves(l));
    }
    if r.threads > 0 {
        s += &format!(
            " · {} thread{}",
            r.threads,
            if r.threads == 1 { "" } else { "s" }
        );
    }
    s
}

fn collect_series(
    recs: &[&Record],
    phase: &str,
    pick: impl Fn(&Record) -> Option<(f64, f64)>,
) -> Series {
    let mut m: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in recs
        .iter()
        .filter(|r| r.phase == phase && r.status == Status::Ok)
    {
        if let Some(p) = pick(r) {
            m.entry(series_label(r)).or_default().push(p);
        }
    }
    m.into_iter().filter(|(_, v)| !v.is_empty()).collect()
}

/// The self-contained HTML report.
pub fn html_report(files: &[ResultsFile], ctx: &Context) -> String {
    // browser records (`zkbench run browser`) have their own table; every other section is
    // about native runs
    let all = all_records(files);
    let recs = native_only(&all);
    // the hash grid has its own section (`hash_depth`) with a chart per system family
    let grid = hash_depth::html(&recs);
    let charts = overview_charts(&recs, grid.is_empty());
    let mut html = String::from(HEAD);
    if let Some(f) = files.first() {
        let e = &f.env;
        html += &format!(
            "<h1>zkbench report</h1><p class=meta>suite <b>{}</b> · profile {} · {} · {} logical CPUs{} · {} · {} · rustc {} · zkbench {} (commit {}, {} build) · {}</p>",
            esc(&f.suite), esc(&f.profile), esc(&e.cpu_model), e.logical_cpus, esc(&msm_kernel_note(e)),
            e.memory_bytes.map(|m| fmt_bytes(m as f64)).unwrap_or_default(), esc(&e.os), esc(&e.rustc),
            esc(&e.zkbench_version), esc(&e.git_commit), esc(&e.build_profile), esc(&e.date)
        );
        if files.len() > 1 {
            html += &format!("<p class=meta>{} result files merged.</p>", files.len());
        }
    }
    if recs.iter().any(|r| r.test_setup) {
        html += "<p class=warn>Keys marked <b>test setup</b> come from a setup whose toxic waste is known (deterministic seed): fine for benchmarking, never for production.</p>";
    }
    html += &crate::scaling::html(files).unwrap_or_default();
    html += &headline_tables(&recs, ctx, Table::html);
    html += &non_empty(same_statement_table(&recs, ctx), Table::html);
    html += &browser_html(&all);
    html += &wasm_engines::html(&all);
    html += &failures_html(&all);
    html += &grid;
    html += "<div class=charts>";
    for c in &charts {
        html += &format!("<figure>{c}</figure>");
    }
    html += "</div>";
    html += &primitives::html(&recs);
    html += &non_empty(gas_table(&recs), Table::html);
    html += &pool::html(&recs);
    html += &crate::pareto::html(&recs);
    html += &crate::security::html(&recs);
    html += &all_measurements_html(&recs);
    html += TAIL;
    html
}

/// A chart of proof cases (other than batch roots) against arity: title, y label, log y,
/// the value of a `prove` record.
type ArityChart = (&'static str, &'static str, bool, fn(&Record) -> Option<f64>);

/// The overview's charts against arity: prove time, then (after the batch-root chart) peak
/// memory, circuit size and proof size.
const BY_ARITY: [ArityChart; 4] = [
    (
        "Prove time vs tree arity (median, warm)",
        "prove time (s)",
        true,
        |r| r.median(),
    ),
    (
        "Peak memory while proving vs arity",
        "peak RSS (MiB)",
        false,
        |r| Some(r.peak_rss_bytes? as f64 / 1048576.0),
    ),
    ("Circuit size vs arity", "constraints", true, |r| {
        r.metrics.get("constraints").copied()
    }),
    ("Proof size vs arity", "proof size (bytes)", false, |r| {
        r.metrics.get("proof_bytes").copied()
    }),
];

/// One [`ArityChart`], one line per series ([`collect_series`]).
fn arity_chart(recs: &[&Record], (title, y_label, log_y, value): &ArityChart) -> Option<String> {
    let s = collect_series(recs, "prove", |r| {
        if r.case.kind != CaseKind::Proof || r.case.circuit == Some(Circuit::BatchRoot) {
            return None;
        }
        Some((r.case.arity? as f64, value(r)?))
    });
    line_chart(title, "arity (children per node)", y_label, &s, *log_y)
}

/// The report's overview charts: prove time, memory, circuit and proof size against arity,
/// batch-root prove time against depth (unless the hash grid has its own section), each
/// system's configurations, native hash throughput.
fn overview_charts(recs: &[&Record], no_grid: bool) -> Vec<String> {
    let mut charts: Vec<String> = Vec::new();
    charts.extend(arity_chart(recs, &BY_ARITY[0]));
    let s = collect_series(recs, "prove", |r| {
        if r.case.circuit != Some(Circuit::BatchRoot) || !no_grid {
            return None;
        }
        Some((r.case.depth? as f64, r.median()?))
    });
    charts.extend(line_chart(
        "Batch-root prove time vs depth",
        "depth d (tree of arity^d leaves)",
        "prove time (s)",
        &s,
        true,
    ));
    charts.extend(BY_ARITY[1..].iter().filter_map(|c| arity_chart(recs, c)));
    charts.extend(per_system_bar_charts(recs));
    let mut bars: Vec<(String, f64)> = recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Hash && r.status == Status::Ok)
        .filter_map(|r| {
            Some((
                format!("{} t={}", r.case.hash_label(), r.case.width?),
                *r.metrics.get("permutations_per_s")?,
            ))
        })
        .collect();
    bars.sort_by(|a, b| b.1.total_cmp(&a.1));
    charts.extend(bar_chart(
        "Native permutation throughput (one thread)",
        "permutations per second (log scale)",
        &bars,
    ));
    charts
}

/// The sortable table of every record, with its metrics.
fn all_measurements_html(recs: &[&Record]) -> String {
    let metric_keys: Vec<&str> = recs
        .iter()
        .flat_map(|r| r.metrics.keys())
        .filter(|k| !["batch", "state_nonzero"].contains(&k.as_str()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(String::as_str)
        .collect();
    let mut t = Table::new("All measurements")
        .note("Click a column header to sort.")
        .sortable("t")
        .columns(
            &["case", "phase", "status"],
            &[
                "n",
                "median",
                "min",
                "p95",
                "max",
                "cpu (median)",
                "peak RSS",
                "threads",
            ],
        )
        .columns(&[], &metric_keys);
    for r in recs {
        t.row_with_class(
            if r.status == Status::Ok { "ok" } else { "bad" },
            measurement_row(r, &metric_keys),
        );
    }
    t.html()
}

/// One row of [`all_measurements_html`]: numbers carry their sort value.
fn measurement_row(r: &Record, metric_keys: &[&str]) -> Vec<Cell> {
    let num = |v: Option<f64>, f: &dyn Fn(f64) -> String| match v {
        Some(x) => Cell::new(f(x)).sort_value(x),
        None => Cell::new("-").sort_value(-1.0),
    };
    let count = |x: f64| format!("{x:.0}");
    let s = r.summary;
    let cpu_med = zkbench_results::stats::Summary::of(&r.cpu_s).map(|s| s.median);
    let tag = if r.test_setup {
        " <span class=tag>test setup</span>"
    } else {
        ""
    };
    let status = format!("{:?}", r.status).to_lowercase();
    let mut row = vec![
        Cell::new(r.case_id.clone()).with_html(format!("{}{tag}", esc(&r.case_id))),
        Cell::new(r.phase.clone()),
        Cell::new(status).tooltip(r.error.as_deref().unwrap_or("")),
        num(s.map(|s| s.n as f64), &count),
        num(s.map(|s| s.median), &fmt_seconds),
        num(s.map(|s| s.min), &fmt_seconds),
        num(s.map(|s| s.p95), &fmt_seconds),
        num(s.map(|s| s.max), &fmt_seconds),
        // CPU time is read in clock ticks (10 ms): shorter phases show as below resolution.
        num(cpu_med, &|x| {
            if x < 0.01 {
                "<10 ms".into()
            } else {
                fmt_seconds(x)
            }
        }),
        num(r.peak_rss_bytes.map(|b| b as f64), &fmt_bytes),
        num(Some(r.threads as f64), &count),
    ];
    row.extend(
        metric_keys
            .iter()
            .map(|k| num(r.metrics.get(*k).copied(), &fmt_count)),
    );
    row
}

const HEAD: &str = r#"<!doctype html><html lang=en><head><meta charset=utf-8><title>zkbench report</title>
<meta name=viewport content="width=device-width,initial-scale=1">
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#222;max-width:1600px}
h1{margin:0 0 4px}.meta{color:#555;font-size:14px}.warn{background:#fff4e5;border-left:4px solid #f0a020;padding:8px 12px}
.charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;border:1px solid #ddd;border-radius:6px;padding:4px;background:#fff}
table{border-collapse:collapse;font-size:13px;margin-top:8px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:right;white-space:nowrap}
th{background:#f4f4f4;cursor:pointer;position:sticky;top:0}td:first-child,td:nth-child(2),td:nth-child(3),th:first-child,th:nth-child(2),th:nth-child(3){text-align:left}
tr.bad td{background:#fdecea}.tag{background:#f0a020;color:#fff;border-radius:3px;padding:0 4px;font-size:11px}
</style></head><body>
"#;

const TAIL: &str = r#"<script>
let dir={};function sortBy(c){const tb=document.querySelector('#t tbody');const rows=[...tb.rows];dir[c]=!dir[c];
rows.sort((a,b)=>{const x=a.cells[c],y=b.cells[c];const vx=x.dataset.v,vy=y.dataset.v;
let r=(vx!==undefined&&vy!==undefined)?(parseFloat(vx)-parseFloat(vy)):x.textContent.localeCompare(y.textContent);return dir[c]?r:-r;});
rows.forEach(r=>tb.appendChild(r));}
</script></body></html>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gas_table_lists_evm_records() {
        use zkbench_results::case::Case;
        let case = Case {
            kind: CaseKind::Evm,
            alpha: Some(5),
            ..crate::fixtures::membership_case("zkbench", "poseidon2")
        };
        let mut r = Record::new(&case, "verify", 1, &Default::default());
        for (k, v) in [
            ("gas_verify", 188_484.0),
            ("gas_floor", 187_300.0),
            ("gas_tx", 214_144.0),
            ("gas_deploy", 288_349.0),
            ("bytecode_bytes", 1_087.0),
            ("calldata_bytes", 292.0),
            ("public_inputs", 1.0),
        ] {
            r.metrics.insert(k.into(), v);
        }
        let md = non_empty(gas_table(&[&r]), Table::markdown);
        assert!(md.contains("| zkbench | poseidon2-a5 · membership · arity 2 · 2^32 leaves | 1 | 188,484 (floor 187,300) | +0.63% | 214,144 | 288,349 | 1,087 | 292 |"), "{md}");
        assert!(
            non_empty(gas_table(&[&r]), Table::html).contains("<td>188,484 (floor 187,300)</td>")
        );
        r.status = Status::Error;
        assert!(non_empty(gas_table(&[&r]), Table::markdown).is_empty());
    }

    #[test]
    fn browser_records_pair_with_native_ones_and_stay_out_of_the_headline() {
        let rec = |system: &str, browser: bool, s: f64| {
            let case = crate::fixtures::membership_case(system, "poseidon");
            let mut r = Record::new(&case, "prove", 2, &Default::default());
            if browser {
                r.case_id = format!("{BROWSER_PREFIX}{}", r.case_id);
            }
            r.set_samples(vec![s], vec![]);
            r
        };
        let native = rec("groth16", false, 0.4);
        let mut wasm = rec("groth16", true, 1.0);
        wasm.env.user_agent = Some("HeadlessChrome/156 <x>".into());
        wasm.env.wasm_build = Some("threads (simd128, wide-arithmetic)".into());
        let snarkjs = rec("snarkjs", true, 5.0);
        let recs = [&native, &wasm, &snarkjs];
        let rows = browser_rows(&recs);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0].case,
            "groth16/poseidon/membership/arity2/2^32/threads-all"
        );
        assert!((rows[0].ratio().unwrap() - 2.5).abs() < 1e-12);
        assert_eq!(rows[1].ratio(), None, "snarkjs has no native twin");
        let md = browser_markdown(&recs);
        assert!(md.contains("**2.50×**"), "{md}");
        assert!(
            md.contains("zkbench groth16 1.00 s / snarkjs 5.00 s = **0.20×**"),
            "{md}"
        );
        assert!(
            md.contains(
                "browser: HeadlessChrome/156 <x>; module: threads (simd128, wide-arithmetic)"
            ),
            "{md}"
        );
        let html = browser_html(&recs);
        assert!(html.contains("<b>2.50×</b>"));
        assert!(
            html.contains("HeadlessChrome/156 &lt;x&gt;"),
            "user strings escaped: {html}"
        );
        assert_eq!(native_only(&recs).len(), 1);
    }

    #[test]
    fn the_msm_kernel_is_named_where_recorded() {
        let mut e = zkbench_results::Environment::default();
        assert_eq!(msm_kernel_note(&e), "");
        e.msm_kernel = Some("avx2-fma".into());
        assert_eq!(msm_kernel_note(&e), " · MSM kernel avx2-fma");
    }

    #[test]
    fn thousands_format() {
        assert_eq!(fmt_thousands(188_484.0), "188,484");
        assert_eq!(fmt_thousands(999.0), "999");
        assert_eq!(fmt_thousands(1_000.0), "1,000");
        assert_eq!(fmt_thousands(24_576.0), "24,576");
    }

    #[test]
    fn seconds_format() {
        assert_eq!(fmt_seconds(0.0000005), "500 ns");
        assert_eq!(fmt_seconds(0.000812), "812.0 µs");
        assert_eq!(fmt_seconds(0.0413), "41.3 ms");
        assert_eq!(fmt_seconds(1.266), "1.27 s");
    }

    #[test]
    fn charts_render_svg() {
        let s: Series = vec![
            ("a".into(), vec![(2.0, 0.5), (4.0, 0.25), (8.0, 0.3)]),
            ("b".into(), vec![(2.0, 1.0)]),
        ];
        let svg = line_chart("T", "arity", "prove time (s)", &s, true).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("arity") && svg.contains("prove time (s)"));
        assert!(line_chart("T", "x", "y", &vec![], true).is_none());
        let b = bar_chart(
            "B",
            "perm/s",
            &[("poseidon t=3".into(), 1e5), ("mimc t=2".into(), 2e4)],
        )
        .unwrap();
        assert!(b.contains("poseidon t=3"));
    }
}
