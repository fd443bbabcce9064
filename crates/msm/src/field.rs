//! Montgomery multiplication of BN254 field elements with 29-bit limbs, for
//! WebAssembly.
//!
//! **Why.** ark-ff multiplies a 4×64-bit Montgomery element with 64×64→128-bit
//! limb products. wasm32 has no such instruction: every `u128` product is a
//! call to compiler-rt's `__multi3`, which builds it from 32×32-bit products
//! and returns it through the shadow stack in linear memory — 32 calls per
//! multiplication. A WebAssembly `i64.mul` of two values below 2^32 is one
//! exact instruction, so limbs of at most 32 bits with `u64` accumulators
//! avoid the calls (wasmcurves, the hand-written WebAssembly behind snarkjs,
//! uses 32-bit limbs). With 32-bit limbs every `x + a·b + c` step still
//! carries (a shift and a mask per product, about half the time); with
//! **29-bit limbs** a product is below 2^58 and a `u64` column takes 64 of
//! them before it can overflow, so carries are deferred to one per column —
//! Gregor Mitscha-Baude's technique from his ZPrize 2022 WebAssembly MSM
//! (github.com/mitschabaude/montgomery; compared with 32-bit CIOS in Koh Wei
//! Jie, "Optimizing Montgomery Multiplication in WebAssembly", Bain Capital
//! Crypto).
//!
//! **Construction.** Separated operand scanning: `a` and `b` are split into
//! 9 limbs of 29 bits (261 bits); the 81 products `a_i·b_j` go into 17
//! columns without carries (squaring: 45 products, `(2·a_i)·a_j` for
//! `i < j`); then Montgomery reduction, one limb at a time
//! (`q = t_k·(−p⁻¹) mod 2^29`, `t += q·p·2^(29k)`, only limb `k`'s carry
//! moves up). Every column stays below 2^63 (at most 18 products below 2^58
//! and a carry). **`R = 2^256`, not 2^261**: the ninth step reduces only
//! 24 bits (`8·29 + 24 = 256`), and the result is read from bit 24 of limb 8
//! on. So the Montgomery form is ark-ff's (`R = 2^256` for 4×64-bit limbs):
//! elements go in and out as their `BigInt` limbs (`Fq::new_unchecked`) with
//! no conversion, the result `< 2p` gets one conditional subtraction of `p`
//! and is fully reduced as ark-ff's is, and a product is bit-identical to
//! ark-ff's (the tests check this on random and edge values). Measured in
//! Node 20 (V8, one thread, loaded 2-core machine): 25.6 ns per `Fq`
//! multiplication against 61–97 ns for ark-ff's, and 97 ns per `Fq2`
//! multiplication against 206–229 ns.
//!
//! **Where it is used.** [`MsmField`] is the base-field arithmetic of the
//! prover's MSM additions ([`crate::table`]: the batched affine additions
//! and their batch inversion): on `wasm32` its `Fq` and `Fq2`
//! multiplications and squarings are `mul` and `square` (`Fq2`:
//! Karatsuba over `Fq`, `u² = −1`); natively they are ark-ff's own (ADX
//! assembly on x86-64), so the native prover is unchanged. The code is
//! portable Rust and is tested natively.
//!
//! **With wide arithmetic.** A WebAssembly build with the wide-arithmetic
//! proposal (`-C target-feature=+wide-arithmetic`: `i64.mul_wide_u`, one
//! instruction per 64×64→128-bit product) multiplies with 4×64-bit limbs
//! instead (`mul_cios`, [`WIDE`]): 36 products, 32 of them wide, against
//! 171 `i64.mul`s, and 2.2× faster per product where the engine runs it.

#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use ark_bn254::{Fq, Fq2, Fr};
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::BigInt;

/// Bits per limb.
const W: u32 = 29;
/// Number of limbs: `9·29 = 261 ≥ 256` bits.
const L: usize = 9;
/// The low `W` bits.
const MASK: u64 = (1 << W) - 1;
/// Bits reduced by the last Montgomery step: `8·29 + 24 = 256`.
const LAST: u32 = 256 - W * (L as u32 - 1);

/// A BN254 modulus in 29-bit limbs and its Montgomery constant.
pub(crate) struct Modulus {
    /// The modulus `p`, little-endian 29-bit limbs.
    pub(crate) p: [u64; L],
    /// The modulus as ark-ff's 4×64-bit limbs.
    p64: [u64; 4],
    /// `−p⁻¹ mod 2^29` (its low 24 bits are `−p⁻¹ mod 2^24`).
    pub(crate) inv: u64,
    /// `−p⁻¹ mod 2^64`, for [`mul_cios`].
    inv64: u64,
}

/// `−p⁻¹ mod 2^64` for odd `p0` (Newton's iteration `x ← x·(2 − p0·x)`
/// doubles the number of correct low bits: 1, 2, 4, …, 64).
pub(crate) const fn neg_inv(p0: u64) -> u64 {
    let mut x: u64 = 1;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(x)));
        i += 1;
    }
    x.wrapping_neg()
}

/// The `w`-bit limbs of a 256-bit little-endian integer (`N·w ≥ 256`, or
/// the bits above `N·w` dropped).
#[inline(always)]
pub(crate) const fn limbs<const N: usize>(x: &[u64; 4], w: u32) -> [u64; N] {
    let mut r = [0u64; N];
    let mut i = 0;
    while i < N {
        let bit = w as usize * i;
        let (word, off) = (bit / 64, bit % 64);
        let mut v = x[word] >> off;
        if off + w as usize > 64 && word + 1 < 4 {
            v |= x[word + 1] << (64 - off);
        }
        r[i] = v & ((1 << w) - 1);
        i += 1;
    }
    r
}

/// The 29-bit limbs of a 256-bit little-endian integer.
#[inline(always)]
pub(crate) const fn unpack(x: &[u64; 4]) -> [u64; L] {
    limbs::<L>(x, W)
}

/// The modulus from its ark-ff limbs.
const fn modulus(p64: [u64; 4]) -> Modulus {
    // 2p < 2^256 (results before the last subtraction fit 256 bits),
    // 27 products of 29-bit limbs fit a u64 column (see `reduce`), and the
    // top word leaves `mul_cios` its spare bit
    assert!(p64[3] < 1 << 62);
    Modulus {
        p: unpack(&p64),
        p64,
        inv: neg_inv(p64[0]) & MASK,
        inv64: neg_inv(p64[0]),
    }
}

/// BN254's base field modulus (`Fq`, the coordinates of G1 and G2 points).
pub(crate) const FQ: Modulus =
    modulus(<ark_bn254::FqConfig as ark_ff::fields::MontConfig<4>>::MODULUS.0);

/// BN254's scalar field modulus (`Fr`, the QAP polynomials' coefficients).
pub(crate) const FR: Modulus =
    modulus(<ark_bn254::FrConfig as ark_ff::fields::MontConfig<4>>::MODULUS.0);

/// `a·b·2^-256 mod p` for `a, b < p` (Montgomery forms), fully reduced.
#[inline(always)]
pub(crate) fn mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let a = unpack(a);
    let b = unpack(b);
    let mut t = [0u64; 2 * L];
    for i in 0..L {
        for j in 0..L {
            t[i + j] += a[i] * b[j];
        }
    }
    reduce(t, m)
}

/// `a²·2^-256 mod p` for `a < p`: the products `a_i·a_j` with `i < j` once,
/// as `(2·a_i)·a_j` (45 limb products instead of 81).
#[inline(always)]
pub(crate) fn square(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let a = unpack(a);
    let mut t = [0u64; 2 * L];
    for i in 0..L {
        t[2 * i] += a[i] * a[i];
        let twice = a[i] << 1;
        for j in i + 1..L {
            t[i + j] += twice * a[j];
        }
    }
    reduce(t, m)
}

/// Montgomery reduction `t·2^-256 mod p` of the product columns
/// `t = Σ t_k·2^(29k)` (`t < p·2^256`, every column below `2^62.2`),
/// fully reduced, as 4×64-bit limbs.
///
/// Steps `k = 0..8` make limb `k` zero: `q = t_k·(−p⁻¹) mod 2^29`,
/// `t += q·p·2^(29k)` (the carry of limb `k` moves up; the other columns
/// take the products unpropagated: each column holds at most 9 + 9 products
/// below `2^58` and a carry, under `2^63`); step 8 clears only the low 24
/// bits of limb 8, so that exactly 256 bits are divided out. Then the
/// columns from 8 on are normalised and shifted down by 24 bits: the
/// result `< 2p`, less `p` if need be.
#[inline(always)]
fn reduce(mut t: [u64; 2 * L], m: &Modulus) -> [u64; 4] {
    let p = &m.p;
    let mut carry = 0u64;
    for k in 0..L {
        let tk = t[k] + carry;
        let mask = if k == L - 1 { (1 << LAST) - 1 } else { MASK };
        let q = tk.wrapping_mul(m.inv) & mask;
        let tk = tk + q * p[0];
        for j in 1..L {
            t[k + j] += q * p[j];
        }
        if k == L - 1 {
            t[k] = tk;
        } else {
            carry = tk >> W;
        }
    }
    // limbs 8.. normalised (limb 8 keeps its low 24 zero bits)
    let mut r = [0u64; L + 1];
    let mut c = 0u64;
    for (i, ri) in r.iter_mut().enumerate() {
        let v = t[L - 1 + i] + c;
        *ri = v & MASK;
        c = v >> W;
    }
    // the result: bit 24 of limb 8 on; bit 29·i − 24 holds limb 8 + i
    let mut out = [0u64; 4];
    for (i, &ri) in r.iter().enumerate() {
        let bit = (W as usize * i) as isize - LAST as isize;
        if bit < 0 {
            out[0] |= ri >> (-bit) as u32;
            continue;
        }
        let (w, off) = (bit as usize / 64, bit as usize % 64);
        if w < 4 {
            out[w] |= ri << off;
            if off + W as usize > 64 && w + 1 < 4 {
                out[w + 1] |= ri >> (64 - off);
            }
        }
    }
    sub_if_ge(out, &m.p64)
}

/// `a·b + c + carry` as its low and high 64-bit words (one 64×64→128-bit
/// product: `i64.mul_wide_u` in a wide-arithmetic WebAssembly build).
#[inline(always)]
fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = u128::from(a) * u128::from(b) + u128::from(c) + u128::from(carry);
    (t as u64, (t >> 64) as u64)
}

/// `a·b·2^-256 mod p` for `a, b < p` with 4×64-bit limbs: coarsely
/// integrated operand scanning (Koç, Acar and Kaliski, "Analyzing and
/// comparing Montgomery multiplication algorithms", IEEE Micro 1996) without
/// the extra carry word, which a modulus whose top word is below `2^63 − 1`
/// does not need (the gnark-crypto "no-carry" variant; `modulus` asserts
/// the bound). Fully reduced, equal to ark-ff's product.
///
/// **Why here.** This is ark-ff's portable algorithm; in WebAssembly its
/// 32 wide products are `__multi3` calls unless the build has the
/// wide-arithmetic proposal, where each is one `i64.mul_wide_u`. There this
/// takes 13.6 ns per `Fq` product against 29.3 ns for the 29-bit [`mul`]
/// (headless Chromium 156 with `--js-flags=--wasm-wide_arithmetic`, a chain
/// of dependent products, this 2-core Zen 5 machine): [`WIDE`] builds use it.
#[inline(always)]
pub(crate) fn mul_cios(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let p = &m.p64;
    let mut t = [0u64; 4];
    for &bi in b {
        let (t0, mut c) = mac(a[0], bi, t[0], 0);
        let q = t0.wrapping_mul(m.inv64);
        let (_, mut cq) = mac(q, p[0], t0, 0);
        for j in 1..4 {
            let (x, c1) = mac(a[j], bi, t[j], c);
            let (y, c2) = mac(q, p[j], x, cq);
            (c, cq) = (c1, c2);
            t[j - 1] = y;
        }
        t[3] = c + cq;
    }
    sub_if_ge(t, p)
}

/// Whether this build multiplies field elements with 64-bit limbs
/// (`mul_cios`: WebAssembly with the wide-arithmetic proposal) instead of
/// 29-bit ones (`mul`, `square`).
pub const WIDE: bool = cfg!(all(
    target_arch = "wasm32",
    target_feature = "wide-arithmetic"
));

/// `a·b·2^-256 mod p`: [`mul_cios`] in a [`WIDE`] build, else [`mul`].
#[inline(always)]
fn mont_mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    if WIDE {
        mul_cios(a, b, m)
    } else {
        mul(a, b, m)
    }
}

/// `a²·2^-256 mod p`: [`mul_cios`] in a [`WIDE`] build, else [`square`].
#[inline(always)]
fn mont_square(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    if WIDE {
        mul_cios(a, a, m)
    } else {
        square(a, m)
    }
}

/// `a + b` over 4×64-bit limbs and the carry out of the top limb.
#[inline(always)]
fn add_carry(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], bool) {
    let mut s = [0u64; 4];
    let mut carry = false;
    for i in 0..4 {
        let (x, c1) = a[i].overflowing_add(b[i]);
        let (y, c2) = x.overflowing_add(u64::from(carry));
        s[i] = y;
        carry = c1 | c2;
    }
    (s, carry)
}

/// `a − b` over 4×64-bit limbs (mod 2^256) and the borrow out of the top
/// limb (`a < b`).
#[inline(always)]
pub(crate) fn sub_borrow(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], bool) {
    let mut d = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (x, b1) = a[i].overflowing_sub(b[i]);
        let (y, b2) = x.overflowing_sub(u64::from(borrow));
        d[i] = y;
        borrow = b1 | b2;
    }
    (d, borrow)
}

/// `x − p` if `x ≥ p`, else `x` (4×64-bit limbs).
#[inline(always)]
fn sub_if_ge(x: [u64; 4], p: &[u64; 4]) -> [u64; 4] {
    let (d, borrow) = sub_borrow(&x, p);
    if borrow {
        x
    } else {
        d
    }
}

/// `a + b mod p` for `a, b < p < 2^254` in ark-ff's 4×64-bit limbs, with no
/// branch: the sum (below 2^255, no carry out), the sum less `p`, and a mask
/// picks one.
///
/// **Why.** ark-ff adds and subtracts limbs with 128-bit arithmetic
/// (`adc`/`sbb` through `u128`), and in the wasm32 prover its `sub_assign`
/// was not inlined: 10% of a Groth16 proof's time in a CPU profile (Node,
/// single-threaded module, membership proof). `overflowing_add`/`_sub`
/// chains are plain `i64` additions and comparisons in WebAssembly.
#[inline(always)]
fn add_mod(a: &[u64; 4], b: &[u64; 4], p: &[u64; 4]) -> [u64; 4] {
    let (s, _) = add_carry(a, b);
    let (t, borrow) = sub_borrow(&s, p);
    // a mask, not `sub_if_ge`'s branch: a sum of two field elements is at
    // or above p half the time, so a branch would be mispredicted
    let keep = u64::from(borrow).wrapping_neg();
    std::array::from_fn(|i| (s[i] & keep) | (t[i] & !keep))
}

/// `a − b mod p` for `a, b < p` (4×64-bit limbs), with no branch: the
/// difference, plus `p` where it borrowed (see [`add_mod`]).
#[inline(always)]
fn sub_mod(a: &[u64; 4], b: &[u64; 4], p: &[u64; 4]) -> [u64; 4] {
    let (d, borrow) = sub_borrow(a, b);
    let mask = u64::from(borrow).wrapping_neg();
    add_carry(&d, &p.map(|w| w & mask)).0
}

/// `a + b` in `Fq` (equal to ark-ff's).
#[inline(always)]
pub(crate) fn fq_add(a: &Fq, b: &Fq) -> Fq {
    Fq::new_unchecked(BigInt(add_mod(&a.0 .0, &b.0 .0, &FQ.p64)))
}

/// `a − b` in `Fq` (equal to ark-ff's).
#[inline(always)]
pub(crate) fn fq_sub(a: &Fq, b: &Fq) -> Fq {
    Fq::new_unchecked(BigInt(sub_mod(&a.0 .0, &b.0 .0, &FQ.p64)))
}

/// `a + b` in `Fr` (equal to ark-ff's; no branch).
#[inline(always)]
pub(crate) fn fr_add(a: &Fr, b: &Fr) -> Fr {
    Fr::new_unchecked(BigInt(add_mod(&a.0 .0, &b.0 .0, &FR.p64)))
}

/// `a − b` in `Fr` (equal to ark-ff's; no branch).
#[inline(always)]
pub(crate) fn fr_sub(a: &Fr, b: &Fr) -> Fr {
    Fr::new_unchecked(BigInt(sub_mod(&a.0 .0, &b.0 .0, &FR.p64)))
}

/// `a + b` in `Fq2`.
#[inline(always)]
pub(crate) fn fq2_add(a: &Fq2, b: &Fq2) -> Fq2 {
    Fq2::new(fq_add(&a.c0, &b.c0), fq_add(&a.c1, &b.c1))
}

/// `a − b` in `Fq2`.
#[inline(always)]
pub(crate) fn fq2_sub(a: &Fq2, b: &Fq2) -> Fq2 {
    Fq2::new(fq_sub(&a.c0, &b.c0), fq_sub(&a.c1, &b.c1))
}

/// `a·b` in `Fq` with 29-bit limbs, or 64-bit ones in a [`WIDE`] build
/// (equal to ark-ff's `a * b`).
#[inline]
pub(crate) fn fq_mul(a: &Fq, b: &Fq) -> Fq {
    Fq::new_unchecked(BigInt(mont_mul(&a.0 .0, &b.0 .0, &FQ)))
}

/// `a·b` in `Fr` with 29-bit limbs, or 64-bit ones in a [`WIDE`] build
/// (equal to ark-ff's `a * b`).
#[inline]
pub fn fr_mul(a: &Fr, b: &Fr) -> Fr {
    Fr::new_unchecked(BigInt(mont_mul(&a.0 .0, &b.0 .0, &FR)))
}

/// `a²` in `Fq` with 29-bit limbs, or 64-bit ones in a [`WIDE`] build
/// (equal to ark-ff's `a.square()`).
#[inline]
pub(crate) fn fq_square(a: &Fq) -> Fq {
    Fq::new_unchecked(BigInt(mont_square(&a.0 .0, &FQ)))
}

/// `a·b` in `Fq2 = Fq[u]/(u² + 1)` with 29-bit limbs (Karatsuba: three `Fq`
/// multiplications; measured faster in V8 than two sums of two products with
/// one reduction each).
#[inline]
pub(crate) fn fq2_mul(a: &Fq2, b: &Fq2) -> Fq2 {
    let v0 = fq_mul(&a.c0, &b.c0);
    let v1 = fq_mul(&a.c1, &b.c1);
    let s = fq_mul(&fq_add(&a.c0, &a.c1), &fq_add(&b.c0, &b.c1));
    Fq2::new(fq_sub(&v0, &v1), fq_sub(&fq_sub(&s, &v0), &v1))
}

/// `a²` in `Fq2` with 29-bit limbs: `(c0 + c1)(c0 − c1) + 2·c0·c1·u`.
#[inline]
pub(crate) fn fq2_square(a: &Fq2) -> Fq2 {
    let c0 = fq_mul(&fq_add(&a.c0, &a.c1), &fq_sub(&a.c0, &a.c1));
    let c1 = fq_mul(&a.c0, &a.c1);
    Fq2::new(c0, fq_add(&c1, &c1))
}

/// The base-field multiplications of the MSM's point additions: ark-ff's
/// natively, this module's on `wasm32` (29-bit limbs, or 64-bit ones in a
/// [`WIDE`] build; see the module docs). Results are identical either way.
pub trait MsmField: crate::inverse::BatchInverse {
    /// `self · rhs`.
    fn mul_msm(&self, rhs: &Self) -> Self;
    /// `self²`.
    fn square_msm(&self) -> Self;
    /// `self + rhs`.
    fn add_msm(&self, rhs: &Self) -> Self;
    /// `self − rhs`.
    fn sub_msm(&self, rhs: &Self) -> Self;
    /// Inverts every element of `v` (all non-zero) with one field
    /// inversion (Montgomery's trick); `prefix` is scratch memory.
    fn invert_all(v: &mut [Self], prefix: &mut Vec<Self>)
    where
        Self: Sized;
    /// Words per group of eight elements in the layout of
    /// [`MsmField::batch_add_x8`] (0 where there is no such kernel).
    const SOA_GROUP: usize = 0;
    /// Writes `self` as element `k` of an eight-lane array.
    fn soa_put(&self, _soa: &mut [u64], _k: usize) {
        unreachable!("no eight-lane layout for this field")
    }
    /// Element `k` of an eight-lane array.
    fn soa_get(_soa: &[u64], _k: usize) -> Self {
        unreachable!("no eight-lane layout for this field")
    }
    /// Whether [`MsmField::batch_add_x8`] runs on this CPU.
    fn has_x8() -> bool {
        false
    }
    /// The batched affine additions `(qx, qy) += (px, py)` of `groups`
    /// groups of eight (no `px = qx`) in a vector kernel ([`VectorKernel`]);
    /// `px` and `py` are scratch the kernel may overwrite; `false` (nothing
    /// done) where this CPU or target has no such kernel.
    fn batch_add_x8(
        _px: &mut [u64],
        _py: &mut [u64],
        _qx: &mut [u64],
        _qy: &mut [u64],
        _groups: usize,
    ) -> bool {
        false
    }
}

// The eight-lane batch kernel of this target: AVX-512 IFMA or AVX2 + FMA3
// on x86_64 (chosen at run time, `crate::x86`); in a WebAssembly build, the
// fused multiply-add kernel where it has `relaxed-simd` (used where the
// engine fuses it), else SIMD128's where it has `simd128`.
#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
use crate::fma as x8;
#[cfg(all(
    target_arch = "wasm32",
    target_feature = "simd128",
    not(target_feature = "relaxed-simd")
))]
use crate::simd128 as x8;
#[cfg(target_arch = "x86_64")]
use crate::x86 as x8;

/// The vector kernel of the MSM's batched affine additions compiled into
/// this build ([`MsmField::batch_add_x8`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorKernel {
    /// Eight lanes of AVX-512 IFMA ([`crate::avx512`], x86_64).
    Avx512Ifma,
    /// Four lanes of AVX2 with FMA3's fused multiply-add on doubles
    /// ([`crate::avx2`], x86_64 without AVX-512 IFMA).
    Avx2Fma,
    /// Two lanes of relaxed SIMD's fused multiply-add on doubles
    /// ([`crate::fma`], WebAssembly with `relaxed-simd`).
    Fma,
    /// Four lanes of SIMD128's 32×32→64-bit products ([`crate::simd128`],
    /// WebAssembly with `simd128`).
    Simd128,
    /// None: scalar field arithmetic only.
    None,
}

impl VectorKernel {
    /// The best kernel this build has (x86_64 builds have both AVX-512
    /// IFMA and AVX2 + FMA3 and run the first the CPU has: [`Self::here`]).
    pub const fn built() -> Self {
        if cfg!(target_arch = "x86_64") {
            Self::Avx512Ifma
        } else if cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")) {
            Self::Fma
        } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            Self::Simd128
        } else {
            Self::None
        }
    }

    /// The kernel the batches run in now: [`Self::built`] where it runs
    /// ([`Self::running`]), on x86_64 the one this CPU has, else `None`.
    pub fn here() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            crate::x86::kernel()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            if Self::running() {
                Self::built()
            } else {
                Self::None
            }
        }
    }

    /// Its name in records: `avx512-ifma`, `avx2-fma`, `fma`, `simd128`,
    /// `none`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Avx512Ifma => "avx512-ifma",
            Self::Avx2Fma => "avx2-fma",
            Self::Fma => "fma",
            Self::Simd128 => "simd128",
            Self::None => "none",
        }
    }

    /// Whether the batches run in it now (the CPU or engine has what it
    /// needs and it is not switched off).
    pub fn running() -> bool {
        #[cfg(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ))]
        {
            x8::available()
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        {
            false
        }
    }

    /// Turns the WebAssembly kernel on or off for every thread (the scalar
    /// path then does the batches, with the same results), for before/after
    /// measurements in one module; natively the environment variables
    /// `ZKBENCH_NO_AVX512` and `ZKBENCH_NO_AVX2` do this instead, and this
    /// does nothing.
    pub fn set_on(on: bool) {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        x8::set_enabled(on);
        let _ = on;
    }
}

/// `MsmField` for a field with this module's `mul` and `square` functions
/// (used on `wasm32`; ark-ff's operations elsewhere).
macro_rules! msm_field {
    ($field:ty, $mul:ident, $square:ident, $add:ident, $sub:ident, $put:ident, $get:ident, $group:ident, $batch:ident, $invert:path) => {
        impl MsmField for $field {
            fn invert_all(v: &mut [Self], prefix: &mut Vec<Self>) {
                $invert(v, prefix)
            }

            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            const SOA_GROUP: usize = x8::Soa::$group;

            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            #[inline(always)]
            fn soa_put(&self, soa: &mut [u64], k: usize) {
                x8::Soa::$put(soa, k, self)
            }

            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            #[inline(always)]
            fn soa_get(soa: &[u64], k: usize) -> Self {
                x8::Soa::$get(soa, k)
            }

            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            fn has_x8() -> bool {
                x8::available()
            }

            #[cfg(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            ))]
            fn batch_add_x8(
                px: &mut [u64],
                py: &mut [u64],
                qx: &mut [u64],
                qy: &mut [u64],
                groups: usize,
            ) -> bool {
                x8::$batch(px, py, qx, qy, groups)
            }

            #[inline(always)]
            fn mul_msm(&self, rhs: &Self) -> Self {
                #[cfg(target_arch = "wasm32")]
                {
                    $mul(self, rhs)
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    *self * rhs
                }
            }

            #[inline(always)]
            fn square_msm(&self) -> Self {
                #[cfg(target_arch = "wasm32")]
                {
                    $square(self)
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    ark_ff::Field::square(self)
                }
            }

            #[inline(always)]
            fn add_msm(&self, rhs: &Self) -> Self {
                #[cfg(target_arch = "wasm32")]
                {
                    $add(self, rhs)
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    *self + rhs
                }
            }

            #[inline(always)]
            fn sub_msm(&self, rhs: &Self) -> Self {
                #[cfg(target_arch = "wasm32")]
                {
                    $sub(self, rhs)
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    *self - rhs
                }
            }
        }
    };
}

msm_field!(
    Fq,
    fq_mul,
    fq_square,
    fq_add,
    fq_sub,
    put_fq,
    get_fq,
    FQ_GROUP,
    batch_add_g1,
    crate::inverse::batch_invert
);
msm_field!(
    Fq2,
    fq2_mul,
    fq2_square,
    fq2_add,
    fq2_sub,
    put_fq2,
    get_fq2,
    FQ2_GROUP,
    batch_add_g2,
    crate::inverse::batch_invert_fq2
);

/// `acc += q` (mixed Jacobian + affine addition) with [`MsmField`]
/// multiplications: ark-ec's own addition natively, on `wasm32` the same
/// formulas (`madd-2007-bl`) with this module's multiplications.
#[inline]
pub fn add_affine<P: SWCurveConfig>(acc: &mut Projective<P>, q: &Affine<P>)
where
    P::BaseField: MsmField,
{
    add_with(acc, q, jacobian::add_affine);
}

/// `acc += q` (Jacobian) with [`MsmField`] multiplications: ark-ec's own
/// addition natively, on `wasm32` the same formulas (`add-2007-bl`) with
/// this module's multiplications.
#[inline]
pub fn add_projective<P: SWCurveConfig>(acc: &mut Projective<P>, q: &Projective<P>)
where
    P::BaseField: MsmField,
{
    add_with(acc, q, jacobian::add_projective);
}

/// `acc += q`: `wasm` on `wasm32`, ark-ec's `+=` elsewhere.
#[inline(always)]
fn add_with<P: SWCurveConfig, Q>(acc: &mut Projective<P>, q: &Q, wasm: fn(&mut Projective<P>, &Q))
where
    for<'a> Projective<P>: core::ops::AddAssign<&'a Q>,
{
    #[cfg(target_arch = "wasm32")]
    wasm(acc, q);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = wasm;
        *acc += q;
    }
}

/// ark-ec 0.5's Jacobian formulas for short Weierstrass curves
/// (`ark_ec::short_weierstrass::Projective`'s `AddAssign` and
/// `double_in_place`, from the Explicit-Formulas Database) with the
/// multiplications of [`MsmField`]: the same operations on the same
/// coordinates, so the same results. Doubling only for `a = 0` (both BN254
/// groups).
mod jacobian {
    use super::MsmField;
    use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
    use ark_ff::{One, Zero};

    /// `2x` with [`MsmField`]'s addition.
    #[inline(always)]
    fn dbl<F: MsmField>(x: &F) -> F {
        x.add_msm(x)
    }

    /// `p = 2p` (`dbl-2009-l`, `a = 0`, `D = 4·X1·Y1²` as ark-ec computes it
    /// for extension degrees 1 and 2).
    pub(super) fn double<P: SWCurveConfig>(p: &mut Projective<P>)
    where
        P::BaseField: MsmField,
    {
        debug_assert!(P::COEFF_A.is_zero());
        if p.is_zero() {
            return;
        }
        let a = p.x.square_msm();
        let b = p.y.square_msm();
        let c = b.square_msm();
        let d = dbl(&dbl(&p.x.mul_msm(&b)));
        let e = a.add_msm(&dbl(&a));
        p.z = dbl(&p.z.mul_msm(&p.y));
        p.x = e.square_msm().sub_msm(&dbl(&d));
        p.y = e.mul_msm(&d.sub_msm(&p.x)).sub_msm(&dbl(&dbl(&dbl(&c))));
    }

    /// `p += q` (`madd-2007-bl`).
    pub(super) fn add_affine<P: SWCurveConfig>(p: &mut Projective<P>, q: &Affine<P>)
    where
        P::BaseField: MsmField,
    {
        if q.infinity {
            return;
        }
        let (qx, qy) = (q.x, q.y);
        if p.is_zero() {
            *p = Projective::new_unchecked(qx, qy, P::BaseField::one());
            return;
        }
        let z1z1 = p.z.square_msm();
        let u2 = qx.mul_msm(&z1z1);
        let s2 = p.z.mul_msm(&qy).mul_msm(&z1z1);
        if p.x == u2 {
            if p.y == s2 {
                double(p);
            } else {
                *p = Projective::zero();
            }
            return;
        }
        let h = u2.sub_msm(&p.x);
        let i = dbl(&dbl(&h.square_msm()));
        let j = (-h).mul_msm(&i);
        let r = dbl(&s2.sub_msm(&p.y));
        let v = p.x.mul_msm(&i);
        p.x = r.square_msm().add_msm(&j).sub_msm(&dbl(&v));
        let v = v.sub_msm(&p.x);
        p.y = r.mul_msm(&v).add_msm(&dbl(&p.y).mul_msm(&j));
        p.z = dbl(&p.z.mul_msm(&h));
    }

    /// `p += q` (`add-2007-bl`).
    pub(super) fn add_projective<P: SWCurveConfig>(p: &mut Projective<P>, q: &Projective<P>)
    where
        P::BaseField: MsmField,
    {
        if p.is_zero() {
            *p = *q;
            return;
        }
        if q.is_zero() {
            return;
        }
        let z1z1 = p.z.square_msm();
        let z2z2 = q.z.square_msm();
        let u1 = p.x.mul_msm(&z2z2);
        let u2 = q.x.mul_msm(&z1z1);
        let s1 = p.y.mul_msm(&q.z).mul_msm(&z2z2);
        let s2 = q.y.mul_msm(&p.z).mul_msm(&z1z1);
        if u1 == u2 {
            if s1 == s2 {
                double(p);
            } else {
                *p = Projective::zero();
            }
            return;
        }
        let h = u2.sub_msm(&u1);
        let i = dbl(&h).square_msm();
        let j = (-h).mul_msm(&i);
        let r = dbl(&s2.sub_msm(&s1));
        let v = u1.mul_msm(&i);
        p.x = r.square_msm().add_msm(&j).sub_msm(&dbl(&v));
        let v = v.sub_msm(&p.x);
        p.y = r.mul_msm(&v).add_msm(&dbl(&s1).mul_msm(&j));
        p.z = dbl(&p.z.mul_msm(&q.z)).mul_msm(&h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::{AdditiveGroup, Field, PrimeField, UniformRand, Zero};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// `p − k` as a field element (canonical, `k < p`).
    fn minus(k: u64) -> Fq {
        -Fq::from(k)
    }

    /// The element whose Montgomery form is `limbs` (must be `< p`).
    fn raw(limbs: [u64; 4]) -> Fq {
        Fq::new_unchecked(BigInt(limbs))
    }

    /// Five `Fr` edge values (0, 1, −1, the raw limb 1, `p − 1` as raw
    /// limbs), then `random` random ones from `rng`.
    fn fr_values(rng: &mut ChaCha20Rng, random: usize) -> Vec<Fr> {
        let mr = Fr::MODULUS.0;
        let mut fr: Vec<Fr> = vec![
            Fr::zero(),
            Fr::from(1u64),
            -Fr::from(1u64),
            Fr::new_unchecked(BigInt([1, 0, 0, 0])),
            Fr::new_unchecked(BigInt([mr[0] - 1, mr[1], mr[2], mr[3]])),
        ];
        fr.extend((0..random).map(|_| Fr::rand(rng)));
        fr
    }

    /// Edge values: 0, 1, 2, −1, −2, Montgomery forms 0..3 and p−1, p−2,
    /// values near 2^256 − p mod p and near 2^255 / 2^254, all-ones words.
    fn edge_values() -> Vec<Fq> {
        let p = Fq::MODULUS.0;
        let p_minus = |k: u64| raw([p[0] - k, p[1], p[2], p[3]]);
        // 2^256 mod p = R mod p, i.e. Montgomery form of 1
        let r = Fq::from(1u64).0 .0;
        vec![
            Fq::zero(),
            Fq::from(1u64),
            Fq::from(2u64),
            minus(1),
            minus(2),
            raw([1, 0, 0, 0]),
            raw([2, 0, 0, 0]),
            raw([3, 0, 0, 0]),
            p_minus(1),
            p_minus(2),
            raw([r[0] - 1, r[1], r[2], r[3]]),
            raw([r[0] + 1, r[1], r[2], r[3]]),
            raw([u64::MAX, u64::MAX, u64::MAX, 0x2fff_ffff_ffff_ffff]),
            raw([0, 0, 0, 1 << 61]),
            raw([u64::MAX, 0, u64::MAX, 0]),
            raw([0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff]),
            raw([0xffff_ffff_0000_0000, 0, 0xffff_ffff_0000_0000, 0]),
            Fq::from(u64::MAX),
        ]
    }

    #[test]
    fn constants_match_ark_ff() {
        let p = Fq::MODULUS.0;
        assert_eq!(FQ.p64, p);
        // the limbs put back together are p
        let mut back = [0u64; 4];
        for (i, &limb) in FQ.p.iter().enumerate() {
            assert!(limb <= MASK);
            let bit = W as usize * i;
            back[bit / 64] |= limb << (bit % 64);
            if bit % 64 + W as usize > 64 && bit / 64 + 1 < 4 {
                back[bit / 64 + 1] |= limb >> (64 - bit % 64);
            }
        }
        assert_eq!(back, p);
        // p·(−p⁻¹) ≡ −1 (mod 2^29)
        assert_eq!(FQ.p[0].wrapping_mul(FQ.inv) & MASK, MASK);
        for x in [1u64, 3, 0xd87c_fd47, u64::MAX] {
            assert_eq!(x.wrapping_mul(neg_inv(x)), u64::MAX, "{x}");
        }
    }

    /// `(limbs, expected)`: `unpack` on a table of bit patterns.
    #[test]
    fn unpack_table() {
        let cases: [([u64; 4], [u64; L]); 3] = [
            ([0; 4], [0; L]),
            ([1, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0, 0]),
            (
                [u64::MAX; 4],
                [
                    MASK,
                    MASK,
                    MASK,
                    MASK,
                    MASK,
                    MASK,
                    MASK,
                    MASK,
                    (1 << 24) - 1,
                ],
            ),
        ];
        for (x, want) in cases {
            assert_eq!(unpack(&x), want, "{x:x?}");
        }
        // bit 29·i is bit 0 of limb i
        for i in 0..L {
            let bit = W as usize * i;
            let mut x = [0u64; 4];
            x[bit / 64] = 1 << (bit % 64);
            let mut want = [0u64; L];
            want[i] = 1;
            assert_eq!(unpack(&x), want, "bit {bit}");
        }
    }

    #[test]
    fn fq_mul_matches_ark_ff_on_edge_values() {
        let edges = edge_values();
        for a in &edges {
            for b in &edges {
                assert_eq!(fq_mul(a, b), *a * b, "{a} · {b}");
            }
            assert_eq!(fq_mul(a, a), a.square(), "{a}²");
            assert_eq!(fq_square(a), a.square(), "{a}²");
        }
    }

    #[test]
    fn fq_mul_matches_ark_ff_on_random_values() {
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let edges = edge_values();
        for _ in 0..2000 {
            let a = Fq::rand(&mut rng);
            let b = Fq::rand(&mut rng);
            assert_eq!(fq_mul(&a, &b), a * b);
            assert_eq!(fq_square(&a), a.square());
            assert!(fq_mul(&a, &b).0 < Fq::MODULUS, "fully reduced");
            for e in &edges {
                assert_eq!(fq_mul(&a, e), a * e);
            }
        }
    }

    /// The 64-bit-limb product of wide-arithmetic builds against ark-ff, in
    /// `Fq` (every pair of edge values, random ones) and `Fr`; fully reduced.
    #[test]
    fn cios_matches_ark_ff() {
        let cios_q = |a: &Fq, b: &Fq| Fq::new_unchecked(BigInt(mul_cios(&a.0 .0, &b.0 .0, &FQ)));
        let cios_r = |a: &Fr, b: &Fr| Fr::new_unchecked(BigInt(mul_cios(&a.0 .0, &b.0 .0, &FR)));
        let edges = edge_values();
        let mut rng = ChaCha20Rng::seed_from_u64(33);
        let random: Vec<Fq> = (0..500).map(|_| Fq::rand(&mut rng)).collect();
        for a in edges.iter().chain(&random) {
            for b in &edges {
                assert_eq!(cios_q(a, b), *a * b, "{a} · {b}");
                assert!(cios_q(a, b).0 < Fq::MODULUS, "fully reduced");
            }
        }
        for w in random.windows(2) {
            assert_eq!(cios_q(&w[0], &w[1]), w[0] * w[1]);
            assert_eq!(cios_q(&w[0], &w[0]), w[0].square());
        }
        let fr = fr_values(&mut rng, 500);
        for a in &fr {
            for b in &fr[..5] {
                assert_eq!(cios_r(a, b), *a * b, "{a} · {b}");
            }
        }
        for w in fr.windows(2) {
            assert_eq!(cios_r(&w[0], &w[1]), w[0] * w[1]);
        }
    }

    /// The branch-free additions and subtractions (the wasm32 MSM's, and the
    /// FFT's everywhere) against ark-ff's, on every pair of edge values and on
    /// random ones, in `Fq`, `Fr` and `Fq2`; results fully reduced.
    #[test]
    fn add_sub_match_ark_ff() {
        let edges = edge_values();
        let mut rng = ChaCha20Rng::seed_from_u64(21);
        let random: Vec<Fq> = (0..200).map(|_| Fq::rand(&mut rng)).collect();
        let all: Vec<Fq> = edges.iter().chain(&random).copied().collect();
        for a in &all {
            for b in &edges {
                for (x, y) in [(a, b), (b, a)] {
                    assert_eq!(fq_add(x, y), *x + y, "{x} + {y}");
                    assert_eq!(fq_sub(x, y), *x - y, "{x} − {y}");
                    assert!(fq_add(x, y).0 < Fq::MODULUS && fq_sub(x, y).0 < Fq::MODULUS);
                }
            }
        }
        let fr = fr_values(&mut rng, 200);
        for a in &fr {
            for b in &fr[..5] {
                for (x, y) in [(a, b), (b, a)] {
                    assert_eq!(fr_add(x, y), *x + y, "{x} + {y}");
                    assert_eq!(fr_sub(x, y), *x - y, "{x} − {y}");
                    assert!(fr_add(x, y).0 < Fr::MODULUS && fr_sub(x, y).0 < Fr::MODULUS);
                }
            }
        }
        for w in all.windows(4) {
            let (a, b) = (Fq2::new(w[0], w[1]), Fq2::new(w[2], w[3]));
            assert_eq!(fq2_add(&a, &b), a + b);
            assert_eq!(fq2_sub(&a, &b), a - b);
            assert_eq!(fq2_mul(&a, &b), a * b);
            assert_eq!(fq2_square(&a), a.square());
        }
    }

    #[test]
    fn fr_mul_matches_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(15);
        let r = Fr::MODULUS.0;
        let edges = [
            Fr::zero(),
            Fr::from(1u64),
            -Fr::from(1u64),
            -Fr::from(2u64),
            Fr::new_unchecked(BigInt([1, 0, 0, 0])),
            Fr::new_unchecked(BigInt([r[0] - 1, r[1], r[2], r[3]])),
            Fr::new_unchecked(BigInt([
                u64::MAX,
                u64::MAX,
                u64::MAX,
                0x2fff_ffff_ffff_ffff,
            ])),
        ];
        for a in &edges {
            for b in &edges {
                assert_eq!(fr_mul(a, b), *a * b, "{a} · {b}");
            }
        }
        for _ in 0..1000 {
            let (a, b) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
            assert_eq!(fr_mul(&a, &b), a * b);
        }
    }

    #[test]
    fn fq2_matches_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(10);
        let edges = edge_values();
        let mut values: Vec<Fq2> = (0..200).map(|_| Fq2::rand(&mut rng)).collect();
        for (i, e) in edges.iter().enumerate() {
            values.push(Fq2::new(*e, edges[(i + 3) % edges.len()]));
            values.push(Fq2::new(*e, Fq::zero()));
            values.push(Fq2::new(Fq::zero(), *e));
        }
        for (i, a) in values.iter().enumerate() {
            let b = &values[(i * 7 + 1) % values.len()];
            assert_eq!(fq2_mul(a, b), *a * b, "{a} · {b}");
            assert_eq!(fq2_square(a), a.square(), "{a}²");
        }
        // every pair of edge-valued elements
        let edge2: Vec<Fq2> = edges
            .iter()
            .flat_map(|x| edges.iter().map(move |y| Fq2::new(*x, *y)))
            .collect();
        for a in &edge2 {
            for b in &edge2 {
                let got = fq2_mul(a, b);
                assert_eq!(got, *a * b, "{a} · {b}");
                assert!(got.c0.0 < Fq::MODULUS && got.c1.0 < Fq::MODULUS);
            }
        }
    }

    #[test]
    fn msm_field_matches_ark_ff() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        for _ in 0..100 {
            let (a, b) = (Fq::rand(&mut rng), Fq::rand(&mut rng));
            assert_eq!(a.mul_msm(&b), a * b);
            assert_eq!(a.square_msm(), a.square());
            let (a, b) = (Fq2::rand(&mut rng), Fq2::rand(&mut rng));
            assert_eq!(a.mul_msm(&b), a * b);
            assert_eq!(a.square_msm(), a.square());
        }
    }

    /// Sums of random, equal, opposite and zero points, with both
    /// additions of [`jacobian`], equal to ark-ec's (G1 and G2).
    fn jacobian_matches_ark_ec<P: SWCurveConfig>(seed: u64)
    where
        P::BaseField: MsmField,
    {
        use ark_ec::{CurveGroup, PrimeGroup};
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let g = Projective::<P>::generator();
        let mut points: Vec<Projective<P>> = (0..24)
            .map(|_| g * P::ScalarField::rand(&mut rng))
            .collect();
        points.push(Projective::zero());
        let p0 = points[0];
        points.extend([p0, -p0, p0.double(), p0 * P::ScalarField::from(2u64)]);
        for (k, a) in points.iter().enumerate() {
            for b in &points {
                let mut got = *a;
                jacobian::add_projective(&mut got, b);
                assert_eq!(got, *a + b, "projective, point {k}");
                let mut got = *a;
                jacobian::add_affine(&mut got, &b.into_affine());
                assert_eq!(got, *a + b.into_affine(), "mixed, point {k}");
            }
            let mut got = *a;
            jacobian::double(&mut got);
            assert_eq!(got, a.double());
        }
        // a running sum as the bucket reduction does it
        let (mut running, mut acc) = (Projective::<P>::zero(), Projective::<P>::zero());
        let (mut running_ark, mut acc_ark) = (running, acc);
        for b in &points {
            add_affine(&mut running, &b.into_affine());
            add_projective(&mut acc, &running);
            running_ark += b.into_affine();
            acc_ark += running_ark;
        }
        assert_eq!(acc, acc_ark);
    }

    #[test]
    fn jacobian_matches_ark_ec_g1() {
        jacobian_matches_ark_ec::<ark_bn254::g1::Config>(13);
    }

    #[test]
    fn jacobian_matches_ark_ec_g2() {
        jacobian_matches_ark_ec::<ark_bn254::g2::Config>(14);
    }
}
