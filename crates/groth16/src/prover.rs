//! A Groth16 prover for BN254 with fixed-base precomputation.
//!
//! It computes exactly the proof of ark-groth16's
//! `Groth16::create_proof_with_reduction_and_matrices` (same libsnark QAP
//! reduction, same formulas for A, B and C, same zero-knowledge randomness
//! `r`, `s`), so its proofs verify with ark-groth16's verifier and snarkjs.
//! Only the multi-scalar multiplications differ:
//!
//! * **Fixed-base tables.** The bases of the five MSMs (`a_query`,
//!   `b_g1_query`, `b_g2_query`, `h_query`, `l_query`) are fixed by the
//!   proving key, so [`ProverTables::new`] precomputes `2^(c·j)·P` for every
//!   base `P` and window `j` (affine, batch-normalised). An MSM is then a
//!   single bucket pass over all (base, window) pairs with signed `c`-bit
//!   digits: about `n·⌈255/c⌉` additions plus one bucket reduction of
//!   `2^(c-1)` buckets, instead of one reduction and `c` doublings per window
//!   in Pippenger. The window `c` is picked per MSM to minimise that cost
//!   (bounded by a memory cap); bases at infinity (variables that never occur
//!   in B, for instance) are dropped from the tables.
//! * **Batched affine additions.** The buckets are affine and the additions
//!   into them wait in batches of up to 1024 (one per bucket) that share one
//!   field inversion, about 6 multiplications each; conflicts go to a short
//!   retry queue, then to a projective overflow, so that witnesses full of
//!   0/1 values stay cheap (`AffineBuckets`). On x86_64 CPUs with
//!   AVX-512 IFMA a batch's additions run eight at a time in
//!   [`crate::avx512`]'s kernels (G1 and G2; checked at run time, off with
//!   `ZKBENCH_NO_AVX512`), 1.8–2.1× faster than ark-ff's arithmetic on a
//!   Zen 5 core; the result is the same either way.
//! * **One parallel pass.** The five MSMs (split into chunks with their own
//!   buckets only with more than four threads) run in a single rayon pass,
//!   the G2 one beside the G1 ones, largest first.
//!
//! The tables cost memory (about `n·⌈255/c⌉` affine points per query) and
//! time to build (`n·256` doublings per query, several times one proof),
//! once per proving key: [`crate::Circuit::setup`] builds them as part of key
//! preparation, [`crate::Keys::prover_tables`] on demand, and
//! [`crate::prover_cache`] stores them (with the R1CS matrices) next to the
//! proving key, so that a proof right after loading a key
//! ([`crate::Circuit::load_or_setup`]) is as fast as a warm one.

use crate::wasm_mont::{add_affine, add_projective, MsmField};
use crate::wasm_qap::QapArith;
use ark_bn254::{Bn254, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::{
    short_weierstrass::{Affine, Projective},
    AdditiveGroup, AffineRepr, CurveGroup,
};
use ark_ff::{BigInteger, FftField, Field, One, PrimeField, Zero};
use ark_groth16::{Proof, ProvingKey};
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain};
use ark_relations::r1cs::{ConstraintMatrices, SynthesisError};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
// `web_time::Instant` is `std::time::Instant` natively and `performance.now()` in
// browsers (std's panics on wasm32-unknown-unknown).
use web_time::Instant;

use crate::table_store::PointBytes;
pub use crate::table_store::RawCurve;

/// Number of bits of a BN254 scalar.
const SCALAR_BITS: usize = 254;
/// Upper bound on the number of table points per query (memory cap: 2^22 G1
/// points are 256 MiB).
const MAX_TABLE_POINTS: usize = 1 << 22;

/// Precomputed multiples `2^(c·j)·P` of the bases of one MSM.
pub struct FixedBaseTable<P: RawCurve> {
    /// Window size in bits.
    pub(crate) window: usize,
    /// Number of windows (signed digits) per scalar.
    pub(crate) windows: usize,
    /// Index into the scalar vector of every kept (non-zero) base.
    pub(crate) indices: Vec<u32>,
    /// Point `k·windows + j` is `2^(window·j) · base[indices[k]]`, as raw
    /// limbs ([`crate::table_store`]).
    pub(crate) points: PointBytes,
    pub(crate) _curve: std::marker::PhantomData<P>,
}

/// Cost model for a fixed-base MSM over `n` bases with window `c` split into
/// `chunks` independent bucket sets: mixed additions plus bucket reductions
/// (a projective addition counted as 1.5 mixed ones).
fn cost(n: usize, c: usize, chunks: usize) -> usize {
    n * SCALAR_BITS.div_ceil(c) + chunks * 3 * (1 << (c - 1))
}

pub(crate) fn num_windows(c: usize) -> usize {
    // signed digits in [-2^(c-1), 2^(c-1)): c·windows >= 256 leaves room
    // for the final carry
    (SCALAR_BITS + 2).div_ceil(c)
}

/// Chunks (bucket sets) per MSM: the five MSMs already run in parallel, and
/// every extra chunk costs one more bucket reduction, so a chunk per four
/// threads (one per MSM on two threads; the harness difference against two
/// was within the noise of a loaded machine).
fn chunks_per_msm() -> usize {
    threads().div_ceil(4)
}

fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

impl<P: RawCurve> FixedBaseTable<P> {
    /// Tables for `bases`, with a window chosen for `chunks` parallel bucket
    /// sets.
    pub fn new(bases: &[Affine<P>], chunks: usize) -> Self {
        let indices: Vec<u32> = bases
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.is_zero())
            .map(|(i, _)| i as u32)
            .collect();
        let n = indices.len();
        let window = (2..=16)
            .filter(|&c| n * num_windows(c) <= MAX_TABLE_POINTS || c == 16)
            .min_by_key(|&c| cost(n, c, chunks.max(1)))
            .unwrap_or(16);
        let windows = num_windows(window);
        let build = |&i: &u32| {
            let mut p: Projective<P> = bases[i as usize].into_group();
            let mut row = Vec::with_capacity(windows);
            for _ in 0..windows {
                row.push(p);
                for _ in 0..window {
                    p.double_in_place();
                }
            }
            Projective::normalize_batch(&row)
        };
        #[cfg(feature = "parallel")]
        let rows: Vec<Vec<Affine<P>>> = indices.par_iter().map(build).collect();
        #[cfg(not(feature = "parallel"))]
        let rows: Vec<Vec<Affine<P>>> = indices.iter().map(build).collect();
        let mut points = PointBytes::zeroed(n * windows * P::BYTES);
        let put = |(row, out): (&Vec<Affine<P>>, &mut [u8])| {
            for (p, o) in row.iter().zip(out.chunks_exact_mut(P::BYTES)) {
                P::put(p, o);
            }
        };
        let row_bytes = (windows * P::BYTES).max(1);
        #[cfg(feature = "parallel")]
        rows.par_iter()
            .zip(points.make_mut().par_chunks_mut(row_bytes))
            .for_each(put);
        #[cfg(not(feature = "parallel"))]
        rows.iter()
            .zip(points.make_mut().chunks_mut(row_bytes))
            .for_each(put);
        Self {
            window,
            windows,
            indices,
            points,
            _curve: std::marker::PhantomData,
        }
    }

    /// Number of bases kept (non-zero).
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether every base was zero.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Window size in bits.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Number of precomputed points (`len() · windows`), the table's memory
    /// in affine points.
    pub fn points(&self) -> usize {
        self.points.len() / P::BYTES
    }

    /// Table point `i` (`k·windows + j`).
    #[inline(always)]
    pub(crate) fn point(points: &[u8], i: usize) -> Affine<P> {
        P::get(&points[i * P::BYTES..(i + 1) * P::BYTES])
    }

    /// `Σ scalars[i] · base[i]` over all bases, split into `chunks` bucket
    /// sets run in parallel (the number the table was built for; the
    /// Groth16 prover runs its five MSMs side by side instead). This is the
    /// MSM of zkbench's prover on its own, for the `primitives` suite.
    #[allow(clippy::let_and_return)]
    pub fn msm(&self, scalars: &[<Fr as PrimeField>::BigInt], chunks: usize) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        let ranges = self.chunks(chunks);
        let run = |r: &std::ops::Range<usize>| self.msm_range(scalars, r.clone());
        #[cfg(feature = "parallel")]
        let sum = ranges.par_iter().map(run).sum();
        #[cfg(not(feature = "parallel"))]
        let sum = ranges.iter().map(run).sum();
        sum
    }

    /// `Σ scalars[indices[k]] · base[indices[k]]` over the kept bases with
    /// `k` in `range`, with one set of affine buckets.
    ///
    /// The signed digits of a scalar are computed once, before its row of
    /// the table is added.
    fn msm_range(
        &self,
        scalars: &[<Fr as PrimeField>::BigInt],
        range: std::ops::Range<usize>,
    ) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        self.msm_range_with(scalars, range, P::BaseField::has_x8())
    }

    /// [`Self::msm_range`], with the eight-lane kernel for the batches
    /// (`vector`, where this CPU has it) or without.
    fn msm_range_with(
        &self,
        scalars: &[<Fr as PrimeField>::BigInt],
        range: std::ops::Range<usize>,
        vector: bool,
    ) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        let c = self.window;
        let w = self.windows;
        let mut buckets = AffineBuckets::<P>::new(1 << (c - 1), &self.points, vector);
        let mut digits = vec![0i32; w];
        for k in range {
            let s = &scalars[self.indices[k] as usize];
            if s.is_zero() {
                continue;
            }
            signed_digits(s, c, &mut digits);
            for (j, &d) in digits.iter().enumerate() {
                if d != 0 {
                    buckets.add(Entry {
                        bucket: d.unsigned_abs() - 1,
                        neg: d < 0,
                        point: k * w + j,
                    });
                }
            }
        }
        buckets.sum_weighted()
    }

    /// The chunks (ranges over kept bases) for `parts` bucket sets.
    fn chunks(&self, parts: usize) -> Vec<std::ops::Range<usize>> {
        let n = self.len();
        let parts = parts.clamp(1, n.max(1));
        (0..parts)
            .map(|p| (p * n / parts)..((p + 1) * n / parts))
            .filter(|r| !r.is_empty())
            .collect()
    }
}

/// The signed `c`-bit digits `d_j ∈ [-2^(c-1), 2^(c-1))` of `s = Σ d_j·2^(c·j)`
/// (`out.len()` windows, enough for the final carry).
fn signed_digits(s: &<Fr as PrimeField>::BigInt, c: usize, out: &mut [i32]) {
    let limbs = s.as_ref();
    let half = 1i64 << (c - 1);
    let mask = (1u64 << c) - 1;
    let mut carry = 0i64;
    for (j, out) in out.iter_mut().enumerate() {
        let bit = j * c;
        let digit = if bit >= 256 {
            0
        } else {
            let limb = bit / 64;
            let off = bit % 64;
            let mut v = limbs[limb] >> off;
            if off + c > 64 && limb + 1 < 4 {
                v |= limbs[limb + 1] << (64 - off);
            }
            (v & mask) as i64
        };
        let mut d = digit + carry;
        if d >= half {
            d -= 1 << c;
            carry = 1;
        } else {
            carry = 0;
        }
        *out = d as i32;
    }
    debug_assert_eq!(carry, 0);
}

/// Affine buckets filled with batched affine additions: additions wait in a
/// batch (at most one per bucket) and are done together with one field
/// inversion (Montgomery's trick), about 6 multiplications each instead of
/// 11 for a mixed addition into projective buckets.
///
/// Queuing an addition reads only the bucket's one-byte state, not the
/// bucket: the bucket reads (cache misses for large windows) happen in the
/// batch's first pass, where they are independent of each other and
/// overlap. An addition to a bucket that already has one waiting goes to a
/// short queue, retried in the next batch (as gnark-crypto's
/// `msmBatchAffine` does); when the queue is full it is added at once to the
/// bucket's projective overflow (`side`), so that skewed scalars (many equal
/// small values, common in witnesses) cost one mixed addition each instead
/// of rounds of tiny batches.
struct AffineBuckets<'a, P: RawCurve> {
    /// The table points the additions refer to (raw limbs).
    points: &'a [u8],
    /// The bucket sums; `buckets[b]` is meaningful only if `state[b]` is not
    /// [`EMPTY`].
    buckets: Vec<Affine<P>>,
    /// [`EMPTY`], [`FULL`] or [`BUSY`] (full, with an addition in `batch`).
    state: Vec<u8>,
    /// Waiting additions.
    batch: Vec<Entry>,
    /// Additions to a busy bucket, retried after the next flush.
    deferred: Vec<Entry>,
    /// Scratch for the retry of `deferred`.
    retry: Vec<Entry>,
    /// Projective overflow of every bucket (allocated on first use).
    side: Vec<Projective<P>>,
    /// Scratch: denominators, then their inverses.
    scratch: Vec<P::BaseField>,
    /// Scratch: prefix products for the inversion.
    prefix: Vec<P::BaseField>,
    /// Scratch of the eight-lane kernel ([`MsmField::batch_add_x8`]): the
    /// batch's points and buckets, the sums written over `qx`, `qy`.
    soa: [Vec<u64>; 4],
    /// Whether batches go to the eight-lane kernel (where this CPU has it).
    vector: bool,
}

/// One addition `buckets[bucket] += ±points[point]`: the table point is
/// referred to, not copied (16 bytes instead of 72 or 136 per entry).
#[derive(Clone, Copy)]
struct Entry {
    bucket: u32,
    /// Whether the point is subtracted.
    neg: bool,
    point: usize,
}

/// Bucket state: the bucket is the point at infinity.
const EMPTY: u8 = 0;
/// Bucket state: the bucket holds a point.
const FULL: u8 = 1;
/// Bucket state: the bucket holds a point and has an addition in the batch.
const BUSY: u8 = 2;

/// Inverts every element of `v` (all non-zero) with one field inversion
/// (Montgomery's trick), serially: ark-ff's `batch_inversion` splits even
/// short slices over rayon threads, which costs more than it saves here.
/// The products run in two interleaved chains (even and odd positions), so
/// that two multiplications are in flight instead of one dependent chain.
fn batch_invert<F: MsmField>(v: &mut [F], prefix: &mut Vec<F>) {
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
        .inverse()
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

/// Batch size of [`AffineBuckets`] (bounded by a quarter of the buckets to
/// keep collisions rare); 1024 measured ~15% faster than 256 on a 4095-point
/// G1 MSM (fewer inversions).
const MAX_BATCH: usize = 1024;

impl<'a, P: RawCurve> AffineBuckets<'a, P>
where
    P::BaseField: MsmField,
{
    /// `n` empty buckets over the table `points`; `vector`: batches go to
    /// the eight-lane kernel where this CPU has it.
    fn new(n: usize, points: &'a [u8], vector: bool) -> Self {
        let cap = MAX_BATCH.min(n.div_ceil(4)).max(1);
        Self {
            points,
            buckets: vec![Affine::<P>::zero(); n],
            state: vec![EMPTY; n],
            batch: Vec::with_capacity(cap),
            deferred: Vec::with_capacity(cap / 2),
            retry: Vec::with_capacity(cap / 2),
            side: Vec::new(),
            scratch: Vec::with_capacity(cap),
            prefix: Vec::with_capacity(cap),
            soa: Default::default(),
            vector,
        }
    }

    fn capacity(&self) -> usize {
        self.batch.capacity()
    }

    /// The point `±points[e.point]` of an entry (never the point at infinity:
    /// the tables keep non-zero bases only).
    fn point(points: &[u8], e: Entry) -> Affine<P> {
        let p = FixedBaseTable::<P>::point(points, e.point);
        if e.neg {
            -p
        } else {
            p
        }
    }

    /// The entry's addition (possibly later).
    fn add(&mut self, e: Entry) {
        self.insert(e);
        if self.batch.len() == self.capacity() {
            self.flush();
        }
    }

    /// Sets an empty bucket to the entry's point, or queues the addition in
    /// the batch, or in `deferred` if the bucket is busy or the batch full,
    /// or adds it to the bucket's overflow if `deferred` is full too.
    fn insert(&mut self, e: Entry) {
        let b = e.bucket as usize;
        match self.state[b] {
            EMPTY => {
                self.buckets[b] = Self::point(self.points, e);
                self.state[b] = FULL;
            }
            FULL if self.batch.len() < self.capacity() => {
                self.state[b] = BUSY;
                self.batch.push(e);
            }
            _ if self.deferred.len() < self.capacity() / 2 => {
                self.deferred.push(e);
            }
            _ => {
                if self.side.is_empty() {
                    self.side = vec![Projective::<P>::zero(); self.buckets.len()];
                }
                add_affine(&mut self.side[b], &Self::point(self.points, e));
            }
        }
    }

    /// Performs the waiting additions with one inversion, then queues the
    /// deferred ones again (they start the next batch).
    fn flush(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        // the eight-lane kernel where there is one (its inversion has a
        // fixed cost of sixteen lanes: not worth it for tiny batches)
        if P::BaseField::SOA_GROUP == 0 || self.batch.len() < 32 || !self.vector || !self.flush_x8()
        {
            self.flush_scalar();
        }
        self.batch.clear();
        std::mem::swap(&mut self.deferred, &mut self.retry);
        let mut retry = std::mem::take(&mut self.retry);
        for &e in &retry {
            self.insert(e);
        }
        retry.clear();
        self.retry = retry;
    }

    /// The special case of an addition with `p.x = q.x` (doubling or
    /// cancellation: rare), done at once; the entry is then marked done
    /// (bucket index out of range).
    fn add_special(&mut self, e: &mut Entry, p: Affine<P>) {
        let q = &mut self.buckets[e.bucket as usize];
        let sum = q.into_group() + p;
        self.state[e.bucket as usize] = if sum.is_zero() { EMPTY } else { FULL };
        *q = sum.into_affine();
        e.bucket = u32::MAX;
    }

    /// The batch's additions with the eight-lane kernel: the points and
    /// buckets are copied into its layout, added there, and copied back;
    /// `false` (nothing done) without the kernel.
    fn flush_x8(&mut self) -> bool {
        let points = self.points;
        let group = P::BaseField::SOA_GROUP;
        let words = self.batch.len().div_ceil(8) * group;
        for v in self.soa.iter_mut() {
            v.resize(words, 0);
        }
        let mut batch = std::mem::take(&mut self.batch);
        let mut n = 0;
        for e in batch.iter_mut() {
            let p = Self::point(points, *e);
            let q = self.buckets[e.bucket as usize];
            if p.x == q.x {
                self.add_special(e, p);
                continue;
            }
            let [px, py, qx, qy] = &mut self.soa;
            p.x.soa_put(px, n);
            p.y.soa_put(py, n);
            q.x.soa_put(qx, n);
            q.y.soa_put(qy, n);
            n += 1;
        }
        let groups = n.div_ceil(8);
        let [px, py, qx, qy] = &mut self.soa;
        // padding lanes: (1, 0) + (0, 0), a non-zero denominator
        for k in n..groups * 8 {
            P::BaseField::one().soa_put(px, k);
            P::BaseField::zero().soa_put(py, k);
            P::BaseField::zero().soa_put(qx, k);
            P::BaseField::zero().soa_put(qy, k);
        }
        if !P::BaseField::batch_add_x8(px, py, qx, qy, groups) {
            // no kernel: undo nothing (the specials are done), the scalar
            // pass does the rest
            self.batch = batch;
            self.batch.retain(|e| e.bucket != u32::MAX);
            return false;
        }
        let mut k = 0;
        for e in &batch {
            if e.bucket == u32::MAX {
                continue;
            }
            let x = P::BaseField::soa_get(qx, k);
            let y = P::BaseField::soa_get(qy, k);
            self.buckets[e.bucket as usize] = Affine::new_unchecked(x, y);
            self.state[e.bucket as usize] = FULL;
            k += 1;
        }
        batch.clear();
        self.batch = batch;
        true
    }

    /// The batch's additions with ark-ff's (or, on wasm32, this crate's)
    /// field arithmetic and one inversion.
    fn flush_scalar(&mut self) {
        let points = self.points;
        self.scratch.clear();
        let mut batch = std::mem::take(&mut self.batch);
        for e in batch.iter_mut() {
            let p = &FixedBaseTable::<P>::point(points, e.point);
            let mut d = p.x - self.buckets[e.bucket as usize].x;
            if d.is_zero() {
                // done at once; the entry is then skipped (denominator 1)
                self.add_special(e, Self::point(points, *e));
                d = P::BaseField::one();
            }
            self.scratch.push(d);
        }
        self.batch = batch;
        batch_invert(&mut self.scratch, &mut self.prefix);
        for (e, inv) in self.batch.iter().zip(&self.scratch) {
            let Some(q) = self.buckets.get_mut(e.bucket as usize) else {
                continue;
            };
            let p = &FixedBaseTable::<P>::point(points, e.point);
            // λ = (±p.y − q.y) / (p.x − q.x)
            let num = if e.neg { -(p.y + q.y) } else { p.y - q.y };
            let lambda = num.mul_msm(inv);
            let x = lambda.square_msm() - q.x - p.x;
            let y = lambda.mul_msm(&(q.x - x)) - q.y;
            *q = Affine::new_unchecked(x, y);
            self.state[e.bucket as usize] = FULL;
        }
    }

    /// `Σ (i + 1) · buckets[i]`, after the last additions.
    fn sum_weighted(mut self) -> Projective<P> {
        while !self.batch.is_empty() {
            self.flush();
        }
        debug_assert!(self.deferred.is_empty());
        let mut running = Projective::<P>::zero();
        let mut acc = Projective::<P>::zero();
        for (i, b) in self.buckets.iter().enumerate().rev() {
            if self.state[i] != EMPTY {
                add_affine(&mut running, b);
            }
            if let Some(side) = self.side.get(i) {
                add_projective(&mut running, side);
            }
            add_projective(&mut acc, &running);
        }
        acc
    }
}

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
        let t = chunks_per_msm();
        Self {
            a: FixedBaseTable::new(&pk.a_query, t),
            b_g1: FixedBaseTable::new(&pk.b_g1_query, t),
            b_g2: FixedBaseTable::new(&pk.b_g2_query, t),
            h: FixedBaseTable::new(&pk.h_query, t),
            l: FixedBaseTable::new(&pk.l_query, t),
        }
    }

    /// `(query, kept bases, window, table points)` of every table, in the
    /// order `a`, `b_g1`, `b_g2`, `h`, `l` (for diagnostics).
    pub fn describe(&self) -> [(&'static str, usize, usize, usize); 5] {
        [
            ("a", self.a.len(), self.a.window, self.a.points()),
            (
                "b_g1",
                self.b_g1.len(),
                self.b_g1.window,
                self.b_g1.points(),
            ),
            (
                "b_g2",
                self.b_g2.len(),
                self.b_g2.window,
                self.b_g2.points(),
            ),
            ("h", self.h.len(), self.h.window, self.h.points()),
            ("l", self.l.len(), self.l.window, self.l.points()),
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

/// Which G1 MSM a chunk belongs to.
#[derive(Clone, Copy)]
enum G1Msm {
    A = 0,
    B = 1,
    H = 2,
    L = 3,
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
/// QAP arithmetic natively (on `wasm32` only in tests).
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
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
/// small to keep two threads busy on its own. The arithmetic is ark's
/// natively ([`ArkQap`]) and `crate::wasm_qap`'s 29-bit-limb one on `wasm32`
/// (ark-ff's `Fr` multiplication costs 32 `__multi3` calls there).
fn witness_map(
    matrices: &ConstraintMatrices<Fr>,
    num_inputs: usize,
    z: &[Fr],
) -> Result<Vec<Fr>, SynthesisError> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        witness_map_with::<ArkQap>(matrices, num_inputs, z)
    }
    #[cfg(target_arch = "wasm32")]
    {
        witness_map_with::<crate::wasm_qap::Fft>(matrices, num_inputs, z)
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
    #[cfg(feature = "parallel")]
    let (a, (b, c)) = rayon::join(
        || chain(&matrices.a, true),
        || rayon::join(|| chain(&matrices.b, false), || chain(&matrices.c, false)),
    );
    #[cfg(not(feature = "parallel"))]
    let (a, (b, c)) = (
        chain(&matrices.a, true),
        (chain(&matrices.b, false), chain(&matrices.c, false)),
    );
    let z_inv = domain
        .evaluate_vanishing_polynomial(Fr::GENERATOR)
        .inverse()
        .ok_or(SynthesisError::UnexpectedIdentity)?;
    let quotient = |((a, b), c): ((&Fr, &Fr), &Fr)| Q::mul(&(Q::mul(a, b) - c), &z_inv);
    #[cfg(feature = "parallel")]
    let mut h: Vec<Fr> = a.par_iter().zip(&b).zip(&c).map(quotient).collect();
    #[cfg(not(feature = "parallel"))]
    let mut h: Vec<Fr> = a.iter().zip(&b).zip(&c).map(quotient).collect();
    qap.coset_ifft(&mut h);
    Ok(h)
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
/// few `Instant` reads, one per MSM chunk, no shared state.
pub fn create_proof_timed(
    pk: &ProvingKey<Bn254>,
    tables: &ProverTables,
    matrices: &ConstraintMatrices<Fr>,
    full_assignment: &[Fr],
    r: Fr,
    s: Fr,
) -> Result<(Proof<Bn254>, ProveTimings), SynthesisError> {
    let start = Instant::now();
    let num_inputs = matrices.num_instance_variables;
    let h = witness_map(matrices, num_inputs, full_assignment)?;
    let h_done = Instant::now();
    #[cfg(feature = "parallel")]
    let to_bigints = |v: &[Fr]| v.par_iter().map(|x| x.into_bigint()).collect::<Vec<_>>();
    #[cfg(not(feature = "parallel"))]
    let to_bigints = |v: &[Fr]| v.iter().map(|x| x.into_bigint()).collect::<Vec<_>>();
    let z = to_bigints(full_assignment);
    let h = to_bigints(&h[..h.len().min(pk.h_query.len())]);
    let aux = &z[num_inputs..];

    // Work items: (msm, range) for G1 and G2, each chunk its own bucket set;
    // the G1 items largest first, so that the threads' loads even out.
    let t = chunks_per_msm();
    let mut g1_items: Vec<(G1Msm, std::ops::Range<usize>)> = Vec::new();
    for (which, table) in [
        (G1Msm::A, &tables.a),
        (G1Msm::B, &tables.b_g1),
        (G1Msm::H, &tables.h),
        (G1Msm::L, &tables.l),
    ] {
        g1_items.extend(table.chunks(t).into_iter().map(|r| (which, r)));
    }
    g1_items.sort_by_key(|(_, r)| std::cmp::Reverse(r.len()));
    let g2_items = tables.b_g2.chunks(t);
    let g1_run = |(which, range): &(G1Msm, std::ops::Range<usize>)| {
        let t = Instant::now();
        let p = match which {
            G1Msm::A => tables.a.msm_range(&z, range.clone()),
            G1Msm::B => tables.b_g1.msm_range(&z, range.clone()),
            G1Msm::H => tables.h.msm_range(&h, range.clone()),
            G1Msm::L => tables.l.msm_range(aux, range.clone()),
        };
        (*which, p, t.elapsed().as_secs_f64())
    };
    let g2_run = |range: &std::ops::Range<usize>| {
        let t = Instant::now();
        let p = tables.b_g2.msm_range(&z, range.clone());
        (p, t.elapsed().as_secs_f64())
    };
    let add_g2 = |(p, t): (G2Projective, f64), (q, u): (G2Projective, f64)| (p + q, t + u);
    let msm_start = Instant::now();
    #[cfg(feature = "parallel")]
    let (g1_parts, (g2_b_acc, g2_time)): (Vec<(G1Msm, G1Projective, f64)>, _) = rayon::join(
        || g1_items.par_iter().map(g1_run).collect(),
        || {
            g2_items
                .par_iter()
                .map(g2_run)
                .reduce(|| (G2Projective::zero(), 0.0), add_g2)
        },
    );
    #[cfg(not(feature = "parallel"))]
    let (g1_parts, (g2_b_acc, g2_time)): (Vec<(G1Msm, G1Projective, f64)>, _) = (
        g1_items.iter().map(g1_run).collect(),
        g2_items
            .iter()
            .map(g2_run)
            .fold((G2Projective::zero(), 0.0), add_g2),
    );
    let msm_wall = msm_start.elapsed().as_secs_f64();
    // A, B (G1), H, L: sums and thread time; busy[4]: B (G2)
    let mut acc = [G1Projective::zero(); 4];
    let mut busy = [0.0f64; 5];
    for (which, p, t) in g1_parts {
        let i = which as usize;
        acc[i] += p;
        busy[i] += t;
    }
    let [a_acc, b_acc, h_acc, l_acc] = acc;
    busy[4] = g2_time;
    let busy_total: f64 = busy.iter().sum();
    let share = |i: usize| {
        if busy_total > 0.0 {
            msm_wall * busy[i] / busy_total
        } else {
            0.0
        }
    };

    let delta_g1: G1Affine = pk.delta_g1;
    let delta_g2: G2Affine = pk.vk.delta_g2;
    // A = α + Σ z_i·a_i + r·δ
    let g_a = a_acc + pk.vk.alpha_g1 + delta_g1 * r;
    // B = β + Σ z_i·b_i + s·δ (in G1 and G2)
    let g1_b = b_acc + pk.beta_g1 + delta_g1 * s;
    let g2_b = g2_b_acc + pk.vk.beta_g2 + delta_g2 * s;
    // C = s·A + r·B1 − r·s·δ + Σ aux_i·l_i + Σ h_i·h_i
    let g_c = g_a * s + g1_b * r - delta_g1 * (r * s) + l_acc + h_acc;
    let mut affine = G1Projective::normalize_batch(&[g_a, g_c]);
    let c = affine.pop().expect("two points");
    let a = affine.pop().expect("two points");
    let proof = Proof {
        a,
        b: g2_b.into_affine(),
        c,
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::VariableBaseMSM;
    use ark_ff::UniformRand;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn fixed_base_msm_matches_arkworks() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for n in [1usize, 2, 5, 33, 300] {
            let mut bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
            if n > 2 {
                bases[1] = G1Affine::zero();
            }
            let mut scalars: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            scalars[0] = -Fr::from(1u64);
            if n > 4 {
                scalars[2] = Fr::zero();
                scalars[3] = Fr::from(1u64);
                scalars[4] = Fr::from(u64::MAX);
            }
            let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
            let expected = G1Projective::msm(&bases, &scalars).unwrap();
            for chunks in [1, 3] {
                let table = FixedBaseTable::new(&bases, chunks);
                let got: G1Projective = table
                    .chunks(chunks)
                    .into_iter()
                    .map(|r| table.msm_range(&big, r))
                    .sum();
                assert_eq!(got, expected, "n = {n}, chunks = {chunks}");
            }
            let bases2: Vec<G2Affine> = (0..n).map(|_| G2Affine::rand(&mut rng)).collect();
            let table2 = FixedBaseTable::new(&bases2, 2);
            let got2: G2Projective = table2
                .chunks(2)
                .into_iter()
                .map(|r| table2.msm_range(&big, r))
                .sum();
            assert_eq!(got2, G2Projective::msm(&bases2, &scalars).unwrap());
            assert_eq!(table2.msm(&big, 2), got2);
            let table = FixedBaseTable::new(&bases, 2);
            assert_eq!(table.msm(&big, 2), expected);
            assert_eq!(table.points(), table.len() * table.windows);
        }
    }

    /// Both batch paths (the eight-lane AVX-512 IFMA kernel, where this CPU
    /// has it, and ark-ff's arithmetic) against arkworks' MSM, on a window
    /// large enough for full batches, with bases drawn from a few points and
    /// their negations so that batches meet doublings (`p = q`) and
    /// cancellations (`p = −q`), which the kernel leaves to the scalar path.
    #[test]
    fn fixed_base_msm_batch_paths_agree() {
        let mut rng = ChaCha20Rng::seed_from_u64(13);
        let n = 4000;
        let few: Vec<G1Affine> = (0..3).map(|_| G1Affine::rand(&mut rng)).collect();
        let few2: Vec<G2Affine> = (0..3).map(|_| G2Affine::rand(&mut rng)).collect();
        let pick = |i: usize| (i * 7 + i / 3) % 6;
        let bases: Vec<G1Affine> = (0..n)
            .map(|i| match pick(i) {
                k @ 0..=2 => few[k],
                k => -few[k - 3],
            })
            .collect();
        let bases2: Vec<G2Affine> = (0..n)
            .map(|i| match pick(i) {
                k @ 0..=2 => few2[k],
                k => -few2[k - 3],
            })
            .collect();
        // random scalars, then a run of small ones (equal digits, equal points)
        let scalars: Vec<Fr> = (0..n)
            .map(|i| {
                if i < n / 2 {
                    Fr::rand(&mut rng)
                } else {
                    Fr::from((i % 5) as u64)
                }
            })
            .collect();
        let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
        let want = G1Projective::msm(&bases, &scalars).unwrap();
        let want2 = G2Projective::msm(&bases2, &scalars).unwrap();
        let table = FixedBaseTable::new(&bases, 1);
        let table2 = FixedBaseTable::new(&bases2, 1);
        assert!(
            table.window >= 8,
            "window {} gives tiny batches",
            table.window
        );
        for vector in [true, false] {
            assert_eq!(table.msm_range_with(&big, 0..table.len(), vector), want);
            assert_eq!(table2.msm_range_with(&big, 0..table2.len(), vector), want2);
        }
        // random bases: the common case
        let bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
        let table = FixedBaseTable::new(&bases, 1);
        let want = G1Projective::msm(&bases, &scalars).unwrap();
        for vector in [true, false] {
            assert_eq!(table.msm_range_with(&big, 0..table.len(), vector), want);
        }
    }

    /// Skewed scalars (mostly 1 and a few small values, as in witnesses):
    /// the same buckets over and over exercise the deferred queue and the
    /// projective overflow.
    #[test]
    fn fixed_base_msm_skewed_scalars() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let n = 3000;
        let bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
        let scalars: Vec<Fr> = (0..n)
            .map(|i| match i % 10 {
                0 => Fr::rand(&mut rng),
                1 => Fr::from(3u64),
                2 => -Fr::from(1u64),
                _ => Fr::from(1u64),
            })
            .collect();
        let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
        let table = FixedBaseTable::new(&bases, 1);
        assert_eq!(
            table.msm(&big, 1),
            G1Projective::msm(&bases, &scalars).unwrap()
        );
    }
}
