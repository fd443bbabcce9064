//! The QAP witness map (the prover's H polynomial) with the 29-bit-limb
//! multiplication of [`crate::wasm_mont`], for WebAssembly.
//!
//! It computes exactly ark-groth16's
//! `LibsnarkReduction::witness_map_from_matrices` over the radix-2 domain of
//! `num_constraints + num_inputs` points: the evaluations of A·z, B·z, C·z
//! (the public inputs appended to A), an inverse FFT and an FFT on the coset
//! `g·H` (`g = Fr::GENERATOR`) for each, `(A·B − C) / Z_H(g)` pointwise and an
//! inverse coset FFT. Field elements are canonical and the transforms are
//! the same linear maps (same domain generator and coset), so the result is
//! bit-identical (the tests compare it with ark-groth16's). The FFT is the
//! textbook iterative radix-2 Cooley–Tukey transform (bit-reversal, then
//! butterflies with a table of `ω^k`); its multiplications are
//! `wasm_mont::fr_mul` (ark-ff's `Fr` multiplication costs 32 `__multi3`
//! calls in WebAssembly). The three polynomials are transformed in parallel
//! (rayon, with the `parallel` feature).
//!
//! The prover uses it on `wasm32` only; natively it keeps ark-groth16's
//! (ark-ff's assembly multiplication, ark-poly's parallel FFT).

#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use crate::wasm_mont::fr_mul;
use ark_bn254::Fr;
use ark_ff::{FftField, Field, One, Zero};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use ark_relations::r1cs::{ConstraintMatrices, SynthesisError};

/// Twiddle and coset tables of one radix-2 domain.
struct Fft {
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

impl Fft {
    fn new(domain: &Radix2EvaluationDomain<Fr>) -> Self {
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

/// `Σ coeff·z[index]` over one matrix row.
fn evaluate_row(row: &[(Fr, usize)], z: &[Fr]) -> Fr {
    let mut sum = Fr::zero();
    for (coeff, index) in row {
        let v = &z[*index];
        if coeff.is_one() {
            sum += v;
        } else {
            sum += fr_mul(v, coeff);
        }
    }
    sum
}

/// The coefficients of `H = (A·B − C) / Z_H`, as ark-groth16's
/// `LibsnarkReduction::witness_map_from_matrices` gives them.
pub(crate) fn witness_map(
    matrices: &ConstraintMatrices<Fr>,
    num_inputs: usize,
    num_constraints: usize,
    full_assignment: &[Fr],
) -> Result<Vec<Fr>, SynthesisError> {
    let domain = Radix2EvaluationDomain::<Fr>::new(num_constraints + num_inputs)
        .ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
    let fft = Fft::new(&domain);
    let n = fft.n;
    // evaluations of one matrix times z on the domain, then on the coset
    let on_coset = |rows: &[Vec<(Fr, usize)>], inputs: bool| -> Vec<Fr> {
        let mut v = vec![Fr::zero(); n];
        for (x, row) in v.iter_mut().zip(&rows[..num_constraints]) {
            *x = evaluate_row(row, full_assignment);
        }
        if inputs {
            v[num_constraints..num_constraints + num_inputs]
                .copy_from_slice(&full_assignment[..num_inputs]);
        }
        fft.ifft(&mut v);
        fft.coset_fft(&mut v);
        v
    };
    #[cfg(feature = "parallel")]
    let (a, (b, c)) = rayon::join(
        || on_coset(&matrices.a, true),
        || {
            rayon::join(
                || on_coset(&matrices.b, false),
                || on_coset(&matrices.c, false),
            )
        },
    );
    #[cfg(not(feature = "parallel"))]
    let (a, (b, c)) = (
        on_coset(&matrices.a, true),
        (on_coset(&matrices.b, false), on_coset(&matrices.c, false)),
    );
    let z_inv = domain
        .evaluate_vanishing_polynomial(Fr::GENERATOR)
        .inverse()
        .expect("the coset avoids the domain");
    let mut h: Vec<Fr> = a
        .iter()
        .zip(&b)
        .zip(&c)
        .map(|((a, b), c)| fr_mul(&(fr_mul(a, b) - c), &z_inv))
        .collect();
    fft.coset_ifft(&mut h);
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
    use ark_poly::GeneralEvaluationDomain;
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
        let mut matrix = |rng: &mut ChaCha20Rng| -> Vec<Vec<(Fr, usize)>> {
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
            let got = witness_map(&m, inputs, constraints, &z).expect("witness map");
            assert_eq!(got, want, "{constraints} constraints, {inputs} inputs");
        }
    }

    #[test]
    fn fft_round_trips() {
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        for n in [1usize, 2, 4, 16, 64] {
            let domain = Radix2EvaluationDomain::<Fr>::new(n).expect("domain");
            let fft = Fft::new(&domain);
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
