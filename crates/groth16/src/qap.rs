//! The QAP witness map's arithmetic (the prover's H polynomial): radix-2
//! FFTs cut for the thread pool, with ark-ff's `Fr` multiplication natively
//! and the 29-bit-limb one of [`zkbench_msm::field`] on WebAssembly.
//!
//! [`QapArith`] is what the prover's witness map
//! (`crate::prover::witness_map_with`, ark-groth16's
//! `LibsnarkReduction::witness_map_from_matrices` with the three chains side
//! by side) needs: an inverse FFT on the domain, an FFT and an inverse FFT on
//! the coset `g·H` (`g = Fr::GENERATOR`), and `Fr` multiplication.
//!
//! [`Fft`] is the iterative radix-2 Cooley–Tukey transform (J. W. Cooley,
//! J. W. Tukey, "An algorithm for the machine calculation of complex Fourier
//! series", Math. Comp. 1965): a bit-reversal permutation, then butterfly
//! layers with a table of `ω^k`. It is written here rather than taken from
//! ark-poly for two reasons. On `wasm32` ark-ff's `Fr` multiplication costs
//! 32 `__multi3` calls, and the transform takes its multiplication as a type
//! parameter ([`FrMul`]). And ark-poly's parallel FFT opens one rayon region
//! per butterfly layer, each cut as finely as the pool is large: with a pool
//! larger than the machine (or three FFTs at once, as here) the idle workers
//! spin between regions, and the CPU time of a proof grew with the thread
//! count. This one cuts the array into `t` chunks once (`t`, a power of two,
//! about the threads the work is cut for, [`zkbench_msm::threads`]): the
//! permutation (fused with the coset scaling) is one region, every layer
//! whose blocks fit in a chunk runs inside one region, chunk by chunk, and
//! only the last `log2 t` layers need a region each.
//!
//! Field elements are canonical and the transforms are the same linear maps
//! (same domain generator and coset), so the witness map's output is
//! bit-identical (the tests compare it with ark-groth16's).

use ark_bn254::Fr;
use ark_ff::{FftField, Field, One};
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain, Radix2EvaluationDomain};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
use zkbench_msm::field::fr_mul;

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

/// An `Fr` multiplication.
pub(crate) trait FrMul: Send + Sync + 'static {
    /// `a·b`.
    fn mul(a: &Fr, b: &Fr) -> Fr;
}

/// ark-ff's multiplication (native).
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct ArkMul;

impl FrMul for ArkMul {
    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        *a * b
    }
}

/// The 29-bit-limb multiplication (WebAssembly; bit-identical to ark-ff's).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct WasmMul;

impl FrMul for WasmMul {
    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        fr_mul(a, b)
    }
}

/// Below this size an FFT runs on one thread.
const MIN_PARALLEL_FFT: usize = 1 << 10;

/// Elements per task of the element-wise passes of the witness map (row
/// evaluations, the quotient): rayon cuts no finer than this.
#[cfg(feature = "parallel")]
pub(crate) fn min_len(n: usize) -> usize {
    n.div_ceil(zkbench_msm::threads()).max(1)
}

/// Twiddle and coset tables of one radix-2 domain, with the multiplication
/// `M`.
pub(crate) struct Fft<M> {
    /// Domain size `n` (a power of two).
    n: usize,
    /// `ω^k`, `k < n/2`.
    roots: Vec<Fr>,
    /// `ω^-k`, `k < n/2`.
    inv_roots: Vec<Fr>,
    /// `1/n` for every element (the inverse FFT's scaling).
    n_inv: Vec<Fr>,
    /// `g^i`, `i < n` (coset offset powers).
    coset: Vec<Fr>,
    /// `g^-i / n`, `i < n` (inverse coset FFT's scaling).
    coset_inv_scaled: Vec<Fr>,
    _mul: std::marker::PhantomData<M>,
}

/// `[1, x, x², …]`, `len` powers, times `scale`.
fn powers<M: FrMul>(x: Fr, len: usize, scale: Fr) -> Vec<Fr> {
    let mut v = Vec::with_capacity(len);
    let mut acc = scale;
    for _ in 0..len {
        v.push(acc);
        acc = M::mul(&acc, &x);
    }
    v
}

impl<M: FrMul> QapArith for Fft<M> {
    fn new(domain: &GeneralEvaluationDomain<Fr>) -> Option<Self> {
        match domain {
            GeneralEvaluationDomain::Radix2(d) => Some(Self::radix2(d)),
            GeneralEvaluationDomain::MixedRadix(_) => None,
        }
    }

    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        M::mul(a, b)
    }

    fn ifft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.inv_roots, None, Some(&self.n_inv));
    }

    fn coset_fft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.roots, Some(&self.coset), None);
    }

    fn coset_ifft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.inv_roots, None, Some(&self.coset_inv_scaled));
    }
}

impl<M: FrMul> Fft<M> {
    fn radix2(domain: &Radix2EvaluationDomain<Fr>) -> Self {
        let n = domain.size();
        let g = Fr::GENERATOR;
        let g_inv = g.inverse().expect("the generator is not zero");
        Self {
            n,
            roots: powers::<M>(domain.group_gen, n / 2, Fr::one()),
            inv_roots: powers::<M>(domain.group_gen_inv, n / 2, Fr::one()),
            n_inv: vec![domain.size_inv; n],
            coset: powers::<M>(g, n, Fr::one()),
            coset_inv_scaled: powers::<M>(g_inv, n, domain.size_inv),
            _mul: std::marker::PhantomData,
        }
    }

    /// The number of chunks the transform is cut into: a power of two, at
    /// least the threads the work is cut for, 1 for small transforms.
    fn chunks(&self) -> usize {
        if self.n < MIN_PARALLEL_FFT {
            1
        } else {
            zkbench_msm::threads().next_power_of_two().min(self.n / 2)
        }
    }

    /// In place: `v_i ← pre_i·v_i` (if `pre`), `v_j ← Σ_i v_i·w^(ij)` for the
    /// table `roots` of `w`, then `v_j ← post_j·v_j` (if `post`).
    fn transform(&self, v: &mut Vec<Fr>, roots: &[Fr], pre: Option<&[Fr]>, post: Option<&[Fr]>) {
        self.transform_in(v, roots, pre, post, self.chunks());
    }

    /// [`Self::transform`] cut into `t` chunks (a power of two, at most
    /// `n/2` when `n > 1`).
    fn transform_in(
        &self,
        v: &mut Vec<Fr>,
        roots: &[Fr],
        pre: Option<&[Fr]>,
        post: Option<&[Fr]>,
        t: usize,
    ) {
        let n = self.n;
        debug_assert_eq!(v.len(), n);
        if n > 1 {
            self.permute(v, pre, t);
            let chunk = n / t;
            for_chunks(v, chunk, |_, c| butterflies::<M>(c, roots, n, 1, chunk));
            let mut half = chunk;
            while half < n {
                layer::<M>(v, roots, half, t);
                half *= 2;
            }
        } else if let Some(p) = pre {
            v[0] = M::mul(&v[0], &p[0]);
        }
        if let Some(post) = post {
            let chunk = n / t.min(n);
            for_chunks(v, chunk, |ci, c| {
                for (x, s) in c.iter_mut().zip(&post[ci * chunk..]) {
                    *x = M::mul(x, s);
                }
            });
        }
    }

    /// The bit-reversal permutation, each element times `pre` (at its old
    /// index) if given: in place on one chunk, into a new vector otherwise.
    fn permute(&self, v: &mut Vec<Fr>, pre: Option<&[Fr]>, t: usize) {
        let n = self.n;
        let bits = n.trailing_zeros();
        let rev = |i: usize| i.reverse_bits() >> (usize::BITS - bits);
        if t == 1 {
            if let Some(p) = pre {
                v.iter_mut().zip(p).for_each(|(x, s)| *x = M::mul(x, s));
            }
            for i in 0..n {
                let j = rev(i);
                if i < j {
                    v.swap(i, j);
                }
            }
            return;
        }
        let load = |i: usize| {
            let j = rev(i);
            pre.map_or(v[j], |p| M::mul(&v[j], &p[j]))
        };
        #[cfg(feature = "parallel")]
        let w: Vec<Fr> = (0..n)
            .into_par_iter()
            .with_min_len(n / t)
            .map(load)
            .collect();
        #[cfg(not(feature = "parallel"))]
        let w: Vec<Fr> = (0..n).map(load).collect();
        *v = w;
    }
}

/// `f(index, chunk)` on every `len`-element chunk of `v`, in parallel.
fn for_chunks(v: &mut [Fr], len: usize, f: impl Fn(usize, &mut [Fr]) + Sync) {
    #[cfg(feature = "parallel")]
    v.par_chunks_mut(len).enumerate().for_each(|(i, c)| f(i, c));
    #[cfg(not(feature = "parallel"))]
    v.chunks_mut(len).enumerate().for_each(|(i, c)| f(i, c));
}

/// One butterfly `x, y ← x + ω^(k·stride)·y, x − ω^(k·stride)·y`.
#[inline(always)]
fn butterfly<M: FrMul>(x: &mut Fr, y: &mut Fr, k: usize, stride: usize, roots: &[Fr]) {
    let t = if k == 0 {
        *y
    } else {
        M::mul(y, &roots[k * stride])
    };
    *y = *x - t;
    *x += t;
}

/// The layers with half-block sizes `from, 2·from, …` below `to` on `c` (a
/// run of whole blocks of a transform of size `n`).
fn butterflies<M: FrMul>(c: &mut [Fr], roots: &[Fr], n: usize, from: usize, to: usize) {
    let mut half = from;
    while half < to {
        let stride = n / (2 * half);
        for block in c.chunks_exact_mut(2 * half) {
            let (lo, hi) = block.split_at_mut(half);
            for (k, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                butterfly::<M>(x, y, k, stride, roots);
            }
        }
        half *= 2;
    }
}

/// One layer of half-block size `half` (blocks larger than a chunk), its
/// butterflies cut into about `t` tasks.
fn layer<M: FrMul>(v: &mut [Fr], roots: &[Fr], half: usize, t: usize) {
    let n = v.len();
    let stride = n / (2 * half);
    let blocks = n / (2 * half);
    let len = (half / (t / blocks).max(1)).max(1);
    let block = |b: &mut [Fr]| {
        let (lo, hi) = b.split_at_mut(half);
        let part = |(p, (lo, hi)): (usize, (&mut [Fr], &mut [Fr]))| {
            for (k, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                butterfly::<M>(x, y, p * len + k, stride, roots);
            }
        };
        #[cfg(feature = "parallel")]
        lo.par_chunks_mut(len)
            .zip(hi.par_chunks_mut(len))
            .enumerate()
            .for_each(part);
        #[cfg(not(feature = "parallel"))]
        lo.chunks_mut(len)
            .zip(hi.chunks_mut(len))
            .enumerate()
            .for_each(part);
    };
    #[cfg(feature = "parallel")]
    v.par_chunks_mut(2 * half).for_each(block);
    #[cfg(not(feature = "parallel"))]
    v.chunks_mut(2 * half).for_each(block);
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
            let got = witness_map_with::<Fft<WasmMul>>(&m, inputs, &z).expect("witness map");
            assert_eq!(got, want, "{constraints} constraints, {inputs} inputs");
            let got = witness_map_with::<Fft<ArkMul>>(&m, inputs, &z).expect("witness map");
            assert_eq!(got, want, "{constraints} constraints, {inputs} inputs");
            let ark = witness_map_with::<ArkQap>(&m, inputs, &z).expect("witness map");
            assert_eq!(ark, want, "{constraints} constraints, {inputs} inputs");
        }
    }

    /// The transform cut into 1 to 16 chunks equals ark-poly's FFT.
    #[test]
    fn fft_equals_ark_poly_in_any_number_of_chunks() {
        let mut rng = ChaCha20Rng::seed_from_u64(18);
        for n in [2usize, 32, 1 << 10] {
            let domain = Radix2EvaluationDomain::<Fr>::new(n).expect("domain");
            let fft = Fft::<ArkMul>::radix2(&domain);
            let coeffs: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            let want = domain.get_coset(Fr::GENERATOR).expect("coset").fft(&coeffs);
            for t in [1usize, 2, 4, 8, 16].into_iter().filter(|&t| t <= n / 2) {
                let mut v = coeffs.clone();
                fft.transform_in(&mut v, &fft.roots, Some(&fft.coset), None, t);
                assert_eq!(v, want, "n = {n}, {t} chunks");
                fft.transform_in(&mut v, &fft.inv_roots, None, Some(&fft.coset_inv_scaled), t);
                assert_eq!(v, coeffs, "n = {n}, {t} chunks, inverse");
            }
        }
    }

    #[test]
    fn fft_round_trips() {
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        for n in [1usize, 2, 4, 16, 64, 1 << 11, 1 << 13] {
            let domain = Radix2EvaluationDomain::<Fr>::new(n).expect("domain");
            let fft = Fft::<ArkMul>::radix2(&domain);
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
