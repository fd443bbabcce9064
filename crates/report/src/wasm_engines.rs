//! The report's WebAssembly-engines section (suite `wasm-engines`, the Ewasm
//! post's workloads, docs/papers.md): one module's MiMC hash and Groth16 verification per engine (V8
//! Liftoff, V8 TurboFan, V8 jitless, wasmtime) beside the same Rust code
//! natively, against the post's figures. Records of that suite have case
//! ids starting with [`ENGINES_PREFIX`] and appear only here.
//!
//! [`html`] and [`markdown`] return nothing when there is no such record.

use zkbench_results::{
    case::CaseKind,
    results::{Record, Status},
    stats::median,
};

use crate::{
    format::fmt_seconds,
    table::{non_empty, Align, Cell, Table},
};

/// Prefix of the case ids of the `wasm-engines` suite's records
/// (`peers/wasm-engines/run.mjs`).
pub const ENGINES_PREFIX: &str = "wasm-engines/";

/// The Ewasm post: MiMC hash in V8 Liftoff (AssemblyScript), seconds.
pub const EWASM_MIMC_LIFTOFF_S: f64 = 0.25e-3;
/// The Ewasm post: Groth16 verification in V8 Liftoff (websnark port), seconds.
pub const EWASM_VERIFY_LIFTOFF_S: f64 = 26e-3;
/// The Ewasm post: EVM-parity target for one MiMC hash (1M gas / 20 hashes at 10M gas per 300 ms).
pub const EVM_MIMC_S: f64 = 1.5e-3;
/// The Ewasm post: EVM-parity target for a Groth16 verification (600k gas).
pub const EVM_VERIFY_S: f64 = 18e-3;

/// Engines in the order the section lists them.
const ORDER: [&str; 5] = [
    "native",
    "wasmtime",
    "wasm-v8-turbofan",
    "wasm-v8-liftoff",
    "wasm-v8-jitless",
];

/// One engine's two measurements or why they are missing. Times are median
/// CPU seconds of the measuring thread when the runner gave them (on a
/// shared machine wall time also counts waiting for a core), else median
/// wall seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineRow {
    /// `case.system`: the engine.
    pub engine: String,
    /// One MiMC hash (`hashLeftRight`), median seconds (CPU, else wall).
    pub mimc_s: Option<f64>,
    /// One Groth16 verification, median seconds (CPU, else wall).
    pub verify_s: Option<f64>,
    /// Median wall seconds of the MiMC hash and of the verification.
    pub wall_s: (Option<f64>, Option<f64>),
    /// Why a measurement is missing (the record's status and error).
    pub note: Option<String>,
}

/// Median CPU seconds when the record has CPU samples, else median wall seconds.
fn time_of(r: &Record) -> Option<f64> {
    median(&r.cpu_s).or_else(|| r.median())
}

/// Whether `r` is a `wasm-engines` record.
pub fn is_engine_record(r: &Record) -> bool {
    r.case_id.starts_with(ENGINES_PREFIX)
}

/// The engines measured: native first, then the WebAssembly engines in the
/// section's order, then any others by name.
pub fn rows(recs: &[&Record]) -> Vec<EngineRow> {
    let mut out: Vec<EngineRow> = Vec::new();
    for r in recs.iter().filter(|r| is_engine_record(r)) {
        let i = match out.iter().position(|x| x.engine == r.case.system) {
            Some(i) => i,
            None => {
                out.push(EngineRow {
                    engine: r.case.system.clone(),
                    ..Default::default()
                });
                out.len() - 1
            }
        };
        let row = &mut out[i];
        if r.status != Status::Ok {
            let why = format!(
                "{:?}: {}",
                r.status,
                r.error.as_deref().unwrap_or("no reason given")
            );
            if row.note.as_deref() != Some(why.as_str()) {
                row.note = Some(match row.note.take() {
                    Some(n) => format!("{n}; {why}"),
                    None => why,
                });
            }
            continue;
        }
        match (r.case.kind, r.phase.as_str()) {
            (CaseKind::Hash, "hash") => {
                row.mimc_s = time_of(r);
                row.wall_s.0 = r.median();
            }
            (CaseKind::Proof, "verify") => {
                row.verify_s = time_of(r);
                row.wall_s.1 = r.median();
            }
            _ => {}
        }
    }
    let rank = |e: &str| ORDER.iter().position(|o| *o == e).unwrap_or(ORDER.len());
    out.sort_by(|a, b| (rank(&a.engine), &a.engine).cmp(&(rank(&b.engine), &b.engine)));
    out
}

fn ratio(x: Option<f64>, reference: f64) -> String {
    x.map(|v| format!("{:.2}×", v / reference))
        .unwrap_or_else(|| "-".into())
}

fn secs(x: Option<f64>) -> String {
    x.map(fmt_seconds).unwrap_or_else(|| "-".into())
}

/// Cells of one row: engine, MiMC, its ratios to the post's figure and the EVM target,
/// verify, its ratios, both over native.
fn cells(r: &EngineRow, native: Option<&EngineRow>) -> [String; 10] {
    let over_native = |x: Option<f64>, n: Option<f64>| match (x, n) {
        (Some(x), Some(n)) if n > 0.0 => format!("{:.1}×", x / n),
        _ => "-".into(),
    };
    [
        r.engine.clone(),
        secs(r.mimc_s),
        ratio(r.mimc_s, EWASM_MIMC_LIFTOFF_S),
        ratio(r.mimc_s, EVM_MIMC_S),
        secs(r.verify_s),
        ratio(r.verify_s, EWASM_VERIFY_LIFTOFF_S),
        ratio(r.verify_s, EVM_VERIFY_S),
        format!(
            "{} / {}",
            over_native(r.mimc_s, native.and_then(|n| n.mimc_s)),
            over_native(r.verify_s, native.and_then(|n| n.verify_s))
        ),
        format!("{} / {}", secs(r.wall_s.0), secs(r.wall_s.1)),
        r.note.clone().unwrap_or_default(),
    ]
}

const HEADER: [&str; 10] = [
    "engine",
    "MiMC hash",
    "/ Ewasm post Liftoff (0.25 ms)",
    "/ EVM parity (1.5 ms)",
    "Groth16 verify",
    "/ Ewasm post Liftoff (26 ms)",
    "/ EVM parity (18 ms)",
    "/ native (MiMC / verify)",
    "wall time (MiMC / verify)",
    "not measured",
];

const ABOUT: &str = "The same WebAssembly module (zkbench-wasm, single-threaded) per engine, beside the same Rust code natively; one MiMC hash is Tornado Cash's hashLeftRight (circomlib MiMCSponge, 220 rounds), one Groth16 verification is zkbench's verifier on its proof of a note spend (3 public inputs). The Ewasm post (2019) measured an AssemblyScript MiMC and a websnark-port verifier in V8 Liftoff (0.25 ms, 26 ms); its EVM-parity targets are 1.5 ms and 18 ms. Times are median CPU time of the measuring thread (process CPU time for the Node engines), which on a shared machine is what the engine spent; the wall-time medians are in their own column. A ratio below 1 beats the figure.";

/// The section's table: one row per engine (no row without `wasm-engines` records).
fn table(recs: &[&Record]) -> Table {
    let rows = rows(recs);
    let native = rows.iter().find(|r| r.engine == "native");
    let mut t = Table::new("WebAssembly engines (the Ewasm post's workloads; median)")
        .html_title("WebAssembly engines (the Ewasm post's workloads)")
        .about(ABOUT)
        .columns(&HEADER[..1], &HEADER[1..9])
        .column(HEADER[9], Align::Left);
    for r in &rows {
        t.row(cells(r, native).into_iter().map(Cell::from).collect());
    }
    t
}

/// The section in Markdown (empty without `wasm-engines` records).
pub fn markdown(recs: &[&Record]) -> String {
    non_empty(table(recs), Table::markdown)
}

/// The section in HTML (empty without `wasm-engines` records).
pub fn html(recs: &[&Record]) -> String {
    non_empty(table(recs), Table::html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::{case::Case, env::Environment};

    fn rec(system: &str, kind: CaseKind, phase: &str, s: f64, status: Status) -> Record {
        let case = Case {
            arity: Some(2),
            threads: 1,
            ..Case::new(kind, system, "mimc-sponge")
        };
        let mut r = Record::new(&case, phase, 1, &Environment::default());
        r.case_id = format!("{ENGINES_PREFIX}{}", case.id());
        r.status = status;
        if status == Status::Ok {
            r.set_samples(vec![s * 3.0], vec![s]);
        } else {
            r.error = Some("no WebAssembly".into());
        }
        r
    }

    #[test]
    fn rows_pair_engines_with_the_posts_figures() {
        let recs = [
            rec(
                "wasm-v8-liftoff",
                CaseKind::Hash,
                "hash",
                0.5e-3,
                Status::Ok,
            ),
            rec(
                "wasm-v8-liftoff",
                CaseKind::Proof,
                "verify",
                13e-3,
                Status::Ok,
            ),
            rec("native", CaseKind::Hash, "hash", 0.1e-3, Status::Ok),
            rec("native", CaseKind::Proof, "verify", 2.6e-3, Status::Ok),
            rec(
                "wasm-v8-jitless",
                CaseKind::Hash,
                "hash",
                0.0,
                Status::Skipped,
            ),
        ];
        let refs: Vec<&Record> = recs.iter().collect();
        let rows = rows(&refs);
        assert_eq!(
            rows.iter().map(|r| r.engine.as_str()).collect::<Vec<_>>(),
            ["native", "wasm-v8-liftoff", "wasm-v8-jitless"]
        );
        let md = markdown(&refs);
        // liftoff: 0.5 ms is 2x the post's 0.25 ms; 13 ms is half its 26 ms; 5x native
        assert!(md.contains("| wasm-v8-liftoff | 500.0 µs | 2.00× | 0.33× | 13.0 ms | 0.50× | 0.72× | 5.0× / 5.0× | 1.5 ms / 39.0 ms |"), "{md}");
        assert!(md.contains("Skipped: no WebAssembly"), "{md}");
        assert!(html(&refs).contains("Ewasm post"));
        assert!(markdown(&[]).is_empty());
    }
}
