//! Primitive and polynomial-commitment cases (`msm`, `fft`, `pairing`,
//! `field`, `pcs-commit`): [`Primitives`] measures the workloads of
//! `zkbench-primitives` with the same sampling as every other phase.
//!
//! Before preparing a case it compares the case's memory estimate
//! ([`zkbench_primitives::estimate_bytes`]) with the memory available now
//! (`MemAvailable`): a case that would not fit is recorded as
//! `out-of-memory` without allocating (the memory ceiling of the `pcs`
//! suite), one that fits but is killed anyway is recorded as such by the
//! runner. Each record carries `ns_per_<item>` and `<items>_per_s`
//! (`points` for MSM and FFT, `coefficients` for commitments, `pairs`,
//! `ops`), the item count, the estimate, the preparation time and the
//! workload's own metrics.

use zkbench_core::{CaseKind, Metrics};

use crate::{
    backend::Backend,
    case::Case,
    measure,
    results::{Record, Status},
    suite::Profile,
    sys::Environment,
};

/// Name of the backend in `zkbench list`.
pub const BACKEND_NAME: &str = "primitives";

/// The backend of primitive and commitment cases.
pub struct Primitives;

/// What one item of a kind is called in metric names.
pub fn item_name(kind: CaseKind) -> &'static str {
    match kind {
        CaseKind::Msm | CaseKind::Fft => "point",
        CaseKind::Pairing => "pair",
        CaseKind::Field => "op",
        _ => "coefficient",
    }
}

impl Backend for Primitives {
    fn name(&self) -> &'static str {
        BACKEND_NAME
    }

    fn description(&self) -> &'static str {
        "primitives and polynomial commitments (zkbench-primitives): BN254 MSM (zkbench, arkworks, halo2curves), FFT, pairing, field; KZG, IPA (halo2-axiom), FRI (plonky3)"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind.is_primitive()
            && zkbench_primitives::supported(case.kind, &case.system, &case.hash)
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        let estimate = zkbench_primitives::estimate_bytes(case);
        if let Some(r) = out_of_memory(case, estimate, env) {
            return vec![r];
        }
        let (mut w, prep) = match measure::once(|| zkbench_primitives::prepare(case)) {
            Ok(v) => v,
            Err(e) => {
                let status = match e {
                    zkbench_primitives::Error::Unsupported(_) => Status::Skipped,
                    _ => Status::Error,
                };
                return vec![Record::failed(case, "all", status, e.to_string(), env)];
            }
        };
        let threads = rayon::current_num_threads();
        let mut out = Vec::new();
        for (i, (kind, phase)) in w.phases().into_iter().enumerate() {
            let c = Case {
                kind,
                ..case.clone()
            };
            let s = match measure::sample(profile, || w.run(i)) {
                Ok(s) => s,
                Err(e) => {
                    out.push(Record::failed(&c, phase, Status::Error, e.to_string(), env));
                    return out;
                }
            };
            let mut r = Record::new(&c, phase, threads, env);
            r.set_samples(s.wall, s.cpu);
            r.peak_rss_bytes = s.peak_rss;
            let m = phase_metrics(w.as_ref(), i, kind, &r, prep.wall[0], estimate);
            r.metrics.extend(m);
            out.push(r);
        }
        out
    }
}

/// The `out-of-memory` record of a case whose memory estimate exceeds the memory available
/// now (not attempted), with both figures as metrics; `None` when it fits or either figure
/// is unknown.
fn out_of_memory(case: &Case, estimate: Option<u64>, env: &Environment) -> Option<Record> {
    if let (Some(need), Some(avail)) = (estimate, zkbench_primitives::mem_available_bytes()) {
        if need > avail {
            let mut r = Record::failed(
                case,
                "all",
                Status::OutOfMemory,
                format!(
                    "needs about {:.1} GiB, {:.1} GiB available: not attempted",
                    need as f64 / (1u64 << 30) as f64,
                    avail as f64 / (1u64 << 30) as f64
                ),
                env,
            );
            r.metrics.insert("estimated_bytes".into(), need as f64);
            r.metrics.insert("mem_available_bytes".into(), avail as f64);
            return Some(r);
        }
    }
    None
}

/// The metrics of phase `i` (of `kind`) of workload `w`, sampled into `r`: the item count,
/// the preparation time `prepare_s`, the memory estimate when known, per-item wall and CPU
/// times and throughput from `r`'s medians, then the workload's own metrics.
fn phase_metrics(
    w: &dyn zkbench_primitives::Workload,
    i: usize,
    kind: CaseKind,
    r: &Record,
    prepare_s: f64,
    estimate: Option<u64>,
) -> Metrics {
    let items = w.items(i);
    let mut m = Metrics::from([
        ("items".to_string(), items as f64),
        ("prepare_s".to_string(), prepare_s),
    ]);
    if let Some(e) = estimate {
        m.insert("estimated_bytes".into(), e as f64);
    }
    if let Some(t) = r.median() {
        let item = item_name(kind);
        m.insert(format!("ns_per_{item}"), t * 1e9 / items as f64);
        m.insert(format!("{item}s_per_s"), items as f64 / t);
        // CPU time of all threads per item: steadier than wall time on a
        // machine shared with other work (wall = CPU / threads when idle)
        if let Some(c) = zkbench_core::stats::Summary::of(&r.cpu_s)
            .map(|s| s.median)
            .filter(|&c| c > 0.0)
        {
            m.insert(format!("cpu_ns_per_{item}"), c * 1e9 / items as f64);
        }
    }
    m.extend(w.metrics(i));
    m
}
