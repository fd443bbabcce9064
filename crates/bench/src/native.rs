//! Native hash-permutation throughput (`hash` cases), single-threaded.

use zkbench_hash::{Fr, HashFamily};
use zkbench_wasm::hashes::calibrated_batch;

use crate::{
    backend::Backend,
    case::{Case, CaseKind},
    measure,
    results::{Record, Status},
    suite::Profile,
    sys::Environment,
};

/// Native permutation throughput, single-threaded.
pub struct NativeHash;

impl Backend for NativeHash {
    fn name(&self) -> &'static str {
        "native"
    }

    fn description(&self) -> &'static str {
        "native hash permutations (zkbench-hash), single-threaded throughput"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Hash
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        let fail = |e: String| vec![Record::failed(case, "hash", Status::Error, e, env)];
        let fam: HashFamily = match case.hash.parse() {
            Ok(f) => f,
            Err(e) => return fail(format!("{e}")),
        };
        let perm = match fam.permutation(case.width, case.alpha) {
            Ok(p) => p,
            Err(e) => return fail(e.to_string()),
        };
        let t = perm.width();
        let (mut state, batch) = calibrated_batch(perm.as_ref());
        let s = measure::sample::<()>(profile, || {
            for _ in 0..batch {
                perm.permute_mut(&mut state);
            }
            Ok(())
        })
        .expect("infallible");
        let mut r = Record::new(case, "hash", 1, env);
        let per_perm: Vec<f64> = s.wall.iter().map(|w| w / batch as f64).collect();
        let cpu: Vec<f64> = s.cpu.iter().map(|w| w / batch as f64).collect();
        r.set_samples(per_perm, cpu);
        r.peak_rss_bytes = s.peak_rss;
        if let Some(m) = r.median() {
            r.metrics.insert("permutations_per_s".into(), 1.0 / m);
        }
        r.metrics.insert("batch".into(), batch as f64);
        r.metrics.insert("width".into(), t as f64);
        // Keep the final state observable so the loop cannot be optimised away.
        r.metrics.insert(
            "state_nonzero".into(),
            f64::from(u8::from(state[0] != Fr::from(0u64))),
        );
        vec![r]
    }
}
