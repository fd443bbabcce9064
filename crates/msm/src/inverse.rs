//! Field inversion for the batched affine additions: Bernstein–Yang's
//! divsteps instead of ark-ff's binary extended Euclid, and the batches'
//! simultaneous inversions (Montgomery's trick; `Fq2`'s through the norms,
//! in `Fq`).
//!
//! **Why.** A batch of affine additions shares one inversion (Montgomery's
//! trick, `buckets`), so its cost is spread over the batch. The
//! Halo2 prover's commitments are MSMs of a few hundred bases: their bucket
//! sets are small, so their batches are (at most a quarter of the buckets),
//! and `perf` of a Halo2 spend proof showed ark-ff's inversion (Guajardo et
//! al.'s binary algorithm, one bit a step) taking more of the commitments'
//! time than the additions themselves. D. J. Bernstein and B.-Y. Yang, "Fast
//! constant-time gcd computation and modular inversion" (TCHES 2019), take
//! 62 divsteps at a time as one 2×2 matrix of machine words; halo2curves
//! implements it ([`BYInverter`], also behind its own BN254 `invert`), and
//! this module feeds it ark-ff's elements.
//!
//! **Representation.** ark-ff's BN254 elements are Montgomery residues with
//! `R = 2^256`, the same as halo2curves'. The inverter, made with the
//! adjuster `R²`, maps `a·R` to `(a·R)⁻¹·R² = a⁻¹·R`: ark-ff's limbs go in
//! and come out with no conversion. The tests check every result against
//! ark-ff's own inversion.

use ark_bn254::{Fq, Fq2, FqConfig};
use ark_ff::{BigInt, Field, MontConfig, One};
use halo2curves_axiom::ff_ext::inverse::BYInverter;

use crate::field::MsmField;

/// The inverter for BN254's base field (6 × 62-bit signed limbs: the
/// modulus and the values stay below `2^(62·6 − 64)`).
const FQ_INVERTER: BYInverter<6> = BYInverter::<6>::new(
    &<FqConfig as MontConfig<4>>::MODULUS.0,
    &<FqConfig as MontConfig<4>>::R2.0,
);

/// The inversion the MSM's batches use: the same result as
/// [`Field::inverse`], faster where the field has a divstep inverter.
pub trait BatchInverse: Field {
    /// `self⁻¹`, or `None` for zero.
    fn inverse_batch(&self) -> Option<Self>;
}

impl BatchInverse for Fq {
    #[inline]
    fn inverse_batch(&self) -> Option<Self> {
        let limbs: [u64; 4] = FQ_INVERTER.invert(&self.0 .0)?;
        Some(Fq::new_unchecked(BigInt(limbs)))
    }
}

impl BatchInverse for Fq2 {
    /// `(a + b·u)⁻¹ = (a − b·u) / (a² + b²)` (`u² = −1`): one base-field
    /// inversion.
    fn inverse_batch(&self) -> Option<Self> {
        let norm = self.c0.square() + self.c1.square();
        let inv = norm.inverse_batch()?;
        Some(Fq2::new(self.c0 * inv, -(self.c1 * inv)))
    }
}

/// Inverts every element of `v` (all non-zero) with one [`BatchInverse`]
/// inversion (Montgomery's trick), on this thread: for the vector kernels'
/// sixteen lanes. `ark_ff::batch_inversion` with its `parallel` feature cuts
/// even sixteen elements into one chunk per thread of the pool, each with
/// its own inversion, and hands the chunks to the pool: from a worker in the
/// middle of an MSM that is up to sixteen inversions instead of one, and
/// other workers pulled into every batch.
///
/// # Panics
/// If an element is zero (the kernels' denominators never are).
pub fn invert_lanes<F: BatchInverse>(v: &mut [F]) {
    let mut prefix = [F::one(); 16];
    assert!(v.len() <= prefix.len(), "at most sixteen lanes");
    let mut acc = F::one();
    for (p, x) in prefix.iter_mut().zip(v.iter()) {
        *p = acc;
        acc *= x;
    }
    let mut inv = acc.inverse_batch().expect("non-zero lanes");
    for (x, p) in v.iter_mut().zip(prefix).rev() {
        let next = inv * *x;
        *x = inv * p;
        inv = next;
    }
}

/// Inverts every element of `v` (all non-zero) with one field inversion
/// (Montgomery's trick), serially: ark-ff's `batch_inversion` splits even
/// short slices over rayon threads, which costs more than it saves here.
/// The products run in two interleaved chains (even and odd positions), so
/// that two multiplications are in flight instead of one dependent chain.
pub(crate) fn batch_invert<F: MsmField>(v: &mut [F], prefix: &mut Vec<F>) {
    prefix.clear();
    let (mut acc0, mut acc1) = (F::one(), F::one());
    let mut pairs = v.chunks_exact(2);
    for pair in pairs.by_ref() {
        prefix.push(acc0);
        prefix.push(acc1);
        acc0 = acc0.mul_msm(&pair[0]);
        acc1 = acc1.mul_msm(&pair[1]);
    }
    if let [x] = pairs.remainder() {
        prefix.push(acc0);
        acc0 = acc0.mul_msm(x);
    }
    let inv = acc0
        .mul_msm(&acc1)
        .inverse_batch()
        .expect("non-zero denominators");
    // inverses of the two chains' products
    let (mut inv0, mut inv1) = (inv.mul_msm(&acc1), inv.mul_msm(&acc0));
    let odd = v.len() % 2 == 1;
    let n = v.len();
    if odd {
        let x = &mut v[n - 1];
        let next = inv0.mul_msm(x);
        *x = inv0.mul_msm(&prefix[n - 1]);
        inv0 = next;
    }
    let even_len = n - usize::from(odd);
    for (pair, before) in v[..even_len]
        .chunks_exact_mut(2)
        .zip(prefix[..even_len].chunks_exact(2))
        .rev()
    {
        let next0 = inv0.mul_msm(&pair[0]);
        let next1 = inv1.mul_msm(&pair[1]);
        pair[0] = inv0.mul_msm(&before[0]);
        pair[1] = inv1.mul_msm(&before[1]);
        inv0 = next0;
        inv1 = next1;
    }
}

/// [`batch_invert`] for `Fq2` through the norms: `(a + b·u)⁻¹ =
/// (a − b·u) / (a² + b²)` (`u² = −1`), so the prefix products and the one
/// inversion run in `Fq`. Per element two `Fq` squarings, five `Fq`
/// products and one addition, against three `Fq2` products (nine `Fq`
/// ones) for the prefix chain in `Fq2`; the same inverses.
pub(crate) fn batch_invert_fq2(v: &mut [Fq2], prefix: &mut Vec<Fq2>) {
    // prefix[k] = (product of the norms before k, norm k)
    prefix.clear();
    let mut acc = Fq::one();
    for x in v.iter() {
        let norm = x.c0.square_msm().add_msm(&x.c1.square_msm());
        prefix.push(Fq2::new(acc, norm));
        acc = acc.mul_msm(&norm);
    }
    let mut inv = acc.inverse_batch().expect("non-zero denominators");
    for (x, p) in v.iter_mut().zip(prefix.iter()).rev() {
        let norm_inv = inv.mul_msm(&p.c0);
        inv = inv.mul_msm(&p.c1);
        *x = Fq2::new(x.c0.mul_msm(&norm_inv), -x.c1.mul_msm(&norm_inv));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::{One, UniformRand, Zero};
    use rand::SeedableRng;

    #[test]
    fn fq_inverse_matches_ark_ff() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let edge = [Fq::one(), -Fq::one(), Fq::from(2u64), Fq::from(u64::MAX)];
        for x in edge
            .into_iter()
            .chain((0..2000).map(|_| Fq::rand(&mut rng)))
        {
            assert_eq!(x.inverse_batch(), x.inverse(), "{x}");
        }
        assert_eq!(Fq::zero().inverse_batch(), None);
    }

    #[test]
    fn fq2_inverse_matches_ark_ff() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let edge = [
            Fq2::one(),
            Fq2::new(Fq::zero(), Fq::one()),
            Fq2::new(Fq::one(), Fq::one()),
        ];
        for x in edge
            .into_iter()
            .chain((0..500).map(|_| Fq2::rand(&mut rng)))
        {
            assert_eq!(x.inverse_batch(), x.inverse(), "{x}");
        }
        assert_eq!(Fq2::zero().inverse_batch(), None);
    }

    #[test]
    fn batches_invert_as_ark_ff() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
        for n in [1, 2, 3, 16, 101] {
            let v: Vec<Fq> = (0..n).map(|_| Fq::rand(&mut rng)).collect();
            let mut got = v.clone();
            batch_invert(&mut got, &mut Vec::new());
            let want: Vec<Fq> = v.iter().map(|x| x.inverse().expect("non-zero")).collect();
            assert_eq!(got, want, "Fq, {n} elements");
            // u and 1 + u: one norm 1, one norm 2; a purely real element
            let edge = [
                Fq2::new(Fq::zero(), Fq::one()),
                Fq2::new(Fq::one(), Fq::one()),
                Fq2::new(-Fq::one(), Fq::zero()),
            ];
            let v: Vec<Fq2> = edge
                .into_iter()
                .chain((0..n).map(|_| Fq2::rand(&mut rng)))
                .collect();
            let mut got = v.clone();
            batch_invert_fq2(&mut got, &mut Vec::new());
            let want: Vec<Fq2> = v.iter().map(|x| x.inverse().expect("non-zero")).collect();
            assert_eq!(got, want, "Fq2, {} elements", v.len());
        }
    }

    #[test]
    fn lanes_invert_as_ark_ff() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for n in [1, 2, 7, 16] {
            let v: Vec<Fq2> = (0..n).map(|_| Fq2::rand(&mut rng)).collect();
            let mut got = v.clone();
            invert_lanes(&mut got);
            let want: Vec<Fq2> = v.iter().map(|x| x.inverse().expect("non-zero")).collect();
            assert_eq!(got, want, "{n} lanes");
        }
    }
}
