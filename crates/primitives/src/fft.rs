//! Radix-2 FFT (NTT) of `2^k` BN254 scalars, coefficients to evaluations on
//! the subgroup of order `2^k`, in place:
//!
//! * `arkworks`: `ark_poly::Radix2EvaluationDomain::fft_in_place` (parallel);
//! * `halo2curves`: `halo2curves::fft::best_fft` (parallel recursive
//!   butterflies), given arkworks' root of unity, so both compute the same
//!   transform;
//! * `zkbench`: [`zkbench_msm::fft::Fft`], the transform of zkbench's Groth16
//!   H polynomial (cut into chunks once for the thread pool), same domain.

use ark_bn254::Fr;
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use halo2_axiom::halo2curves::{bn256, fft::best_fft};
use rayon::prelude::*;
use zkbench_core::{CaseKind, Metrics};

use crate::{convert, inputs, Error, Workload};

/// The arkworks domain of size `2^k`.
pub fn domain(k: u32) -> Result<Radix2EvaluationDomain<Fr>, Error> {
    Radix2EvaluationDomain::<Fr>::new(1 << k)
        .ok_or_else(|| Error::Size(format!("no radix-2 domain of size 2^{k}")))
}

/// arkworks' FFT in place.
pub fn arkworks(d: &Radix2EvaluationDomain<Fr>, values: &mut Vec<Fr>) {
    d.fft_in_place(values);
}

/// halo2curves' FFT in place with the root of unity `omega` of order `2^k`.
pub fn halo2curves(values: &mut [bn256::Fr], omega: bn256::Fr, k: u32) {
    best_fft(values, omega, k);
}

enum Impl {
    Ark(Box<Radix2EvaluationDomain<Fr>>, Vec<Fr>),
    Halo2(bn256::Fr, Vec<bn256::Fr>),
    Zkbench(Box<zkbench_msm::fft::Fft>, Vec<Fr>),
}

struct Fft {
    k: u32,
    imp: Impl,
}

impl Workload for Fft {
    fn phases(&self) -> Vec<(CaseKind, &'static str)> {
        vec![(CaseKind::Fft, "fft")]
    }

    fn run(&mut self, _: usize) -> Result<(), Error> {
        // the input is the previous run's output: same cost, no copy
        match &mut self.imp {
            Impl::Ark(d, v) => arkworks(d, v),
            Impl::Halo2(omega, v) => halo2curves(v, *omega, self.k),
            Impl::Zkbench(f, v) => f.fft(v),
        }
        Ok(())
    }

    fn items(&self, _: usize) -> u64 {
        1 << self.k
    }

    fn metrics(&self, _: usize) -> Metrics {
        Metrics::from([("log_size".into(), f64::from(self.k))])
    }
}

/// The FFT workload of `system` of size `2^k`.
pub fn prepare(system: &str, k: u32) -> Result<Box<dyn Workload>, Error> {
    let d = domain(k)?;
    let values = inputs::scalars(1 << k, 4);
    let imp = match system {
        "arkworks" => Impl::Ark(Box::new(d), values),
        "halo2curves" => Impl::Halo2(
            convert::fr(&d.group_gen),
            values.par_iter().map(convert::fr).collect(),
        ),
        "zkbench" => Impl::Zkbench(
            Box::new(
                zkbench_msm::fft::Fft::new(1 << k)
                    .ok_or_else(|| Error::Size(format!("no radix-2 domain of size 2^{k}")))?,
            ),
            values,
        ),
        s => return Err(Error::Unsupported(format!("no FFT implementation {s:?}"))),
    };
    Ok(Box::new(Fft { k, imp }))
}
