//! The MSM's vector kernel measured on its own in the engine that runs this
//! module: the fixed-base MSM (`zkbench_msm::FixedBaseTable::msm`) of random
//! BN254 points, with the kernel on and off in turn, so that a kernel
//! change is judged by a ratio taken in one page, not by whole proofs on a
//! noisy machine. `web/scripts/kernel-bench.mjs` drives it in headless
//! Chromium or Firefox (docs/browser.md, "What bounds the browser").

use ark_ec::short_weierstrass::Projective;
use ark_ec::CurveGroup;
use ark_ff::{PrimeField, UniformRand};
use rand::SeedableRng;
use wasm_bindgen::prelude::*;
use zkbench_msm::{FixedBaseTable, MsmField, RawCurve, Scalar, VectorKernel};

/// A fixed-base table of `n` random points of the curve `P` and `n` random
/// scalars, from `seed`.
struct Case<P: RawCurve> {
    table: FixedBaseTable<P>,
    scalars: Vec<Scalar>,
}

impl<P: RawCurve> Case<P>
where
    P::BaseField: MsmField,
{
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let g = Projective::<P>::rand(&mut rng);
        // g, 2g, 3g, …: one addition each (the bases need not be independent)
        let points: Vec<_> = std::iter::successors(Some(g), |p| Some(*p + g))
            .take(n)
            .collect();
        let bases = Projective::normalize_batch(&points);
        let scalars = (0..n)
            .map(|_| ark_bn254::Fr::rand(&mut rng).into_bigint())
            .collect();
        Case {
            table: FixedBaseTable::new(&bases, 1),
            scalars,
        }
    }

    /// Milliseconds of one MSM with the kernel `on` or off (same sum).
    fn time(&self, on: bool) -> f64 {
        VectorKernel::set_on(on);
        let t = web_time::Instant::now();
        let _ = std::hint::black_box(self.table.msm(&self.scalars));
        t.elapsed().as_secs_f64() * 1e3
    }
}

/// The fastest of `rounds` MSMs of `2^log2` points of G1 (`g2`: of G2) with
/// the MSM's vector kernel on and off, alternating, after one of each to
/// warm up: `{"kernel_ms", "scalar_ms", "points"}` as JSON. The kernel's
/// default is restored afterwards. `log2` is 4 to 20; in a module without a
/// kernel both figures time the scalar path.
#[wasm_bindgen(js_name = benchMsmKernel)]
pub fn bench_msm_kernel(log2: u32, g2: bool, rounds: u32) -> Result<String, JsError> {
    measure(log2, g2, rounds)
        .map(|v| v.to_string())
        .map_err(|e| JsError::new(&e))
}

/// [`bench_msm_kernel`]'s measurement, or why `log2` is refused.
fn measure(log2: u32, g2: bool, rounds: u32) -> Result<serde_json::Value, String> {
    if !(4..=20).contains(&log2) {
        return Err(format!(
            "benchMsmKernel: log2 {log2} is outside 4..=20 (2^log2 points)"
        ));
    }
    let n = 1usize << log2;
    let before = VectorKernel::running();
    let (kernel_ms, scalar_ms) = if g2 {
        best_of(&Case::<ark_bn254::g2::Config>::new(n, 2), rounds)
    } else {
        best_of(&Case::<ark_bn254::g1::Config>::new(n, 1), rounds)
    };
    VectorKernel::set_on(before);
    Ok(serde_json::json!({ "kernel_ms": kernel_ms, "scalar_ms": scalar_ms, "points": n }))
}

/// The fastest of `rounds` alternating timings each way.
fn best_of<P: RawCurve>(case: &Case<P>, rounds: u32) -> (f64, f64)
where
    P::BaseField: MsmField,
{
    // one of each to warm up
    case.time(true);
    case.time(false);
    (0..rounds.max(1)).fold((f64::MAX, f64::MAX), |(k, s), _| {
        (k.min(case.time(true)), s.min(case.time(false)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_both_paths_and_restores_the_kernel_setting() {
        let before = VectorKernel::running();
        for g2 in [false, true] {
            let v = measure(4, g2, 1).unwrap();
            assert_eq!(v["points"], 16);
            for k in ["kernel_ms", "scalar_ms"] {
                let ms = v[k].as_f64().unwrap();
                assert!(ms.is_finite() && ms >= 0.0, "{k} = {ms}");
            }
        }
        assert_eq!(VectorKernel::running(), before);
    }

    #[test]
    fn refuses_sizes_out_of_range() {
        for log2 in [0, 3, 21, 64] {
            let e = measure(log2, false, 1).unwrap_err();
            assert!(e.contains("outside 4..=20"), "{e}");
        }
    }
}
