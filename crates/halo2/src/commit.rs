//! The prover's KZG commitments through zkbench's fixed-base MSM.
//!
//! **Why.** halo2-axiom commits to every advice, lookup and permutation
//! column and to every quotient piece with halo2curves' `msm_best`: Jacobian
//! buckets, a fresh bucket set per window, and rayon tasks per window. At
//! the sizes of zkbench's circuits (`k` = 8 to 12) those MSMs were about half
//! of the Halo2 prover's CPU time (`perf` of the spend proof on 1 and 2
//! threads), and their many small parallel regions scale badly with threads.
//! halo2-axiom has no hook for another MSM, but its `create_proof` is generic
//! over the commitment scheme: [`FastKzg`] is its KZG on BN254 with the same
//! SRS — the same commitments, so the same transcript and **the same proof
//! bytes** (tested) — whose `commit` and `commit_lagrange` are MSMs over
//! window tables of the SRS's monomial and Lagrange bases
//! ([`zkbench_msm::FixedBaseTable`]: batched affine buckets, one bucket set,
//! the work cut for the thread pool), built once per key. The opening proof
//! (SHPLONK, two MSMs) stays halo2-axiom's own ([`FastShplonk`] delegates).
//!
//! Reference: A. Kate, G. M. Zaverucha, I. Goldberg, "Constant-size
//! commitments to polynomials and their applications", ASIACRYPT 2010 (KZG);
//! the MSM's references are in `zkbench_msm`.

use std::fmt;
use std::io;
use std::sync::Arc;

use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInt, PrimeField as _};
use halo2_axiom::{
    arithmetic::g_to_lagrange,
    halo2curves::{
        bn256::{Bn256, Fq, Fr, G1Affine, G1},
        ff::PrimeField,
        group::{prime::PrimeCurveAffine, Group},
        serde::SerdeObject,
        CurveAffine,
    },
    poly::{
        commitment::{Blind, CommitmentScheme, Params, ParamsProver, Prover},
        kzg::{commitment::ParamsKZG, msm::MSMKZG, multiopen::ProverSHPLONK},
        Coeff, LagrangeCoeff, Polynomial, ProverQuery,
    },
    transcript::{EncodedChallenge, TranscriptWrite},
    SerdeFormat,
};
use rand::RngCore;
use zkbench_msm::{FixedBaseTable, Scalar};

/// BN254 G1 as the MSM kernel stores it.
type ArkG1 = ark_bn254::g1::Config;

/// halo2-axiom's KZG on BN254 with [`FastParams`] as the prover's
/// parameters (the verifier's are halo2-axiom's own [`ParamsKZG`]).
#[derive(Debug)]
pub struct FastKzg;

/// KZG prover parameters: halo2-axiom's [`ParamsKZG`] and window tables of
/// its monomial (`g`) and Lagrange (`g_lagrange`) bases.
#[derive(Clone)]
pub struct FastParams {
    kzg: ParamsKZG<Bn256>,
    g: Arc<FixedBaseTable<ArkG1>>,
    g_lagrange: Arc<FixedBaseTable<ArkG1>>,
}

impl fmt::Debug for FastParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FastParams")
            .field("k", &self.kzg.k())
            .field("window", &self.g.window())
            .finish()
    }
}

impl FastParams {
    /// Tables for `kzg`'s bases (`n` points each).
    pub fn new(kzg: ParamsKZG<Bn256>) -> Self {
        let g: Vec<G1Affine> = kzg.get_g().to_vec();
        let lagrange = lagrange_bases(&kzg);
        let table = |bases: &[G1Affine]| {
            let ark: Vec<ark_bn254::G1Affine> = bases.iter().map(g1_to_ark).collect();
            // one bucket set: the pieces share its reduction by bucket ranges
            Arc::new(FixedBaseTable::new(&ark, 1))
        };
        Self {
            g: table(&g),
            g_lagrange: table(&lagrange),
            kzg,
        }
    }
}

/// The Lagrange bases `[L_i(s)]₁` that `kzg` keeps: read back from its
/// serialisation (`k`, `g`, then `g_lagrange`, raw coordinates), which
/// halo2-axiom does not expose otherwise. Computing them again from `g`
/// (`g_to_lagrange`, an FFT over the group: a scalar multiplication per
/// butterfly) cost about 100 ms at k = 8, more than a proof.
fn lagrange_bases(kzg: &ParamsKZG<Bn256>) -> Vec<G1Affine> {
    // raw G1 and G2 points: two and four 32-byte coordinates
    const G1: usize = 64;
    const G2: usize = 128;
    let n = kzg.n() as usize;
    let mut bytes = Vec::new();
    kzg.write_custom(&mut bytes, SerdeFormat::RawBytesUnchecked)
        .expect("writing to memory");
    match bytes.get(4 + n * G1..4 + 2 * n * G1) {
        Some(raw) if bytes.len() == 4 + 2 * n * G1 + 2 * G2 => raw
            .chunks_exact(G1)
            .map(|mut b| G1Affine::read_raw_unchecked(&mut b))
            .collect(),
        // not the layout above: compute them
        _ => g_to_lagrange(kzg.get_g().iter().map(|p| p.to_curve()).collect(), kzg.k()),
    }
}

/// `Σ scalars[i]·bases[i]` over the first `scalars.len()` of the `n` bases
/// of `table` (the rest with scalar zero).
fn msm(table: &FixedBaseTable<ArkG1>, n: usize, scalars: &[Fr]) -> G1 {
    assert!(
        scalars.len() <= n,
        "{} scalars for {n} bases",
        scalars.len()
    );
    let mut big: Vec<Scalar> = vec![BigInt::zero(); n];
    for (b, s) in big.iter_mut().zip(scalars) {
        *b = fr_to_bigint(s);
    }
    g1_from_ark(&table.msm(&big).into_affine())
}

/// A halo2curves scalar as the canonical integer the MSM reads digits from.
fn fr_to_bigint(s: &Fr) -> Scalar {
    let repr = s.to_repr();
    let mut limbs = [0u64; 4];
    for (l, b) in limbs.iter_mut().zip(repr.as_ref().chunks_exact(8)) {
        *l = u64::from_le_bytes(b.try_into().expect("8 bytes"));
    }
    BigInt(limbs)
}

/// A halo2curves G1 point as arkworks' (same curve, canonical coordinates).
fn g1_to_ark(p: &G1Affine) -> ark_bn254::G1Affine {
    let Some(c) = Option::from(p.coordinates()) else {
        return ark_bn254::G1Affine::zero();
    };
    let c: halo2_axiom::halo2curves::Coordinates<G1Affine> = c;
    let fq = |x: &Fq| ark_bn254::Fq::from_le_bytes_mod_order(x.to_repr().as_ref());
    ark_bn254::G1Affine::new_unchecked(fq(c.x()), fq(c.y()))
}

/// An arkworks G1 point as halo2curves'.
fn g1_from_ark(p: &ark_bn254::G1Affine) -> G1 {
    let Some((x, y)) = p.xy() else {
        return G1::identity();
    };
    let fq = |v: ark_bn254::Fq| {
        let mut repr = [0u8; 32];
        for (o, l) in repr.chunks_exact_mut(8).zip(v.into_bigint().0) {
            o.copy_from_slice(&l.to_le_bytes());
        }
        Fq::from_repr(repr).expect("a canonical arkworks coordinate")
    };
    G1Affine::from_xy(fq(x), fq(y))
        .expect("an arkworks point is on the curve")
        .to_curve()
}

impl CommitmentScheme for FastKzg {
    type Scalar = Fr;
    type Curve = G1Affine;
    type ParamsProver = FastParams;
    type ParamsVerifier = ParamsKZG<Bn256>;

    fn new_params(k: u32) -> FastParams {
        FastParams::new(ParamsKZG::<Bn256>::new(k))
    }

    fn read_params<R: io::Read>(reader: &mut R) -> io::Result<FastParams> {
        Ok(FastParams::new(<ParamsKZG<Bn256> as Params<_>>::read(
            reader,
        )?))
    }
}

impl<'params> Params<'params, G1Affine> for FastParams {
    type MSM = MSMKZG<Bn256>;

    fn k(&self) -> u32 {
        self.kzg.k()
    }

    fn n(&self) -> u64 {
        self.kzg.n()
    }

    fn downsize(&mut self, k: u32) {
        let mut kzg = self.kzg.clone();
        kzg.downsize(k);
        *self = FastParams::new(kzg);
    }

    fn empty_msm(&'params self) -> MSMKZG<Bn256> {
        MSMKZG::new()
    }

    fn commit_lagrange(&self, poly: &Polynomial<Fr, LagrangeCoeff>, _: Blind<Fr>) -> G1 {
        msm(&self.g_lagrange, self.kzg.n() as usize, poly)
    }

    fn write<W: io::Write>(&self, writer: &mut W) -> io::Result<()> {
        self.kzg.write(writer)
    }

    fn read<R: io::Read>(reader: &mut R) -> io::Result<Self> {
        FastKzg::read_params(reader)
    }
}

impl<'params> ParamsProver<'params, G1Affine> for FastParams {
    type ParamsVerifier = ParamsKZG<Bn256>;

    fn new(k: u32) -> Self {
        FastKzg::new_params(k)
    }

    fn commit(&self, poly: &Polynomial<Fr, Coeff>, _: Blind<Fr>) -> G1 {
        msm(&self.g, self.kzg.n() as usize, poly)
    }

    fn get_g(&self) -> &[G1Affine] {
        self.kzg.get_g()
    }

    fn verifier_params(&'params self) -> &'params ParamsKZG<Bn256> {
        &self.kzg
    }
}

/// halo2-axiom's SHPLONK multi-opening prover over [`FastParams`]'s KZG
/// parameters (its two MSMs are halo2curves').
pub struct FastShplonk<'params>(ProverSHPLONK<'params, Bn256>);

impl<'params> Prover<'params, FastKzg> for FastShplonk<'params> {
    const QUERY_INSTANCE: bool = <ProverSHPLONK<'params, Bn256> as Prover<
        'params,
        halo2_axiom::poly::kzg::commitment::KZGCommitmentScheme<Bn256>,
    >>::QUERY_INSTANCE;

    fn new(params: &'params FastParams) -> Self {
        FastShplonk(ProverSHPLONK::new(&params.kzg))
    }

    fn create_proof<'com, E, T, R, I>(
        &self,
        rng: R,
        transcript: &mut T,
        queries: I,
    ) -> io::Result<()>
    where
        E: EncodedChallenge<G1Affine>,
        T: TranscriptWrite<G1Affine, E>,
        R: RngCore,
        I: IntoIterator<Item = ProverQuery<'com, G1Affine>> + Clone,
    {
        self.0.create_proof(rng, transcript, queries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2_axiom::halo2curves::ff::Field;
    use halo2_axiom::poly::EvaluationDomain;
    use rand::SeedableRng;

    #[test]
    fn lagrange_bases_read_back_equal_the_computed_ones() {
        let kzg = ParamsKZG::<Bn256>::setup(4, rand_chacha::ChaCha20Rng::seed_from_u64(1));
        let computed = g_to_lagrange(kzg.get_g().iter().map(|p| p.to_curve()).collect(), 4);
        assert_eq!(lagrange_bases(&kzg), computed);
    }

    #[test]
    fn commitments_equal_halo2s() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let kzg = ParamsKZG::<Bn256>::setup(5, &mut rng);
        let fast = FastParams::new(kzg.clone());
        let domain = EvaluationDomain::<Fr>::new(1, 5);
        let mut a = domain.empty_lagrange();
        for (i, v) in a.iter_mut().enumerate() {
            // zeros, small values and full-size ones
            *v = match i % 3 {
                0 => Fr::ZERO,
                1 => Fr::from(i as u64),
                _ => Fr::random(&mut rng),
            };
        }
        let b = domain.lagrange_to_coeff(a.clone());
        let blind = Blind::default();
        assert_eq!(
            fast.commit_lagrange(&a, blind),
            kzg.commit_lagrange(&a, blind)
        );
        assert_eq!(fast.commit(&b, blind), kzg.commit(&b, blind));
        assert_eq!(fast.commit(&b, blind), fast.commit_lagrange(&a, blind));
        let zero = domain.empty_lagrange();
        assert_eq!(fast.commit_lagrange(&zero, blind), G1::identity());
    }
}
