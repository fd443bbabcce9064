//! Field arithmetic in BN254's scalar field Fr and base field Fq: a chain of
//! `size` dependent multiplications (`mul`) and of `size` inversions (`inv`),
//! single-threaded (latency of one operation; every prover primitive is
//! built on these).
//!
//! * `arkworks`: `ark_ff` (Montgomery form, x86-64 assembly multiplication);
//! * `halo2curves`: `halo2curves::bn256` (Montgomery form).

use ark_ff::{Field, UniformRand};
use halo2_axiom::halo2curves::ff::Field as H2Field;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_core::{CaseKind, Metrics, Primitive};

use crate::{convert, Error, Workload};

/// `size` multiplications `x ← x·y` then `size` inversions `x ← (x + 1)⁻¹`
/// on the same field with any of the two libraries.
pub trait Ops {
    /// `x ← x·y`, `n` times.
    fn mul_chain(&mut self, n: usize);
    /// `x ← (x + 1)⁻¹`, `n` times.
    fn inv_chain(&mut self, n: usize);
}

/// arkworks field element pair (x, y).
pub struct Ark<F>(pub F, pub F);
/// halo2curves field element pair (x, y).
pub struct Halo2<F>(pub F, pub F);

impl<F: Field> Ops for Ark<F> {
    fn mul_chain(&mut self, n: usize) {
        for _ in 0..n {
            self.0 *= self.1;
        }
    }
    fn inv_chain(&mut self, n: usize) {
        for _ in 0..n {
            self.0 = (self.0 + F::ONE).inverse().unwrap_or(F::ONE);
        }
    }
}

impl<F: H2Field> Ops for Halo2<F> {
    fn mul_chain(&mut self, n: usize) {
        for _ in 0..n {
            self.0 *= self.1;
        }
    }
    fn inv_chain(&mut self, n: usize) {
        for _ in 0..n {
            self.0 = Option::from((self.0 + F::ONE).invert()).unwrap_or(F::ONE);
        }
    }
}

struct FieldOps {
    n: usize,
    ops: Box<dyn Ops>,
}

impl Workload for FieldOps {
    fn phases(&self) -> Vec<(CaseKind, &'static str)> {
        vec![(CaseKind::Field, "mul"), (CaseKind::Field, "inv")]
    }

    fn run(&mut self, i: usize) -> Result<(), Error> {
        if i == 0 {
            self.ops.mul_chain(self.n);
        } else {
            self.ops.inv_chain(self.n);
        }
        Ok(())
    }

    fn items(&self, _: usize) -> u64 {
        self.n as u64
    }

    fn metrics(&self, _: usize) -> Metrics {
        Metrics::new()
    }
}

/// The field workload of `system` on `field` (`bn254-fr`, `bn254-fq`) with
/// chains of `n` operations.
pub fn prepare(system: &str, field: Primitive, n: usize) -> Result<Box<dyn Workload>, Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let ops: Box<dyn Ops> = match (system, field) {
        ("arkworks", Primitive::Bn254Fr) => Box::new(Ark(
            ark_bn254::Fr::rand(&mut rng),
            ark_bn254::Fr::rand(&mut rng),
        )),
        ("arkworks", Primitive::Bn254Fq) => Box::new(Ark(
            ark_bn254::Fq::rand(&mut rng),
            ark_bn254::Fq::rand(&mut rng),
        )),
        ("halo2curves", Primitive::Bn254Fr) => Box::new(Halo2(
            convert::fr(&ark_bn254::Fr::rand(&mut rng)),
            convert::fr(&ark_bn254::Fr::rand(&mut rng)),
        )),
        ("halo2curves", Primitive::Bn254Fq) => Box::new(Halo2(
            convert::fq(&ark_bn254::Fq::rand(&mut rng)),
            convert::fq(&ark_bn254::Fq::rand(&mut rng)),
        )),
        (s, f) => {
            return Err(Error::Unsupported(format!(
                "no field implementation {s:?} for {f}"
            )))
        }
    };
    Ok(Box::new(FieldOps { n, ops }))
}
