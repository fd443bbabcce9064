//! BN254 base-field products from the floating-point multiplier on four
//! lanes with AVX2 and FMA3, for the batched affine additions of the
//! prover's MSM on x86_64 CPUs without AVX-512 IFMA (chosen at run time).
//!
//! # Why floating point
//!
//! AVX2 has no 64×64-bit integer product, only four 32×32→64-bit ones per
//! instruction (`vpmuludq`), four of which make one 64×64-bit product: no
//! match for the scalar `mulx` chain of ark-ff's assembly. Its fused multiply-add on doubles, though, gives an
//! exact 51×51→102-bit product in two halves from two instructions, four
//! lanes at a time, and Zen 3 or Skylake-class cores issue two of them per
//! cycle. This is the construction of N. Emmart, J. Zheng, C. Weems,
//! "Faster modular exponentiation using double precision floating point
//! arithmetic on the GPU" (ARITH 2018), which [`crate::fma`] already runs on
//! WebAssembly's two-lane `f64x2.relaxed_madd`: that module's arithmetic is
//! written once over `FmaLanes`, and this module is the four-lane `FmaLanes` of
//! `__m256i` registers plus the entry points. Elements are five 51-bit
//! limbs in Montgomery form with `R' = 2^255`, four lanes per register,
//! limb-major (the layout of `fma::SoaN` with four lanes); a group
//! of eight entries is two sets of four.
//!
//! # No conversion but a regrouping of bits
//!
//! The batches arrive in ark-ff's limbs (`x·2^256`, the layout the AVX-512
//! kernel takes too), and this arithmetic reads a number `n` as
//! `n·2^-255`: ark-ff's `x` is `2x` here. Rather than halve every input and
//! double every output modulo `p`, the batch adds the points scaled by 2,
//! `(2x, 2y)`: the slope `λ` of two scaled points is that of the points,
//! `2x₃ = 2λ² − 2x₁ − 2x₂` costs one subtraction more than `x₃`, and
//! `2y₃ = λ(2x₁ − 2x₃) − 2y₁` is the usual formula. The sums come out
//! scaled by 2 as well, that is, as ark-ff's `x₃·2^256`: entering and
//! leaving the kernel is only the regrouping of 4×64 bits into 5×51
//! ([`crate::fma`]'s `F::from_words`, `F::to_words`), in registers.
//!
//! AVX2 has no 64-bit lane product either, which the reduction's
//! `q = z₀·(−p⁻¹) mod 2^51` needs: `Quad::mul_low` builds it from three
//! `vpmuludq`.
//!
//! # Safety
//!
//! This module is allowed `unsafe` for two things only: the intrinsics of
//! AVX2 and FMA3, reached only from the `#[target_feature(enable =
//! "avx2,fma")]` entry points after [`available`] has checked at run time
//! that the CPU has both; and the unaligned 32-byte loads and stores, each
//! from or to a slice of exactly four `u64` taken with bounds-checked
//! indexing.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

use crate::fma::{FmaLanes, F, F2, FK};
use crate::simd128::batch_add_scaled;

/// Four 64-bit lanes of one `ymm` register.
#[derive(Clone, Copy)]
pub(crate) struct Quad(__m256i);

// SAFETY (every `unsafe` block below): the intrinsics need AVX2 (integer
// lanes) or FMA3 (`_mm256_fmadd_pd`); `Quad` values exist only inside the
// entry points' `#[target_feature(enable = "avx2,fma")]` functions, which
// run after `available()` saw both features, and in tests guarded the same
// way. Loads and stores touch exactly the four words of a bounds-checked
// sub-slice.
impl FmaLanes for Quad {
    const LANES: usize = 4;
    #[inline(always)]
    fn splat(x: u64) -> Self {
        Self(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    fn load(src: &[u64]) -> Self {
        let src = &src[..4];
        Self(unsafe { _mm256_loadu_si256(src.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u64]) {
        let dst = &mut dst[..4];
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Self(unsafe { _mm256_add_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Self(unsafe { _mm256_sub_epi64(self.0, b.0) })
    }
    #[inline(always)]
    fn and(self, b: Self) -> Self {
        Self(unsafe { _mm256_and_si256(self.0, b.0) })
    }
    /// `a·b mod 2^64` from 32-bit halves: `a₀b₀ + (a₁b₀ + a₀b₁)·2^32`.
    #[inline(always)]
    fn mul_low(self, b: Self) -> Self {
        unsafe {
            let (a, b) = (self.0, b.0);
            let low = _mm256_mul_epu32(a, b);
            let a_hi = _mm256_srli_epi64::<32>(a);
            let b_hi = _mm256_srli_epi64::<32>(b);
            let cross = _mm256_add_epi64(_mm256_mul_epu32(a_hi, b), _mm256_mul_epu32(a, b_hi));
            Self(_mm256_add_epi64(low, _mm256_slli_epi64::<32>(cross)))
        }
    }
    #[inline(always)]
    fn shr_u(self, n: u32) -> Self {
        Self(unsafe { _mm256_srlv_epi64(self.0, _mm256_set1_epi64x(n as i64)) })
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        Self(unsafe { _mm256_sllv_epi64(self.0, _mm256_set1_epi64x(n as i64)) })
    }
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        // whole-lane masks: the byte blend picks lanes
        Self(unsafe { _mm256_blendv_epi8(b.0, a.0, mask.0) })
    }
    #[inline(always)]
    fn fma(a: Self, b: Self, c: Self) -> Self {
        unsafe {
            let r = _mm256_fmadd_pd(
                _mm256_castsi256_pd(a.0),
                _mm256_castsi256_pd(b.0),
                _mm256_castsi256_pd(c.0),
            );
            Self(_mm256_castpd_si256(r))
        }
    }
    /// `a·b − (hi − c_lo)`: the same value as `fma(a, b, c_lo − hi)`
    /// (`hi − c_lo` is exact: both are multiples of `2^51` in one binade),
    /// as one `vfmsub` after a `vsubpd` that can read `c_lo` from memory.
    #[inline(always)]
    fn fma_low(a: Self, b: Self, hi: Self, c_lo: Self) -> Self {
        unsafe {
            let pd = _mm256_castsi256_pd;
            let t = _mm256_sub_pd(pd(hi.0), pd(c_lo.0));
            Self(_mm256_castpd_si256(_mm256_fmsub_pd(pd(a.0), pd(b.0), t)))
        }
    }
    #[inline(always)]
    fn fsub(self, b: Self) -> Self {
        unsafe {
            let r = _mm256_sub_pd(_mm256_castsi256_pd(self.0), _mm256_castsi256_pd(b.0));
            Self(_mm256_castpd_si256(r))
        }
    }
}

/// Whether this CPU runs the kernel (AVX2 and FMA3), checked once; the
/// environment variable `ZKBENCH_NO_AVX2` (any value) turns it off, for
/// before/after measurements in one build.
pub fn available() -> bool {
    use std::sync::OnceLock;
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::env::var_os("ZKBENCH_NO_AVX2").is_none()
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
    })
}

/// Words per group of eight elements of one `Fq` component in the raw
/// layout ([`crate::avx512::Soa`]: four 64-bit limbs, limb-major).
const RAW: usize = 32;
/// Words per group of eight in this kernel's layout: two sets of four
/// lanes, five 51-bit limbs each.
const OURS: usize = 40;

/// Rewrites `groups` groups of eight elements with `c` components (1: `Fq`,
/// 2: `Fq2`) in place from the raw layout (`c·32` words per group: ark-ff's
/// limbs) to this kernel's (`c·40`: set `h` of four lanes at `c·20·h`,
/// component `j` at `20·j` in it), last group first, so that no group is
/// overwritten before it is read.
#[inline(always)]
fn into_ours(v: &mut [u64], groups: usize, c: usize) {
    let mut raw = [0u64; 2 * RAW];
    for g in (0..groups).rev() {
        raw[..c * RAW].copy_from_slice(&v[g * c * RAW..(g + 1) * c * RAW]);
        for h in 0..2 {
            for j in 0..c {
                let w = std::array::from_fn(|l| Quad::load(&raw[j * RAW + 8 * l + 4 * h..]));
                let at = g * c * OURS + h * c * OURS / 2 + j * OURS / 2;
                F::<Quad>::from_words(w).store(&mut v[at..at + OURS / 2]);
            }
        }
    }
}

/// The inverse of [`into_ours`], first group first.
#[inline(always)]
fn from_ours(v: &mut [u64], groups: usize, c: usize) {
    let mut ours = [0u64; 2 * OURS];
    for g in 0..groups {
        ours[..c * OURS].copy_from_slice(&v[g * c * OURS..(g + 1) * c * OURS]);
        for h in 0..2 {
            for j in 0..c {
                let at = h * c * OURS / 2 + j * OURS / 2;
                let w = F::<Quad>::load(&ours[at..at + OURS / 2]).to_words();
                for (l, w) in w.into_iter().enumerate() {
                    let to = g * c * RAW + j * RAW + 8 * l + 4 * h;
                    w.store(&mut v[to..to + 4]);
                }
            }
        }
    }
}

/// The batch of `groups` groups of eight entries with `c` components per
/// coordinate, over the raw layout: regrouped in place, added as `T` on the
/// points scaled by 2 (see the module docs), regrouped back (`qx`, `qy`;
/// `px`, `py` are left in this kernel's layout).
#[inline(always)]
fn batch_raw<T: crate::simd128::VecField>(
    [px, py, qx, qy]: [&mut [u64]; 4],
    groups: usize,
    c: usize,
) {
    for v in [&mut *px, &mut *py, &mut *qx, &mut *qy] {
        assert!(
            v.len() >= groups * c * OURS,
            "room for this kernel's layout"
        );
        into_ours(v, groups, c);
    }
    // ark-ff's x·2^256 read as this module's number·2^-255 is 2x
    batch_add_scaled::<T, true>(px, py, qx, qy, groups);
    from_ours(qx, groups, c);
    from_ours(qy, groups, c);
}

/// The G1 batch, two sets of four lanes per group of eight, every product
/// two at a time.
#[target_feature(enable = "avx2,fma")]
fn g1(px: &mut [u64], py: &mut [u64], qx: &mut [u64], qy: &mut [u64], groups: usize) {
    batch_raw::<FK<Quad, 2>>([px, py, qx, qy], groups, 1)
}

/// The G2 batch (the `Fq2` Karatsuba runs its three products at once).
#[target_feature(enable = "avx2,fma")]
fn g2(px: &mut [u64], py: &mut [u64], qx: &mut [u64], qy: &mut [u64], groups: usize) {
    batch_raw::<F2<Quad>>([px, py, qx, qy], groups, 2)
}

/// The batched affine additions `(qx, qy) += (px, py)` of `groups` groups of
/// eight G1 entries in the raw layout of [`crate::avx512::Soa`], in buffers
/// of at least 40 words per group (this kernel's layout is rewritten in
/// place; `px`, `py` are left in it); `false` (nothing written) where the
/// CPU lacks AVX2 or FMA3 or the kernel is off ([`available`]).
pub(crate) fn batch_add_g1(
    px: &mut [u64],
    py: &mut [u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    // SAFETY: `available()` checked AVX2 and FMA3 at run time.
    available() && {
        unsafe { g1(px, py, qx, qy, groups) };
        true
    }
}

/// The G2 batch (80 words per group), as [`batch_add_g1`].
pub(crate) fn batch_add_g2(
    px: &mut [u64],
    py: &mut [u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    // SAFETY: as in `batch_add_g1`.
    available() && {
        unsafe { g2(px, py, qx, qy, groups) };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::MsmField;
    use crate::fma::F;
    use crate::simd128::tests::edge_cases;
    use crate::simd128::VecField;
    use ark_bn254::{Fq, Fq2};
    use ark_ff::{AdditiveGroup, Field, UniformRand};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Whether this CPU can run the tests (every x86-64-v3 machine can).
    fn cpu_has_it() -> bool {
        let has = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        if !has {
            eprintln!("this CPU has no AVX2 + FMA3: the kernel cannot run here");
        }
        has
    }

    fn lanes_of<T: VecField>(x: T) -> Vec<T::Scalar> {
        let mut out = Vec::new();
        x.lanes(&mut out);
        out
    }

    /// Products, squares and differences on four lanes against ark-ff,
    /// lane by lane, over edge values and random ones.
    #[test]
    fn fq_lanes_equal_ark_ff() {
        if !cpu_has_it() {
            return;
        }
        let mut rng = ChaCha20Rng::seed_from_u64(331);
        let edges = edge_cases();
        let mut a = edges.clone();
        a.extend((0..2000).map(|_| Fq::rand(&mut rng)));
        let mut checked = 0;
        for (n, a) in a.chunks_exact(4).enumerate() {
            let b: Vec<Fq> = (0..4)
                .map(|k| match n % 2 {
                    0 => edges[(5 * n + k) % edges.len()],
                    _ => Fq::rand(&mut rng),
                })
                .collect();
            let (x, y) = (F::<Quad>::from_lanes(a), F::<Quad>::from_lanes(&b));
            let got = [
                lanes_of(VecField::mul(x, y)),
                lanes_of(VecField::square(x)),
                lanes_of(VecField::sub(x, y)),
            ];
            for k in 0..4 {
                let want = [a[k] * b[k], a[k].square(), a[k] - b[k]];
                for (op, (got, want)) in got.iter().zip(want).enumerate() {
                    assert_eq!(got[k], want, "op {op}, lane {k}: {} , {}", a[k], b[k]);
                    checked += 1;
                }
            }
        }
        assert!(checked > 6000);
    }

    #[test]
    fn fq2_lanes_equal_ark_ff() {
        if !cpu_has_it() {
            return;
        }
        let mut rng = ChaCha20Rng::seed_from_u64(332);
        for _ in 0..200 {
            let a: Vec<Fq2> = (0..4).map(|_| Fq2::rand(&mut rng)).collect();
            let b: Vec<Fq2> = (0..4).map(|_| Fq2::rand(&mut rng)).collect();
            let (x, y) = (F2::<Quad>::from_lanes(&a), F2::<Quad>::from_lanes(&b));
            let (m, s) = (lanes_of(VecField::mul(x, y)), lanes_of(VecField::square(x)));
            for k in 0..4 {
                assert_eq!(m[k], a[k] * b[k]);
                assert_eq!(s[k], a[k].square());
            }
        }
    }

    /// The batch of `n` random pairs in the shared raw layout (the
    /// [`MsmField`] writers and readers the prover uses), run by `run`,
    /// against ark-ec's affine additions.
    fn raw_batch_equals_ark_ec<C>(seed: u64, n: usize, run: Run)
    where
        C: ark_ec::short_weierstrass::SWCurveConfig,
        C::BaseField: MsmField,
    {
        use ark_ec::{short_weierstrass::Affine, AffineRepr, CurveGroup};
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let g = Affine::<C>::generator();
        let mut random = || (g * C::ScalarField::rand(&mut rng)).into_affine();
        let pairs: Vec<_> = (0..n).map(|_| (random(), random())).collect();
        let groups = n.div_ceil(8);
        let mut soa = [(); 4].map(|_| vec![u64::MAX; groups * C::BaseField::SOA_GROUP]);
        for k in 0..groups * 8 {
            let (p, q) = pairs.get(k).map_or(
                (
                    (C::BaseField::ONE, C::BaseField::ZERO),
                    (C::BaseField::ZERO, C::BaseField::ZERO),
                ),
                |(p, q)| ((p.x, p.y), (q.x, q.y)),
            );
            for (v, x) in soa.iter_mut().zip([p.0, p.1, q.0, q.1]) {
                x.soa_put(v, k);
            }
        }
        let [px, py, qx, qy] = &mut soa;
        // SAFETY: the callers checked AVX2 and FMA3
        unsafe { run(px, py, qx, qy, groups) };
        for (k, (p, q)) in pairs.iter().enumerate() {
            let want = (*p + q).into_affine();
            let got = (C::BaseField::soa_get(qx, k), C::BaseField::soa_get(qy, k));
            assert_eq!(got, (want.x, want.y), "entry {k}");
        }
    }

    /// An entry point of the kernel.
    type Run = unsafe fn(&mut [u64], &mut [u64], &mut [u64], &mut [u64], usize);

    /// The entry points (the `#[target_feature]` functions the prover
    /// calls), layout conversions included, against ark-ec's additions.
    #[test]
    fn entry_points_equal_ark_ec() {
        if !cpu_has_it() {
            return;
        }
        for (seed, n) in [(333, 61), (335, 8), (336, 200)] {
            raw_batch_equals_ark_ec::<ark_bn254::g1::Config>(seed, n, g1);
        }
        for (seed, n) in [(334, 29), (337, 8), (338, 77)] {
            raw_batch_equals_ark_ec::<ark_bn254::g2::Config>(seed, n, g2);
        }
    }
}
