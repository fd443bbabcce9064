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
        let mut batch = std::mem::take(&mut self.b.batch);
        for e in batch.iter_mut() {
            let p = Self::point(points, *e);
            if p.x == self.b.buckets[e.bucket as usize].x {
                self.add_special(e, p);
            }
        }
        let live = batch.iter().filter(|e| e.bucket != u32::MAX);
        let buckets = &self.b.buckets;
        let pairs = live
            .clone()
            .map(|e| (Self::point(points, *e), buckets[e.bucket as usize]));
        if !add_x8(live.clone().count(), pairs, &mut self.b.soa) {
            // no kernel: the specials are done, the scalar pass does the rest
            self.b.batch = batch;
            self.b.batch.retain(|e| e.bucket != u32::MAX);
            return false;
        }
        let [_, _, qx, qy] = &self.b.soa;
        for (k, e) in live.enumerate() {
            let x = P::BaseField::soa_get(qx, k);
            let y = P::BaseField::soa_get(qy, k);
            self.b.buckets[e.bucket as usize] = Affine::new_unchecked(x, y);
            self.b.state[e.bucket as usize] = FULL;
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
        P::BaseField::invert_all(&mut self.b.scratch, &mut self.b.prefix);
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
            *q = add_with_slope(q, &p.x, &num, inv);
            self.b.state[e.bucket as usize] = FULL;
        }
    }

    /// `Σ (offset + i + 1) · buckets[i]`, after the last additions: the
    /// reduction of buckets `offset..` of a bucket set cut into parts
    /// ([`crate::split`]), its weighted sum plus `offset` times its plain
    /// sum (the running sum at the end).
    ///
    /// Sets of at least [`MIN_BATCHED_REDUCTION`] buckets are reduced with
    /// batched affine additions ([`reduce_batched`]), smaller ones with the
    /// running sums in Jacobian coordinates.
    pub(crate) fn sum_weighted(mut self, offset: u64) -> Projective<P> {
        while !self.b.batch.is_empty() {
            self.flush();
        }
        debug_assert!(self.b.deferred.is_empty());
        if self.b.buckets.len() >= MIN_BATCHED_REDUCTION {
            self.fold_sides();
            let b = &mut self.b;
            let mut s = BatchScratch {
                inverses: &mut b.scratch,
                prefix: &mut b.prefix,
                soa: self.vector.then_some(&mut b.soa),
            };
            return reduce_batched(&b.buckets, &b.state, offset, &mut s);
        }
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

    /// Adds every bucket's projective overflow into the bucket (one
    /// inversion for all of them) and empties the overflow.
    fn fold_sides(&mut self) {
        if self.b.side.is_empty() {
            return;
        }
        let b = &mut self.b;
        let (mut at, mut sums) = (Vec::new(), Vec::new());
        for (i, side) in b.side.iter().enumerate() {
            if side.is_zero() {
                continue;
            }
            let mut sum = *side;
            if b.state[i] != EMPTY {
                add_affine(&mut sum, &b.buckets[i]);
            }
            at.push(i);
            sums.push(sum);
        }
        for (i, sum) in at.into_iter().zip(Projective::normalize_batch(&sums)) {
            b.state[i] = if sum.is_zero() { EMPTY } else { FULL };
            b.buckets[i] = sum;
        }
        b.side.clear();
    }
}

/// Bucket sets from this size on are reduced with batched affine additions
/// ([`reduce_batched`]); below it the few batches' inversions cost more
/// than the Jacobian formulas they save.
pub(crate) const MIN_BATCHED_REDUCTION: usize = 256;

/// `Σ (offset + i + 1) · buckets[i]` over the non-empty buckets with
/// batched affine additions (one inversion per batch, about 6
/// multiplications per addition, against about 27 for a running sum's mixed
/// and Jacobian additions).
///
/// The running sum is sequential, so the buckets are cut into `k ≈ √(2n)`
/// segments of `m = ⌈n/k⌉` that run side by side: step `t` (from the top)
/// adds bucket `j·m + t` into segment `j`'s running sum `R_j` for every `j`
/// (one batch), then `R_j` into its weighted sum `A_j` (another). Segment `j`
/// weighs bucket `j·m + t` by `t + 1`; the rest of its weight, `j·m + offset`,
/// applies to the whole segment, so the total is
/// `Σ_j A_j + m·Σ_j j·R_j + offset·Σ_j R_j`, the last two with a Jacobian
/// running sum over the `k` segments. This is the bucket reduction of the
/// GPU MSMs (e.g. the ZPrize 2022 entries), here for the batch inversions.
fn reduce_batched<P: RawCurve>(
    buckets: &[Affine<P>],
    state: &[u8],
    offset: u64,
    s: &mut BatchScratch<'_, P::BaseField>,
) -> Projective<P>
where
    P::BaseField: MsmField,
{
    let n = buckets.len();
    let k = ((2 * n) as f64).sqrt() as usize;
    let m = n.div_ceil(k.max(1));
    let k = n.div_ceil(m);
    let mut run = vec![Affine::<P>::zero(); k];
    let mut acc = vec![Affine::<P>::zero(); k];
    let mut pairs = Vec::with_capacity(k);
    for t in (0..m).rev() {
        pairs.clear();
        pairs.extend((0..k).filter_map(|j| {
            let i = j * m + t;
            (i < n && state[i] != EMPTY).then(|| (j, buckets[i]))
        }));
        add_batch(&mut run, &mut pairs, s);
        pairs.clear();
        pairs.extend((0..k).filter(|&j| !run[j].is_zero()).map(|j| (j, run[j])));
        add_batch(&mut acc, &mut pairs, s);
    }
    // Σ_j A_j + m·Σ_j j·R_j + offset·Σ_j R_j
    let mut total = Projective::<P>::zero();
    let (mut plain, mut weighted) = (Projective::<P>::zero(), Projective::<P>::zero());
    for j in (0..k).rev() {
        add_affine(&mut total, &acc[j]);
        if j > 0 {
            add_affine(&mut plain, &run[j]);
            add_projective(&mut weighted, &plain);
        }
    }
    total += weighted.mul_bigint([m as u64]);
    if offset > 0 {
        add_affine(&mut plain, &run[0]);
        total += plain.mul_bigint([offset]);
    }
    total
}

/// The scratch memory of [`add_batch`]: the denominators and prefix
/// products of its inversion, and the eight-lane kernel's layout where the
/// batches go to it (`None`: scalar arithmetic only).
struct BatchScratch<'a, F> {
    inverses: &'a mut Vec<F>,
    prefix: &'a mut Vec<F>,
    soa: Option<&'a mut [Vec<u64>; 4]>,
}

/// `dst[j] += p` for every `(j, p)` of `pairs` (each `j` at most once, no
/// `p` at infinity), with one inversion: an empty `dst[j]` takes `p`, a
/// cancellation (`dst[j] = −p`) empties it, and a doubling (`dst[j] = p`,
/// common here: a running sum added to a weighted sum that holds only it)
/// joins the scalar batch with its own slope `3x² / 2y`. With the eight-lane
/// kernel (`s.soa`, at least 32 pairs) the additions of distinct points go
/// to it and only the doublings take the scalar batch. Pairs done are marked
/// `j = usize::MAX`.
fn add_batch<P: RawCurve>(
    dst: &mut [Affine<P>],
    pairs: &mut [(usize, Affine<P>)],
    s: &mut BatchScratch<'_, P::BaseField>,
) where
    P::BaseField: MsmField,
{
    for (j, p) in pairs.iter_mut() {
        let q = &mut dst[*j];
        // BN254 has no point with y = 0: equal x and unequal y is −p
        if q.is_zero() || (q.x == p.x && q.y != p.y) {
            *q = if q.is_zero() { *p } else { Affine::zero() };
            *j = usize::MAX;
        }
    }
    if let Some(soa) = s.soa.as_deref_mut().filter(|_| pairs.len() >= 32) {
        let distinct: Vec<usize> = (0..pairs.len())
            .filter(|&i| pairs[i].0 != usize::MAX && dst[pairs[i].0].x != pairs[i].1.x)
            .collect();
        let (d, p) = (&*dst, &*pairs);
        let x8 = distinct.iter().map(|&i| (p[i].1, d[p[i].0]));
        if !distinct.is_empty() && add_x8(distinct.len(), x8, soa) {
            let [_, _, qx, qy] = &*soa;
            for (k, &i) in distinct.iter().enumerate() {
                let (x, y) = (P::BaseField::soa_get(qx, k), P::BaseField::soa_get(qy, k));
                dst[pairs[i].0] = Affine::new_unchecked(x, y);
                pairs[i].0 = usize::MAX;
            }
        }
    }
    let live = || pairs.iter().filter(|(j, _)| *j != usize::MAX);
    if live().next().is_none() {
        return;
    }
    s.inverses.clear();
    s.inverses.extend(live().map(|&(j, p)| {
        let q = &dst[j];
        if q.x == p.x {
            p.y.add_msm(&p.y)
        } else {
            p.x.sub_msm(&q.x)
        }
    }));
    P::BaseField::invert_all(s.inverses, s.prefix);
    for (&(j, p), inv) in live().zip(s.inverses.iter()) {
        let q = &mut dst[j];
        let num = if q.x == p.x {
            // doubling: λ = 3x² / 2y
            let x2 = p.x.square_msm();
            x2.add_msm(&x2).add_msm(&x2)
        } else {
            // λ = (p.y − q.y) / (p.x − q.x)
            p.y.sub_msm(&q.y)
        };
        *q = add_with_slope(q, &p.x, &num, inv);
    }
}

/// `q + p` from the slope's numerator `num` and the inverse `inv` of its
/// denominator (`λ = num·inv`), given `p.x`: `x = λ² − q.x − p.x`,
/// `y = λ·(q.x − x) − q.y`.
#[inline(always)]
fn add_with_slope<P: RawCurve>(
    q: &Affine<P>,
    px: &P::BaseField,
    num: &P::BaseField,
    inv: &P::BaseField,
) -> Affine<P>
where
    P::BaseField: MsmField,
{
    let lambda = num.mul_msm(inv);
    let x = lambda.square_msm().sub_msm(&q.x).sub_msm(px);
    let y = lambda.mul_msm(&q.x.sub_msm(&x)).sub_msm(&q.y);
    Affine::new_unchecked(x, y)
}

/// Table point `i` of the raw point bytes (see [`crate::points`]).
#[inline(always)]
pub(crate) fn point<P: RawCurve>(points: &[u8], i: usize) -> Affine<P> {
    P::get(&points[i * P::BYTES..(i + 1) * P::BYTES])
}

/// The additions `q += p` of `n` pairs `(p, q)` (no `p.x = q.x`) with the
/// eight-lane kernel ([`MsmField::batch_add_x8`]): the pairs go into its
/// layout in `soa` (`[px, py, qx, qy]`), padded to whole groups, and the sum
/// of pair `k` is then element `k` of `soa[2]`, `soa[3]`; `false` (nothing
/// done) where there is no kernel.
fn add_x8<P: RawCurve>(
    n: usize,
    pairs: impl Iterator<Item = (Affine<P>, Affine<P>)>,
    soa: &mut [Vec<u64>; 4],
) -> bool
where
    P::BaseField: MsmField,
{
    let groups = n.div_ceil(8);
    for v in soa.iter_mut() {
        v.resize(groups * P::BaseField::SOA_GROUP, 0);
    }
    let [px, py, qx, qy] = soa;
    for (k, (p, q)) in pairs.enumerate() {
        p.x.soa_put(px, k);
        p.y.soa_put(py, k);
        q.x.soa_put(qx, k);
        q.y.soa_put(qy, k);
    }
    // padding lanes: (1, 0) + (0, 0), a non-zero denominator
    for k in n..groups * 8 {
        P::BaseField::one().soa_put(px, k);
        P::BaseField::zero().soa_put(py, k);
        P::BaseField::zero().soa_put(qx, k);
        P::BaseField::zero().soa_put(qy, k);
    }
    P::BaseField::batch_add_x8(px, py, qx, qy, groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{g1, g2};
    use ark_ec::short_weierstrass::SWCurveConfig;
    use ark_ff::UniformRand;
    use rand::{Rng, SeedableRng};

    /// `Σ (offset + i + 1) · buckets[i]` the slow way.
    fn naive<P: SWCurveConfig>(buckets: &[Affine<P>], offset: u64) -> Projective<P> {
        buckets
            .iter()
            .enumerate()
            .map(|(i, b)| b.mul_bigint([offset + i as u64 + 1]))
            .sum()
    }

    /// Bucket sets with empty buckets, runs of equal points (doublings in
    /// the running sums), a point and its negation side by side
    /// (cancellations), one lone point (a weighted sum that holds only its
    /// running sum: doublings), and every bucket equal.
    fn bucket_sets<P: SWCurveConfig>(rng: &mut impl Rng, n: usize) -> Vec<Vec<Affine<P>>> {
        let p = Affine::<P>::rand(rng);
        let mut mixed: Vec<Affine<P>> = (0..n)
            .map(|_| match rng.gen_range(0..4) {
                0 => Affine::zero(),
                1 => p,
                _ => Affine::rand(rng),
            })
            .collect();
        mixed[n / 2] = -mixed[n / 2 + 1];
        let mut lone = vec![Affine::zero(); n];
        lone[n - 1] = p;
        lone[n / 3] = p;
        vec![mixed, lone, vec![p; n], vec![Affine::zero(); n]]
    }

    fn check<P: RawCurve>(rng: &mut impl Rng)
    where
        P::BaseField: MsmField,
    {
        for n in [MIN_BATCHED_REDUCTION, 300, 1000, 4096] {
            for set in bucket_sets::<P>(rng, n) {
                let state: Vec<u8> = set
                    .iter()
                    .map(|b| if b.is_zero() { EMPTY } else { FULL })
                    .collect();
                for (offset, vector) in [(0, false), (4096, false), (0, true), (4096, true)] {
                    let (mut inverses, mut prefix, mut soa) = Default::default();
                    let mut s = BatchScratch {
                        inverses: &mut inverses,
                        prefix: &mut prefix,
                        soa: vector.then_some(&mut soa),
                    };
                    let got = reduce_batched(&set, &state, offset, &mut s);
                    let want = naive(&set, offset);
                    assert_eq!(got, want, "{n} buckets, offset {offset}, vector {vector}");
                }
            }
        }
    }

    #[test]
    fn batched_reduction_matches_running_sums() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        check::<g1::Config>(&mut rng);
        check::<g2::Config>(&mut rng);
    }
}
