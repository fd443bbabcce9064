//! BN254 pairings: one pairing (`size` 1) or a multi-pairing
//! `Π e(Pᵢ, Qᵢ)` of `size` pairs (shared final exponentiation), as a Groth16
//! verifier computes it:
//!
//! * `arkworks`: `ark_ec::pairing::Pairing::multi_pairing`;
//! * `halo2curves`: `MultiMillerLoop::multi_miller_loop` then
//!   `final_exponentiation`.

use ark_bn254::Bn254;
use ark_ec::pairing::Pairing;
use halo2_axiom::halo2curves::{
    bn256,
    pairing::{MillerLoopResult, MultiMillerLoop},
};
use zkbench_core::{CaseKind, Metrics};

use crate::{convert, inputs, Error, Workload};

/// arkworks' multi-pairing.
pub fn arkworks(
    p: &[ark_bn254::G1Affine],
    q: &[ark_bn254::G2Affine],
) -> ark_ec::pairing::PairingOutput<Bn254> {
    Bn254::multi_pairing(p.iter().copied(), q.iter().copied())
}

/// halo2curves' multi-pairing (G2 preparation included, as in arkworks').
pub fn halo2curves(p: &[bn256::G1Affine], q: &[bn256::G2Affine]) -> bn256::Gt {
    let q: Vec<bn256::G2Prepared> = q.iter().map(|&q| q.into()).collect();
    let terms: Vec<(&bn256::G1Affine, &bn256::G2Prepared)> = p.iter().zip(&q).collect();
    bn256::Bn256::multi_miller_loop(&terms).final_exponentiation()
}

enum Impl {
    Ark(Vec<ark_bn254::G1Affine>, Vec<ark_bn254::G2Affine>),
    Halo2(Vec<bn256::G1Affine>, Vec<bn256::G2Affine>),
}

struct Pairings {
    n: usize,
    imp: Impl,
}

impl Workload for Pairings {
    fn phases(&self) -> Vec<(CaseKind, &'static str)> {
        vec![(CaseKind::Pairing, "pairing")]
    }

    fn run(&mut self, _: usize) -> Result<(), Error> {
        match &self.imp {
            Impl::Ark(p, q) => {
                let _ = std::hint::black_box(arkworks(p, q));
            }
            Impl::Halo2(p, q) => {
                std::hint::black_box(halo2curves(p, q));
            }
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

/// The pairing workload of `system` with `n` pairs.
pub fn prepare(system: &str, n: usize) -> Result<Box<dyn Workload>, Error> {
    let p = inputs::g1(n, 5);
    let q = inputs::g2(n, 6);
    let imp = match system {
        "arkworks" => Impl::Ark(p, q),
        "halo2curves" => Impl::Halo2(
            p.iter().map(convert::g1).collect(),
            q.iter().map(convert::g2).collect(),
        ),
        s => {
            return Err(Error::Unsupported(format!(
                "no pairing implementation {s:?}"
            )))
        }
    };
    Ok(Box::new(Pairings { n, imp }))
}
