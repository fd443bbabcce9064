//! Affine buckets filled with batched affine additions: one field inversion
//! for a whole batch (P. L. Montgomery, "Speeding the Pollard and elliptic
//! curve methods of factorization", Math. Comp. 1987), the technique of the
//! ZPrize 2022 MSM entries and gnark-crypto's `msmBatchAffine`.

use ark_ec::{
    short_weierstrass::{Affine, Projective},
    AffineRepr, CurveGroup, PrimeGroup,
};
use ark_ff::{One, Zero};

use crate::field::{add_affine, add_projective, MsmField};
use crate::points::RawCurve;

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
pub(crate) struct AffineBuckets<'a, P: RawCurve> {
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
    /// Additions per batch: a quarter of the buckets, at most [`MAX_BATCH`].
    batch_size: usize,
}

/// The memory of a bucket set, kept by each thread between MSMs
/// ([`Buffers::take`], and [`AffineBuckets`]'s `Drop`): a proof's MSM
/// pieces would otherwise each allocate and free hundreds of kilobytes
/// (beyond glibc's mmap threshold: fresh pages faulted in, then unmapped
/// with a TLB shootdown on every core of the process), costs that grow
/// with the threads.
struct Buffers<P: RawCurve> {
    buckets: Vec<Affine<P>>,
    state: Vec<u8>,
    batch: Vec<Entry>,
    deferred: Vec<Entry>,
    retry: Vec<Entry>,
    side: Vec<Projective<P>>,
    scratch: Vec<P::BaseField>,
    prefix: Vec<P::BaseField>,
    soa: [Vec<u64>; 4],
}

thread_local! {
    /// Spare [`Buffers`] of this thread, of any curve.
    static SPARE: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// Spare buffers kept per thread (of all curves together).
const MAX_SPARE: usize = 4;

impl<P: RawCurve> Buffers<P> {
    /// This thread's spare buffers for curve `P`, or new empty ones.
    fn take() -> Self {
        SPARE
            .with(|s| {
                let mut s = s.borrow_mut();
                let i = s.iter().position(|b| b.is::<Self>())?;
                s.swap_remove(i).downcast::<Self>().ok()
            })
            .map_or_else(
                || Self {
                    buckets: Vec::new(),
                    state: Vec::new(),
                    batch: Vec::new(),
                    deferred: Vec::new(),
                    retry: Vec::new(),
                    side: Vec::new(),
                    scratch: Vec::new(),
                    prefix: Vec::new(),
                    soa: Default::default(),
                },
                |b| *b,
            )
    }

    /// Keeps `self` for this thread's next bucket set.
    fn give(self) {
        SPARE.with(|s| {
            let mut s = s.borrow_mut();
            if s.len() < MAX_SPARE {
                s.push(Box::new(self));
            }
        });
    }
}

impl<P: RawCurve> Drop for AffineBuckets<'_, P> {
    fn drop(&mut self) {
        use std::mem::take;
        Buffers::<P> {
            buckets: take(&mut self.buckets),
            state: take(&mut self.state),
            batch: take(&mut self.batch),
            deferred: take(&mut self.deferred),
            retry: take(&mut self.retry),
            side: take(&mut self.side),
            scratch: take(&mut self.scratch),
            prefix: take(&mut self.prefix),
            soa: take(&mut self.soa),
        }
        .give();
    }
}

/// One addition `buckets[bucket] += ±points[point]`: the table point is
/// referred to, not copied (16 bytes instead of 72 or 136 per entry).
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) bucket: u32,
    /// Whether the point is subtracted.
    pub(crate) neg: bool,
    pub(crate) point: usize,
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
    pub(crate) fn new(n: usize, points: &'a [u8], vector: bool) -> Self {
        let cap = MAX_BATCH.min(n.div_ceil(4)).max(1);
        let mut b = Buffers::<P>::take();
        b.buckets.clear();
        b.buckets.resize(n, Affine::<P>::zero());
        b.state.clear();
        b.state.resize(n, EMPTY);
        for v in [&mut b.batch, &mut b.deferred, &mut b.retry] {
            v.clear();
        }
        b.batch.reserve(cap);
        b.side.clear();
        Self {
            points,
            buckets: b.buckets,
            state: b.state,
            batch: b.batch,
            deferred: b.deferred,
            retry: b.retry,
            side: b.side,
            scratch: b.scratch,
            prefix: b.prefix,
            soa: b.soa,
            vector,
            batch_size: cap,
        }
    }

    fn capacity(&self) -> usize {
        self.batch_size
    }

    /// The point `±points[e.point]` of an entry (never the point at infinity:
    /// the tables keep non-zero bases only).
    fn point(points: &[u8], e: Entry) -> Affine<P> {
        let p = point::<P>(points, e.point);
        if e.neg {
            -p
        } else {
            p
        }
    }

    /// The entry's addition (possibly later).
    pub(crate) fn add(&mut self, e: Entry) {
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
                    self.side
                        .resize(self.buckets.len(), Projective::<P>::zero());
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
            let p = &point::<P>(points, e.point);
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
            let p = &point::<P>(points, e.point);
            // λ = (±p.y − q.y) / (p.x − q.x)
            let num = if e.neg { -(p.y + q.y) } else { p.y - q.y };
            let lambda = num.mul_msm(inv);
            let x = lambda.square_msm() - q.x - p.x;
            let y = lambda.mul_msm(&(q.x - x)) - q.y;
            *q = Affine::new_unchecked(x, y);
            self.state[e.bucket as usize] = FULL;
        }
    }

    /// `Σ (offset + i + 1) · buckets[i]`, after the last additions: the
    /// reduction of buckets `offset..` of a bucket set cut into parts
    /// ([`crate::split`]), its weighted sum plus `offset` times its plain
    /// sum (the running sum at the end).
    pub(crate) fn sum_weighted(mut self, offset: u64) -> Projective<P> {
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
        if offset > 0 {
            acc += running.mul_bigint([offset]);
        }
        acc
    }
}

/// Table point `i` of the raw point bytes (see [`crate::points`]).
#[inline(always)]
pub(crate) fn point<P: RawCurve>(points: &[u8], i: usize) -> Affine<P> {
    P::get(&points[i * P::BYTES..(i + 1) * P::BYTES])
}
