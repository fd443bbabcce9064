//! BN254 base-field products from the floating-point multiplier: the
//! batched affine additions of the prover's MSM on two lanes at a time with
//! WebAssembly's relaxed-SIMD `f64x2.relaxed_madd`, in the browser's
//! threaded relaxed-SIMD build (`web/public/pkg-mt-fma`, which
//! `scripts/build-web.sh` makes beside the SIMD128 one; the page loads it
//! where the browser validates `relaxed_madd`), and on four lanes of AVX2 +
//! FMA3 natively ([`crate::avx2`]).
//!
//! **Status: on by default in that build** ([`set_enabled`] turns it off).
//! Its batches first halved every input and doubled every output modulo `p`
//! per entry, and its proofs were then 5-12% slower than the scalar 29-bit
//! path's in Chromium 156 (more in Firefox 153); since the batch adds the
//! points scaled by 2 instead (the layout is a regrouping of bits), the
//! median proof is 5% (spend) and 15% (membership) faster in Chromium 156 on
//! a 2-core AMD Zen 3, over ten page runs (docs/browser.md,
//! "What bounds the browser"). The page measures it against the scalar path
//! on every device.
//!
//! # Why floating point
//!
//! WebAssembly has no 64×64→128-bit integer product, and its SIMD has only
//! 32×32→64-bit ones ([`crate::simd128`], which V8 lowers to one two-lane
//! `pmuludq` per pair of products). A fused multiply-add on doubles,
//! though, is an exact 52×52→104-bit product split in two halves: with
//! `a, b < 2^51` integers held as doubles,
//!
//! * `hi = fma(a, b, 2^103)` lies in `[2^103, 2^104)`, where a double's
//!   step is `2^51`: its mantissa is `H = round(a·b / 2^51)`;
//! * `lo = fma(a, b, 2^103 + 3·2^51 − hi)` is `a·b − H·2^51 + 3·2^51`,
//!   exactly, in `[2^52, 2^53)` (step 1): its mantissa is the signed low
//!   part `a·b − H·2^51 ∈ [−2^50, 2^50]` plus a constant.
//!
//! The raw bits of `hi` and `lo`, read as 64-bit integers, are `H` and the
//! low part plus a fixed exponent prefix each, so column sums are plain
//! `i64x2.add`s of those bits, and the prefixes are taken off in one go by
//! starting each column from minus the prefixes it will receive. Both
//! prefixes are multiples of `2^51`, so a column's low 51 bits are right at
//! any time, which is all the Montgomery reduction's `q` needs. This is
//! N. Emmart, J. Zheng, C. Weems, "Faster modular exponentiation using
//! double precision floating point arithmetic on the GPU" (ARITH 2018),
//! as G. Mitscha-Baude brought it to WebAssembly (github.com/mitschabaude,
//! 51×5-bit limbs); the code here is written for this crate from the paper's
//! construction.
//!
//! # Representation
//!
//! An element of `Fq` is five 51-bit limbs (255 bits), limb `i` of two
//! independent elements (lane 0, lane 1) in `v128` number `i`, stored between
//! operations as normalised non-negative integers below `p`. Products run
//! in Montgomery form with `R' = 2^255` (five 51-bit reduction steps), so
//! ark-ff's number `x·R` (`R = 2^256`) reads as `2x` here. The batch layout
//! (`Soa`) holds ark-ff's numbers regrouped, and the batch adds the points
//! scaled by 2 (same slope; see [`crate::avx2`]), which leaves its sums as
//! ark-ff's numbers: no halving or doubling modulo `p` per entry. Natively
//! the G1 batch runs two sets of lanes and the `Fq2` Karatsuba its three
//! products at once (`F::mul_n`), step by step in turn, so that one
//! product's reduction chain overlaps the others' work; in WebAssembly one
//! product at a time (interleaved, they spill x86's sixteen `xmm`
//! registers in V8: `F::mul_each`).
//!
//! `f64x2.relaxed_madd` may be fused or not, at the engine's choice (V8
//! fuses it where the CPU has FMA3). An unfused one would give wrong
//! products, so the kernel runs only after [`fused`] has seen it round
//! once; otherwise the prover takes the scalar path.
//!
//! The arithmetic is written once over a lane abstraction (`FmaLanes`)
//! with three implementations: two lanes of `v128` on `wasm32` with
//! `relaxed-simd`; four lanes of `__m256i` with AVX2 and FMA3 natively
//! ([`crate::avx2`], which converts ark-ff's limbs to this module's form in
//! its registers: `F::from_words`, `F::to_words`); and plain arrays with
//! [`f64::mul_add`] everywhere, which is how `cargo test -p zkbench-msm`
//! checks it natively against ark-ff at two and four lanes.
#![cfg_attr(
    not(all(target_arch = "wasm32", target_feature = "relaxed-simd")),
    allow(dead_code)
)]

use ark_bn254::{Fq, Fq2};
use ark_ff::{BigInt, PrimeField};

use crate::simd128::VecField;

/// Bits per limb.
const W: u32 = 51;
/// Limbs per element.
const L: usize = 5;
/// The low 51 bits.
const MASK: u64 = (1 << W) - 1;

/// `p` (4×64 bits).
const MODULUS: [u64; 4] = <Fq as PrimeField>::MODULUS.0;

/// `x` (4×64 bits) as five 51-bit limbs.
const fn split(x: [u64; 4]) -> [u64; L] {
    crate::field::limbs::<L>(&x, W)
}

/// Five 51-bit limbs as 4×64 bits (the value must fit 256 bits).
fn join(l: [u64; L]) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (i, limb) in l.into_iter().enumerate() {
        let bit = i * W as usize;
        let (word, shift) = (bit / 64, bit % 64);
        out[word] |= limb << shift;
        if shift + W as usize > 64 && word + 1 < 4 {
            out[word + 1] |= limb >> (64 - shift);
        }
    }
    out
}

/// `p` as five 51-bit limbs.
const P: [u64; L] = split(MODULUS);

/// `−p⁻¹ mod 2^51`.
const PINV: u64 = crate::field::neg_inv(MODULUS[0]) & MASK;

/// `2^103`: `fma(a, b, C_HI)`'s mantissa is the high half of `a·b`.
const C_HI: f64 = 10141204801825835211973625643008.0;
/// `2^103 + 3·2^51`: `fma(a, b, C_LO − hi)` is the low half plus `3·2^51`.
const C_LO: f64 = C_HI + 3.0 * 2_251_799_813_685_248.0;
/// `2^52`: `bits(x + 2^52) − bits(2^52) = x` for an integer `0 ≤ x < 2^52`.
const C52: f64 = 4_503_599_627_370_496.0;

/// The bits `hi` adds to a column beyond `H`.
const HI_PREFIX: u64 = C_HI.to_bits();
/// The bits `lo` adds to a column beyond its low part.
const LO_PREFIX: u64 = (3.0 * 2_251_799_813_685_248.0f64).to_bits();

/// Column `k`'s start: minus the prefixes its `lo`s (`a_i·b_j` and `q_i·p_j`
/// with `i + j = k`) and `hi`s (`i + j + 1 = k`) bring.
const COLUMN_START: [u64; 2 * L + 1] = {
    let mut r = [0u64; 2 * L + 1];
    let mut k = 0;
    while k < 2 * L + 1 {
        let mut lo = 0u64;
        let mut hi = 0u64;
        let mut i = 0;
        while i < L {
            if k >= i && k - i < L {
                lo += 2;
            }
            if k > i && k - i - 1 < L {
                hi += 2;
            }
            i += 1;
        }
        r[k] = (lo.wrapping_mul(LO_PREFIX))
            .wrapping_add(hi.wrapping_mul(HI_PREFIX))
            .wrapping_neg();
        k += 1;
    }
    r
};

/// `LANES` 64-bit lanes, read as integers or as doubles: the operations
/// the kernel needs, on `v128` in WebAssembly (two lanes), on `__m256i` with
/// AVX2 and FMA natively ([`crate::avx2`], four lanes) and on arrays
/// (tests). Integer arithmetic wraps.
pub(crate) trait FmaLanes: Copy {
    /// Lanes per register (a divisor of eight).
    const LANES: usize;
    /// Every lane equal to `x`.
    fn splat(x: u64) -> Self;
    /// Lanes from [`FmaLanes::LANES`] words.
    fn load(src: &[u64]) -> Self;
    /// Writes the lanes to [`FmaLanes::LANES`] words.
    fn store(self, dst: &mut [u64]);
    /// Lane-wise `self + b`.
    fn add(self, b: Self) -> Self;
    /// Lane-wise `self − b`.
    fn sub(self, b: Self) -> Self;
    /// Lane-wise `self & b`.
    fn and(self, b: Self) -> Self;
    /// Lane-wise low 64 bits of `self · b`.
    fn mul_low(self, b: Self) -> Self;
    /// Lane-wise logical shift right.
    fn shr_u(self, n: u32) -> Self;
    /// Lane-wise shift left (bits beyond 64 dropped).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    fn shl(self, n: u32) -> Self;
    /// `a` where `mask` has ones, `b` where it has zeros.
    fn select(mask: Self, a: Self, b: Self) -> Self;
    /// Lane-wise `a·b + c` of doubles, rounded once (fused).
    fn fma(a: Self, b: Self, c: Self) -> Self;
    /// Lane-wise `self − b` of doubles.
    fn fsub(self, b: Self) -> Self;
    /// The low half `fma(a, b, c_lo − hi)` of the product `a·b` whose high
    /// half is `hi` (see the module docs); a target may compute the same
    /// value another way, e.g. as `a·b − (hi − c_lo)`, which x86's FMA3
    /// does in one instruction with the constant read from memory.
    #[inline(always)]
    fn fma_low(a: Self, b: Self, hi: Self, c_lo: Self) -> Self {
        Self::fma(a, b, c_lo.fsub(hi))
    }
}

/// [`FmaLanes`] as plain arrays of `N` lanes: the reference the tests run
/// natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Portable<const N: usize = 2>([u64; N]);

#[cfg_attr(not(test), allow(dead_code))]
impl<const N: usize> Portable<N> {
    #[inline(always)]
    fn map2(self, b: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Self(std::array::from_fn(|i| f(self.0[i], b.0[i])))
    }
    #[inline(always)]
    fn fmap2(self, b: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        self.map2(b, |x, y| f(f64::from_bits(x), f64::from_bits(y)).to_bits())
    }
}

impl<const N: usize> FmaLanes for Portable<N> {
    const LANES: usize = N;
    fn splat(x: u64) -> Self {
        Self([x; N])
    }
    fn load(src: &[u64]) -> Self {
        Self(std::array::from_fn(|i| src[i]))
    }
    fn store(self, dst: &mut [u64]) {
        dst[..N].copy_from_slice(&self.0);
    }
    fn add(self, b: Self) -> Self {
        self.map2(b, u64::wrapping_add)
    }
    fn sub(self, b: Self) -> Self {
        self.map2(b, u64::wrapping_sub)
    }
    fn and(self, b: Self) -> Self {
        self.map2(b, |x, y| x & y)
    }
    fn mul_low(self, b: Self) -> Self {
        self.map2(b, u64::wrapping_mul)
    }
    fn shr_u(self, n: u32) -> Self {
        Self(self.0.map(|x| x >> n))
    }
    fn shl(self, n: u32) -> Self {
        Self(self.0.map(|x| x << n))
    }
    fn select(mask: Self, a: Self, b: Self) -> Self {
        Self(std::array::from_fn(|i| {
            (a.0[i] & mask.0[i]) | (b.0[i] & !mask.0[i])
        }))
    }
    fn fma(a: Self, b: Self, c: Self) -> Self {
        Self(std::array::from_fn(|i| {
            let [a, b, c] = [a.0[i], b.0[i], c.0[i]].map(f64::from_bits);
            a.mul_add(b, c).to_bits()
        }))
    }
    fn fsub(self, b: Self) -> Self {
        self.fmap2(b, |x, y| x - y)
    }
}

/// [`FmaLanes`] in WebAssembly SIMD128 registers.
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
mod wasm {
    use crate::simd128::wasm::{load_words, store_words};
    use core::arch::wasm32::*;

    /// Two 64-bit lanes of one `v128`.
    #[derive(Clone, Copy)]
    pub(crate) struct Simd(v128);

    impl super::FmaLanes for Simd {
        const LANES: usize = 2;
        #[inline(always)]
        fn splat(x: u64) -> Self {
            Self(u64x2_splat(x))
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
            Self(i64x2_add(self.0, b.0))
        }
        #[inline(always)]
        fn sub(self, b: Self) -> Self {
            Self(i64x2_sub(self.0, b.0))
        }
        #[inline(always)]
        fn and(self, b: Self) -> Self {
            Self(v128_and(self.0, b.0))
        }
        #[inline(always)]
        fn mul_low(self, b: Self) -> Self {
            Self(i64x2_mul(self.0, b.0))
        }
        #[inline(always)]
        fn shr_u(self, n: u32) -> Self {
            Self(u64x2_shr(self.0, n))
        }
        #[inline(always)]
        fn shl(self, n: u32) -> Self {
            Self(i64x2_shl(self.0, n))
        }
        #[inline(always)]
        fn select(mask: Self, a: Self, b: Self) -> Self {
            Self(v128_bitselect(a.0, b.0, mask.0))
        }
        #[inline(always)]
        fn fma(a: Self, b: Self, c: Self) -> Self {
            Self(f64x2_relaxed_madd(a.0, b.0, c.0))
        }
        #[inline(always)]
        fn fsub(self, b: Self) -> Self {
            Self(f64x2_sub(self.0, b.0))
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
use wasm::Simd;

/// Two `Fq` elements (`x·2^255 mod p`): limb `i` of both lanes in
/// `self.0[i]`, each limb below `2^51`, each value below `p`.
#[derive(Clone, Copy)]
pub(crate) struct F<V: FmaLanes>([V; L]);

/// Two `Fq2 = Fq[u]/(u² + 1)` elements.
#[derive(Clone, Copy)]
pub(crate) struct F2<V: FmaLanes>([F<V>; 2]);

/// `x >> 51` for a signed `|x| < 2^62`, as a logical shift of `x + 2^62`
/// (SSE has no 64-bit arithmetic shift: engines emulate `i64x2.shr_s` with
/// several instructions).
#[inline(always)]
fn carry<V: FmaLanes>(x: V) -> V {
    x.add(V::splat(1 << 62))
        .shr_u(W)
        .sub(V::splat(1 << (62 - W)))
}

/// An integer limb below `2^52` as a double.
#[inline(always)]
fn to_double<V: FmaLanes>(x: V) -> V {
    let c = V::splat(C52.to_bits());
    x.add(c).fsub(c)
}

/// `a − b` limb by limb with one borrow chain (normalised limbs): the
/// difference modulo `2^255` and the final borrow (1 where `a < b`).
#[inline(always)]
fn sub_limbs<V: FmaLanes>(a: [V; L], b: [V; L]) -> ([V; L], V) {
    let mask = V::splat(MASK);
    let mut borrow = V::splat(0);
    let mut d = a;
    for i in 0..L {
        let t = a[i].sub(b[i]).sub(borrow);
        borrow = t.shr_u(63);
        d[i] = t.and(mask);
    }
    (d, borrow)
}

/// `a + b` limb by limb with one carry chain (normalised limbs; the carry
/// out of the top limb is dropped).
#[inline(always)]
fn add_limbs<V: FmaLanes>(a: [V; L], b: [V; L]) -> [V; L] {
    let mask = V::splat(MASK);
    let mut carry = V::splat(0);
    let mut s = a;
    for i in 0..L {
        let t = a[i].add(b[i]).add(carry);
        carry = t.shr_u(W);
        s[i] = t.and(mask);
    }
    s
}

/// The modulus' limbs in every lane. (Here and in the products, loops
/// rather than `array::map` / `from_fn`: in WebAssembly LLVM left those
/// helpers out of line, a call with its `v128` arrays through memory per
/// product, 14% of the G1 batch's time in a Chromium profile.)
#[inline(always)]
fn splat_p<V: FmaLanes>() -> [V; L] {
    let mut r = [V::splat(0); L];
    for (r, l) in r.iter_mut().zip(P) {
        *r = V::splat(l);
    }
    r
}

/// `x − p` if that is not negative, else `x` (normalised limbs, `x < 2p`).
#[inline(always)]
fn reduce_once<V: FmaLanes>(x: [V; L]) -> F<V> {
    let (mut d, borrow) = sub_limbs(x, splat_p());
    // borrow = 1 where x < p: keep x there
    let keep = V::splat(0).sub(borrow);
    for i in 0..L {
        d[i] = V::select(keep, x[i], d[i]);
    }
    F(d)
}

impl<V: FmaLanes> F<V> {
    /// `a·b·2^-255 mod p` for `a, b < p`; the result is below `p`.
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        let [r] = Self::mul_n([a], [b]);
        r
    }

    /// `N` independent products `a[n]·b[n]·2^-255 mod p` (`a, b < p`;
    /// results below `p`), step by step in turn: one product's reduction
    /// step waits on its own `q` (a chain of about 30 cycles), and the other
    /// products' work fills that wait.
    ///
    /// Bounds: limbs below `2^51`, so every product is below `2^102` and
    /// `hi` stays in `[2^103, 2^104)`; a column takes at most ten low parts
    /// (`|·| ≤ 2^50`), ten high parts (`< 2^51`) and a carry: far from
    /// `2^62`. The result `(ab + q·p)/2^255 < p·(p/2^255 + 1) < 2p`, so one
    /// conditional subtraction leaves it below `p`.
    #[inline(always)]
    fn mul_n<const N: usize>(a: [Self; N], b: [Self; N]) -> [Self; N] {
        let (mut ad, mut bd) = ([[V::splat(0); L]; N], [[V::splat(0); L]; N]);
        for n in 0..N {
            for k in 0..L {
                ad[n][k] = to_double(a[n].0[k]);
                bd[n][k] = to_double(b[n].0[k]);
            }
        }
        let (a, b) = (ad, bd);
        let mut p = [V::splat(0); L];
        for (p, l) in p.iter_mut().zip(P) {
            *p = V::splat((l as f64).to_bits());
        }
        let (c_hi, c_lo) = (V::splat(C_HI.to_bits()), V::splat(C_LO.to_bits()));
        let (mask, pinv) = (V::splat(MASK), V::splat(PINV));
        // z[n][j] is column i + j of product n during step i
        let mut start = [V::splat(0); L + 1];
        for (k, s) in start.iter_mut().enumerate() {
            *s = V::splat(COLUMN_START[k]);
        }
        let mut z = [start; N];
        let mac = |z: &mut [V; L + 1], x: V, y: &[V; L]| {
            for j in 0..L {
                let hi = V::fma(x, y[j], c_hi);
                let lo = V::fma_low(x, y[j], hi, c_lo);
                z[j + 1] = z[j + 1].add(hi);
                z[j] = z[j].add(lo);
            }
        };
        for i in 0..L {
            for n in 0..N {
                mac(&mut z[n], a[n][i], &b[n]);
            }
            for z in z.iter_mut() {
                // q = z₀·(−p⁻¹) mod 2^51: the prefixes in z₀ are multiples of 2^51
                let q = to_double(z[0].mul_low(pinv).and(mask));
                mac(z, q, &p);
            }
            for z in z.iter_mut() {
                // z₀ is now a multiple of 2^51 with every prefix taken off
                let c = carry(z[0]);
                *z = [
                    z[1].add(c),
                    z[2],
                    z[3],
                    z[4],
                    z[5],
                    V::splat(COLUMN_START[i + L + 1]),
                ];
            }
        }
        let mut out = [F([V::splat(0); L]); N];
        for (out, z) in out.iter_mut().zip(z) {
            let mut r = [z[0], z[1], z[2], z[3], z[4]];
            for k in 0..L - 1 {
                let c = carry(r[k]);
                r[k] = r[k].and(mask);
                r[k + 1] = r[k + 1].add(c);
            }
            *out = reduce_once(r);
        }
        out
    }

    /// `N` independent products: one after the other in WebAssembly
    /// (interleaved, [`F::mul_n`], they need more registers than x86's
    /// sixteen `xmm`, and V8's spills made the kernel's G2 MSM 10-15%
    /// slower in Chromium 156), interleaved natively (AVX2's `ymm` spills
    /// cost less than the latency they hide there).
    #[inline(always)]
    fn mul_each<const N: usize>(a: [Self; N], b: [Self; N]) -> [Self; N] {
        if cfg!(target_arch = "wasm32") {
            let mut out = a;
            for n in 0..N {
                out[n] = Self::mul(a[n], b[n]);
            }
            out
        } else {
            Self::mul_n(a, b)
        }
    }

    /// `a − b mod p`.
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        let (d, borrow) = sub_limbs(a.0, b.0);
        // where a < b (borrow 1), add p
        let wrap = V::splat(0).sub(borrow);
        let mut p: [V; L] = splat_p();
        for l in p.iter_mut() {
            *l = l.and(wrap);
        }
        Self(add_limbs(d, p))
    }

    /// `a + b mod p`.
    #[inline(always)]
    fn add(a: Self, b: Self) -> Self {
        reduce_once(add_limbs(a.0, b.0))
    }

    /// A set from the layout (`V::LANES` words per limb, limb-major).
    #[inline(always)]
    pub(crate) fn load(src: &[u64]) -> Self {
        let n = V::LANES;
        Self(std::array::from_fn(|i| V::load(&src[n * i..n * (i + 1)])))
    }

    /// Writes the set to the layout.
    #[inline(always)]
    pub(crate) fn store(self, dst: &mut [u64]) {
        let n = V::LANES;
        for (i, v) in self.0.iter().enumerate() {
            v.store(&mut dst[n * i..n * (i + 1)]);
        }
    }
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
impl<V: FmaLanes> F<V> {
    /// Lanes given as four 64-bit words each (`w[i]`: word `i` of every
    /// lane, a number below `p`), regrouped into 51-bit limbs: the same
    /// number, which this module reads as `number·2^-255`. Fed ark-ff's
    /// `x·2^256`, it is the element `2x` (see [`crate::avx2`] for why the
    /// batch wants exactly that).
    #[inline(always)]
    pub(crate) fn from_words(w: [V; 4]) -> Self {
        let mask = V::splat(MASK);
        // limb i is bits 51i..51i+51; the parts of two words never overlap
        F([
            w[0].and(mask),
            w[0].shr_u(51).add(w[1].shl(13)).and(mask),
            w[1].shr_u(38).add(w[2].shl(26)).and(mask),
            w[2].shr_u(25).add(w[3].shl(39)).and(mask),
            w[3].shr_u(12),
        ])
    }

    /// The inverse of [`F::from_words`]: the number as four 64-bit words
    /// per lane.
    #[inline(always)]
    pub(crate) fn to_words(self) -> [V; 4] {
        let l = self.0;
        [
            l[0].add(l[1].shl(51)),
            l[1].shr_u(13).add(l[2].shl(38)),
            l[2].shr_u(26).add(l[3].shl(25)),
            l[3].shr_u(39).add(l[4].shl(12)),
        ]
    }
}

/// Field elements in sets of `N` lanes, `8 / N` sets per group of eight of
/// [`crate::field::MsmField::batch_add_x8`]: a set of `N` `Fq` elements is
/// `5·N` words, limb-major (limb `l` of lane `i` is word `N·l + i`), each
/// ark-ff's `x·2^256` regrouped into 51-bit limbs, which this arithmetic
/// reads as `2x` (the batch adds the points scaled by 2: see
/// [`crate::avx2`]); a set of `N` `Fq2` elements is the set of their `c0`,
/// then that of their `c1`. A group of eight takes 40 words (`Fq`) or 80
/// (`Fq2`) whatever `N` is.
pub(crate) struct SoaN<const N: usize>;

/// The two-lane layout of WebAssembly's relaxed-SIMD kernel.
pub(crate) type Soa = SoaN<2>;

/// ark-ff's `x·2^256` halved modulo `p`: the number `x·2^255` that this
/// arithmetic reads as `x`.
#[inline(always)]
fn halved(x: &Fq) -> [u64; 4] {
    let mut v = x.0 .0;
    if v[0] & 1 == 1 {
        // v + p < 2p < 2^255: no carry out of the top word
        let mut carry = false;
        for (v, p) in v.iter_mut().zip(MODULUS) {
            let (s, c1) = v.overflowing_add(p);
            let (s, c2) = s.overflowing_add(carry as u64);
            *v = s;
            carry = c1 | c2;
        }
    }
    for i in 0..4 {
        v[i] = (v[i] >> 1) | v.get(i + 1).map_or(0, |n| n << 63);
    }
    v
}

/// The inverse of [`halved`]: the element a reduced number `h` stands for.
#[inline(always)]
fn doubled(h: [u64; 4]) -> Fq {
    // 2h < 2p < 2^255
    let mut v: [u64; 4] =
        std::array::from_fn(|i| (h[i] << 1) | if i > 0 { h[i - 1] >> 63 } else { 0 });
    if BigInt(v) >= BigInt(MODULUS) {
        let mut borrow = false;
        for (v, p) in v.iter_mut().zip(MODULUS) {
            let (d, b1) = v.overflowing_sub(p);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            *v = d;
            borrow = b1 | b2;
        }
    }
    Fq::new_unchecked(BigInt(v))
}

/// Writes element `k` of an `Fq` component of sets of `n` lanes (`c`
/// components per set, this one at `j`): the element `x` itself where
/// `EXACT` (halved: the lanes' view), else ark-ff's number regrouped (`2x`:
/// the batch layout's view).
#[inline(always)]
fn put<const EXACT: bool>(soa: &mut [u64], n: usize, c: usize, j: usize, k: usize, x: &Fq) {
    let words = if EXACT { halved(x) } else { x.0 .0 };
    let base = (k / n) * c * n * L + j * n * L;
    for (l, limb) in split(words).into_iter().enumerate() {
        soa[base + n * l + k % n] = limb;
    }
}

/// Element `k` written by [`put`] with the same parameters.
#[inline(always)]
fn get<const EXACT: bool>(soa: &[u64], n: usize, c: usize, j: usize, k: usize) -> Fq {
    let base = (k / n) * c * n * L + j * n * L;
    let words = join(std::array::from_fn(|l| soa[base + n * l + k % n]));
    match EXACT {
        true => doubled(words),
        false => Fq::new_unchecked(BigInt(words)),
    }
}

/// Writes `x` as element `k` of an `Fq2` array of sets of `n` lanes.
#[inline(always)]
fn put_fq2<const EXACT: bool>(soa: &mut [u64], n: usize, k: usize, x: &Fq2) {
    put::<EXACT>(soa, n, 2, 0, k, &x.c0);
    put::<EXACT>(soa, n, 2, 1, k, &x.c1);
}

/// Element `k` of an `Fq2` array of sets of `n` lanes.
#[inline(always)]
fn get_fq2<const EXACT: bool>(soa: &[u64], n: usize, k: usize) -> Fq2 {
    Fq2::new(get::<EXACT>(soa, n, 2, 0, k), get::<EXACT>(soa, n, 2, 1, k))
}

impl<const N: usize> SoaN<N> {
    /// Words per group of eight `Fq` elements.
    pub(crate) const FQ_GROUP: usize = 8 * L;
    /// Words per group of eight `Fq2` elements.
    pub(crate) const FQ2_GROUP: usize = 16 * L;

    /// Writes `x` as element `k` of an `Fq` array.
    #[inline(always)]
    pub(crate) fn put_fq(soa: &mut [u64], k: usize, x: &Fq) {
        put::<false>(soa, N, 1, 0, k, x)
    }

    /// Element `k` of an `Fq` array.
    #[inline(always)]
    pub(crate) fn get_fq(soa: &[u64], k: usize) -> Fq {
        get::<false>(soa, N, 1, 0, k)
    }

    /// Writes `x` as element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn put_fq2(soa: &mut [u64], k: usize, x: &Fq2) {
        put_fq2::<false>(soa, N, k, x)
    }

    /// Element `k` of an `Fq2` array.
    #[inline(always)]
    pub(crate) fn get_fq2(soa: &[u64], k: usize) -> Fq2 {
        get_fq2::<false>(soa, N, k)
    }
}

impl<V: FmaLanes> VecField for F<V> {
    type Scalar = Fq;
    const LANES: usize = V::LANES;
    const WORDS: usize = V::LANES * L;
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
        F::mul(a, a)
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        F::sub(a, b)
    }
    crate::simd128::chain_is_self!();
    fn splat(x: &Fq) -> Self {
        let mut w = [0u64; 8 * L];
        for k in 0..V::LANES {
            put::<true>(&mut w, V::LANES, 1, 0, k, x);
        }
        F::load(&w)
    }
    fn put(soa: &mut [u64], k: usize, x: &Fq) {
        put::<true>(soa, V::LANES, 1, 0, k, x)
    }
    fn get(soa: &[u64], k: usize) -> Fq {
        get::<true>(soa, V::LANES, 1, 0, k)
    }
}

/// `K·LANES` `Fq` elements as `K` [`F`] (consecutive sets of the layout), so
/// that every product of the batch runs `K` at a time ([`F::mul_n`]).
#[derive(Clone, Copy)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct FK<V: FmaLanes, const K: usize>([F<V>; K]);

impl<V: FmaLanes, const K: usize> VecField for FK<V, K> {
    type Scalar = Fq;
    const LANES: usize = V::LANES * K;
    const WORDS: usize = K * V::LANES * L;
    #[inline(always)]
    fn load(src: &[u64]) -> Self {
        let w = V::LANES * L;
        FK(std::array::from_fn(|k| F::load(&src[k * w..])))
    }
    #[inline(always)]
    fn store(self, dst: &mut [u64]) {
        let w = V::LANES * L;
        for (k, f) in self.0.iter().enumerate() {
            f.store(&mut dst[k * w..]);
        }
    }
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        FK(F::mul_n(a.0, b.0))
    }
    #[inline(always)]
    fn square(a: Self) -> Self {
        FK(F::mul_n(a.0, a.0))
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        FK(std::array::from_fn(|k| F::sub(a.0[k], b.0[k])))
    }
    crate::simd128::chain_is_self!();
    fn splat(x: &Fq) -> Self {
        FK([<F<V> as VecField>::splat(x); K])
    }
    fn put(soa: &mut [u64], k: usize, x: &Fq) {
        put::<true>(soa, V::LANES, 1, 0, k, x)
    }
    fn get(soa: &[u64], k: usize) -> Fq {
        get::<true>(soa, V::LANES, 1, 0, k)
    }
}

impl<V: FmaLanes> VecField for F2<V> {
    type Scalar = Fq2;
    const LANES: usize = V::LANES;
    const WORDS: usize = 2 * V::LANES * L;
    #[inline(always)]
    fn load(src: &[u64]) -> Self {
        let w = V::LANES * L;
        F2([F::load(&src[..w]), F::load(&src[w..])])
    }
    #[inline(always)]
    fn store(self, dst: &mut [u64]) {
        let (c0, c1) = dst.split_at_mut(V::LANES * L);
        self.0[0].store(c0);
        self.0[1].store(c1);
    }
    /// Karatsuba: three multiplications (`u² = −1`).
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        let [a0, a1] = a.0;
        let [b0, b1] = b.0;
        let [v0, v1, s] = F::mul_each([a0, a1, F::add(a0, a1)], [b0, b1, F::add(b0, b1)]);
        F2([F::sub(v0, v1), F::sub(F::sub(s, v0), v1)])
    }
    /// `(c0 + c1)(c0 − c1) + 2·c0·c1·u`.
    #[inline(always)]
    fn square(a: Self) -> Self {
        let [a0, a1] = a.0;
        let [c0, c1] = F::mul_each([F::add(a0, a1), a0], [F::sub(a0, a1), a1]);
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
        let [a2, b2] = F::mul_each([a, b], [a, b]);
        F::add(a2, b2)
    }
    /// `(a·n, −b·n)`.
    #[inline(always)]
    fn inverse_from_norm(d: Self, n: F<V>) -> Self {
        let [a, b] = d.0;
        let [an, bn] = F::mul_each([a, b], [n, n]);
        F2([an, F::sub(F::sub(bn, bn), bn)])
    }
    fn splat(x: &Fq2) -> Self {
        F2([
            <F<V> as VecField>::splat(&x.c0),
            <F<V> as VecField>::splat(&x.c1),
        ])
    }
    fn put(soa: &mut [u64], k: usize, x: &Fq2) {
        put_fq2::<true>(soa, V::LANES, k, x)
    }
    fn get(soa: &[u64], k: usize) -> Fq2 {
        get_fq2::<true>(soa, V::LANES, k)
    }
}

/// The G1 batch ([`batch_add`] on `Fq`) in SIMD128 registers; `false`
/// (nothing written) while the kernel is off ([`available`]).
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub(crate) fn batch_add_g1(
    px: &[u64],
    py: &[u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    available() && {
        // the layout holds ark-ff's numbers: the points scaled by 2. One
        // product at a time: four interleaved (`FK<Simd, 4>`) need more
        // registers than x86's sixteen `xmm`, and V8's spills made the
        // kernel's G1 MSM 5-10% slower in Chromium 156
        crate::simd128::batch_add_scaled::<F<Simd>, true>(px, py, qx, qy, groups);
        true
    }
}

/// The G2 batch ([`batch_add`] on `Fq2`), as [`batch_add_g1`].
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
pub(crate) fn batch_add_g2(
    px: &[u64],
    py: &[u64],
    qx: &mut [u64],
    qy: &mut [u64],
    groups: usize,
) -> bool {
    available() && {
        crate::simd128::batch_add_scaled::<F2<Simd>, true>(px, py, qx, qy, groups);
        true
    }
}

/// Whether `fma` of `V` rounds once: `(1 + 2^-30)² − 1` is `2^-29 + 2^-60`
/// fused and `2^-29` when the product is rounded first.
fn rounds_once<V: FmaLanes>() -> bool {
    let a = V::splat(std::hint::black_box(1.0 + 2f64.powi(-30)).to_bits());
    let mut out = [0u64; 8];
    V::fma(a, a, V::splat((-1.0f64).to_bits())).store(&mut out);
    out[..V::LANES]
        .iter()
        .all(|&r| f64::from_bits(r) == 2f64.powi(-29) + 2f64.powi(-60))
}

/// Whether this engine's `f64x2.relaxed_madd` is fused (checked once), in
/// a module built with `relaxed-simd`; `false` elsewhere.
pub fn fused() -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
    {
        static FUSED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *FUSED.get_or_init(rounds_once::<Simd>)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "relaxed-simd")))]
    {
        false
    }
}

/// Whether the kernel runs: in a module built with `relaxed-simd` (the
/// threaded browser build) whose engine fuses the multiply-add ([`fused`]),
/// unless turned off with [`set_enabled`].
pub fn available() -> bool {
    ENABLED.load(std::sync::atomic::Ordering::Relaxed) && fused()
}

/// Turns the kernel on or off for every thread (off: the prover takes the
/// scalar 29-bit path of [`crate::field`]), for before/after measurements
/// within one build. **On by default**: with the scaled-point batch its
/// proofs beat the scalar path's in Chromium 156 (see the module docs). The
/// balance depends on the engine and the CPU (two 52-bit products per
/// instruction against the scalar path's 64-bit multiplies), so the page
/// measures both on every device it runs on.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// See [`set_enabled`].
static ENABLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd128::tests::{batch_equals_ark_ec, edge_cases};
    use ark_ff::{Field, UniformRand, Zero};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    type P1 = F<Portable<2>>;
    type P2 = F2<Portable<2>>;

    fn lanes_of<T: VecField>(x: T) -> Vec<T::Scalar> {
        let mut out = Vec::new();
        x.lanes(&mut out);
        out
    }

    #[test]
    fn constants() {
        // p·(−p⁻¹) ≡ −1 (mod 2^51)
        assert_eq!(P[0].wrapping_mul(PINV) & MASK, MASK);
        assert_eq!(join(P), MODULUS);
        assert_eq!(C_HI, 2f64.powi(103));
        assert_eq!(C_LO, 2f64.powi(103) + 3.0 * 2f64.powi(51));
        assert_eq!(C52, 2f64.powi(52));
        // the prefixes leave a column's low 51 bits alone
        assert_eq!(HI_PREFIX & MASK, 0);
        assert_eq!(LO_PREFIX & MASK, 0);
        assert!(rounds_once::<Portable<2>>());
        assert_eq!(
            lanes_of(<P1 as VecField>::splat(&Fq::ONE)),
            vec![Fq::ONE; 2]
        );
        // natively the kernel never runs, whatever the switch says
        set_enabled(true);
        assert_eq!(
            available(),
            cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd"))
        );
    }

    /// The exact split of one product at the bounds of the limbs.
    #[test]
    fn product_halves_are_exact() {
        let c_hi = Portable::<2>::splat(C_HI.to_bits());
        let c_lo = Portable::<2>::splat(C_LO.to_bits());
        for (a, b) in [
            (0, 0),
            (1, 1),
            (MASK, MASK),
            (MASK, 1),
            (1 << 50, MASK),
            (12345, MASK - 7),
        ] {
            let (x, y) = (
                to_double(Portable::<2>::splat(a)),
                to_double(Portable::<2>::splat(b)),
            );
            let hi = Portable::fma(x, y, c_hi);
            let lo = Portable::fma(x, y, c_lo.fsub(hi));
            let h = hi.0[0].wrapping_sub(HI_PREFIX);
            let l = lo.0[0].wrapping_sub(LO_PREFIX) as i64;
            let got = ((h as i128) << W) + l as i128;
            assert_eq!(got, a as i128 * b as i128, "{a} · {b}");
            assert!(l.unsigned_abs() <= 1 << 50);
        }
    }

    /// Every `Fq` operation on two lanes against ark-ff, lane by lane.
    #[test]
    fn fq_lanes_equal_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(228);
        let edges = edge_cases();
        let mut inputs = edges.clone();
        inputs.extend((0..1200).map(|_| Fq::rand(&mut rng)));
        let mut checked = 0;
        for (n, a) in inputs.chunks_exact(2).enumerate() {
            let b: Vec<Fq> = (0..2)
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
                lanes_of(<P1 as VecField>::square(x)),
                lanes_of(F::sub(x, y)),
                lanes_of(F::add(x, y)),
            ];
            for k in 0..2 {
                let want = [a[k] * b[k], a[k].square(), a[k] - b[k], a[k] + b[k]];
                for (op, (got, want)) in results.iter().zip(want).enumerate() {
                    assert_eq!(got[k], want, "op {op}, lane {k}: {} , {}", a[k], b[k]);
                    assert!(got[k].0 < Fq::MODULUS, "reduced");
                    checked += 1;
                }
            }
        }
        assert!(checked > 4800);
        // every pair of edge values
        for a in &edges {
            for b in &edges {
                let got = lanes_of(F::mul(P1::from_lanes(&[*a, *b]), P1::from_lanes(&[*b, *b])));
                assert_eq!(got, vec![*a * b, b.square()], "{a} · {b}");
            }
        }
    }

    #[test]
    fn fq2_lanes_equal_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(229);
        let edges = edge_cases();
        for round in 0..150 {
            let a: Vec<Fq2> = (0..2)
                .map(|k| {
                    if round < 30 {
                        Fq2::new(
                            edges[(round + k) % edges.len()],
                            edges[(7 * k + round) % edges.len()],
                        )
                    } else {
                        Fq2::rand(&mut rng)
                    }
                })
                .collect();
            let b: Vec<Fq2> = (0..2).map(|_| Fq2::rand(&mut rng)).collect();
            let (x, y) = (P2::from_lanes(&a), P2::from_lanes(&b));
            let (m, s, d) = (
                lanes_of(P2::mul(x, y)),
                lanes_of(P2::square(x)),
                lanes_of(P2::sub(x, y)),
            );
            for k in 0..2 {
                assert_eq!(m[k], a[k] * b[k]);
                assert_eq!(s[k], a[k].square());
                assert_eq!(d[k], a[k] - b[k]);
            }
        }
    }

    #[test]
    fn soa_round_trip_and_lane_order() {
        let mut rng = ChaCha20Rng::seed_from_u64(230);
        let mut xs: Vec<Fq> = (0..14).map(|_| Fq::rand(&mut rng)).collect();
        xs.extend([Fq::zero(), -Fq::ONE]);
        let mut soa = vec![u64::MAX; 2 * Soa::FQ_GROUP];
        for (k, x) in xs.iter().enumerate() {
            Soa::put_fq(&mut soa, k, x);
        }
        for (k, x) in xs.iter().enumerate() {
            assert_eq!(Soa::get_fq(&soa, k), *x);
        }
        // set 2 holds elements 4 and 5, as ark-ff's numbers: 2x here
        let set = P1::load(&soa[4 * L..6 * L]);
        assert_eq!(lanes_of(set), vec![xs[4] + xs[4], xs[5] + xs[5]]);
        let ys: Vec<Fq2> = (0..8).map(|_| Fq2::rand(&mut rng)).collect();
        let mut soa = vec![u64::MAX; Soa::FQ2_GROUP];
        for (k, y) in ys.iter().enumerate() {
            Soa::put_fq2(&mut soa, k, y);
        }
        for (k, y) in ys.iter().enumerate() {
            assert_eq!(Soa::get_fq2(&soa, k), *y);
        }
    }

    /// The relaxed-SIMD entry points' batch on two plain-array lanes: pairs
    /// written with [`Soa`] (ark-ff's numbers, the points scaled by 2), added
    /// by [`crate::simd128::batch_add_scaled`], read back with [`Soa`].
    fn scaled_batch_equals_ark_ec<C, T>(seed: u64, n: usize)
    where
        C: ark_ec::short_weierstrass::SWCurveConfig,
        C::BaseField: SoaField,
        T: VecField<Scalar = C::BaseField>,
    {
        use ark_ec::{short_weierstrass::Affine, AffineRepr, CurveGroup};
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let g = Affine::<C>::generator();
        let mut random = || (g * C::ScalarField::rand(&mut rng)).into_affine();
        let pairs: Vec<_> = (0..n).map(|_| (random(), random())).collect();
        let groups = n.div_ceil(8);
        let words = groups * 8 / T::LANES * T::WORDS;
        let mut soa = [(); 4].map(|_| vec![0u64; words]);
        let one_zero = (C::BaseField::ONE, C::BaseField::zero());
        for k in 0..groups * 8 {
            let (p, q) = pairs
                .get(k)
                .map_or((one_zero, (one_zero.1, one_zero.1)), |(p, q)| {
                    ((p.x, p.y), (q.x, q.y))
                });
            for (v, x) in soa.iter_mut().zip([p.0, p.1, q.0, q.1]) {
                C::BaseField::soa_put_fma(v, k, &x);
            }
        }
        let [px, py, qx, qy] = &mut soa;
        crate::simd128::batch_add_scaled::<T, true>(px, py, qx, qy, groups);
        for (k, (p, q)) in pairs.iter().enumerate() {
            let want = (*p + q).into_affine();
            let got = (
                C::BaseField::soa_get_fma(qx, k),
                C::BaseField::soa_get_fma(qy, k),
            );
            assert_eq!(got, (want.x, want.y), "entry {k}");
        }
    }

    /// [`Soa`]'s writer and reader for either field, in these tests.
    trait SoaField: Sized {
        fn soa_put_fma(soa: &mut [u64], k: usize, x: &Self);
        fn soa_get_fma(soa: &[u64], k: usize) -> Self;
    }
    impl SoaField for Fq {
        fn soa_put_fma(soa: &mut [u64], k: usize, x: &Self) {
            Soa::put_fq(soa, k, x)
        }
        fn soa_get_fma(soa: &[u64], k: usize) -> Self {
            Soa::get_fq(soa, k)
        }
    }
    impl SoaField for Fq2 {
        fn soa_put_fma(soa: &mut [u64], k: usize, x: &Self) {
            Soa::put_fq2(soa, k, x)
        }
        fn soa_get_fma(soa: &[u64], k: usize) -> Self {
            Soa::get_fq2(soa, k)
        }
    }

    #[test]
    fn scaled_batches_equal_ark_ec() {
        scaled_batch_equals_ark_ec::<ark_bn254::g1::Config, FK<Portable<2>, 4>>(239, 45);
        // the browser's shape: one set of two lanes at a time
        scaled_batch_equals_ark_ec::<ark_bn254::g1::Config, F<Portable<2>>>(241, 45);
        scaled_batch_equals_ark_ec::<ark_bn254::g2::Config, F2<Portable<2>>>(240, 21);
    }

    #[test]
    fn batch_add_g1_equals_ark_ec() {
        batch_equals_ark_ec::<ark_bn254::g1::Config, P1>(231, 45);
        batch_equals_ark_ec::<ark_bn254::g1::Config, FK<Portable<2>, 2>>(233, 45);
        batch_equals_ark_ec::<ark_bn254::g1::Config, FK<Portable<2>, 4>>(234, 45);
    }

    #[test]
    fn batch_add_g2_equals_ark_ec() {
        batch_equals_ark_ec::<ark_bn254::g2::Config, P2>(232, 21);
    }

    /// The AVX2 kernel's layout conversion (ark-ff's words regrouped into
    /// 51-bit limbs and back) on four lanes, as plain arrays: ark-ff's `x`
    /// reads as `2x` here.
    #[test]
    fn words_round_trip() {
        type Q = Portable<4>;
        let mut rng = ChaCha20Rng::seed_from_u64(238);
        let mut xs = edge_cases();
        xs.extend((0..400).map(|_| Fq::rand(&mut rng)));
        xs.truncate(xs.len() / 4 * 4);
        for x in xs.chunks_exact(4) {
            let words: [Q; 4] =
                std::array::from_fn(|i| Portable(std::array::from_fn(|k| x[k].0 .0[i])));
            let f = F::<Q>::from_words(words);
            let doubled: Vec<Fq> = x.iter().map(|x| *x + x).collect();
            assert_eq!(lanes_of(f), doubled);
            let back = f.to_words();
            for (k, x) in x.iter().enumerate() {
                assert_eq!(std::array::from_fn::<u64, 4, _>(|i| back[i].0[k]), x.0 .0);
            }
        }
    }

    /// The same arithmetic on four lanes (the AVX2 kernel's width), as
    /// plain arrays.
    #[test]
    fn four_lanes_equal_ark_ec() {
        type Q = Portable<4>;
        batch_equals_ark_ec::<ark_bn254::g1::Config, F<Q>>(235, 45);
        batch_equals_ark_ec::<ark_bn254::g1::Config, FK<Q, 2>>(236, 45);
        batch_equals_ark_ec::<ark_bn254::g2::Config, F2<Q>>(237, 21);
        let xs: Vec<Fq> = edge_cases().into_iter().take(4).collect();
        assert_eq!(lanes_of(F::<Q>::from_lanes(&xs)), xs);
        let mut soa = vec![u64::MAX; SoaN::<4>::FQ2_GROUP];
        let ys: Vec<Fq2> = (0..8u64)
            .map(|i| Fq2::new(xs[i as usize % 4], Fq::from(i)))
            .collect();
        for (k, y) in ys.iter().enumerate() {
            SoaN::<4>::put_fq2(&mut soa, k, y);
        }
        for (k, y) in ys.iter().enumerate() {
            assert_eq!(SoaN::<4>::get_fq2(&soa, k), *y);
        }
    }
}
