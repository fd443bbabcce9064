//! Four BN254 base-field multiplications at once in WebAssembly SIMD128, for
//! the batched affine additions of the prover's MSM: the eight-lane idea of
//! [`crate::avx512`] (x86_64 only) for the browser's threaded build.
//!
//! # Construction
//!
//! WebAssembly SIMD has 128-bit vectors and no 64×64→128-bit product; its
//! one widening product is `i64x2.extmul_{low,high}_i32x4_u`: two
//! 32×32→64-bit products of the low (or high) two of four 32-bit lanes. So
//! an element of `Fq` is held as **nine 29-bit limbs** (261 bits) and four
//! elements fill nine `v128` registers, limb `i` of the four lanes in
//! register `i` ("structure of arrays"). A product of two limbs is below
//! 2^58: a 64-bit accumulator lane takes 64 of them before it can overflow,
//! so carries are deferred to one per column — Gregor Mitscha-Baude's
//! 29-bit-limb technique from his ZPrize 2022 WebAssembly MSM
//! (github.com/mitschabaude/montgomery), the scalar form of which is
//! [`crate::field`]. Each column of the product is the sum of the
//! `extmul` products (two accumulators: lanes 0–1 and 2–3), and the
//! Montgomery reduction is interleaved with it, one limb per column
//! (product scanning: `q_k = t_k·(−p⁻¹) mod 2^29` from the low 32 bits of
//! the column, then `q_k·p` joins the columns). As in [`crate::field`],
//! `R = 2^256`: the ninth step reduces only 24 bits (`8·29 + 24 = 256`) and
//! the result is read from bit 24 of column 8, so elements stay in ark-ff's
//! Montgomery form, bit for bit, with no conversion but a regrouping of bits
//! (4×64 ↔ 9×29). Every value between operations is fully reduced (below
//! `p`, limbs below 2^29): one conditional subtraction per product.
//!
//! The arithmetic is written once, over a tiny lane abstraction
//! (`Lanes`: 32-bit lane operations, the widening product, narrowing),
//! with two implementations: `v128` on `wasm32` with `simd128`, and plain
//! arrays everywhere, which is how `cargo test -p zkbench-msm` checks the
//! same arithmetic lane by lane against ark-ff natively.
//!
//! `batch_add_g1` and `batch_add_g2` are the whole batch of the
//! prover's affine bucket additions (Montgomery's trick, then `λ`, `x₃`,
//! `y₃`) over entries laid out as `Soa`: groups of eight (two sets of
//! four lanes), two interleaved product chains in the inversion, the eight
//! lane products inverted with ark-ff.
//!
//! References: P. L. Montgomery, "Modular multiplication without trial
//! division", Math. Comp. 44, 1985; Ç. K. Koç, T. Acar, B. S. Kaliski,
//! "Analyzing and comparing Montgomery multiplication algorithms", IEEE
//! Micro 16(3), 1996 (product scanning); G. Mitscha-Baude, "Fast
//! multi-scalar multiplication in WebAssembly", ZPrize 2022.
//!
//! # Safety
//!
//! `unsafe` is allowed here only for the unaligned `v128` loads and stores
//! (`v128_load`, `v128_store`), each from or to a slice of exactly two
//! `u64` taken with bounds-checked indexing.
#![cfg_attr(
    not(all(
        target_arch = "wasm32",
        target_feature = "simd128",
        not(target_feature = "relaxed-simd")
    )),
    allow(dead_code)
)]

use ark_bn254::{Fq, Fq2};
use ark_ff::{BigInt, Field};

use crate::field::{unpack, FQ};

/// Bits per limb.
const W: u32 = 29;
/// Limbs per element.
const L: usize = 9;
/// The low 29 bits.
const MASK: u32 = (1 << W) - 1;
/// Bits reduced by the last Montgomery step: `8·29 + 24 = 256`.
const LAST: u32 = 256 - W * (L as u32 - 1);

/// `p` as nine 29-bit limbs.
const P: [u32; L] = {
    let mut r = [0u32; L];
    let mut i = 0;
    while i < L {
        r[i] = FQ.p[i] as u32;
        i += 1;
    }
    r
};

/// `−p⁻¹ mod 2^29`.
const INV: u32 = FQ.inv as u32;

/// Four 32-bit lanes and the 32×32→64-bit products of their pairs: the
/// operations the kernels need, on `v128` in WebAssembly and on arrays
/// elsewhere (tests). Lane arithmetic wraps.
pub(crate) trait Lanes: Copy {
    /// Two 64-bit lanes.
    type W: Copy;
    /// Four lanes equal to `x`.
    fn splat(x: u32) -> Self;
    /// Four lanes from two words (lane `2i + h` is half `h` of word `i`,
    /// low half first: the bytes of the words in memory order).
    fn load(src: &[u64]) -> Self;
    /// Writes the lanes to two words (the layout of [`Lanes::load`]).
    fn store(self, dst: &mut [u64]);
    /// Lane-wise `self + b`.
    fn add(self, b: Self) -> Self;
    /// Lane-wise `self − b`.
    fn sub(self, b: Self) -> Self;
    /// Lane-wise `self & b`.
    fn and(self, b: Self) -> Self;
    /// Lane-wise `self | b`.
    fn or(self, b: Self) -> Self;
    /// Lane-wise arithmetic shift right.
    fn shr_s(self, n: u32) -> Self;
    /// Lane-wise logical shift right.
    fn shr_u(self, n: u32) -> Self;
    /// Lane-wise shift left.
    fn shl(self, n: u32) -> Self;
    /// Lane-wise low 32 bits of `self · b`.
    fn mul_low(self, b: Self) -> Self;
    /// `a` where `mask` has ones, `b` where it has zeros.
    fn select(mask: Self, a: Self, b: Self) -> Self;
    /// The 64-bit products of lanes 0, 1 and of lanes 2, 3.
    fn mul_wide(self, b: Self) -> [Self::W; 2];
    /// Two zero 64-bit lanes.
    fn w_zero() -> Self::W;
    /// Lane-wise 64-bit `a + b`.
    fn w_add(a: Self::W, b: Self::W) -> Self::W;
    /// Lane-wise 64-bit logical shift right.
    fn w_shr(a: Self::W, n: u32) -> Self::W;
    /// The low 32 bits of the four 64-bit lanes of `w`.
    fn narrow(w: [Self::W; 2]) -> Self;
}

/// [`Lanes`] as plain arrays: the reference the tests run natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Portable([u32; 4]);

#[cfg_attr(not(test), allow(dead_code))]
impl Portable {
    #[inline(always)]
    fn map2(self, b: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        Self(std::array::from_fn(|i| f(self.0[i], b.0[i])))
    }
}

impl Lanes for Portable {
    type W = [u64; 2];
    fn splat(x: u32) -> Self {
        Self([x; 4])
    }
    fn load(src: &[u64]) -> Self {
        let [a, b] = [src[0], src[1]];
        Self([a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32])
    }
    fn store(self, dst: &mut [u64]) {
        let x = self.0.map(u64::from);
        dst[0] = x[0] | (x[1] << 32);
        dst[1] = x[2] | (x[3] << 32);
    }
    fn add(self, b: Self) -> Self {
        self.map2(b, u32::wrapping_add)
    }
    fn sub(self, b: Self) -> Self {
        self.map2(b, u32::wrapping_sub)
    }
    fn and(self, b: Self) -> Self {
        self.map2(b, |x, y| x & y)
    }
    fn or(self, b: Self) -> Self {
        self.map2(b, |x, y| x | y)
    }
    fn shr_s(self, n: u32) -> Self {
        Self(self.0.map(|x| ((x as i32) >> n) as u32))
    }
    fn shr_u(self, n: u32) -> Self {
        Self(self.0.map(|x| x >> n))
    }
    fn shl(self, n: u32) -> Self {
        Self(self.0.map(|x| x << n))
    }
    fn mul_low(self, b: Self) -> Self {
        self.map2(b, u32::wrapping_mul)
    }
    fn select(mask: Self, a: Self, b: Self) -> Self {
        Self(std::array::from_fn(|i| {
            (a.0[i] & mask.0[i]) | (b.0[i] & !mask.0[i])
        }))
    }
    fn mul_wide(self, b: Self) -> [[u64; 2]; 2] {
        let p = |i: usize| u64::from(self.0[i]) * u64::from(b.0[i]);
        [[p(0), p(1)], [p(2), p(3)]]
    }
    fn w_zero() -> [u64; 2] {
        [0; 2]
    }
    fn w_add(a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
        [a[0].wrapping_add(b[0]), a[1].wrapping_add(b[1])]
    }
    fn w_shr(a: [u64; 2], n: u32) -> [u64; 2] {
        [a[0] >> n, a[1] >> n]
    }
    fn narrow(w: [[u64; 2]; 2]) -> Self {
        Self([
            w[0][0] as u32,
            w[0][1] as u32,
            w[1][0] as u32,
            w[1][1] as u32,
        ])
    }
}

/// [`Lanes`] in WebAssembly SIMD128 registers, and the `v128` loads and
/// stores both kernels use ([`crate::fma`] too).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm {
    #![allow(unsafe_code)]
    use core::arch::wasm32::*;

    /// The `v128` of `src[0..2]` (bounds-checked).
    #[inline(always)]
    pub(crate) fn load_words(src: &[u64]) -> v128 {
        let src = &src[..2];
        // SAFETY: `src` holds two u64, 16 readable bytes; v128_load is unaligned.
        unsafe { v128_load(src.as_ptr().cast()) }
    }

    /// Writes `v` to `dst[0..2]` (bounds-checked).
    #[inline(always)]
    pub(crate) fn store_words(dst: &mut [u64], v: v128) {
        let dst = &mut dst[..2];
        // SAFETY: `dst` holds two u64, 16 writable bytes; v128_store is unaligned.
        unsafe { v128_store(dst.as_mut_ptr().cast(), v) }
    }

    /// Four 32-bit lanes of one `v128`.
    #[derive(Clone, Copy)]
    pub(crate) struct Simd(v128);

    impl super::Lanes for Simd {
        type W = v128;
        #[inline(always)]
        fn splat(x: u32) -> Self {
            Self(u32x4_splat(x))
        }
        #[inline(always)]
        fn load(src: &[u64]) -> Self {
            Self(load_words(src))
        }
        #[inline(always)]
        fn store(self, dst: &mut [u64]) {
            store_words(dst, self.0)
        }
        #[inline(always)]
        fn add(self, b: Self) -> Self {
            Self(i32x4_add(self.0, b.0))
        }
        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            Self(i32x4_sub(self.0, b.0))
        }
        #[inline(always)]
        fn and(self, b: Self) -> Self {
            Self(v128_and(self.0, b.0))
        }
        #[inline(always)]
        fn or(self, b: Self) -> Self {
            Self(v128_or(self.0, b.0))
        }
        #[inline(always)]
        fn shr_s(self, n: u32) -> Self {
            Self(i32x4_shr(self.0, n))
        }
        #[inline(always)]
        fn shr_u(self, n: u32) -> Self {
            Self(u32x4_shr(self.0, n))
        }
        #[inline(always)]
        fn shl(self, n: u32) -> Self {
            Self(i32x4_shl(self.0, n))
        }
        #[inline(always)]
        fn mul_low(self, b: Self) -> Self {
            Self(i32x4_mul(self.0, b.0))
        }
        #[inline(always)]
        fn select(mask: Self, a: Self, b: Self) -> Self {
            Self(v128_bitselect(a.0, b.0, mask.0))
        }
        #[inline(always)]
        fn mul_wide(self, b: Self) -> [v128; 2] {
            [
                u64x2_extmul_low_u32x4(self.0, b.0),
                u64x2_extmul_high_u32x4(self.0, b.0),
            ]
        }
        #[inline(always)]
        fn w_zero() -> v128 {
            u64x2_splat(0)
        }
        #[inline(always)]
        fn w_add(a: v128, b: v128) -> v128 {
            i64x2_add(a, b)
        }
        #[inline(always)]
        fn w_shr(a: v128, n: u32) -> v128 {
            u64x2_shr(a, n)
        }
        #[inline(always)]
        fn narrow(w: [v128; 2]) -> Self {
            Self(i32x4_shuffle::<0, 2, 4, 6>(w[0], w[1]))
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use wasm::Simd;

/// A column accumulator: four 64-bit lanes (lanes 0–1, 2–3).
#[derive(Clone, Copy)]
struct Acc<V: Lanes>([V::W; 2]);

impl<V: Lanes> Acc<V> {
    #[inline(always)]
    fn zero() -> Self {
        Self([V::w_zero(); 2])
    }
    /// `self += a·b` (lane-wise 32×32→64-bit products).
    #[inline(always)]
    fn mac(&mut self, a: V, b: V) {
        let [lo, hi] = a.mul_wide(b);
        self.0 = [V::w_add(self.0[0], lo), V::w_add(self.0[1], hi)];
    }
    #[inline(always)]
    fn low(self) -> V {
        V::narrow(self.0)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        Self([V::w_shr(self.0[0], n), V::w_shr(self.0[1], n)])
    }
}

/// Four `Fq` elements: limb `i` of every lane in `self.0[i]`, each limb
/// below `2^29`, each value below `p` (between operations).
#[derive(Clone, Copy)]
pub(crate) struct F<V: Lanes>([V; L]);

/// Four `Fq2 = Fq[u]/(u² + 1)` elements.
#[derive(Clone, Copy)]
pub(crate) struct F2<V: Lanes>([F<V>; 2]);

/// The Montgomery reduction's tail: the columns from 8 on (`r`,
/// normalised, limb 8 with its low 24 bits zero) shifted down by 24 bits,
/// less `p` if that is not negative.
#[inline(always)]
fn finish<V: Lanes>(r: [V; L + 1]) -> F<V> {
    let mask = V::splat(MASK);
    let out: [V; L] =
        std::array::from_fn(|j| r[j].shr_u(LAST).or(r[j + 1].shl(W - LAST).and(mask)));
    reduce_once(out)
}

/// `x − p` if that is not negative, else `x` (`x < 2p`, normalised limbs).
#[inline(always)]
fn reduce_once<V: Lanes>(x: [V; L]) -> F<V> {
    let mask = V::splat(MASK);
    let mut d = x;
    let mut borrow = V::splat(0);
    for (d, p) in d.iter_mut().zip(P) {
        // limbs below 2^29: the difference with the borrow (0 or −1) fits
        // an i32 lane; its arithmetic shift is the next borrow
        let t = d.sub(V::splat(p)).add(borrow);
        borrow = t.shr_s(W);
        *d = t.and(mask);
    }
    // borrow = −1 (all ones) in the lanes where x < p: keep x there
    F(std::array::from_fn(|i| V::select(borrow, x[i], d[i])))
}

impl<V: Lanes> F<V> {
    /// Four lanes equal to the Montgomery limbs `x` (4×64 bits).
    fn splat(x: &Fq) -> Self {
        let l = unpack(&x.0 .0);
        Self(std::array::from_fn(|i| V::splat(l[i] as u32)))
    }

    /// Four elements from [`Soa::FQ_SUB`] words.
    #[inline(always)]
    fn load(src: &[u64]) -> Self {
        Self(std::array::from_fn(|i| V::load(&src[2 * i..2 * i + 2])))
    }

    /// Writes four elements to [`Soa::FQ_SUB`] words.
    #[inline(always)]
    fn store(self, dst: &mut [u64]) {
        for (i, v) in self.0.iter().enumerate() {
            v.store(&mut dst[2 * i..2 * i + 2]);
        }
    }

    /// `a·b·2^-256 mod p` (ark-ff's Montgomery product) for `a, b < 2p`
    /// with limbs below 2^29; the result is below `p`.
    ///
    /// Bounds: column `k` collects at most nine products `a_i·b_j` and nine
    /// `q_i·p_j`, each below 2^58, and a carry below 2^35: below 2^63. The
    /// reduced value is `(ab + q·p)/2^256 < (4p² + 2^256·p)/2^256 < 2p`
    /// (`4p < 2^256`), so one conditional subtraction leaves it below `p`.
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        Self::mont(|k, acc| {
            for i in k.saturating_sub(L - 1)..=k.min(L - 1) {
                acc.mac(a.0[i], b.0[k - i]);
            }
        })
    }

    /// `a²` (as [`F::mul`]): the products `a_i·a_j` with `i < j` once, as
    /// `a_i·(2·a_j)` (below 2^59; at most five a column).
    #[inline(always)]
    fn square(a: Self) -> Self {
        let twice: [V; L] = std::array::from_fn(|i| a.0[i].shl(1));
        Self::mont(|k, acc| {
            let lo = k.saturating_sub(L - 1);
            let hi = k.min(L - 1);
            for i in lo..=hi {
                let j = k - i;
                if i < j {
                    acc.mac(a.0[i], twice[j]);
                } else if i == j {
                    acc.mac(a.0[i], a.0[i]);
                }
            }
        })
    }

    /// The Montgomery product whose columns `column(k, acc)` adds to `acc`
    /// (product scanning, the reduction interleaved: see [`F::mul`]).
    #[inline(always)]
    fn mont(column: impl Fn(usize, &mut Acc<V>)) -> Self {
        let mask = V::splat(MASK);
        let inv = V::splat(INV);
        let p: [V; L] = std::array::from_fn(|j| V::splat(P[j]));
        let mut q = [V::splat(0); L];
        let mut r = [V::splat(0); L + 1];
        let mut carry = Acc::<V>::zero();
        for k in 0..2 * L - 1 {
            let mut acc = carry;
            column(k, &mut acc);
            for i in k.saturating_sub(L - 1)..k.min(L) {
                acc.mac(q[i], p[k - i]);
            }
            if k < L {
                // q_k = t_k·(−p⁻¹) mod 2^29 (2^24 for the last step)
                let m = if k == L - 1 {
                    V::splat((1 << LAST) - 1)
                } else {
                    mask
                };
                q[k] = acc.low().mul_low(inv).and(m);
                acc.mac(q[k], p[0]);
            }
            if k >= L - 1 {
                r[k + 1 - L] = acc.low().and(mask);
            }
            carry = acc.shr(W);
        }
        r[L] = carry.low();
        finish(r)
    }

    /// `a − b mod p`.
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        let mask = V::splat(MASK);
        let mut d = [V::splat(0); L];
        let mut borrow = V::splat(0);
        for ((d, a), b) in d.iter_mut().zip(a.0).zip(b.0) {
            let t = a.sub(b).add(borrow);
            borrow = t.shr_s(W);
            *d = t.and(mask);
        }
        // where a < b (borrow all ones), add p
        let mut carry = V::splat(0);
        for (i, d) in d.iter_mut().enumerate() {
            let t = d.add(V::splat(P[i]).and(borrow)).add(carry);
            carry = t.shr_u(W);
            *d = t.and(mask);
        }
        Self(d)
    }

    /// `a + b`, limbs normalised, not reduced (below `2p`: an input of
    /// [`F::mul`]).
    #[inline(always)]
    fn add_unreduced(a: Self, b: Self) -> [V; L] {
        let mask = V::splat(MASK);
        let mut s = [V::splat(0); L];
        let mut carry = V::splat(0);
        for ((s, a), b) in s.iter_mut().zip(a.0).zip(b.0) {
            let t = a.add(b).add(carry);
            carry = t.shr_u(W);
            *s = t.and(mask);
        }
        s
    }

    /// `a + b mod p`.
    #[inline(always)]
    fn add(a: Self, b: Self) -> Self {
        reduce_once(Self::add_unreduced(a, b))
    }
}

/// Field elements in sets of four lanes, eight (two sets) per group of
/// [`crate::field::MsmField::batch_add_x8`]: a set of four `Fq` elements is
/// [`Soa::FQ_SUB`] words, limb-major (29-bit limb `l` of lane `i` is the
/// 32-bit half `i % 2` of word `2l + i / 2`); a set of four `Fq2`
/// elements is the set of their `c0`, then that of their `c1`.
pub(crate) struct Soa;

impl Soa {
    /// Words per set of four `Fq` elements.
    pub(crate) const FQ_SUB: usize = 2 * L;
    /// Words per group of eight `Fq` elements.
    pub(crate) const FQ_GROUP: usize = 2 * Self::FQ_SUB;
    /// Words per group of eight `Fq2` elements.
    pub(crate) const FQ2_GROUP: usize = 4 * Self::FQ_SUB;

    /// Writes `x`'s 29-bit limbs as lane `k % 4` of the set at `base`.
    #[inline(always)]
    fn put(soa: &mut [u64], base: usize, k: usize, x: &Fq) {
        let lane = k % 4;
        let shift = 32 * (lane % 2);
        for (l, limb) in unpack(&x.0 .0).into_iter().enumerate() {
            let w = &mut soa[base + 2 * l + lane / 2];
            *w = (*w & !(0xffff_ffff << shift)) | (limb << shift);
        }
    }

    /// Lane `k % 4` of the set at `base` (the limbs as they are: the
    /// kernels write reduced ones).
    #[inline(always)]
    fn get(soa: &[u64], base: usize, k: usize) -> Fq {
        let lane = k % 4;
        let shift = 32 * (lane % 2);
        let mut out = [0u64; 4];
        for l in 0..L {
            let limb = (soa[base + 2 * l + lane / 2] >> shift) & u64::from(MASK);
            let bit = W as usize * l;
            out[bit / 64] |= limb << (bit % 64);
            if bit % 64 + W as usize > 64 && bit / 64 + 1 < 4 {
                out[bit / 64 + 1] |= limb >> (64 - bit % 64);
            }
        }
        Fq::new_unchecked(BigInt(out))
    }

    /// Writes `x` as element `k` of an `Fq` array.
    #[inline(always)]
    pub(crate) fn put_fq(soa: &mut [u64], k: usize, x: &Fq) {
        Self::put(soa, (k / 4) * Self::FQ_SUB, k, x);
    }

    /// Element `k` of an `Fq` array.
    #[inline(always)]
    pub(crate) fn get_fq(soa: &[u64], k: usize) -> Fq {
        Self::get(soa, (k / 4) * Self::FQ_SUB, k)
    }

    /// Writes `x` as element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn put_fq2(soa: &mut [u64], k: usize, x: &Fq2) {
        let base = (k / 4) * 2 * Self::FQ_SUB;
        Self::put(soa, base, k, &x.c0);
        Self::put(soa, base + Self::FQ_SUB, k, &x.c1);
    }

    /// Element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn get_fq2(soa: &[u64], k: usize) -> Fq2 {
        let base = (k / 4) * 2 * Self::FQ_SUB;
        Fq2::new(
            Self::get(soa, base, k),
            Self::get(soa, base + Self::FQ_SUB, k),
        )
    }
}

/// [`VecField`]'s chain items for a set of `Fq` elements: the chain
/// inverts the denominators themselves.
macro_rules! chain_is_self {
    () => {
        type Chain = Self;
        const KEEP_NORMS: bool = false;
        #[inline(always)]
        fn norm(d: Self) -> Self {
            d
        }
        #[inline(always)]
        fn inverse_from_norm(_: Self, inv: Self) -> Self {
            inv
        }
    };
}
pub(crate) use chain_is_self;

/// The field operations of the batched additions on a set of
/// [`VecField::LANES`] lanes at a time (four here, two in [`crate::fma`]).
pub(crate) trait VecField: Copy {
    /// The field of one lane.
    type Scalar: crate::inverse::BatchInverse;
    /// Lanes per set (a divisor of eight).
    const LANES: usize;
    /// Words per set.
    const WORDS: usize;
    /// A set of lanes from [`Self::WORDS`] words of the kernel's layout.
    fn load(src: &[u64]) -> Self;
    /// Writes a set of lanes to [`Self::WORDS`] words.
    fn store(self, dst: &mut [u64]);
    /// `a·b`.
    fn mul(a: Self, b: Self) -> Self;
    /// `a²`.
    fn square(a: Self) -> Self;
    /// `a − b`.
    fn sub(a: Self, b: Self) -> Self;
    /// The field in which the batch's chain of inversions runs
    /// (Montgomery's trick): `Self` for `Fq`; for `Fq2` the base field's
    /// set, the inverses coming through the norms, `(a + b·u)⁻¹ =
    /// (a − b·u)/(a² + b²)`: the chain's three products a denominator in
    /// `Fq` instead of `Fq2`, plus two for the norm and two back, so seven
    /// `Fq` products instead of nine.
    type Chain: VecField;
    /// Whether the batch keeps [`VecField::norm`]'s values from its first
    /// pass for its second (where a norm costs products) rather than
    /// computing them again.
    const KEEP_NORMS: bool;
    /// What the chain inverts for the denominator `d`: `d` itself, or its
    /// norm.
    fn norm(d: Self) -> Self::Chain;
    /// `d⁻¹` from the inverse of [`VecField::norm`]`(d)`.
    fn inverse_from_norm(d: Self, inv_norm: Self::Chain) -> Self;
    /// Every lane equal to `x`.
    fn splat(x: &Self::Scalar) -> Self;
    /// The lanes as field elements, appended to `out`.
    fn lanes(self, out: &mut Vec<Self::Scalar>) {
        let mut w = vec![0u64; Self::WORDS];
        self.store(&mut w);
        out.extend((0..Self::LANES).map(|k| Self::get(&w, k)));
    }
    /// [`Self::LANES`] field elements as lanes.
    fn from_lanes(x: &[Self::Scalar]) -> Self {
        let mut w = vec![0u64; Self::WORDS];
        for (k, x) in x.iter().enumerate() {
            Self::put(&mut w, k, x);
        }
        Self::load(&w)
    }
    /// The layout's writer for this field.
    fn put(soa: &mut [u64], k: usize, x: &Self::Scalar);
    /// The layout's reader for this field.
    fn get(soa: &[u64], k: usize) -> Self::Scalar;
}

impl<V: Lanes> VecField for F<V> {
    type Scalar = Fq;
    const LANES: usize = 4;
    const WORDS: usize = Soa::FQ_SUB;
    #[inline(always)]
    fn load(src: &[u64]) -> Self {
        F::load(src)
    }
    #[inline(always)]
    fn store(self, dst: &mut [u64]) {
        F::store(self, dst)
    }
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        F::mul(a, b)
    }
    #[inline(always)]
    fn square(a: Self) -> Self {
        F::square(a)
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        F::sub(a, b)
    }
    chain_is_self!();
    fn splat(x: &Fq) -> Self {
        F::splat(x)
    }
    fn put(soa: &mut [u64], k: usize, x: &Fq) {
        Soa::put_fq(soa, k, x)
    }
    fn get(soa: &[u64], k: usize) -> Fq {
        Soa::get_fq(soa, k)
    }
}

impl<V: Lanes> VecField for F2<V> {
    type Scalar = Fq2;
    const LANES: usize = 4;
    const WORDS: usize = 2 * Soa::FQ_SUB;
    #[inline(always)]
    fn load(src: &[u64]) -> Self {
        F2([F::load(&src[..Soa::FQ_SUB]), F::load(&src[Soa::FQ_SUB..])])
    }
    #[inline(always)]
    fn store(self, dst: &mut [u64]) {
        let (c0, c1) = dst.split_at_mut(Soa::FQ_SUB);
        self.0[0].store(c0);
        self.0[1].store(c1);
    }
    /// Karatsuba: three multiplications (`u² = −1`).
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        let [a0, a1] = a.0;
        let [b0, b1] = b.0;
        let v0 = F::mul(a0, b0);
        let v1 = F::mul(a1, b1);
        let s = F::mul(F(F::add_unreduced(a0, a1)), F(F::add_unreduced(b0, b1)));
        F2([F::sub(v0, v1), F::sub(F::sub(s, v0), v1)])
    }
    /// `(c0 + c1)(c0 − c1) + 2·c0·c1·u`.
    #[inline(always)]
    fn square(a: Self) -> Self {
        let [a0, a1] = a.0;
        let c0 = F::mul(F(F::add_unreduced(a0, a1)), F::sub(a0, a1));
        let c1 = F::mul(a0, a1);
        F2([c0, F::add(c1, c1)])
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        F2([F::sub(a.0[0], b.0[0]), F::sub(a.0[1], b.0[1])])
    }
    type Chain = F<V>;
    const KEEP_NORMS: bool = true;
    #[inline(always)]
    fn norm(d: Self) -> F<V> {
        let [a, b] = d.0;
        F::add(F::square(a), F::square(b))
    }
    /// `(a·n, −b·n)`.
    #[inline(always)]
    fn inverse_from_norm(d: Self, n: F<V>) -> Self {
        let [a, b] = d.0;
        let bn = F::mul(b, n);
        F2([F::mul(a, n), F::sub(F::sub(bn, bn), bn)])
    }
    fn splat(x: &Fq2) -> Self {
        F2([F::splat(&x.c0), F::splat(&x.c1)])
    }
    fn put(soa: &mut [u64], k: usize, x: &Fq2) {
        Soa::put_fq2(soa, k, x)
    }
    fn get(soa: &[u64], k: usize) -> Fq2 {
        Soa::get_fq2(soa, k)
    }
}

/// The batched affine additions `(qx, qy) += (px, py)` of `groups` groups
/// of eight entries (sets of [`VecField::LANES`] lanes), the sums written
/// over `qx`, `qy` (see [`Soa`]). No entry may have `px = qx` (the caller
/// does those apart; padding entries use `px = 1, qx = 0`).
///
/// Always inlined: the AVX2 kernel's entry points are
/// `#[target_feature]` functions, and the lane arithmetic must be compiled
/// inside them to use those instructions.
#[inline(always)]
pub(crate) fn batch_add<T: VecField>(
    px: &[u64],
    py: &[u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) {
    batch_add_scaled::<T, false>(px, py, qx, qy, groups)
}

/// [`batch_add`] of points whose coordinates are all scaled by 2 where
/// `DOUBLED` (`(2x, 2y)`, off the curve): the slope is the same, and
/// `2x₃ = 2λ² − 2x₁ − 2x₂`, `2y₃ = λ(2x₁ − 2x₃) − 2y₁`, so the sums come
/// out scaled by 2 too, for one subtraction more per entry.
#[inline(always)]
pub(crate) fn batch_add_scaled<T: VecField, const DOUBLED: bool>(
    px: &[u64],
    py: &[u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) {
    let sets = groups * 8 / T::LANES;
    let w = T::WORDS;
    assert!(px.len() >= sets * w && py.len() >= sets * w);
    assert!(qx.len() >= sets * w && qy.len() >= sets * w);
    let g = |i: usize| i * w..(i + 1) * w;
    // prefix products of the denominators (or their norms: `T::Chain`) in
    // two interleaved chains (even and odd sets)
    type C<T> = <T as VecField>::Chain;
    let one = C::<T>::splat(&<C<T> as VecField>::Scalar::ONE);
    let mut acc = [one, one];
    let mut before: Vec<C<T>> = Vec::with_capacity(sets);
    let mut norms: Vec<C<T>> = Vec::with_capacity(if T::KEEP_NORMS { sets } else { 0 });
    for i in 0..sets {
        let n = T::norm(T::sub(T::load(&px[g(i)]), T::load(&qx[g(i)])));
        before.push(acc[i % 2]);
        if T::KEEP_NORMS {
            norms.push(n);
        }
        acc[i % 2] = C::<T>::mul(acc[i % 2], n);
    }
    // the lane products of both chains, inverted at once
    let mut lanes = Vec::with_capacity(2 * C::<T>::LANES);
    acc[0].lanes(&mut lanes);
    acc[1].lanes(&mut lanes);
    crate::inverse::invert_lanes(&mut lanes);
    let (even, odd) = lanes.split_at(C::<T>::LANES);
    let mut inv = [C::<T>::from_lanes(even), C::<T>::from_lanes(odd)];
    for i in (0..sets).rev() {
        let (x1, y1) = (T::load(&qx[g(i)]), T::load(&qy[g(i)]));
        let (x2, y2) = (T::load(&px[g(i)]), T::load(&py[g(i)]));
        let d = T::sub(x2, x1);
        let n = if T::KEEP_NORMS { norms[i] } else { T::norm(d) };
        let inv_d = T::inverse_from_norm(d, C::<T>::mul(inv[i % 2], before[i]));
        inv[i % 2] = C::<T>::mul(inv[i % 2], n);
        let lambda = T::mul(T::sub(y2, y1), inv_d);
        let l2 = T::square(lambda);
        let x3 = match DOUBLED {
            // (λ² − x₁) − (x₂ − λ²)
            true => T::sub(T::sub(l2, x1), T::sub(x2, l2)),
            false => T::sub(T::sub(l2, x1), x2),
        };
        let y3 = T::sub(T::mul(lambda, T::sub(x1, x3)), y1);
        x3.store(&mut qx[g(i)]);
        y3.store(&mut qy[g(i)]);
    }
}

/// The G1 batch ([`batch_add`] on `Fq`) in SIMD128 registers; `false`
/// (nothing written) while the kernel is off ([`set_enabled`]).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) fn batch_add_g1(
    px: &[u64],
    py: &[u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    available() && {
        batch_add::<F<Simd>>(px, py, qx, qy, groups);
        true
    }
}

/// The G2 batch ([`batch_add`] on `Fq2`), as [`batch_add_g1`].
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) fn batch_add_g2(
    px: &[u64],
    py: &[u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    available() && {
        batch_add::<F2<Simd>>(px, py, qx, qy, groups);
        true
    }
}

/// Whether the SIMD128 kernel runs: in a module built with `simd128` (the
/// threaded browser build), unless turned off with [`set_enabled`].
pub fn available() -> bool {
    cfg!(all(target_arch = "wasm32", target_feature = "simd128"))
        && ENABLED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Turns the SIMD128 kernel on or off for every thread (off: the prover
/// takes the scalar 29-bit path of [`crate::field`]), for before/after
/// measurements within one build; no effect in a module without
/// `simd128`. **Off by default**: in Chromium 156 on x86-64 the proofs were
/// 0-12% slower with it than with the scalar path (V8 lowers each `extmul`
/// to two unpacks and one two-lane `pmuludq`, so four lanes of products cost
/// as many multiplier instructions as four scalar `i64.mul`s, and the
/// transposition into lanes is extra; docs/browser.md has the runs).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// See [`set_enabled`].
static ENABLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ark_ec::{AffineRepr, CurveGroup};
    use ark_ff::{AdditiveGroup, PrimeField, UniformRand, Zero};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    type P1 = F<Portable>;
    type P2 = F2<Portable>;

    /// Elements that stress the limb edges: 0, 1, −1, −2, powers of two at
    /// the 29-bit limb boundaries and the 64-bit word boundaries, raw
    /// Montgomery forms 1 and `p − 1`, and all-ones limb patterns below `p`.
    pub(crate) fn edge_cases() -> Vec<Fq> {
        let raw = |l: [u64; 4]| Fq::new_unchecked(BigInt(l));
        let mut v = vec![Fq::zero(), Fq::ONE, -Fq::ONE, -Fq::ONE - Fq::ONE];
        for k in [28u32, 29, 30, 57, 58, 63, 64, 115, 116, 231, 232, 251, 252] {
            let mut limbs = [0u64; 4];
            limbs[(k / 64) as usize] = 1 << (k % 64);
            v.push(raw(limbs));
        }
        let mut top = Fq::MODULUS;
        top.0[0] -= 1;
        v.push(Fq::new_unchecked(top));
        v.push(raw([1, 0, 0, 0]));
        v.push(raw([u64::MAX, u64::MAX, u64::MAX, 0x2fff_ffff_ffff_ffff]));
        v.push(raw([0x1fff_ffff, 0, 0x1fff_ffff_0000_0000, 0]));
        v
    }

    fn lanes_of<T: VecField>(x: T) -> Vec<T::Scalar> {
        let mut out = Vec::new();
        x.lanes(&mut out);
        out
    }

    /// Every `Fq` operation on four lanes against ark-ff, lane by lane.
    #[test]
    fn fq_lanes_equal_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(128);
        let edges = edge_cases();
        let mut inputs = edges.clone();
        inputs.extend((0..1200).map(|_| Fq::rand(&mut rng)));
        let mut checked = 0;
        for (n, a) in inputs.chunks_exact(4).enumerate() {
            let b: Vec<Fq> = (0..4)
                .map(|k| {
                    if n % 2 == 0 {
                        edges[(3 * n + k) % edges.len()]
                    } else {
                        Fq::rand(&mut rng)
                    }
                })
                .collect();
            let (x, y) = (P1::from_lanes(a), P1::from_lanes(&b));
            let results = [
                lanes_of(F::mul(x, y)),
                lanes_of(F::square(x)),
                lanes_of(F::sub(x, y)),
                lanes_of(F::add(x, y)),
            ];
            for k in 0..4 {
                let want = [a[k] * b[k], a[k].square(), a[k] - b[k], a[k] + b[k]];
                for (op, (got, want)) in results.iter().zip(want).enumerate() {
                    assert_eq!(got[k], want, "op {op}, lane {k}: {} , {}", a[k], b[k]);
                    assert!(got[k].0 < Fq::MODULUS, "reduced");
                    checked += 1;
                }
            }
        }
        assert!(checked > 4800);
    }

    /// The product of two unreduced sums (below `2p`, as the `Fq2`
    /// Karatsuba step feeds it) against ark-ff.
    #[test]
    fn fq_mul_takes_values_below_2p() {
        let top = -Fq::ONE;
        let edges = edge_cases();
        for a in &edges {
            let x = P1::from_lanes(&[*a, top, *a, top]);
            let y = P1::from_lanes(&[top, *a, *a, top]);
            let s = F(F::add_unreduced(x, y));
            let got = lanes_of(F::mul(s, s));
            let want = [*a + top, top + a, a.double(), top.double()].map(|v| v.square());
            assert_eq!(got, want, "{a}");
        }
    }

    #[test]
    fn fq2_lanes_equal_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(129);
        let edges = edge_cases();
        for round in 0..150 {
            let a: Vec<Fq2> = (0..4)
                .map(|k| {
                    if round < 20 {
                        Fq2::new(
                            edges[(round + k) % edges.len()],
                            edges[(7 * k) % edges.len()],
                        )
                    } else {
                        Fq2::rand(&mut rng)
                    }
                })
                .collect();
            let b: Vec<Fq2> = (0..4).map(|_| Fq2::rand(&mut rng)).collect();
            let (x, y) = (P2::from_lanes(&a), P2::from_lanes(&b));
            let (m, s, d) = (
                lanes_of(P2::mul(x, y)),
                lanes_of(P2::square(x)),
                lanes_of(P2::sub(x, y)),
            );
            for k in 0..4 {
                assert_eq!(m[k], a[k] * b[k]);
                assert_eq!(s[k], a[k].square());
                assert_eq!(d[k], a[k] - b[k]);
            }
        }
    }

    #[test]
    fn soa_round_trip_and_lane_order() {
        let mut rng = ChaCha20Rng::seed_from_u64(130);
        let xs: Vec<Fq> = (0..16).map(|_| Fq::rand(&mut rng)).collect();
        let mut soa = vec![u64::MAX; 2 * Soa::FQ_GROUP];
        for (k, x) in xs.iter().enumerate() {
            Soa::put_fq(&mut soa, k, x);
        }
        for (k, x) in xs.iter().enumerate() {
            assert_eq!(Soa::get_fq(&soa, k), *x);
        }
        // set 1 holds elements 4..8, lane i = element 4 + i
        let set = P1::load(&soa[Soa::FQ_SUB..2 * Soa::FQ_SUB]);
        assert_eq!(lanes_of(set), xs[4..8].to_vec());
        let ys: Vec<Fq2> = (0..8).map(|_| Fq2::rand(&mut rng)).collect();
        let mut soa = vec![u64::MAX; Soa::FQ2_GROUP];
        for (k, y) in ys.iter().enumerate() {
            Soa::put_fq2(&mut soa, k, y);
        }
        for (k, y) in ys.iter().enumerate() {
            assert_eq!(Soa::get_fq2(&soa, k), *y);
        }
    }

    /// The whole batch (with padding lanes, as the buckets lay it out)
    /// against ark-ec's affine sums, G1 and G2.
    pub(crate) fn batch_equals_ark_ec<C, T>(seed: u64, n: usize)
    where
        C: ark_ec::short_weierstrass::SWCurveConfig<BaseField = T::Scalar>,
        T: VecField,
    {
        use ark_ec::short_weierstrass::Affine;
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let g = Affine::<C>::generator();
        let ps: Vec<Affine<C>> = (0..n)
            .map(|_| (g * C::ScalarField::rand(&mut rng)).into_affine())
            .collect();
        let qs: Vec<Affine<C>> = (0..n)
            .map(|_| (g * C::ScalarField::rand(&mut rng)).into_affine())
            .collect();
        let groups = n.div_ceil(8);
        let words = groups * 8 / T::LANES * T::WORDS;
        let mut soa = [(); 4].map(|_| vec![0u64; words]);
        for k in 0..groups * 8 {
            let (p, q) = match (ps.get(k), qs.get(k)) {
                (Some(p), Some(q)) => ((p.x, p.y), (q.x, q.y)),
                _ => (
                    (T::Scalar::ONE, T::Scalar::ZERO),
                    (T::Scalar::ZERO, T::Scalar::ZERO),
                ),
            };
            for (v, x) in soa.iter_mut().zip([p.0, p.1, q.0, q.1]) {
                T::put(v, k, &x);
            }
        }
        let [px, py, qx, qy] = &mut soa;
        batch_add::<T>(px, py, qx, qy, groups);
        for k in 0..n {
            let want = (ps[k] + qs[k]).into_affine();
            assert_eq!(
                (T::get(qx, k), T::get(qy, k)),
                (want.x, want.y),
                "entry {k}"
            );
        }
    }

    #[test]
    fn batch_add_g1_equals_ark_ec() {
        batch_equals_ark_ec::<ark_bn254::g1::Config, P1>(131, 45);
    }

    #[test]
    fn batch_add_g2_equals_ark_ec() {
        batch_equals_ark_ec::<ark_bn254::g2::Config, P2>(132, 21);
    }

    #[test]
    fn constants() {
        // p·(−p⁻¹) ≡ −1 (mod 2^29)
        assert_eq!(P[0].wrapping_mul(INV) & MASK, MASK);
        assert!(P.iter().all(|&l| l <= MASK));
        assert_eq!(lanes_of(P1::splat(&Fq::ONE)), vec![Fq::ONE; 4]);
        // the switch is off natively (no simd128), whatever it is set to
        set_enabled(true);
        assert_eq!(
            available(),
            cfg!(all(target_arch = "wasm32", target_feature = "simd128"))
        );
    }
}
