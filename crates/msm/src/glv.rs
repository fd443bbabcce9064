//! The GLV scalar split: `k·P = k₁·P + k₂·φ(P)` with `|k₁|, |k₂| < 2^129`.
//!
//! BN254's G1 and G2 have an endomorphism `φ(x, y) = (ω·x, y)`, `ω` a
//! cube root of unity in `Fq`, which acts on the prime-order group as
//! multiplication by a cube root of unity `λ` mod `r` (R. P. Gallant,
//! R. J. Lambert, S. A. Vanstone, "Faster point multiplication on elliptic
//! curves with efficient endomorphisms", CRYPTO 2001). A scalar `k` is
//! split as `k ≡ k₁ + λ·k₂ (mod r)` by Babai's rounding in the lattice
//! `{(a, b) : a + λ·b ≡ 0}`, whose short basis `N = [[n₁₁, n₁₂], [n₂₁, n₂₂]]`
//! has entries of at most 127 bits: `β = round((k·n₂₂, −k·n₁₂) / r)`,
//! `(k₁, k₂) = (k, 0) − β·N`. A fixed-base table over `P` then serves `φ(P)`
//! too (one multiplication per point, [`crate::table`]), and the scalars it
//! adds are half as long: half the bucket passes of a compact table for the
//! same bytes.
//!
//! The basis, `λ` and `φ` are arkworks' ([`GLVConfig`]: the constants are
//! checked here against each other, `φ(P) = λ·P` and `k₁ + λ·k₂ = k`).
//! Written here rather than calling `GLVConfig::scalar_decomposition`
//! because that one rounds with heap-allocated big integers (microseconds
//! a scalar, as much as the additions it saves on a few thousand bases);
//! this one rounds as gnark-crypto's `SplitScalar` does, with the
//! precomputed `g = round(2^256·n/r)` and the top limbs of `k·g`, and the
//! rest modulo `2^256` (the halves are small, so two's complement holds
//! them). The rounding can be off by
//! one, which keeps
//! `k₁ + λ·k₂ ≡ k` exact (any lattice vector may be subtracted) and the
//! halves below `1.5·(|n₁₁| + |n₂₁|) < 2^128.2`: [`HALF_BITS`].

use ark_bn254::Fr;
use ark_ec::scalar_mul::glv::GLVConfig;
use ark_ff::PrimeField;
use num_bigint::BigUint;

use crate::table::Scalar;

/// Bits of a half `|kᵢ|` of a split scalar: at most 129.
pub const HALF_BITS: usize = 129;

/// A precomputed split for one curve's endomorphism (its basis and `λ`).
#[derive(Clone, Debug)]
pub struct GlvSplit {
    /// `round(2^256·n₂₂/r)` and `round(2^256·(−n₁₂)/r)`: sign (negative)
    /// and magnitude, three limbs (`< 2^192`).
    g: [(bool, [u64; 3]); 2],
    /// `n₁₁, n₁₂, n₂₁, n₂₂`: sign (negative) and magnitude (`< 2^128`).
    n: [(bool, u128); 4],
}

/// An integer modulo `2^256`, four limbs, in two's complement.
type Low = [u64; 4];

/// One half of a split scalar: whether it is negative, and its magnitude.
pub type Half = (bool, Scalar);

impl GlvSplit {
    /// The split for curve `P`'s endomorphism.
    pub fn new<P: GLVConfig<ScalarField = Fr>>() -> Self {
        let r = BigUint::from(Fr::MODULUS);
        let coeff = |i: usize| {
            let (positive, v) = P::SCALAR_DECOMP_COEFFS[i];
            (!positive, BigUint::from(v))
        };
        let n = [0, 1, 2, 3].map(|i| {
            let (neg, v) = coeff(i);
            let d = v.to_u64_digits();
            assert!(d.len() <= 2, "GLV basis entries fit 127 bits");
            let limb = |j: usize| u128::from(d.get(j).copied().unwrap_or(0));
            (neg, limb(0) | limb(1) << 64)
        });
        let g = |(neg, v): (bool, BigUint)| {
            // round(2^256·v / r)
            let q: BigUint = ((v << 257u32) / &r + 1u32) >> 1u32;
            let d = q.to_u64_digits();
            assert!(d.len() <= 3, "GLV basis entries fit 127 bits");
            let mut limbs = [0u64; 3];
            limbs[..d.len()].copy_from_slice(&d);
            (neg, limbs)
        };
        let (n12_neg, n12) = coeff(1);
        Self {
            g: [g(coeff(3)), g((!n12_neg, n12))],
            n,
        }
    }

    /// `k = k₁ + λ·k₂ (mod r)`, `|kᵢ| < 2^HALF_BITS`. A scalar below
    /// `2^128` (a witness's bits and small values) is its own first half.
    pub fn split(&self, k: &Scalar) -> [Half; 2] {
        let l = k.as_ref();
        if l[2] == 0 && l[3] == 0 {
            return [(false, *k), (false, Scalar::from(0u64))];
        }
        let [b1, b2] = self.g.map(|(neg, g)| (neg, round_mul_hi(l, &g)));
        let [n11, n12, n21, n22] = self.n;
        // (k₁, k₂) = (k, 0) − β·N, exact integers below 2^130 in magnitude
        let k1 = sub(
            &sub(&[l[0], l[1], l[2], l[3]], &term(b1, n11)),
            &term(b2, n21),
        );
        let k2 = sub(&sub(&[0; 4], &term(b1, n12)), &term(b2, n22));
        [signed(k1), signed(k2)]
    }
}

/// `±a·b mod 2^256` for signed magnitudes `a`, `b < 2^128`.
fn term((a_neg, a): (bool, u128), (b_neg, b): (bool, u128)) -> Low {
    let mut p = [0u64; 4];
    mul_wide(
        &[a as u64, (a >> 64) as u64],
        &[b as u64, (b >> 64) as u64],
        &mut p,
    );
    if a_neg != b_neg {
        sub(&[0; 4], &p)
    } else {
        p
    }
}

/// `a − b mod 2^256`.
fn sub(a: &Low, b: &Low) -> Low {
    crate::field::sub_borrow(a, b).0
}

/// The schoolbook product of `a` and `b` into `out` (`a.len() + b.len()`
/// limbs).
fn mul_wide(a: &[u64], b: &[u64], out: &mut [u64]) {
    out.fill(0);
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = u128::from(x) * u128::from(y) + u128::from(out[i + j]) + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + b.len()] = carry as u64;
    }
}

/// `round(k·g / 2^256)` for `k < 2^256` and `g < 2^192`: the limbs 4 and 5
/// of the 448-bit product (the result is below `2^128` for the split's
/// `k < r`, `g < 2^130`), rounded by bit 255.
fn round_mul_hi(k: &[u64], g: &[u64; 3]) -> u128 {
    let mut p = [0u64; 7];
    mul_wide(k, g, &mut p);
    let hi = u128::from(p[4]) | u128::from(p[5]) << 64;
    hi + u128::from(p[3] >> 63)
}

/// A small integer held modulo `2^192` as a sign and a magnitude.
fn signed(x: Low) -> Half {
    let neg = x[3] >> 63 == 1;
    (neg, Scalar::new(if neg { sub(&[0; 4], &x) } else { x }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{g1, g2, G1Projective, G2Projective};
    use ark_ec::{short_weierstrass::Projective, CurveGroup, PrimeGroup};
    use ark_ff::BigInteger;
    use ark_ff::{Field, UniformRand};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Whether a half fits [`HALF_BITS`].
    fn fits(h: &Half) -> bool {
        h.1.num_bits() as usize <= HALF_BITS
    }

    fn value(h: &Half) -> Fr {
        let x = Fr::from_bigint(h.1).expect("below r");
        if h.0 {
            -x
        } else {
            x
        }
    }

    /// Scalars where a rounding could go wrong: the ends of the range, the
    /// powers of two around the halves' size, `λ` and its neighbours, `r/2`.
    fn edges<P: GLVConfig<ScalarField = Fr>>() -> Vec<Fr> {
        let mut v = vec![
            Fr::from(0u64),
            Fr::ONE,
            -Fr::ONE,
            P::LAMBDA,
            -P::LAMBDA,
            P::LAMBDA.square(),
        ];
        v.extend([P::LAMBDA + Fr::ONE, P::LAMBDA - Fr::ONE]);
        for e in [63u64, 64, 127, 128, 129, 191, 192, 253] {
            let p = Fr::from(2u64).pow([e]);
            v.extend([p, p - Fr::ONE, -p]);
        }
        v.push(Fr::from_bigint(Fr::MODULUS_MINUS_ONE_DIV_TWO).unwrap());
        v.push(Fr::from_bigint(Fr::MODULUS_MINUS_ONE_DIV_TWO).unwrap() + Fr::ONE);
        v
    }

    fn check_curve<P: GLVConfig<ScalarField = Fr>>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        // arkworks' endomorphism is multiplication by its λ (λ³ = 1)
        assert_eq!(P::LAMBDA.pow([3]), Fr::ONE);
        for _ in 0..4 {
            let p = Projective::<P>::rand(&mut rng).into_affine();
            assert_eq!(P::endomorphism_affine(&p), (p * P::LAMBDA).into_affine());
        }
        let split = GlvSplit::new::<P>();
        let mut ks = edges::<P>();
        ks.extend((0..2000).map(|_| Fr::rand(&mut rng)));
        for k in ks {
            let [h1, h2] = split.split(&k.into_bigint());
            assert!(fits(&h1) && fits(&h2), "{k}: {h1:?} {h2:?}");
            assert_eq!(value(&h1) + P::LAMBDA * value(&h2), k, "{k}");
        }
    }

    /// The split is exact and short for G1's and G2's endomorphisms.
    #[test]
    fn split_is_exact_and_short() {
        check_curve::<g1::Config>(1);
        check_curve::<g2::Config>(2);
        // and the two groups' points with it, through arkworks' own GLV
        let k = Fr::from(12345u64).pow([9]);
        let g = G1Projective::generator();
        assert_eq!(g1::Config::glv_mul_projective(g, k), g * k);
        let h = G2Projective::generator();
        assert_eq!(g2::Config::glv_mul_projective(h, k), h * k);
    }

    /// Most halves are about 127 bits (the basis' size), none over 129.
    #[test]
    fn halves_are_about_half_a_scalar() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let split = GlvSplit::new::<g1::Config>();
        let most = (0..1000)
            .flat_map(|_| split.split(&Fr::rand(&mut rng).into_bigint()))
            .map(|h| h.1.num_bits())
            .max()
            .unwrap();
        assert!((126..=HALF_BITS as u32).contains(&most), "{most}");
    }
}
