//! The same values in arkworks' and halo2curves' BN254 types (canonical
//! little-endian encodings), so that every implementation gets the same input
//! and the tests can compare outputs.

use ark_ff::{BigInteger, PrimeField};
use halo2_axiom::halo2curves::{
    bn256,
    ff::{Field, PrimeField as _},
    group::prime::PrimeCurveAffine,
};

fn le32<F: PrimeField>(x: &F) -> [u8; 32] {
    let mut out = [0u8; 32];
    out.copy_from_slice(&x.into_bigint().to_bytes_le());
    out
}

/// arkworks Fr → halo2curves Fr.
pub fn fr(x: &ark_bn254::Fr) -> bn256::Fr {
    bn256::Fr::from_repr(le32(x)).expect("canonical")
}

/// arkworks Fq → halo2curves Fq.
pub fn fq(x: &ark_bn254::Fq) -> bn256::Fq {
    bn256::Fq::from_repr(le32(x)).expect("canonical")
}

/// arkworks Fq2 → halo2curves Fq2 (both `c0 + c1·u`, `u² = −1`).
pub fn fq2(x: &ark_bn254::Fq2) -> bn256::Fq2 {
    bn256::Fq2 {
        c0: fq(&x.c0),
        c1: fq(&x.c1),
    }
}

/// arkworks G1 affine → halo2curves G1 affine.
pub fn g1(p: &ark_bn254::G1Affine) -> bn256::G1Affine {
    if p.infinity {
        return bn256::G1Affine::identity();
    }
    bn256::G1Affine {
        x: fq(&p.x),
        y: fq(&p.y),
    }
}

/// arkworks G2 affine → halo2curves G2 affine.
pub fn g2(p: &ark_bn254::G2Affine) -> bn256::G2Affine {
    if p.infinity {
        return bn256::G2Affine::identity();
    }
    bn256::G2Affine {
        x: fq2(&p.x),
        y: fq2(&p.y),
    }
}

/// halo2curves Fr → arkworks Fr.
pub fn fr_back(x: &bn256::Fr) -> ark_bn254::Fr {
    ark_bn254::Fr::from_le_bytes_mod_order(x.to_repr().as_ref())
}

/// Whether a halo2curves field element is zero (for tests).
pub fn is_zero<F: Field>(x: &F) -> bool {
    bool::from(x.is_zero())
}
