//! The QAP witness map's arithmetic (the prover's H polynomial): radix-2
//! FFTs cut for the thread pool, with ark-ff's `Fr` multiplication natively
//! and [`zkbench_msm::field::fr_mul`] on WebAssembly (29-bit limbs, or
//! 64-bit ones in a build with wide arithmetic).
//!
//! [`QapArith`] is what the prover's witness map
//! (`crate::prover::witness_map_with`, ark-groth16's
//! `LibsnarkReduction::witness_map_from_matrices` with the three chains side
//! by side) needs: an inverse FFT on the domain, an FFT and an inverse FFT on
//! the coset `g·H` (`g = Fr::GENERATOR`), and `Fr` multiplication.
//!
//! The transforms are [`zkbench_msm::fft::Fft`]'s (radix-2, cut once for the
//! thread pool; the reasons it is not ark-poly's are in its module docs),
//! with ark-ff's multiplication natively and `fr_mul` on wasm32.
//! Field elements are canonical and the transforms are the same linear maps
//! as ark-poly's (same domain generator and coset), so the witness map's
//! output is bit-identical (the tests compare it with ark-groth16's).

use ark_bn254::Fr;
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain};
use zkbench_msm::fft::{Fft, FrMul};

/// The transforms and the multiplication of the QAP witness map.
pub(crate) trait QapArith: Sized + Sync {
    /// The tables for `domain` (`None` if this arithmetic cannot use it).
    fn new(domain: &GeneralEvaluationDomain<Fr>) -> Option<Self>;
    /// `a·b`.
    fn mul(a: &Fr, b: &Fr) -> Fr;
    /// Coefficients from evaluations on the domain.
    fn ifft(&self, v: &mut Vec<Fr>);
    /// Evaluations on the coset `g·H` from coefficients.
    fn coset_fft(&self, v: &mut Vec<Fr>);
    /// Coefficients from evaluations on the coset `g·H`.
    fn coset_ifft(&self, v: &mut Vec<Fr>);
}

/// Elements per task of the element-wise passes of the witness map (row
/// evaluations, the quotient): rayon cuts no finer than this.
#[cfg(feature = "parallel")]
pub(crate) fn min_len(n: usize) -> usize {
    n.div_ceil(zkbench_msm::threads()).max(1)
}

impl<M: FrMul> QapArith for Fft<M> {
    fn new(domain: &GeneralEvaluationDomain<Fr>) -> Option<Self> {
        match domain {
            GeneralEvaluationDomain::Radix2(d) => Fft::new(d.size()),
            GeneralEvaluationDomain::MixedRadix(_) => None,
        }
    }

    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        M::mul(a, b)
    }

    fn ifft(&self, v: &mut Vec<Fr>) {
        Fft::ifft(self, v);
    }

    fn coset_fft(&self, v: &mut Vec<Fr>) {
        Fft::coset_fft(self, v);
    }

    fn coset_ifft(&self, v: &mut Vec<Fr>) {
        Fft::coset_ifft(self, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::{witness_map_with, ArkQap};
    use ark_ff::{One, UniformRand};
    use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
    use ark_poly::GeneralEvaluationDomain;
    use ark_relations::r1cs::ConstraintMatrices;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;
    use zkbench_msm::fft::{ArkMul, LimbMul};

    /// A random R1CS: `(constraints, inputs, witnesses)`; coefficients
    /// random, one or zero, rows of 0 to 4 terms.
    fn random_matrices(
        rng: &mut ChaCha20Rng,
        constraints: usize,
        inputs: usize,
        witnesses: usize,
    ) -> ConstraintMatrices<Fr> {
        let vars = inputs + witnesses;
        let matrix = |rng: &mut ChaCha20Rng| -> Vec<Vec<(Fr, usize)>> {
            (0..constraints)
                .map(|_| {
                    (0..rng.gen_range(0..5))
                        .map(|_| {
                            let coeff = match rng.gen_range(0..3) {
                                0 => Fr::one(),
                                1 => -Fr::one(),
                                _ => Fr::rand(rng),
                            };
                            (coeff, rng.gen_range(0..vars))
                        })
                        .collect()
                })
                .collect()
        };
        let (a, b, c) = (matrix(rng), matrix(rng), matrix(rng));
        let nnz = |m: &Vec<Vec<(Fr, usize)>>| m.iter().map(Vec::len).sum();
        ConstraintMatrices {
            num_instance_variables: inputs,
            num_witness_variables: witnesses,
            num_constraints: constraints,
            a_num_non_zero: nnz(&a),
            b_num_non_zero: nnz(&b),
            c_num_non_zero: nnz(&c),
            a,
            b,
            c,
        }
    }

    #[test]
    fn witness_map_matches_ark_groth16() {
        let mut rng = ChaCha20Rng::seed_from_u64(16);
        // (constraints, inputs, witnesses): domain sizes 1 to 128, a full
        // domain, one input only
        for (constraints, inputs, witnesses) in [
            (0, 1, 0),
            (1, 1, 1),
            (3, 2, 4),
            (6, 2, 9),
            (31, 1, 40),
            (100, 3, 120),
            (125, 3, 2),
        ] {
            let m = random_matrices(&mut rng, constraints, inputs, witnesses);
            let mut z: Vec<Fr> = (0..inputs + witnesses)
                .map(|_| Fr::rand(&mut rng))
                .collect();
            z[0] = Fr::one();
            let want = LibsnarkReduction::witness_map_from_matrices::<
                Fr,
                GeneralEvaluationDomain<Fr>,
            >(&m, inputs, constraints, &z)
            .expect("ark-groth16's witness map");
            let got = witness_map_with::<Fft<LimbMul>>(&m, inputs, &z).expect("witness map");
            assert_eq!(got, want, "{constraints} constraints, {inputs} inputs");
            let got = witness_map_with::<Fft<ArkMul>>(&m, inputs, &z).expect("witness map");
            assert_eq!(got, want, "{constraints} constraints, {inputs} inputs");
            let ark = witness_map_with::<ArkQap>(&m, inputs, &z).expect("witness map");
            assert_eq!(ark, want, "{constraints} constraints, {inputs} inputs");
        }
    }
}
