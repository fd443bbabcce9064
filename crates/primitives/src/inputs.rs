//! Deterministic inputs shared by every implementation of a case: BN254
//! points and scalars from a seeded ChaCha20 stream, made in parallel chunks.

use ark_bn254::{Fr, G1Affine, G2Affine};
use ark_ec::{short_weierstrass::SWCurveConfig, CurveGroup, PrimeGroup};
use ark_ff::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;

/// Points per chunk: each chunk starts at a random multiple of the
/// generator and walks by a random step (one addition per point), so that
/// `2^22` points cost seconds, not one scalar multiplication each.
const CHUNK: usize = 1 << 12;

fn rng(seed: u64, chunk: usize) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed ^ (chunk as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `n` pseudo-random points of a short Weierstrass group (affine,
/// never the identity with overwhelming probability).
pub fn points<P: SWCurveConfig>(n: usize, seed: u64) -> Vec<ark_ec::short_weierstrass::Affine<P>>
where
    P::ScalarField: UniformRand,
{
    let chunks: Vec<usize> = (0..n.div_ceil(CHUNK)).collect();
    chunks
        .par_iter()
        .flat_map_iter(|&c| {
            let mut r = rng(seed, c);
            let g = ark_ec::short_weierstrass::Projective::<P>::generator();
            let mut p = g * P::ScalarField::rand(&mut r);
            let step = g * P::ScalarField::rand(&mut r);
            let len = CHUNK.min(n - c * CHUNK);
            let mut row = Vec::with_capacity(len);
            for _ in 0..len {
                row.push(p);
                p += step;
            }
            ark_ec::short_weierstrass::Projective::normalize_batch(&row)
        })
        .collect()
}

/// `n` BN254 G1 points.
pub fn g1(n: usize, seed: u64) -> Vec<G1Affine> {
    points::<ark_bn254::g1::Config>(n, seed)
}

/// `n` BN254 G2 points.
pub fn g2(n: usize, seed: u64) -> Vec<G2Affine> {
    points::<ark_bn254::g2::Config>(n, seed)
}

/// `n` uniformly random scalars of BN254's Fr.
pub fn scalars(n: usize, seed: u64) -> Vec<Fr> {
    let chunks: Vec<usize> = (0..n.div_ceil(CHUNK)).collect();
    chunks
        .par_iter()
        .flat_map_iter(|&c| {
            let mut r = rng(seed ^ 0x5ca1a5, c);
            let len = CHUNK.min(n - c * CHUNK);
            (0..len).map(move |_| Fr::rand(&mut r))
        })
        .collect()
}
