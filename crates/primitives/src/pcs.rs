//! Polynomial commitments of halo2-axiom 0.5 (`case.system` = `halo2-axiom`),
//! one polynomial opened at one point, and the [`Pcs`] interface every
//! scheme (these and [`crate::fri`]) offers to the harness:
//!
//! * **KZG on BN254** (`kzg-bn254`): `ParamsKZG<Bn256>`; commitment
//!   `C = [p(τ)]₁` (`ParamsKZG::commit`, one MSM over the SRS); opening: the
//!   quotient `q(X) = (p(X) − p(x))/(X − x)` (halo2-axiom's `kate_division`)
//!   and `W = [q(τ)]₁` (the same MSM); verification: one pairing check
//!   `e(C − [y]₁ + x·W, [1]₂) = e(W, [τ]₂)` with halo2curves. (halo2-axiom's
//!   own multi-open provers cannot be called from outside the crate: the
//!   fields of its `ProverQuery` are crate-private.) The SRS is the powers
//!   `[τⁱ]₁` of a seeded random `τ` (a **test setup**), computed with a
//!   fixed-base table of the generator: the points `ParamsKZG::setup` would
//!   compute, faster; its Lagrange form is not built (nothing here commits
//!   in Lagrange form).
//! * **IPA on Vesta** (`ipa-pasta`): `ParamsIPA<EqAffine>` (transparent:
//!   generators by hash-to-curve); blinded Pedersen commitment (one MSM);
//!   halo2-axiom's inner-product argument (`poly::ipa::commitment::
//!   create_proof`, `k` folding rounds) and its verifier (`verify_proof`,
//!   then the final MSM over the generators: linear in the size).
//!
//! The opening point is drawn from a Blake2b transcript after the
//! commitment, as in a proof; `proof_bytes` is the whole transcript
//! (commitment, claimed evaluation, opening proof).

use std::time::Instant;

use halo2_axiom::{
    arithmetic::{best_multiexp, eval_polynomial, kate_division},
    halo2curves::{
        bn256::{self, Bn256},
        ff::{Field, PrimeField},
        group::{prime::PrimeCurveAffine, Curve, Group},
        pairing::{MillerLoopResult, MultiMillerLoop},
        pasta::{EqAffine, Fp as PastaFp},
    },
    poly::{
        commitment::{Blind, ParamsProver, MSM},
        ipa::{
            commitment::{
                create_proof as ipa_create_proof, verify_proof as ipa_verify_proof, ParamsIPA,
            },
            msm::MSMIPA,
        },
        kzg::commitment::ParamsKZG,
        Coeff, EvaluationDomain, Polynomial,
    },
    transcript::{
        Blake2bRead, Blake2bWrite, Challenge255, EncodedChallenge, Transcript, TranscriptRead,
        TranscriptReadBuffer, TranscriptWrite, TranscriptWriterBuffer,
    },
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkbench_core::{CaseKind, Metrics};

use crate::{Error, Workload};

/// The phases of every commitment scheme.
pub const PHASES: [(CaseKind, &str); 3] = [
    (CaseKind::PcsCommit, "commit"),
    (CaseKind::PcsOpen, "open"),
    (CaseKind::PcsVerify, "verify"),
];

/// `n` random coefficients from a seeded stream, in parallel chunks.
fn coefficients<F: Field>(n: usize, seed: u64) -> Vec<F> {
    const CHUNK: usize = 1 << 12;
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed ^ ((c as u64 + 1) << 20));
            (0..CHUNK.min(n - c * CHUNK)).map(move |_| F::random(&mut rng))
        })
        .collect()
}

/// `[τⁱ]₁` for `i < 2^k`: a fixed-base table of the generator (32 windows
/// of 8 bits) and 32 mixed additions per power.
pub fn kzg_srs(k: u32, tau: bn256::Fr) -> Vec<bn256::G1Affine> {
    let n = 1usize << k;
    let g = bn256::G1::generator();
    // table[j·256 + d] = d·2^(8j)·G
    let mut proj = Vec::with_capacity(32 * 256);
    let mut base = g;
    for _ in 0..32 {
        let mut acc = bn256::G1::identity();
        for _ in 0..256 {
            proj.push(acc);
            acc += base;
        }
        base = acc; // 256·base
    }
    let mut table = vec![bn256::G1Affine::identity(); proj.len()];
    bn256::G1::batch_normalize(&proj, &mut table);
    const CHUNK: usize = 1 << 12;
    let mut out = vec![bn256::G1Affine::identity(); n];
    out.par_chunks_mut(CHUNK).enumerate().for_each(|(c, dst)| {
        let mut power = tau.pow_vartime([(c * CHUNK) as u64]);
        let mut row = Vec::with_capacity(dst.len());
        for _ in 0..dst.len() {
            let repr = power.to_repr();
            let mut acc = bn256::G1::identity();
            for (j, &byte) in repr.as_ref().iter().enumerate() {
                if byte != 0 {
                    acc += table[j * 256 + byte as usize];
                }
            }
            row.push(acc);
            power *= tau;
        }
        bn256::G1::batch_normalize(&row, dst);
    });
    out
}

/// KZG parameters of size `2^k` from a seeded `τ` (test setup).
pub fn kzg_params(k: u32, seed: u64) -> ParamsKZG<Bn256> {
    let tau = bn256::Fr::random(ChaCha20Rng::seed_from_u64(seed));
    let g = kzg_srs(k, tau);
    let g2 = bn256::G2Affine::generator();
    let s_g2 = (g2 * tau).to_affine();
    ParamsKZG::<Bn256>::setup(1, ChaCha20Rng::seed_from_u64(seed)).from_parts(
        k,
        g,
        Some(Vec::new()),
        g2,
        s_g2,
    )
}

/// A polynomial commitment scheme holding one polynomial of `2^k`
/// coefficients: commit, open at a transcript challenge, verify.
pub trait Pcs {
    /// `log2` of the number of coefficients.
    fn log_size(&self) -> u32;
    /// Seconds the setup took (parameters, polynomial): not measured.
    fn setup_s(&self) -> f64;
    /// Commits to the polynomial.
    fn commit(&mut self) -> Result<(), Error>;
    /// Opens the last commitment at a challenge point.
    fn open(&mut self) -> Result<(), Error>;
    /// Verifies the last opening; with `wrong_eval`, against the claimed
    /// evaluation plus one (must be rejected).
    fn check(&self, wrong_eval: bool) -> Result<bool, Error>;
    /// Bytes of the commitment, claimed evaluation and opening proof.
    fn proof_bytes(&self) -> usize;
    /// Parameters of the scheme worth recording (queries, blowup ...).
    fn parameters(&self) -> Metrics {
        Metrics::new()
    }
}

/// A [`Pcs`] as a [`Workload`] with the phases `commit`, `open`, `verify`.
pub struct PcsWorkload<T>(pub T);

impl<T: Pcs> Workload for PcsWorkload<T> {
    fn phases(&self) -> Vec<(CaseKind, &'static str)> {
        PHASES.to_vec()
    }

    fn run(&mut self, i: usize) -> Result<(), Error> {
        match i {
            0 => self.0.commit(),
            1 => self.0.open(),
            _ => match self.0.check(false)? {
                true => Ok(()),
                false => Err(Error::Run("the opening proof did not verify".into())),
            },
        }
    }

    fn items(&self, _: usize) -> u64 {
        1 << self.0.log_size()
    }

    fn metrics(&self, i: usize) -> Metrics {
        let mut m = self.0.parameters();
        m.insert("setup_s".into(), self.0.setup_s());
        if i > 0 {
            m.insert("proof_bytes".into(), self.0.proof_bytes() as f64);
        }
        m
    }
}

type KzgRead<'a> = Blake2bRead<&'a [u8], bn256::G1Affine, Challenge255<bn256::G1Affine>>;
type IpaRead<'a> = Blake2bRead<&'a [u8], EqAffine, Challenge255<EqAffine>>;

/// KZG on BN254 with halo2-axiom's parameters (test setup).
pub struct Kzg {
    k: u32,
    params: ParamsKZG<Bn256>,
    poly: Polynomial<bn256::Fr, Coeff>,
    commitment: bn256::G1Affine,
    proof: Vec<u8>,
    setup_s: f64,
}

impl Kzg {
    /// KZG with a polynomial of `2^k` random coefficients.
    pub fn new(k: u32) -> Result<Self, Error> {
        let t = Instant::now();
        let params = kzg_params(k, 0x6b7a67);
        let poly =
            EvaluationDomain::<bn256::Fr>::new(1, k).coeff_from_vec(coefficients(1 << k, 11));
        Ok(Self {
            k,
            params,
            poly,
            commitment: bn256::G1Affine::identity(),
            proof: Vec::new(),
            setup_s: t.elapsed().as_secs_f64(),
        })
    }
}

fn io(what: &'static str) -> impl Fn(std::io::Error) -> Error {
    move |e| Error::Run(format!("{what}: {e}"))
}

impl Pcs for Kzg {
    fn log_size(&self) -> u32 {
        self.k
    }

    fn setup_s(&self) -> f64 {
        self.setup_s
    }

    fn commit(&mut self) -> Result<(), Error> {
        self.commitment = self.params.commit(&self.poly, Blind::default()).to_affine();
        Ok(())
    }

    fn open(&mut self) -> Result<(), Error> {
        let mut t = Blake2bWrite::<_, bn256::G1Affine, Challenge255<_>>::init(Vec::new());
        t.write_point(self.commitment).map_err(io("opening"))?;
        let x = t.squeeze_challenge().get_scalar();
        let y = eval_polynomial(&self.poly, x);
        t.write_scalar(y).map_err(io("opening"))?;
        let q = kate_division(&self.poly[..], x);
        let w = best_multiexp(&q, &self.params.get_g()[..q.len()]).to_affine();
        t.write_point(w).map_err(io("opening"))?;
        self.proof = t.finalize();
        Ok(())
    }

    fn check(&self, wrong_eval: bool) -> Result<bool, Error> {
        let mut t = KzgRead::init(&self.proof[..]);
        let c = t.read_point().map_err(io("reading the proof"))?;
        let x = t.squeeze_challenge().get_scalar();
        let mut y = t.read_scalar().map_err(io("reading the proof"))?;
        let w = t.read_point().map_err(io("reading the proof"))?;
        if wrong_eval {
            y += bn256::Fr::ONE;
        }
        // e(C − [y]₁ + x·W, [1]₂) · e(−W, [τ]₂) = 1
        let lhs = (c.to_curve() - bn256::G1Affine::generator() * y + w * x).to_affine();
        let g2 = bn256::G2Prepared::from(self.params.g2());
        let s_g2 = bn256::G2Prepared::from(self.params.s_g2());
        let gt =
            bn256::Bn256::multi_miller_loop(&[(&lhs, &g2), (&-w, &s_g2)]).final_exponentiation();
        Ok(bool::from(gt.is_identity()))
    }

    fn proof_bytes(&self) -> usize {
        self.proof.len()
    }
}

/// IPA on the Pasta curve Vesta with halo2-axiom's inner-product argument.
pub struct Ipa {
    k: u32,
    params: ParamsIPA<EqAffine>,
    poly: Polynomial<PastaFp, Coeff>,
    blind: Blind<PastaFp>,
    commitment: EqAffine,
    proof: Vec<u8>,
    setup_s: f64,
}

impl Ipa {
    /// IPA with a polynomial of `2^k` random coefficients.
    pub fn new(k: u32) -> Result<Self, Error> {
        let t = Instant::now();
        let params = ParamsIPA::<EqAffine>::new(k);
        let poly = EvaluationDomain::<PastaFp>::new(1, k).coeff_from_vec(coefficients(1 << k, 11));
        Ok(Self {
            k,
            params,
            poly,
            blind: Blind(PastaFp::random(ChaCha20Rng::seed_from_u64(17))),
            commitment: EqAffine::identity(),
            proof: Vec::new(),
            setup_s: t.elapsed().as_secs_f64(),
        })
    }
}

impl Pcs for Ipa {
    fn log_size(&self) -> u32 {
        self.k
    }

    fn setup_s(&self) -> f64 {
        self.setup_s
    }

    fn commit(&mut self) -> Result<(), Error> {
        self.commitment = self.params.commit(&self.poly, self.blind).to_affine();
        Ok(())
    }

    fn open(&mut self) -> Result<(), Error> {
        let mut t = Blake2bWrite::<_, EqAffine, Challenge255<_>>::init(Vec::new());
        t.write_point(self.commitment).map_err(io("opening"))?;
        let x = t.squeeze_challenge().get_scalar();
        let v = eval_polynomial(&self.poly, x);
        t.write_scalar(v).map_err(io("opening"))?;
        ipa_create_proof(
            &self.params,
            ChaCha20Rng::seed_from_u64(5),
            &mut t,
            &self.poly,
            self.blind,
            x,
        )
        .map_err(io("opening"))?;
        self.proof = t.finalize();
        Ok(())
    }

    fn check(&self, wrong_eval: bool) -> Result<bool, Error> {
        let mut t = IpaRead::init(&self.proof[..]);
        let p = t.read_point().map_err(io("reading the proof"))?;
        let x = t.squeeze_challenge().get_scalar();
        let mut v = t.read_scalar().map_err(io("reading the proof"))?;
        if wrong_eval {
            v += PastaFp::ONE;
        }
        let mut msm = MSMIPA::new(&self.params);
        msm.append_term(PastaFp::ONE, p.into());
        Ok(match ipa_verify_proof(&self.params, msm, &mut t, x, v) {
            Ok(guard) => guard.use_challenges().check(),
            Err(_) => false,
        })
    }

    fn proof_bytes(&self) -> usize {
        self.proof.len()
    }
}
