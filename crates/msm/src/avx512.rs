//! Eight BN254 base-field multiplications at once with AVX-512 IFMA, for the
//! batched affine additions of the prover's MSM (x86_64 only, chosen at run
//! time).
//!
//! # Construction
//!
//! An element of `Fq` is held as five 52-bit limbs, and eight elements (one
//! per 64-bit lane) fill five `zmm` registers: limb `i` of the eight lanes is
//! register `i` ("structure of arrays"). `vpmadd52luq` / `vpmadd52huq` add
//! the low / high 52 bits of the 104-bit products of eight limb pairs to
//! eight 64-bit accumulators, so a 5×5-limb schoolbook product is 50 of them
//! and a word-by-word Montgomery reduction 5·11 more, for all eight lanes —
//! the approach of Gueron and Krasnov, *Accelerating big integer arithmetic
//! using Intel IFMA extensions* (ARITH 2016), and of Drucker and Gueron,
//! *Fast modular squaring with AVX512IFMA* (ITNG 2019), here with eight
//! independent products side by side instead of one long one.
//!
//! Elements stay in arkworks' Montgomery form (`a·2^256 mod q`), so that the
//! table points and buckets need no conversion but a regrouping of bits
//! (4×64 ↔ 5×52). Five 52-bit reduction steps divide by `2^260`, not `2^256`:
//! the product is multiplied by 16 (a shift of each accumulator, which have
//! room) before the reduction, so `mul` returns `a·b·2^-256`, exactly
//! ark-ff's result. Every value is kept fully reduced (below `q`, limbs below
//! `2^52`) between operations, which costs one conditional subtraction per
//! operation and keeps the invariants simple: IFMA reads only the low 52
//! bits of its inputs, so an unnormalised limb would be a wrong product.
//!
//! `batch_add_g1` and `batch_add_g2` are the whole batch of the prover's
//! affine bucket additions (Montgomery's trick, then `λ`, `x₃`, `y₃`) over
//! entries laid out as `Soa`: eight lanes per group, two interleaved
//! product chains in the inversion (sixteen lanes), the sixteen lane
//! products inverted with ark-ff.
//!
//! # Safety
//!
//! This module is allowed `unsafe` for two things only: calling the
//! `#[target_feature(enable = "avx512f,avx512ifma")]` kernels, which happens
//! after [`available`] has checked at run time that the CPU has both
//! features; and the unaligned 64-byte loads and stores of the intrinsics,
//! each from or to a slice of exactly eight `u64` taken with bounds-checked
//! indexing.
#![allow(unsafe_code)]

use ark_bn254::{Fq, Fq2};
use ark_ff::{AdditiveGroup, BigInt, Field, PrimeField};
use std::arch::x86_64::*;

/// Limb mask: 52 ones.
const MASK: u64 = (1 << 52) - 1;

/// `q` as five 52-bit limbs.
const Q: [u64; 5] = to_52(Fq::MODULUS.0);

/// `−q⁻¹ mod 2^52` (the Montgomery constant of 52-bit limbs).
const Q_INV: u64 = {
    // Newton's iteration for q⁻¹ mod 2^64: each step doubles the correct bits
    let q0 = Fq::MODULUS.0[0];
    let mut inv = 1u64;
    let mut i = 0;
    while i < 6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(q0.wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg() & MASK
};

/// Four 64-bit limbs as five 52-bit ones.
const fn to_52(a: [u64; 4]) -> [u64; 5] {
    [
        a[0] & MASK,
        ((a[0] >> 52) | (a[1] << 12)) & MASK,
        ((a[1] >> 40) | (a[2] << 24)) & MASK,
        ((a[2] >> 28) | (a[3] << 36)) & MASK,
        a[3] >> 16,
    ]
}

/// Whether this CPU runs the kernels (AVX-512 F and IFMA), checked once; the
/// environment variable `ZKBENCH_NO_AVX512` (any value) turns them off, for
/// before/after measurements in one build.
pub fn available() -> bool {
    use std::sync::OnceLock;
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::env::var_os("ZKBENCH_NO_AVX512").is_none()
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512ifma")
    })
}

/// Field elements in groups of eight, limb-major within a group: element `k`
/// of an `Fq` array has limb `l` at `(k / 8)·32 + l·8 + k % 8`; an `Fq2`
/// array has `c0` then `c1` (64 words per group).
pub(crate) struct Soa;

impl Soa {
    /// Words per group of eight `Fq` elements.
    pub(crate) const FQ_GROUP: usize = 32;
    /// Words per group of eight `Fq2` elements.
    pub(crate) const FQ2_GROUP: usize = 64;

    /// Writes the Montgomery limbs of `x` as element `k`.
    #[inline(always)]
    pub(crate) fn put_fq(soa: &mut [u64], k: usize, x: &Fq) {
        let base = (k / 8) * 32 + k % 8;
        for (l, w) in x.0 .0.iter().enumerate() {
            soa[base + 8 * l] = *w;
        }
    }

    /// Element `k` (the limbs as they are: the kernels write reduced ones).
    #[inline(always)]
    pub(crate) fn get_fq(soa: &[u64], k: usize) -> Fq {
        let base = (k / 8) * 32 + k % 8;
        Fq::new_unchecked(BigInt([
            soa[base],
            soa[base + 8],
            soa[base + 16],
            soa[base + 24],
        ]))
    }

    /// Writes `x` as element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn put_fq2(soa: &mut [u64], k: usize, x: &Fq2) {
        let g = k / 8;
        let lane = k % 8;
        for (c, f) in [&x.c0, &x.c1].into_iter().enumerate() {
            for (l, w) in f.0 .0.iter().enumerate() {
                soa[g * 64 + c * 32 + l * 8 + lane] = *w;
            }
        }
    }

    /// Element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn get_fq2(soa: &[u64], k: usize) -> Fq2 {
        let g = k / 8;
        let lane = k % 8;
        let f = |c: usize| {
            let b = g * 64 + c * 32 + lane;
            Fq::new_unchecked(BigInt([soa[b], soa[b + 8], soa[b + 16], soa[b + 24]]))
        };
        Fq2::new(f(0), f(1))
    }
}

/// Eight `Fq` elements: limb `i` of every lane in register `self.0[i]`, each limb
/// below `2^52`, each value below `q`.
#[derive(Clone, Copy)]
struct F([__m512i; 5]);

/// Eight `Fq2 = Fq[u]/(u² + 1)` elements.
#[derive(Clone, Copy)]
struct F2([F; 2]);

/// Eight words from `src` (exactly eight).
#[inline]
#[target_feature(enable = "avx512f")]
fn load8(src: &[u64]) -> __m512i {
    assert_eq!(src.len(), 8);
    // SAFETY: `src` holds eight u64, 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
}

/// Writes eight words to `dst` (exactly eight).
#[inline]
#[target_feature(enable = "avx512f")]
fn store8(dst: &mut [u64], v: __m512i) {
    assert_eq!(dst.len(), 8);
    // SAFETY: `dst` holds eight u64, 64 writable bytes; the store is unaligned.
    unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn splat(x: u64) -> __m512i {
    _mm512_set1_epi64(x as i64)
}

/// Eight elements from a group of 32 words (4×64-bit limbs, limb-major).
#[inline]
#[target_feature(enable = "avx512f")]
fn load_f(src: &[u64]) -> F {
    let m = splat(MASK);
    let a0 = load8(&src[0..8]);
    let a1 = load8(&src[8..16]);
    let a2 = load8(&src[16..24]);
    let a3 = load8(&src[24..32]);
    F([
        _mm512_and_si512(a0, m),
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<52>(a0), _mm512_slli_epi64::<12>(a1)),
            m,
        ),
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<40>(a1), _mm512_slli_epi64::<24>(a2)),
            m,
        ),
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<28>(a2), _mm512_slli_epi64::<36>(a3)),
            m,
        ),
        _mm512_srli_epi64::<16>(a3),
    ])
}

/// Writes eight reduced elements to a group of 32 words.
#[inline]
#[target_feature(enable = "avx512f")]
fn store_f(dst: &mut [u64], x: F) {
    let [l0, l1, l2, l3, l4] = x.0;
    store8(
        &mut dst[0..8],
        _mm512_or_si512(l0, _mm512_slli_epi64::<52>(l1)),
    );
    store8(
        &mut dst[8..16],
        _mm512_or_si512(_mm512_srli_epi64::<12>(l1), _mm512_slli_epi64::<40>(l2)),
    );
    store8(
        &mut dst[16..24],
        _mm512_or_si512(_mm512_srli_epi64::<24>(l2), _mm512_slli_epi64::<28>(l3)),
    );
    store8(
        &mut dst[24..32],
        _mm512_or_si512(_mm512_srli_epi64::<36>(l3), _mm512_slli_epi64::<16>(l4)),
    );
}

#[inline]
#[target_feature(enable = "avx512f")]
fn load_f2(src: &[u64]) -> F2 {
    F2([load_f(&src[0..32]), load_f(&src[32..64])])
}

#[inline]
#[target_feature(enable = "avx512f")]
fn store_f2(dst: &mut [u64], x: F2) {
    store_f(&mut dst[0..32], x.0[0]);
    store_f(&mut dst[32..64], x.0[1]);
}

/// `x − q` if that is not negative, else `x`, for `x < 2q` with limbs below
/// `2^52`.
#[inline]
#[target_feature(enable = "avx512f")]
fn reduce_once(x: [__m512i; 5]) -> F {
    let m = splat(MASK);
    let mut d = [_mm512_setzero_si512(); 5];
    let mut borrow = _mm512_setzero_si512();
    for i in 0..5 {
        // limbs and q's limbs are below 2^52: the difference with the borrow
        // (0 or −1) fits a signed lane; its arithmetic shift is the next borrow
        let t = _mm512_add_epi64(_mm512_sub_epi64(x[i], splat(Q[i])), borrow);
        borrow = _mm512_srai_epi64::<52>(t);
        d[i] = _mm512_and_si512(t, m);
    }
    // borrow = −1 in the lanes where x < q: keep x there
    let keep = _mm512_cmplt_epi64_mask(borrow, _mm512_setzero_si512());
    for (d, x) in d.iter_mut().zip(x) {
        *d = _mm512_mask_blend_epi64(keep, *d, x);
    }
    F(d)
}

/// `a − b mod q`.
#[inline]
#[target_feature(enable = "avx512f")]
fn sub(a: F, b: F) -> F {
    let m = splat(MASK);
    let mut d = [_mm512_setzero_si512(); 5];
    let mut borrow = _mm512_setzero_si512();
    for ((d, a), b) in d.iter_mut().zip(a.0).zip(b.0) {
        let t = _mm512_add_epi64(_mm512_sub_epi64(a, b), borrow);
        borrow = _mm512_srai_epi64::<52>(t);
        *d = _mm512_and_si512(t, m);
    }
    // where a < b (borrow −1), add q
    let neg = _mm512_cmplt_epi64_mask(borrow, _mm512_setzero_si512());
    let mut carry = _mm512_setzero_si512();
    for (i, d) in d.iter_mut().enumerate() {
        let t = _mm512_add_epi64(_mm512_mask_add_epi64(*d, neg, *d, splat(Q[i])), carry);
        carry = _mm512_srli_epi64::<52>(t);
        *d = _mm512_and_si512(t, m);
    }
    F(d)
}

/// `a + b mod q`.
#[inline]
#[target_feature(enable = "avx512f")]
fn add(a: F, b: F) -> F {
    reduce_once(add_unreduced(a, b).0)
}

/// `a + b` with normalised limbs, not reduced (below `2q`): an input of
/// [`mul`], which takes values below `2q`.
#[inline]
#[target_feature(enable = "avx512f")]
fn add_unreduced(a: F, b: F) -> F {
    let m = splat(MASK);
    let mut s = [_mm512_setzero_si512(); 5];
    let mut carry = _mm512_setzero_si512();
    for (i, s) in s.iter_mut().enumerate() {
        let t = _mm512_add_epi64(_mm512_add_epi64(a.0[i], b.0[i]), carry);
        carry = _mm512_srli_epi64::<52>(t);
        *s = _mm512_and_si512(t, m);
    }
    F(s)
}

/// `a·b·2^-256 mod q` (ark-ff's Montgomery product) for `a, b < 2q` with
/// limbs below `2^52`; the result is below `q`.
///
/// Bounds: an accumulator collects at most nine 52-bit halves (< 2^55.2),
/// 2^59.2 after the shift by 4, and at most ten more halves and a carry in
/// the reduction: below 2^60. The reduced value is
/// `(16ab + m·q) / 2^260 < 64q²/2^260 + q < 2q`, so one conditional
/// subtraction leaves it below `q`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mul(a: F, b: F) -> F {
    let z = _mm512_setzero_si512();
    let mut t = [z; 10];
    for i in 0..5 {
        for j in 0..5 {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.0[i], b.0[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.0[i], b.0[j]);
        }
    }
    // ·16: the five 52-bit reduction steps below divide by 2^260
    for t in t.iter_mut() {
        *t = _mm512_slli_epi64::<4>(*t);
    }
    let q_inv = splat(Q_INV);
    let mut q = [z; 5];
    for (q, l) in q.iter_mut().zip(Q) {
        *q = splat(l);
    }
    for i in 0..5 {
        // m = t_i·(−q⁻¹) mod 2^52 (IFMA reads the low 52 bits of t_i)
        let m = _mm512_madd52lo_epu64(z, t[i], q_inv);
        for j in 0..5 {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, q[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, q[j]);
        }
        // t_i is now 0 mod 2^52: carry its high bits
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64::<52>(t[i]));
    }
    let mask = splat(MASK);
    let mut r = [z; 5];
    let mut carry = z;
    for (i, r) in r.iter_mut().enumerate() {
        let v = _mm512_add_epi64(t[i + 5], carry);
        carry = _mm512_srli_epi64::<52>(v);
        *r = _mm512_and_si512(v, mask);
    }
    reduce_once(r)
}

/// `a·b` in `Fq2` (`u² = −1`, Karatsuba: three multiplications).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mul2(a: F2, b: F2) -> F2 {
    let [a0, a1] = a.0;
    let [b0, b1] = b.0;
    let v0 = mul(a0, b0);
    let v1 = mul(a1, b1);
    let s = mul(add_unreduced(a0, a1), add_unreduced(b0, b1));
    F2([sub(v0, v1), sub(sub(s, v0), v1)])
}

/// `a²` in `Fq2`: `(c0 + c1)(c0 − c1) + 2·c0·c1·u`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn square2(a: F2) -> F2 {
    let [a0, a1] = a.0;
    let c0 = mul(add_unreduced(a0, a1), sub(a0, a1));
    let c1 = mul(a0, a1);
    F2([c0, add(c1, c1)])
}

#[inline]
#[target_feature(enable = "avx512f")]
fn sub2(a: F2, b: F2) -> F2 {
    F2([sub(a.0[0], b.0[0]), sub(a.0[1], b.0[1])])
}

/// Eight `Fq` elements equal to `x`.
#[inline]
#[target_feature(enable = "avx512f")]
fn splat_f(x: &Fq) -> F {
    let mut v = [_mm512_setzero_si512(); 5];
    for (v, l) in v.iter_mut().zip(to_52(x.0 .0)) {
        *v = splat(l);
    }
    F(v)
}

/// The batched affine additions `(qx, qy) += (px, py)` of `groups` groups of
/// eight entries, the sums written over `qx`, `qy` (see [`Soa`]). No entry
/// may have `px = qx` (the caller does those apart; padding entries use
/// `px = 1, qx = 0`).
macro_rules! batch_add {
    ($name:ident, $kernel:ident, $group:expr, $v:ty, $load:ident, $store:ident,
     $mul:ident, $square:expr, $sub:ident, $one:expr, $field:ty, $lanes_in:ident, $lanes_out:ident) => {
        /// Batched affine additions, eight lanes at a time (see the module
        /// docs); `false` without AVX-512 IFMA (nothing is written).
        pub(crate) fn $name(
            px: &[u64],
            py: &[u64],
            qx: &mut [u64],
            qy: &mut [u64],
            groups: usize,
        ) -> bool {
            if !available() {
                return false;
            }
            assert!(px.len() >= groups * $group && py.len() >= groups * $group);
            assert!(qx.len() >= groups * $group && qy.len() >= groups * $group);
            // SAFETY: `available()` checked that the CPU has AVX-512 F and IFMA.
            unsafe { $kernel(px, py, qx, qy, groups) };
            true
        }

        #[target_feature(enable = "avx512f,avx512ifma")]
        fn $kernel(px: &[u64], py: &[u64], qx: &mut [u64], qy: &mut [u64], groups: usize) {
            let g = |i: usize| i * $group..(i + 1) * $group;
            // prefix products in two interleaved chains (even and odd groups)
            let one: $v = $one;
            let mut acc = [one, one];
            let mut before: Vec<$v> = Vec::with_capacity(groups);
            for i in 0..groups {
                let d = $sub($load(&px[g(i)]), $load(&qx[g(i)]));
                before.push(acc[i % 2]);
                acc[i % 2] = $mul(acc[i % 2], d);
            }
            // the sixteen lane products, inverted on this thread (one inversion)
            let mut lanes: Vec<$field> = Vec::with_capacity(16);
            $lanes_in(acc[0], &mut lanes);
            $lanes_in(acc[1], &mut lanes);
            crate::inverse::invert_lanes(&mut lanes);
            let mut inv = [$lanes_out(&lanes[..8]), $lanes_out(&lanes[8..])];
            for i in (0..groups).rev() {
                let (x1, y1) = ($load(&qx[g(i)]), $load(&qy[g(i)]));
                let (x2, y2) = ($load(&px[g(i)]), $load(&py[g(i)]));
                let d = $sub(x2, x1);
                let inv_d = $mul(inv[i % 2], before[i]);
                inv[i % 2] = $mul(inv[i % 2], d);
                let lambda = $mul($sub(y2, y1), inv_d);
                let x3 = $sub($sub($square(lambda), x1), x2);
                let y3 = $sub($mul(lambda, $sub(x1, x3)), y1);
                $store(&mut qx[g(i)], x3);
                $store(&mut qy[g(i)], y3);
            }
        }
    };
}

/// The eight lanes of `x` as ark-ff elements, appended to `out`.
#[target_feature(enable = "avx512f")]
fn lanes_in_f(x: F, out: &mut Vec<Fq>) {
    let mut w = [0u64; 32];
    store_f(&mut w, x);
    out.extend((0..8).map(|k| Soa::get_fq(&w, k)));
}

/// Eight ark-ff elements as lanes.
#[target_feature(enable = "avx512f")]
fn lanes_out_f(x: &[Fq]) -> F {
    let mut w = [0u64; 32];
    for (k, x) in x.iter().enumerate() {
        Soa::put_fq(&mut w, k, x);
    }
    load_f(&w)
}

#[target_feature(enable = "avx512f")]
fn lanes_in_f2(x: F2, out: &mut Vec<Fq2>) {
    let mut w = [0u64; 64];
    store_f2(&mut w, x);
    out.extend((0..8).map(|k| Soa::get_fq2(&w, k)));
}

#[target_feature(enable = "avx512f")]
fn lanes_out_f2(x: &[Fq2]) -> F2 {
    let mut w = [0u64; 64];
    for (k, x) in x.iter().enumerate() {
        Soa::put_fq2(&mut w, k, x);
    }
    load_f2(&w)
}

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn square1(a: F) -> F {
    mul(a, a)
}

batch_add!(
    batch_add_g1,
    batch_add_g1_kernel,
    Soa::FQ_GROUP,
    F,
    load_f,
    store_f,
    mul,
    square1,
    sub,
    splat_f(&Fq::ONE),
    Fq,
    lanes_in_f,
    lanes_out_f
);

batch_add!(
    batch_add_g2,
    batch_add_g2_kernel,
    Soa::FQ2_GROUP,
    F2,
    load_f2,
    store_f2,
    mul2,
    square2,
    sub2,
    F2([splat_f(&Fq::ONE), splat_f(&Fq::ZERO)]),
    Fq2,
    lanes_in_f2,
    lanes_out_f2
);

/// Test access to the field kernels on groups of eight (`None` without
/// AVX-512 IFMA).
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// `op` over eight `(a, b)` pairs: 0 = `a·b`, 1 = `a − b`, 2 = `a + b`.
    pub(crate) fn fq_op(op: u8, a: &[Fq; 8], b: &[Fq; 8]) -> Option<[Fq; 8]> {
        if !available() {
            return None;
        }
        // SAFETY: `available()` checked the CPU features.
        Some(unsafe { fq_op_kernel(op, a, b) })
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    fn fq_op_kernel(op: u8, a: &[Fq; 8], b: &[Fq; 8]) -> [Fq; 8] {
        let (x, y) = (lanes_out_f(a), lanes_out_f(b));
        let r = match op {
            0 => mul(x, y),
            1 => sub(x, y),
            _ => add(x, y),
        };
        let mut out = Vec::new();
        lanes_in_f(r, &mut out);
        out.try_into().expect("eight lanes")
    }

    /// `op` over eight `Fq2` pairs: 0 = `a·b`, 1 = `a²`.
    pub(crate) fn fq2_op(op: u8, a: &[Fq2; 8], b: &[Fq2; 8]) -> Option<[Fq2; 8]> {
        if !available() {
            return None;
        }
        // SAFETY: `available()` checked the CPU features.
        Some(unsafe { fq2_op_kernel(op, a, b) })
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    fn fq2_op_kernel(op: u8, a: &[Fq2; 8], b: &[Fq2; 8]) -> [Fq2; 8] {
        let (x, y) = (lanes_out_f2(a), lanes_out_f2(b));
        let r = if op == 0 { mul2(x, y) } else { square2(x) };
        let mut out = Vec::new();
        lanes_in_f2(r, &mut out);
        out.try_into().expect("eight lanes")
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{fq2_op, fq_op};
    use super::*;
    use ark_ff::{UniformRand, Zero};
    use rand::SeedableRng;

    /// Elements that stress the limb boundaries: 0, 1, q − 1, q − 2, 2^k
    /// near the 52-bit limb edges, and all-ones patterns below q.
    fn edge_cases() -> Vec<Fq> {
        let mut v = vec![Fq::zero(), Fq::ONE, -Fq::ONE, -Fq::ONE - Fq::ONE];
        for k in [51u32, 52, 53, 103, 104, 155, 156, 207, 208, 252] {
            let mut limbs = [0u64; 4];
            limbs[(k / 64) as usize] = 1 << (k % 64);
            v.push(Fq::new_unchecked(BigInt(limbs)));
        }
        // q − 1 as raw limbs (the largest reduced representation)
        let mut top = Fq::MODULUS;
        top.0[0] -= 1;
        v.push(Fq::new_unchecked(top));
        v
    }

    #[test]
    fn constants() {
        // −q⁻¹ · q ≡ −1 mod 2^52
        assert_eq!(Q_INV.wrapping_mul(Q[0]) & MASK, MASK);
        let back = [
            Q[0] | (Q[1] << 52),
            (Q[1] >> 12) | (Q[2] << 40),
            (Q[2] >> 24) | (Q[3] << 28),
            (Q[3] >> 36) | (Q[4] << 16),
        ];
        assert_eq!(back, Fq::MODULUS.0);
    }

    /// Every kernel against ark-ff on random and edge-case elements (on a CPU
    /// without AVX-512 IFMA the kernels cannot run: the test then checks that
    /// the dispatch reports so, which is what keeps the prover on ark-ff).
    #[test]
    fn fq_kernels_equal_ark_ff() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(52);
        let edges = edge_cases();
        let mut inputs: Vec<Fq> = edges.clone();
        inputs.extend((0..2000).map(|_| Fq::rand(&mut rng)));
        let mut checked = 0;
        for (n, chunk) in inputs.chunks_exact(8).enumerate() {
            let a: [Fq; 8] = chunk.try_into().unwrap();
            // pair each element with edge cases and random ones
            let b: [Fq; 8] = std::array::from_fn(|k| {
                if n % 2 == 0 {
                    edges[(n + k) % edges.len()]
                } else {
                    Fq::rand(&mut rng)
                }
            });
            for op in 0..3u8 {
                let Some(r) = fq_op(op, &a, &b) else {
                    assert!(!available());
                    return;
                };
                for k in 0..8 {
                    let want = match op {
                        0 => a[k] * b[k],
                        1 => a[k] - b[k],
                        _ => a[k] + b[k],
                    };
                    assert_eq!(r[k], want, "op {op}, lane {k}: {} · {}", a[k], b[k]);
                    // canonical limbs, as ark-ff keeps them
                    assert!(r[k].0 < Fq::MODULUS);
                    checked += 1;
                }
            }
        }
        assert!(checked > 6000);
    }

    #[test]
    fn fq2_kernels_equal_ark_ff() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(53);
        let edges = edge_cases();
        for round in 0..100 {
            let a: [Fq2; 8] = std::array::from_fn(|k| {
                if round < 10 {
                    Fq2::new(edges[(round + k) % edges.len()], edges[k % edges.len()])
                } else {
                    Fq2::rand(&mut rng)
                }
            });
            let b: [Fq2; 8] = std::array::from_fn(|_| Fq2::rand(&mut rng));
            let (Some(m), Some(s)) = (fq2_op(0, &a, &b), fq2_op(1, &a, &b)) else {
                assert!(!available());
                return;
            };
            for k in 0..8 {
                assert_eq!(m[k], a[k] * b[k]);
                assert_eq!(s[k], a[k].square());
            }
        }
    }
}
