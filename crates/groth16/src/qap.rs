//! The QAP witness map's arithmetic (the prover's H polynomial) with the
//! 29-bit-limb multiplication of [`crate::wasm_mont`], for WebAssembly.
//!
//! [`QapArith`] is what the prover's witness map
//! (`crate::prover::witness_map_with`, ark-groth16's
//! `LibsnarkReduction::witness_map_from_matrices` with the three chains side
//! by side) needs: an inverse FFT on the domain, an FFT and an inverse FFT on
//! the coset `g·H` (`g = Fr::GENERATOR`), and `Fr` multiplication. Natively
//! it is ark-poly's and ark-ff's (`crate::prover::ArkQap`); on `wasm32` it is
//! [`Fft`]: the textbook iterative radix-2 Cooley–Tukey transform
//! (bit-reversal, then butterflies with a table of `ω^k`) whose
//! multiplications are `wasm_mont::fr_mul` (ark-ff's `Fr` multiplication
//! costs 32 `__multi3` calls in WebAssembly). Field elements are canonical
//! and the transforms are the same linear maps (same domain generator and
//! coset), so the witness map's output is bit-identical (the tests compare
//! it with ark-groth16's).

#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use zkbench_msm::field::fr_mul;
use ark_bn254::Fr;
use ark_ff::{FftField, Field, One};
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain, Radix2EvaluationDomain};

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

/// Twiddle and coset tables of one radix-2 domain, with the 29-bit-limb
/// multiplication.
pub(crate) struct Fft {
    /// Domain size `n` (a power of two).
    n: usize,
    /// `ω^k`, `k < n/2`.
    roots: Vec<Fr>,
    /// `ω^-k`, `k < n/2`.
    inv_roots: Vec<Fr>,
    /// `1/n`.
    n_inv: Fr,
    /// `g^i`, `i < n` (coset offset powers).
    coset: Vec<Fr>,
    /// `g^-i / n`, `i < n` (inverse coset FFT's scaling).
    coset_inv_scaled: Vec<Fr>,
}

/// `[1, x, x², …]`, `len` powers, times `scale`.
fn powers(x: Fr, len: usize, scale: Fr) -> Vec<Fr> {
    let mut v = Vec::with_capacity(len);
    let mut acc = scale;
    for _ in 0..len {
        v.push(acc);
        acc = fr_mul(&acc, &x);
    }
    v
}

impl QapArith for Fft {
    fn new(domain: &GeneralEvaluationDomain<Fr>) -> Option<Self> {
        match domain {
            GeneralEvaluationDomain::Radix2(d) => Some(Self::radix2(d)),
            GeneralEvaluationDomain::MixedRadix(_) => None,
        }
    }

    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        fr_mul(a, b)
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

impl Fft {
    fn radix2(domain: &Radix2EvaluationDomain<Fr>) -> Self {
        let n = domain.size();
        let g = Fr::GENERATOR;
        let g_inv = g.inverse().expect("the generator is not zero");
        Self {
            n,
            roots: powers(domain.group_gen, n / 2, Fr::one()),
            inv_roots: powers(domain.group_gen_inv, n / 2, Fr::one()),
            n_inv: domain.size_inv,
            coset: powers(g, n, Fr::one()),
            coset_inv_scaled: powers(g_inv, n, domain.size_inv),
        }
    }

    /// In-place `v_j ← Σ_i v_i·w^(ij)` for the table `roots` of `w`.
    fn transform(&self, v: &mut [Fr], roots: &[Fr]) {
        let n = self.n;
        debug_assert_eq!(v.len(), n);
        let bits = n.trailing_zeros();
        if bits == 0 {
            return;
        }
        for i in 0..n {
            let j = i.reverse_bits() >> (usize::BITS - bits);
            if i < j {
                v.swap(i, j);
            }
        }
        let mut half = 1;
        while half < n {
            let stride = n / (2 * half);
            for block in v.chunks_exact_mut(2 * half) {
                let (lo, hi) = block.split_at_mut(half);
                for (k, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                    let t = if k == 0 {
                        *y
                    } else {
                        fr_mul(y, &roots[k * stride])
                    };
                    *y = *x - t;
                    *x += t;
                }
            }
            half *= 2;
        }
    }

    /// Coefficients from evaluations on the domain.
    fn ifft(&self, v: &mut [Fr]) {
        self.transform(v, &self.inv_roots);
        for x in v.iter_mut() {
            *x = fr_mul(x, &self.n_inv);
        }
    }

    /// Evaluations on the coset `g·H` from coefficients.
    fn coset_fft(&self, v: &mut [Fr]) {
        for (x, c) in v.iter_mut().zip(&self.coset) {
            *x = fr_mul(x, c);
        }
        self.transform(v, &self.roots);
    }

    /// Coefficients from evaluations on the coset `g·H`.
    fn coset_ifft(&self, v: &mut [Fr]) {
        self.transform(v, &self.inv_roots);
        for (x, c) in v.iter_mut().zip(&self.coset_inv_scaled) {
            *x = fr_mul(x, c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::{witness_map_with, ArkQap};
    use ark_ff::UniformRand;
    use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
    use ark_poly::GeneralEvaluationDomain;
    use ark_relations::r1cs::ConstraintMatrices;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;

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
            let got = witness_map_with::<Fft>(&m, inputs, &z).expect("witness map");
            assert_eq!(got, want, "{constraints} constraints, {inputs} inputs");
            let ark = witness_map_with::<ArkQap>(&m, inputs, &z).expect("witness map");
            assert_eq!(ark, want, "{constraints} constraints, {inputs} inputs");
        }
    }

    #[test]
    fn fft_round_trips() {
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        for n in [1usize, 2, 4, 16, 64] {
            let domain = Radix2EvaluationDomain::<Fr>::new(n).expect("domain");
            let fft = Fft::radix2(&domain);
            let coeffs: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            let mut v = coeffs.clone();
            fft.coset_fft(&mut v);
            assert_eq!(
                v,
                domain.get_coset(Fr::GENERATOR).expect("coset").fft(&coeffs)
            );
            fft.coset_ifft(&mut v);
            assert_eq!(v, coeffs, "size {n}");
            let mut v = domain.fft(&coeffs);
            fft.ifft(&mut v);
            assert_eq!(v, coeffs, "size {n}");
        }
    }
}
