//! BN254 multi-scalar multiplication `Σ sᵢ·Pᵢ` of `n` points in G1 or G2, by
//! three implementations on the same points and scalars:
//!
//! * `zkbench`: the Groth16 prover's fixed-base MSM
//!   ([`zkbench_msm::FixedBaseTable`]): the points are a proving
//!   key's, fixed, so `2^(c·j)·P` is precomputed for every window `j` and one
//!   bucket pass of batched affine additions does the rest. The table is built
//!   once in [`prepare`] (its time and size are recorded as `table_build_s`
//!   and `table_points`), as the prover does once per key;
//! * `arkworks`: `ark_ec::VariableBaseMSM::msm` (Pippenger, no precomputation);
//! * `halo2curves`: `halo2curves::msm::msm_best` (Pippenger, no precomputation).
//!
//! Every record carries a cost model ([`model_ns_per_point`]), the limit
//! for scalar arithmetic (zkbench's AVX-512 IFMA kernel, eight lanes at a
//! time, goes below it):
//! the field multiplications of the cheapest of these algorithms
//! (precomputed windows, 6 multiplications per batched affine addition,
//! perfect parallel scaling), times one measured multiplication.

use std::time::Instant;

use ark_bn254::Fr;
use ark_ec::{
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    CurveGroup, VariableBaseMSM,
};
use ark_ff::{Field, PrimeField, UniformRand};
use halo2_axiom::halo2curves::{bn256, msm::msm_best, CurveAffine};
use rand::SeedableRng;
use rayon::prelude::*;
use zkbench_core::{CaseKind, Metrics, Primitive};
use zkbench_msm::{FixedBaseTable, MsmField, RawCurve};

use crate::{convert, inputs, Error, Workload};

/// A BN254 group with its arkworks and halo2curves types.
pub trait Group: 'static {
    /// arkworks curve configuration.
    type Ark: SWCurveConfig<ScalarField = Fr, BaseField: MsmField> + RawCurve;
    /// halo2curves affine type.
    type H2: CurveAffine<ScalarExt = bn256::Fr>;
    /// Bytes of one arkworks affine point.
    const ARK_BYTES: usize;
    /// The same point in halo2curves' type.
    fn to_h2(p: &Affine<Self::Ark>) -> Self::H2;
    /// Nanoseconds of one multiplication in the coordinate field (Fq or
    /// Fq2), measured now on one thread.
    fn field_mul_ns() -> f64;
}

/// BN254 G1.
pub struct G1;
/// BN254 G2.
pub struct G2;

fn mul_ns<F: Field + UniformRand>() -> f64 {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let (mut x, y) = (F::rand(&mut rng), F::rand(&mut rng));
    let reps = 200_000;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..reps {
            x *= y;
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / reps as f64);
    }
    std::hint::black_box(x);
    best
}

impl Group for G1 {
    type Ark = ark_bn254::g1::Config;
    type H2 = bn256::G1Affine;
    const ARK_BYTES: usize = 72;
    fn to_h2(p: &ark_bn254::G1Affine) -> bn256::G1Affine {
        convert::g1(p)
    }
    fn field_mul_ns() -> f64 {
        mul_ns::<ark_bn254::Fq>()
    }
}

impl Group for G2 {
    type Ark = ark_bn254::g2::Config;
    type H2 = bn256::G2Affine;
    const ARK_BYTES: usize = 136;
    fn to_h2(p: &ark_bn254::G2Affine) -> bn256::G2Affine {
        convert::g2(p)
    }
    fn field_mul_ns() -> f64 {
        mul_ns::<ark_bn254::Fq2>()
    }
}

/// arkworks' MSM.
pub fn arkworks<P: SWCurveConfig<ScalarField = Fr>>(
    points: &[Affine<P>],
    scalars: &[Fr],
) -> Projective<P> {
    Projective::<P>::msm(points, scalars).expect("as many points as scalars")
}

/// halo2curves' MSM.
pub fn halo2curves<C: CurveAffine>(points: &[C], scalars: &[C::ScalarExt]) -> C::CurveExt {
    msm_best(scalars, points)
}

/// zkbench's fixed-base MSM, cut into pieces for the current thread pool
/// (scalar conversion included, as in the prover).
pub fn zkbench<P: RawCurve<ScalarField = Fr, BaseField: MsmField>>(
    table: &FixedBaseTable<P>,
    scalars: &[Fr],
) -> Projective<P> {
    let big: Vec<_> = scalars.par_iter().map(|s| s.into_bigint()).collect();
    table.msm(&big)
}

/// Field multiplications of the cheapest MSM here for `n` points on
/// `threads` threads, per point: `⌈256/c⌉` batched affine additions (6
/// multiplications each) per point plus one reduction of `2^(c−1)`
/// buckets (2 batched affine additions each: a running sum and a weighted
/// one), shared by the threads (cut by bucket ranges), with the best window
/// `c`.
pub fn model_muls_per_point(n: usize, threads: usize) -> f64 {
    let (n, t) = (n.max(1) as f64, threads.max(1) as f64);
    (2..=20)
        .map(|c| {
            let windows = 256f64 / c as f64;
            (6.0 * n * windows.ceil() + 12.0 * (1u64 << (c - 1)) as f64) / (n * t)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The cost model's nanoseconds per point: [`model_muls_per_point`] times
/// one measured field multiplication.
pub fn model_ns_per_point(n: usize, threads: usize, field_mul_ns: f64) -> f64 {
    model_muls_per_point(n, threads) * field_mul_ns
}

enum Impl<G: Group> {
    Zkbench {
        table: FixedBaseTable<G::Ark>,
        build_s: f64,
    },
    Arkworks,
    Halo2 {
        points: Vec<G::H2>,
        scalars: Vec<bn256::Fr>,
    },
}

struct Msm<G: Group> {
    n: usize,
    threads: usize,
    points: Vec<Affine<G::Ark>>,
    scalars: Vec<Fr>,
    imp: Impl<G>,
    field_mul_ns: f64,
}

impl<G: Group> Workload for Msm<G> {
    fn phases(&self) -> Vec<(CaseKind, &'static str)> {
        vec![(CaseKind::Msm, "msm")]
    }

    fn run(&mut self, _: usize) -> Result<(), Error> {
        match &self.imp {
            Impl::Zkbench { table, .. } => {
                let _ = std::hint::black_box(zkbench(table, &self.scalars).into_affine());
            }
            Impl::Arkworks => {
                let _ = std::hint::black_box(arkworks(&self.points, &self.scalars).into_affine());
            }
            Impl::Halo2 { points, scalars } => {
                std::hint::black_box(halo2curves(points, scalars));
            }
        }
        Ok(())
    }

    fn items(&self, _: usize) -> u64 {
        self.n as u64
    }

    fn metrics(&self, _: usize) -> Metrics {
        let mut m = Metrics::from([
            ("field_mul_ns".into(), self.field_mul_ns),
            (
                "model_ns_per_point".into(),
                model_ns_per_point(self.n, self.threads, self.field_mul_ns),
            ),
        ]);
        if let Impl::Zkbench { table, build_s, .. } = &self.imp {
            m.insert("table_build_s".into(), *build_s);
            m.insert("table_points".into(), table.points() as f64);
            m.insert("table_bytes".into(), (table.points() * G::ARK_BYTES) as f64);
            m.insert("window".into(), table.window() as f64);
        }
        m
    }
}

fn make<G: Group>(system: &str, n: usize, threads: usize) -> Result<Box<dyn Workload>, Error> {
    let points = inputs::points::<G::Ark>(n, 1);
    let scalars = inputs::scalars(n, 2);
    let imp = match system {
        "zkbench" => {
            let t = Instant::now();
            // one bucket set: the pieces share its reduction by bucket parts
            let table = FixedBaseTable::new(&points, 1);
            Impl::Zkbench {
                table,
                build_s: t.elapsed().as_secs_f64(),
            }
        }
        "arkworks" => Impl::Arkworks,
        "halo2curves" => Impl::Halo2 {
            points: points.par_iter().map(G::to_h2).collect(),
            scalars: scalars.par_iter().map(convert::fr).collect(),
        },
        s => return Err(Error::Unsupported(format!("no MSM implementation {s:?}"))),
    };
    Ok(Box::new(Msm::<G> {
        n,
        threads,
        points,
        scalars,
        imp,
        field_mul_ns: G::field_mul_ns(),
    }))
}

/// The MSM workload of `system` on `group` (`bn254-g1`, `bn254-g2`) with `n`
/// points, for `threads` threads.
pub fn prepare(
    system: &str,
    group: Primitive,
    n: usize,
    threads: usize,
) -> Result<Box<dyn Workload>, Error> {
    match group {
        Primitive::Bn254G1 => make::<G1>(system, n, threads),
        Primitive::Bn254G2 => make::<G2>(system, n, threads),
        g => Err(Error::Unsupported(format!("no MSM group {g}"))),
    }
}
