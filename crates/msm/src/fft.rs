//! Radix-2 FFT (NTT) over the BN254 scalar field, cut for the thread pool:
//! the transforms of the Groth16 prover's QAP witness map (its H
//! polynomial), on the domain and on the coset `g·H` (`g = Fr::GENERATOR`).
//!
//! [`Fft`] is the iterative radix-2 Cooley–Tukey transform (J. W. Cooley,
//! J. W. Tukey, "An algorithm for the machine calculation of complex Fourier
//! series", Math. Comp. 1965): a bit-reversal permutation, then butterfly
//! layers with a table of `ω^k`. It is written here rather than taken from
//! ark-poly for two reasons. On `wasm32` ark-ff's `Fr` multiplication costs
//! 32 `__multi3` calls, and the transform takes its multiplication as a type
//! parameter ([`FrMul`]: ark-ff's, or [`crate::field::fr_mul`]: 29-bit
//! limbs, or 64-bit ones in a build with wide arithmetic). And ark-poly's parallel FFT opens one rayon
//! region per butterfly layer, each cut as finely as the pool is large: with
//! a pool larger than the machine (or three FFTs at once, as in the witness
//! map) the idle workers spin between regions, and the CPU time of a proof
//! grew with the thread count. This one cuts the array into `t` chunks once
//! (`t`, a power of two, about the threads the work is cut for,
//! [`crate::threads`]): the permutation (fused with the coset scaling) is one
//! region, every layer whose blocks fit in a chunk runs inside one region,
//! chunk by chunk, and only the last `log2 t` layers need a region each.
//!
//! Its sums and differences are branch-free ([`crate::field`]'s, equal to
//! ark-ff's): ark-ff's conditional subtraction of `p` is mispredicted about
//! every second butterfly. That took 7-9% off the transform at 2^13 and 2^16
//! points on one thread (both timed in one run, 2-core Zen 3 VM), within
//! 0-10% of halo2curves' `best_fft` there.
//!
//! The domain generator is `Fr::get_root_of_unity(n)`, ark-poly's
//! `Radix2EvaluationDomain` generator, and the coset offset ark-groth16's, so
//! every transform is the same linear map as ark-poly's (the tests compare
//! them element by element).

use ark_bn254::Fr;
use ark_ff::{FftField, Field, One};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::field::{fr_add, fr_mul, fr_sub};

/// An `Fr` multiplication.
pub trait FrMul: Send + Sync + 'static {
    /// `a·b`.
    fn mul(a: &Fr, b: &Fr) -> Fr;
}

/// ark-ff's multiplication (native).
pub struct ArkMul;

impl FrMul for ArkMul {
    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        *a * b
    }
}

/// [`crate::field::fr_mul`]'s multiplication (WebAssembly: 29-bit limbs, or
/// 64-bit ones with wide arithmetic; bit-identical to ark-ff's).
pub struct LimbMul;

impl FrMul for LimbMul {
    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        fr_mul(a, b)
    }
}

/// Below this size an FFT runs on one thread.
const MIN_PARALLEL_FFT: usize = 1 << 10;

/// Twiddle and coset tables of one radix-2 domain, with the multiplication
/// `M`.
pub struct Fft<M = ArkMul> {
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

impl<M: FrMul> Fft<M> {
    /// The tables of the radix-2 domain of size `n`; `None` unless `n` is a
    /// power of two with a root of unity of that order in `Fr` (`n ≤ 2^28`).
    pub fn new(n: usize) -> Option<Self> {
        if !n.is_power_of_two() {
            return None;
        }
        let w = Fr::get_root_of_unity(n as u64)?;
        let w_inv = w.inverse()?;
        let n_inv = Fr::from(n as u64).inverse()?;
        let g = Fr::GENERATOR;
        let g_inv = g.inverse().expect("the generator is not zero");
        Some(Self {
            n,
            roots: powers::<M>(w, n / 2, Fr::one()),
            inv_roots: powers::<M>(w_inv, n / 2, Fr::one()),
            n_inv: vec![n_inv; n],
            coset: powers::<M>(g, n, Fr::one()),
            coset_inv_scaled: powers::<M>(g_inv, n, n_inv),
            _mul: std::marker::PhantomData,
        })
    }

    /// The domain size `n`.
    pub fn size(&self) -> usize {
        self.n
    }

    /// Evaluations on the domain from coefficients, in place (`v.len()` must
    /// be [`Self::size`]).
    pub fn fft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.roots, None, None);
    }

    /// Coefficients from evaluations on the domain.
    pub fn ifft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.inv_roots, None, Some(&self.n_inv));
    }

    /// Evaluations on the coset `g·H` from coefficients.
    pub fn coset_fft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.roots, Some(&self.coset), None);
    }

    /// Coefficients from evaluations on the coset `g·H`.
    pub fn coset_ifft(&self, v: &mut Vec<Fr>) {
        self.transform(v, &self.inv_roots, None, Some(&self.coset_inv_scaled));
    }

    /// The number of chunks the transform is cut into: a power of two, at
    /// least the threads the work is cut for, 1 for small transforms.
    fn chunks(&self) -> usize {
        if self.n < MIN_PARALLEL_FFT {
            1
        } else {
            crate::split::threads().next_power_of_two().min(self.n / 2)
        }
    }

    /// In place: `v_i ← pre_i·v_i` (if `pre`), `v_j ← Σ_i v_i·w^(ij)` for the
    /// table `roots` of `w`, then `v_j ← post_j·v_j` (if `post`).
    fn transform(&self, v: &mut Vec<Fr>, roots: &[Fr], pre: Option<&[Fr]>, post: Option<&[Fr]>) {
        self.transform_in(v, roots, pre, post, self.chunks());
    }

    /// [`Self::transform`] cut into `t` chunks (a power of two, at most
    /// `n/2` when `n > 1`).
    pub(crate) fn transform_in(
        &self,
        v: &mut Vec<Fr>,
        roots: &[Fr],
        pre: Option<&[Fr]>,
        post: Option<&[Fr]>,
        t: usize,
    ) {
        let n = self.n;
        assert_eq!(v.len(), n, "an FFT of size {n} given {} values", v.len());
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

/// One butterfly `x, y ← x + ω^(k·stride)·y, x − ω^(k·stride)·y`, its sum
/// and difference without a branch ([`fr_add`], [`fr_sub`]): ark-ff's
/// subtract `p` when the result is at or above it, a branch taken half the
/// time on butterfly data, so mispredicted about one butterfly in two.
#[inline(always)]
fn butterfly<M: FrMul>(x: &mut Fr, y: &mut Fr, k: usize, stride: usize, roots: &[Fr]) {
    let t = if k == 0 {
        *y
    } else {
        M::mul(y, &roots[k * stride])
    };
    *y = fr_sub(x, &t);
    *x = fr_add(x, &t);
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
    use ark_ff::UniformRand;
    use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// The transform cut into 1 to 16 chunks equals ark-poly's FFT, with
    /// either multiplication.
    #[test]
    fn fft_equals_ark_poly_in_any_number_of_chunks() {
        let mut rng = ChaCha20Rng::seed_from_u64(18);
        for n in [2usize, 32, 1 << 10] {
            let domain = Radix2EvaluationDomain::<Fr>::new(n).expect("domain");
            let coeffs: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            let want = domain.get_coset(Fr::GENERATOR).expect("coset").fft(&coeffs);
            let ark = Fft::<ArkMul>::new(n).expect("tables");
            let limb = Fft::<LimbMul>::new(n).expect("tables");
            for t in [1usize, 2, 4, 8, 16].into_iter().filter(|&t| t <= n / 2) {
                let mut v = coeffs.clone();
                ark.transform_in(&mut v, &ark.roots, Some(&ark.coset), None, t);
                assert_eq!(v, want, "n = {n}, {t} chunks");
                ark.transform_in(&mut v, &ark.inv_roots, None, Some(&ark.coset_inv_scaled), t);
                assert_eq!(v, coeffs, "n = {n}, {t} chunks, inverse");
                let mut v = coeffs.clone();
                limb.transform_in(&mut v, &limb.roots, None, None, t);
                assert_eq!(v, domain.fft(&coeffs), "n = {n}, {t} chunks, 29-bit limbs");
            }
        }
    }

    #[test]
    fn fft_round_trips() {
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        for n in [1usize, 2, 4, 16, 64, 1 << 11, 1 << 13] {
            let domain = Radix2EvaluationDomain::<Fr>::new(n).expect("domain");
            let fft = Fft::<ArkMul>::new(n).expect("tables");
            let coeffs: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            let mut v = coeffs.clone();
            fft.fft(&mut v);
            assert_eq!(v, domain.fft(&coeffs), "size {n}");
            fft.ifft(&mut v);
            assert_eq!(v, coeffs, "size {n}");
            fft.coset_fft(&mut v);
            assert_eq!(
                v,
                domain.get_coset(Fr::GENERATOR).expect("coset").fft(&coeffs)
            );
            fft.coset_ifft(&mut v);
            assert_eq!(v, coeffs, "size {n}");
        }
    }

    #[test]
    fn sizes_without_a_domain_are_refused() {
        assert!(Fft::<ArkMul>::new(3).is_none());
        assert!(Fft::<ArkMul>::new(0).is_none());
        assert!(Fft::<ArkMul>::new(1 << 29).is_none());
    }
}
