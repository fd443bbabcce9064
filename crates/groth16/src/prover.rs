//! A Groth16 prover for BN254 with fixed-base precomputation.
//!
//! It computes exactly the proof of ark-groth16's
//! `Groth16::create_proof_with_reduction_and_matrices` (same libsnark QAP
//! reduction, same formulas for A, B and C, same zero-knowledge randomness
//! `r`, `s`), so its proofs verify with ark-groth16's verifier and snarkjs.
//! Only the multi-scalar multiplications differ: their bases are fixed by
//! the proving key (`a_query`, `b_g1_query`, `b_g2_query`, `h_query`,
//! `l_query`), so [`ProverTables::new`] precomputes fixed-base window tables
//! for them ([`zkbench_msm::FixedBaseTable`]: batched affine bucket
//! additions, eight lanes at a time with AVX-512 IFMA where the CPU has it),
//! and the five MSMs run as one batch of pieces cut for the thread pool by
//! [`zkbench_msm::split()`]: about one piece per thread, sized by cost (a G2
//! addition counts three G1 ones), so that the work of a proof stays the
//! same at any thread count while the threads finish together.
//!
//! The tables cost memory (about `n·⌈255/c⌉` affine points per query) and
//! time to build (`n·256` doublings per query, several times one proof),
//! once per proving key: [`crate::Circuit::setup`] builds them as part of key
//! preparation, [`crate::Keys::prover_tables`] on demand, and
//! [`crate::prover_cache`] stores them (with the R1CS matrices) next to the
//! proving key, so that a proof right after loading a key
//! ([`crate::Circuit::load_or_setup`]) is as fast as a warm one.

#[cfg(feature = "parallel")]
use crate::qap::min_len;
use crate::qap::QapArith;
use ark_bn254::{Bn254, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::CurveGroup;
use ark_ff::{FftField, Field, One, PrimeField, Zero};
use ark_groth16::{Proof, ProvingKey};
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain};
use ark_relations::r1cs::{ConstraintMatrices, SynthesisError};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
// `web_time::Instant` is `std::time::Instant` natively and `performance.now()` in
// browsers (std's panics on wasm32-unknown-unknown).
use web_time::Instant;

use zkbench_msm::{run_plan, split, Block, Digits, Piece, Round, Shape, SortedDigits};
pub use zkbench_msm::{FixedBaseTable, RawCurve};

/// Bucket sets per MSM the tables' windows are chosen for: one, whatever
/// the threads. The pieces of a proof's MSMs share bucket reductions by
/// cutting the buckets into parts ([`zkbench_msm::split`]), which keeps the
/// window the one-thread cost model picks (and a cached table good for any
/// pool).
const CHUNKS_PER_MSM: usize = 1;

/// Fixed-base tables for the five MSMs of one proving key.
pub struct ProverTables {
    pub(crate) a: FixedBaseTable<ark_bn254::g1::Config>,
    pub(crate) b_g1: FixedBaseTable<ark_bn254::g1::Config>,
    pub(crate) b_g2: FixedBaseTable<ark_bn254::g2::Config>,
    pub(crate) h: FixedBaseTable<ark_bn254::g1::Config>,
    pub(crate) l: FixedBaseTable<ark_bn254::g1::Config>,
}

impl ProverTables {
    /// Precomputes the tables for `pk`.
    pub fn new(pk: &ProvingKey<Bn254>) -> Self {
        let t = CHUNKS_PER_MSM;
        Self {
            a: FixedBaseTable::new(&pk.a_query, t),
            b_g1: FixedBaseTable::new(&pk.b_g1_query, t),
            b_g2: FixedBaseTable::new(&pk.b_g2_query, t),
            h: FixedBaseTable::new(&pk.h_query, t),
            l: FixedBaseTable::new(&pk.l_query, t),
        }
    }

    /// Compact tables for `pk`: at most `rows` stored points per base
    /// ([`FixedBaseTable::compact`]; 1: the bases alone, Pippenger's
    /// algorithm), their scalars split by the curve's endomorphism
    /// ([`zkbench_msm::glv`]). A fraction of the full tables' bytes (a key
    /// file a first visit can fetch quickly) for a slower MSM: more bucket
    /// passes.
    pub fn compact(pk: &ProvingKey<Bn254>, rows: usize) -> Self {
        let t = CHUNKS_PER_MSM;
        Self {
            a: FixedBaseTable::compact(&pk.a_query, t, rows),
            b_g1: FixedBaseTable::compact(&pk.b_g1_query, t, rows),
            b_g2: FixedBaseTable::compact(&pk.b_g2_query, t, rows),
            h: FixedBaseTable::compact(&pk.h_query, t, rows),
            l: FixedBaseTable::compact(&pk.l_query, t, rows),
        }
    }

    /// `(query, kept bases, window, table points)` of every table, in the
    /// order `a`, `b_g1`, `b_g2`, `h`, `l` (for diagnostics).
    pub fn describe(&self) -> [(&'static str, usize, usize, usize); 5] {
        [
            ("a", self.a.len(), self.a.window(), self.a.points()),
            (
                "b_g1",
                self.b_g1.len(),
                self.b_g1.window(),
                self.b_g1.points(),
            ),
            (
                "b_g2",
                self.b_g2.len(),
                self.b_g2.window(),
                self.b_g2.points(),
            ),
            ("h", self.h.len(), self.h.window(), self.h.points()),
            ("l", self.l.len(), self.l.window(), self.l.points()),
        ]
    }

    /// Number of table points (G1, G2).
    pub fn table_points(&self) -> (usize, usize) {
        (
            self.a.points() + self.b_g1.points() + self.h.points() + self.l.points(),
            self.b_g2.points(),
        )
    }
}

/// The sum of one piece of the batch of MSMs.
pub(crate) enum Sum {
    G1(G1Projective),
    G2(G2Projective),
}

/// One MSM of a batch ([`msm_batch`]): a table and its scalars.
pub(crate) enum Job<'a> {
    G1(&'a FixedBaseTable<ark_bn254::g1::Config>, &'a [Scalar]),
    G2(&'a FixedBaseTable<ark_bn254::g2::Config>, &'a [Scalar]),
}

impl Job<'_> {
    fn rounds(&self) -> usize {
        match self {
            Job::G1(t, _) => t.rounds(),
            Job::G2(t, _) => t.rounds(),
        }
    }
}

/// The MSMs of `jobs` as one batch of pieces on the current pool, one plan
/// entry per round of each table (one round in a full table): per job its
/// sum and the thread time its pieces took.
pub(crate) fn msm_batch(jobs: &[Job<'_>]) -> Vec<(Sum, f64)> {
    // plan entry j is round rounds[j].1 of job rounds[j].0
    let rounds: Vec<(usize, usize)> = (0..jobs.len())
        .flat_map(|m| (0..jobs[m].rounds()).map(move |r| (m, r)))
        .collect();
    let shapes: Vec<Shape> = rounds
        .iter()
        .map(|&(m, r)| match jobs[m] {
            Job::G1(t, z) => t.shape_for(z, r),
            Job::G2(t, z) => t.shape_for(z, r),
        })
        .collect();
    let plan = split(&shapes, zkbench_msm::threads());
    // a compact table's rounds share its scalars' digits, computed once
    let digits: Vec<Option<Digits>> = jobs
        .iter()
        .map(|j| match *j {
            Job::G1(t, z) => t.digits(z),
            Job::G2(t, z) => t.digits(z),
        })
        .collect();
    let round = |j: usize| {
        let (m, index) = rounds[j];
        Round {
            index,
            digits: digits[m].as_ref(),
        }
    };
    let sort = |b: &Block| match jobs[rounds[b.msm].0] {
        Job::G1(t, z) => t.sort_digits(z, b, round(b.msm)),
        Job::G2(t, z) => t.sort_digits(z, b, round(b.msm)),
    };
    let add = |p: &Piece, sorted: &[SortedDigits]| {
        let t = Instant::now();
        let sum = match jobs[rounds[p.msm].0] {
            Job::G1(tab, z) => Sum::G1(tab.msm_piece(z, p, sorted, round(p.msm))),
            Job::G2(tab, z) => Sum::G2(tab.msm_piece(z, p, sorted, round(p.msm))),
        };
        (p.msm, sum, t.elapsed().as_secs_f64())
    };
    let parts = run_plan(&plan, sort, add);
    // per job, the sums of its rounds (in its group), then joined
    let (mut g1, mut g2): (Vec<Vec<G1Projective>>, Vec<Vec<G2Projective>>) = jobs
        .iter()
        .map(|j| match j {
            Job::G1(t, _) => (vec![G1Projective::zero(); t.rounds()], Vec::new()),
            Job::G2(t, _) => (Vec::new(), vec![G2Projective::zero(); t.rounds()]),
        })
        .unzip();
    let mut busy = vec![0.0; jobs.len()];
    for (j, sum, t) in parts {
        let (m, r) = rounds[j];
        busy[m] += t;
        match sum {
            Sum::G1(p) => g1[m][r] += p,
            Sum::G2(p) => g2[m][r] += p,
        }
    }
    jobs.iter()
        .enumerate()
        .map(|(m, j)| match j {
            Job::G1(t, _) => (Sum::G1(t.join_rounds(&g1[m])), busy[m]),
            Job::G2(t, _) => (Sum::G2(t.join_rounds(&g2[m])), busy[m]),
        })
        .collect()
}

impl Sum {
    /// The point of a sum in G1 (a job in G1 sums in G1).
    fn g1(self) -> G1Projective {
        match self {
            Sum::G1(p) => p,
            Sum::G2(_) => unreachable!("a G1 job's sum"),
        }
    }

    /// The point of a sum in G2.
    fn g2(self) -> G2Projective {
        match self {
            Sum::G2(p) => p,
            Sum::G1(_) => unreachable!("a G2 job's sum"),
        }
    }
}

/// Wall-clock seconds of the parts of one [`create_proof_timed`] call.
///
/// The five MSMs run in one parallel pass, so their times overlap: the pass's
/// wall time is split among them in proportion to the thread time each one
/// took (the sum of its chunks' times), and the parts add up to the call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProveTimings {
    /// The H polynomial: QAP witness map (evaluations of A, B, C on the
    /// domain, three inverse and three coset FFTs, the division by Z).
    pub h: f64,
    /// MSM of the A query (G1).
    pub msm_a: f64,
    /// MSM of the B query in G1.
    pub msm_b_g1: f64,
    /// MSM of the B query in G2.
    pub msm_b_g2: f64,
    /// MSM of the C (L) query over the private witness (G1).
    pub msm_c: f64,
    /// MSM of the H query (G1).
    pub msm_h: f64,
    /// The rest: scalar conversion, the work split, the final combination of
    /// A, B, C with `r`, `s` and normalisation.
    pub rest: f64,
}

impl ProveTimings {
    /// `(name, seconds)` of every part, in prover order; the names are the
    /// `<name>` of the results' `metrics.phase_<name>_s`.
    pub fn parts(&self) -> [(&'static str, f64); 7] {
        [
            ("h", self.h),
            ("msm_a", self.msm_a),
            ("msm_b_g1", self.msm_b_g1),
            ("msm_b_g2", self.msm_b_g2),
            ("msm_c", self.msm_c),
            ("msm_h", self.msm_h),
            ("rest", self.rest),
        ]
    }

    /// Sum of the parts (seconds).
    pub fn total(&self) -> f64 {
        self.parts().iter().map(|(_, s)| s).sum()
    }
}

/// `Σ coeff · z[index]` over one row of a constraint matrix.
fn evaluate_row<Q: QapArith>(row: &[(Fr, usize)], z: &[Fr]) -> Fr {
    row.iter().fold(Fr::zero(), |acc, (c, i)| {
        if c.is_one() {
            acc + z[*i]
        } else {
            acc + Q::mul(c, &z[*i])
        }
    })
}

/// ark-poly's radix-2 / mixed-radix FFTs and ark-ff's multiplication: the
/// QAP arithmetic for domains that are not a power of two (never for BN254's
/// circuits here; `zkbench_msm::fft::Fft` is used whenever it can be).
pub(crate) struct ArkQap {
    domain: GeneralEvaluationDomain<Fr>,
    coset: GeneralEvaluationDomain<Fr>,
}

impl QapArith for ArkQap {
    fn new(domain: &GeneralEvaluationDomain<Fr>) -> Option<Self> {
        Some(Self {
            domain: *domain,
            coset: domain.get_coset(Fr::GENERATOR)?,
        })
    }

    #[inline(always)]
    fn mul(a: &Fr, b: &Fr) -> Fr {
        *a * b
    }

    fn ifft(&self, v: &mut Vec<Fr>) {
        self.domain.ifft_in_place(v);
    }

    fn coset_fft(&self, v: &mut Vec<Fr>) {
        self.coset.fft_in_place(v);
    }

    fn coset_ifft(&self, v: &mut Vec<Fr>) {
        self.coset.ifft_in_place(v);
    }
}

/// The coefficients of `h = (A·B − C) / Z` over the QAP domain: exactly
/// ark-groth16's `LibsnarkReduction::witness_map_from_matrices` (the same
/// domain, coset and operations, so the same `h` and the same proof), with
/// the three chains `M·z → iFFT → coset FFT` for A, B and C run side by side
/// rather than one after another: each FFT of a few thousand points is too
/// small to keep two threads busy on its own. The FFTs are
/// `zkbench_msm::fft::Fft`'s (cut once for the thread pool), with ark-ff's `Fr`
/// multiplication natively and `zkbench_msm::field::fr_mul` on `wasm32`
/// (ark-ff's costs 32 `__multi3` calls there); ark-poly's ([`ArkQap`]) only for a
/// domain that is not a power of two.
fn witness_map(
    matrices: &ConstraintMatrices<Fr>,
    num_inputs: usize,
    z: &[Fr],
) -> Result<Vec<Fr>, SynthesisError> {
    #[cfg(not(target_arch = "wasm32"))]
    type Mul = zkbench_msm::fft::ArkMul;
    #[cfg(target_arch = "wasm32")]
    type Mul = zkbench_msm::fft::LimbMul;
    match witness_map_with::<zkbench_msm::fft::Fft<Mul>>(matrices, num_inputs, z) {
        Err(SynthesisError::PolynomialDegreeTooLarge) => {
            witness_map_with::<ArkQap>(matrices, num_inputs, z)
        }
        h => h,
    }
}

/// [`witness_map`] with the arithmetic `Q`.
pub(crate) fn witness_map_with<Q: QapArith>(
    matrices: &ConstraintMatrices<Fr>,
    num_inputs: usize,
    z: &[Fr],
) -> Result<Vec<Fr>, SynthesisError> {
    let num_constraints = matrices.num_constraints;
    let domain = GeneralEvaluationDomain::<Fr>::new(num_constraints + num_inputs)
        .ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
    let qap = Q::new(&domain).ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
    let n = domain.size();
    let chain = |m: &[Vec<(Fr, usize)>], inputs: bool| {
        let mut v = vec![Fr::zero(); n];
        #[cfg(feature = "parallel")]
        v[..num_constraints]
            .par_iter_mut()
            .zip(m.par_iter())
            .with_min_len(min_len(num_constraints))
            .for_each(|(x, row)| *x = evaluate_row::<Q>(row, z));
        #[cfg(not(feature = "parallel"))]
        v[..num_constraints]
            .iter_mut()
            .zip(m.iter())
            .for_each(|(x, row)| *x = evaluate_row::<Q>(row, z));
        if inputs {
            // the input consistency constraints of the libsnark reduction
            v[num_constraints..num_constraints + num_inputs].copy_from_slice(&z[..num_inputs]);
        }
        qap.ifft(&mut v);
        qap.coset_fft(&mut v);
        v
    };
    let (a, (b, c)) = crate::join(
        || chain(&matrices.a, true),
        || crate::join(|| chain(&matrices.b, false), || chain(&matrices.c, false)),
    );
    let z_inv = domain
        .evaluate_vanishing_polynomial(Fr::GENERATOR)
        .inverse()
        .ok_or(SynthesisError::UnexpectedIdentity)?;
    let quotient = |((a, b), c): ((&Fr, &Fr), &Fr)| Q::mul(&(Q::mul(a, b) - c), &z_inv);
    #[cfg(feature = "parallel")]
    let mut h: Vec<Fr> = a
        .par_iter()
        .zip(&b)
        .zip(&c)
        .with_min_len(min_len(n))
        .map(quotient)
        .collect();
    #[cfg(not(feature = "parallel"))]
    let mut h: Vec<Fr> = a.iter().zip(&b).zip(&c).map(quotient).collect();
    qap.coset_ifft(&mut h);
    Ok(h)
}

/// A scalar of the MSMs: a field element as the tables' big integer.
pub(crate) type Scalar = <Fr as PrimeField>::BigInt;

/// `v` as the MSMs' scalars.
pub(crate) fn scalars(v: &[Fr]) -> Vec<Scalar> {
    #[cfg(feature = "parallel")]
    return v
        .par_iter()
        .with_min_len(min_len(v.len()))
        .map(|x| x.into_bigint())
        .collect();
    #[cfg(not(feature = "parallel"))]
    v.iter().map(|x| x.into_bigint()).collect()
}

/// The scalars of the H MSM: the coefficients of `h` ([`witness_map`]) for
/// `full_assignment` under `matrices`, at most `h_len` of them (the key's
/// `h_query`).
pub(crate) fn h_scalars(
    matrices: &ConstraintMatrices<Fr>,
    full_assignment: &[Fr],
    h_len: usize,
) -> Result<Vec<Scalar>, SynthesisError> {
    let h = witness_map(matrices, matrices.num_instance_variables, full_assignment)?;
    Ok(scalars(&h[..h.len().min(h_len)]))
}

/// The five MSMs of a proof: `Σ z_i·a_i`, `Σ z_i·b_i` (G1 and G2),
/// `Σ h_i·h_i`, `Σ aux_i·l_i`.
pub(crate) struct MsmSums {
    pub(crate) a: G1Projective,
    pub(crate) b_g1: G1Projective,
    pub(crate) b_g2: G2Projective,
    pub(crate) h: G1Projective,
    pub(crate) l: G1Projective,
}

/// What a proof needs of its randomness `r`, `s` besides the MSMs' sums:
/// `r·δ`, `s·δ` and `rs·δ` in G1, `s·δ` in G2. None of them waits on an
/// MSM, so the prover computes them while the MSMs run (`prove_on_pool`):
/// serial after the MSMs they were the proof's last single-threaded part
/// (0.9 ms of a 42 ms spend proof natively, 4.4 ms of 99 ms in the browser,
/// 2 threads), which more cores would not shorten.
pub(crate) struct DeltaMultiples {
    r_g1: G1Projective,
    s_g1: G1Projective,
    rs_g1: G1Projective,
    s_g2: G2Projective,
}

impl DeltaMultiples {
    /// The four multiples, two at a time in the pool.
    pub(crate) fn new(pk: &ProvingKey<Bn254>, r: Fr, s: Fr) -> Self {
        let (d1, d2): (G1Affine, G2Affine) = (pk.delta_g1, pk.vk.delta_g2);
        let ((r_g1, s_g1), (rs_g1, s_g2)) = crate::join(
            || crate::join(|| d1 * r, || d1 * s),
            || crate::join(|| d1 * (r * s), || d2 * s),
        );
        Self {
            r_g1,
            s_g1,
            rs_g1,
            s_g2,
        }
    }
}

impl MsmSums {
    /// The proof from the MSMs and the randomness `r`, `s` (ark-groth16's
    /// formulas), with `r`'s and `s`'s multiples of δ ([`DeltaMultiples`]).
    pub(crate) fn proof(
        &self,
        pk: &ProvingKey<Bn254>,
        delta: &DeltaMultiples,
        r: Fr,
        s: Fr,
    ) -> Proof<Bn254> {
        // A = α + Σ z_i·a_i + r·δ
        let g_a = self.a + pk.vk.alpha_g1 + delta.r_g1;
        // B = β + Σ z_i·b_i + s·δ (in G1 and G2)
        let g1_b = self.b_g1 + pk.beta_g1 + delta.s_g1;
        let g2_b = self.b_g2 + pk.vk.beta_g2 + delta.s_g2;
        // C = s·A + r·B1 − r·s·δ + Σ aux_i·l_i + Σ h_i·h_i
        let (s_a, r_b) = crate::join(|| g_a * s, || g1_b * r);
        let g_c = s_a + r_b - delta.rs_g1 + self.l + self.h;
        let mut affine = G1Projective::normalize_batch(&[g_a, g_c]);
        let c = affine.pop().expect("two points");
        let a = affine.pop().expect("two points");
        Proof {
            a,
            b: g2_b.into_affine(),
            c,
        }
    }
}

/// A Groth16 proof for the full assignment `z = [1, public..., witness...]`
/// with randomness `r`, `s`: the same proof as ark-groth16's
/// `create_proof_with_reduction_and_matrices` (libsnark reduction).
pub fn create_proof(
    pk: &ProvingKey<Bn254>,
    tables: &ProverTables,
    matrices: &ConstraintMatrices<Fr>,
    full_assignment: &[Fr],
    r: Fr,
    s: Fr,
) -> Result<Proof<Bn254>, SynthesisError> {
    create_proof_timed(pk, tables, matrices, full_assignment, r, s).map(|(p, _)| p)
}

/// [`create_proof`] with the wall time of its parts ([`ProveTimings`]): a
/// few `Instant` reads, one per MSM piece, no shared state. The proof runs
/// on a pool no larger than the machine ([`zkbench_msm::on_cores`]).
pub fn create_proof_timed(
    pk: &ProvingKey<Bn254>,
    tables: &ProverTables,
    matrices: &ConstraintMatrices<Fr>,
    full_assignment: &[Fr],
    r: Fr,
    s: Fr,
) -> Result<(Proof<Bn254>, ProveTimings), SynthesisError> {
    zkbench_msm::on_cores(|| prove_on_pool(pk, tables, matrices, full_assignment, r, s))
}

/// [`create_proof_timed`] on the current pool.
fn prove_on_pool(
    pk: &ProvingKey<Bn254>,
    tables: &ProverTables,
    matrices: &ConstraintMatrices<Fr>,
    full_assignment: &[Fr],
    r: Fr,
    s: Fr,
) -> Result<(Proof<Bn254>, ProveTimings), SynthesisError> {
    let start = Instant::now();
    let num_inputs = matrices.num_instance_variables;
    let h = h_scalars(matrices, full_assignment, pk.h_query.len())?;
    let z = scalars(full_assignment);
    let h_done = Instant::now();
    let aux = &z[num_inputs..];

    // The five MSMs as one batch of pieces: A, B (G1), H, L, then B (G2).
    let jobs = [
        Job::G1(&tables.a, &z),
        Job::G1(&tables.b_g1, &z),
        Job::G1(&tables.h, &h),
        Job::G1(&tables.l, aux),
        Job::G2(&tables.b_g2, &z),
    ];
    let msm_start = Instant::now();
    // r's and s's multiples of δ while the MSMs run: the pool's workers take the MSM pieces
    // around them
    let (done, delta) = crate::join(|| msm_batch(&jobs), || DeltaMultiples::new(pk, r, s));
    let msm_wall = msm_start.elapsed().as_secs_f64();
    // busy: thread time per MSM (index 4: B in G2)
    let busy: Vec<f64> = done.iter().map(|d| d.1).collect();
    let mut sums = done.into_iter().map(|d| d.0);
    let acc: [G1Projective; 4] = std::array::from_fn(|_| sums.next().expect("five sums").g1());
    let g2_b_acc = sums.next().expect("five sums").g2();
    let [a_acc, b_acc, h_acc, l_acc] = acc;
    let busy_total: f64 = busy.iter().sum();
    let share = |i: usize| {
        if busy_total > 0.0 {
            msm_wall * busy[i] / busy_total
        } else {
            0.0
        }
    };

    let sums = MsmSums {
        a: a_acc,
        b_g1: b_acc,
        b_g2: g2_b_acc,
        h: h_acc,
        l: l_acc,
    };
    let proof = sums.proof(pk, &delta, r, s);
    let total = start.elapsed().as_secs_f64();
    let h_s = (h_done - start).as_secs_f64();
    let timings = ProveTimings {
        h: h_s,
        msm_a: share(0),
        msm_b_g1: share(1),
        msm_b_g2: share(4),
        msm_c: share(3),
        msm_h: share(2),
        rest: (total - h_s - msm_wall).max(0.0),
    };
    Ok((proof, timings))
}
