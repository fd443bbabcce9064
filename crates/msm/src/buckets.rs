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
    /// The buckets, the batch and their scratch memory.
    b: Buffers<P>,
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
}

thread_local! {
    /// Spare [`Buffers`] of this thread, of any curve.
    static SPARE: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// Spare buffers kept per thread (of all curves together).
const MAX_SPARE: usize = 4;

impl<P: RawCurve> Default for Buffers<P> {
    fn default() -> Self {
        Self {
            buckets: Vec::new(),
            state: Vec::new(),
            batch: Vec::new(),
            deferred: Vec::new(),
            retry: Vec::new(),
            side: Vec::new(),
            scratch: Vec::new(),
            prefix: Vec::new(),
            soa: Default::default(),
        }
    }
}

impl<P: RawCurve> Buffers<P> {
    /// This thread's spare buffers for curve `P`, or new empty ones.
    fn take() -> Self {
        SPARE
            .with(|s| {
                let mut s = s.borrow_mut();
                let i = s.iter().position(|b| b.is::<Self>())?;
                s.swap_remove(i).downcast::<Self>().ok()
            })
            .map_or_else(Self::default, |b| *b)
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
        std::mem::take(&mut self.b).give();
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
            b,
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
        if self.b.batch.len() == self.capacity() {
            self.flush();
        }
    }

    /// Sets an empty bucket to the entry's point, or queues the addition in
    /// the batch, or in `deferred` if the bucket is busy or the batch full,
    /// or adds it to the bucket's overflow if `deferred` is full too.
    fn insert(&mut self, e: Entry) {
        let b = e.bucket as usize;
        match self.b.state[b] {
            EMPTY => {
                self.b.buckets[b] = Self::point(self.points, e);
                self.b.state[b] = FULL;
            }
            FULL if self.b.batch.len() < self.capacity() => {
                self.b.state[b] = BUSY;
                self.b.batch.push(e);
            }
            _ if self.b.deferred.len() < self.capacity() / 2 => {
                self.b.deferred.push(e);
            }
            _ => {
                if self.b.side.is_empty() {
                    self.b
                        .side
                        .resize(self.b.buckets.len(), Projective::<P>::zero());
                }
                add_affine(&mut self.b.side[b], &Self::point(self.points, e));
            }
        }
    }

    /// Performs the waiting additions with one inversion, then queues the
    /// deferred ones again (they start the next batch).
    fn flush(&mut self) {
        if self.b.batch.is_empty() {
            return;
        }
        // the eight-lane kernel where there is one (its inversion has a
        // fixed cost of sixteen lanes: not worth it for tiny batches)
        if P::BaseField::SOA_GROUP == 0
            || self.b.batch.len() < 32
            || !self.vector
            || !self.flush_x8()
        {
            self.flush_scalar();
        }
        self.b.batch.clear();
        std::mem::swap(&mut self.b.deferred, &mut self.b.retry);
        let mut retry = std::mem::take(&mut self.b.retry);
        for &e in &retry {
            self.insert(e);
        }
        retry.clear();
        self.b.retry = retry;
    }

    /// The special case of an addition with `p.x = q.x` (doubling or
    /// cancellation: rare), done at once; the entry is then marked done
    /// (bucket index out of range).
    fn add_special(&mut self, e: &mut Entry, p: Affine<P>) {
        let q = &mut self.b.buckets[e.bucket as usize];
        let sum = q.into_group() + p;
        self.b.state[e.bucket as usize] = if sum.is_zero() { EMPTY } else { FULL };
        *q = sum.into_affine();
        e.bucket = u32::MAX;
    }

    /// The batch's additions with the eight-lane kernel: the points and
    /// buckets are copied into its layout, added there, and copied back;
    /// `false` (nothing done) without the kernel.
    fn flush_x8(&mut self) -> bool {
        let points = self.points;
        let group = P::BaseField::SOA_GROUP;
        let words = self.b.batch.len().div_ceil(8) * group;
        for v in self.b.soa.iter_mut() {
            v.resize(words, 0);
        }
        let mut batch = std::mem::take(&mut self.b.batch);
        let mut n = 0;
        for e in batch.iter_mut() {
            let p = Self::point(points, *e);
            let q = self.b.buckets[e.bucket as usize];
            if p.x == q.x {
                self.add_special(e, p);
                continue;
            }
            let [px, py, qx, qy] = &mut self.b.soa;
            p.x.soa_put(px, n);
            p.y.soa_put(py, n);
            q.x.soa_put(qx, n);
            q.y.soa_put(qy, n);
            n += 1;
        }
        let groups = n.div_ceil(8);
        let [px, py, qx, qy] = &mut self.b.soa;
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
            self.b.batch = batch;
            self.b.batch.retain(|e| e.bucket != u32::MAX);
            return false;
        }
        let mut k = 0;
        for e in &batch {
            if e.bucket == u32::MAX {
                continue;
            }
            let x = P::BaseField::soa_get(qx, k);
            let y = P::BaseField::soa_get(qy, k);
            self.b.buckets[e.bucket as usize] = Affine::new_unchecked(x, y);
            self.b.state[e.bucket as usize] = FULL;
            k += 1;
        }
        batch.clear();
        self.b.batch = batch;
        true
    }

    /// The batch's additions with ark-ff's (or, on wasm32, this crate's)
    /// field arithmetic and one inversion.
    fn flush_scalar(&mut self) {
        let points = self.points;
        self.b.scratch.clear();
        let mut batch = std::mem::take(&mut self.b.batch);
        for e in batch.iter_mut() {
            let p = &point::<P>(points, e.point);
            let mut d = p.x.sub_msm(&self.b.buckets[e.bucket as usize].x);
            if d.is_zero() {
                // done at once; the entry is then skipped (denominator 1)
                self.add_special(e, Self::point(points, *e));
                d = P::BaseField::one();
            }
            self.b.scratch.push(d);
        }
        self.b.batch = batch;
        batch_invert(&mut self.b.scratch, &mut self.b.prefix);
        for (e, inv) in self.b.batch.iter().zip(&self.b.scratch) {
            let Some(q) = self.b.buckets.get_mut(e.bucket as usize) else {
                continue;
            };
            let p = &point::<P>(points, e.point);
            // λ = (±p.y − q.y) / (p.x − q.x)
            // −(p.y + q.y) = −q.y − p.y
            let num = if e.neg {
                (-q.y).sub_msm(&p.y)
            } else {
                p.y.sub_msm(&q.y)
            };
            let lambda = num.mul_msm(inv);
            let x = lambda.square_msm().sub_msm(&q.x).sub_msm(&p.x);
            let y = lambda.mul_msm(&q.x.sub_msm(&x)).sub_msm(&q.y);
            *q = Affine::new_unchecked(x, y);
            self.b.state[e.bucket as usize] = FULL;
        }
    }

    /// `Σ (offset + i + 1) · buckets[i]`, after the last additions: the
    /// reduction of buckets `offset..` of a bucket set cut into parts
    /// ([`crate::split`]), its weighted sum plus `offset` times its plain
    /// sum (the running sum at the end).
    pub(crate) fn sum_weighted(mut self, offset: u64) -> Projective<P> {
        while !self.b.batch.is_empty() {
            self.flush();
        }
        debug_assert!(self.b.deferred.is_empty());
        let mut running = Projective::<P>::zero();
        let mut acc = Projective::<P>::zero();
        for (i, b) in self.b.buckets.iter().enumerate().rev() {
            if self.b.state[i] != EMPTY {
                add_affine(&mut running, b);
            }
            if let Some(side) = self.b.side.get(i) {
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
