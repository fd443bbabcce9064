//! Fixed-base tables: the multiples `2^(c·j)·P` of every base `P` of an MSM
//! whose bases are known in advance (a proving key's queries), so that an
//! MSM is one bucket pass over all (base, window) pairs with signed `c`-bit
//! digits: about `n·⌈255/c⌉` additions plus one bucket reduction of
//! `2^(c-1)` buckets, instead of one reduction and `c` doublings per window
//! in Pippenger's algorithm (N. Pippenger, "On the evaluation of powers and
//! monomials", SIAM J. Comput. 1980; the fixed-base windowing of E. F.
//! Brickell, D. M. Gordon, K. S. McCurley, D. B. Wilson, "Fast
//! exponentiation with precomputation", EUROCRYPT 1992). The window `c` is
//! picked per table to minimise that cost (bounded by a memory cap); bases at
//! infinity are dropped.
//!
//! A **compact** table ([`FixedBaseTable::compact`]) keeps only `rows` of
//! those multiples per base, `2^(c·s·i)·P` with `s = ⌈windows/rows⌉`, and
//! runs `s` bucket passes (*rounds*): round `r` adds the digits of windows
//! `i·s + r`, and the rounds' sums are joined as `Σ_r 2^(c·r)·S_r` (Horner,
//! `c` doublings apart). `rows = 1` is Pippenger's algorithm over the bases
//! themselves: no precomputed multiples, only the bases (as raw limbs).
//! The full table is `rows = windows`, one round.
//!
//! A compact table is also **split** ([`crate::glv`]): every scalar is cut
//! into two halves of at most 129 bits, `k = k₁ + λ·k₂`, the table serves
//! the endomorphism's image `φ(P) = λ·P` of each of its points (computed
//! when the table is built or read: one multiplication per point, held
//! after the stored points), and the digits of both halves are added in
//! the same passes. Half-length scalars need half the rounds for the same
//! stored rows: the bytes a first visit fetches buy the bucket passes of a
//! table twice their size.

use ark_bn254::Fr;
use ark_ec::{
    short_weierstrass::{Affine, Projective},
    AdditiveGroup, AffineRepr, CurveGroup,
};
use ark_ff::{BigInteger, PrimeField};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::buckets::{AffineBuckets, Entry};
use crate::field::MsmField;
use crate::glv::{GlvSplit, HALF_BITS};
use crate::points::{PointBytes, RawCurve};
use crate::split::{on_cores, run_plan, split, threads, Block, Piece, Shape};

/// A BN254 scalar as the MSM reads it: its canonical limbs (not Montgomery).
pub type Scalar = <Fr as PrimeField>::BigInt;

/// Number of bits of a BN254 scalar.
const SCALAR_BITS: usize = 254;
/// Upper bound on the number of table points per query (memory cap: 2^22 G1
/// points are 256 MiB).
const MAX_TABLE_POINTS: usize = 1 << 22;
/// Cost of the reduction `Σ (i+1)·bucket[i]` per bucket, in batched affine
/// additions: two of them (the running sum's and the weighted sum's, see
/// `buckets::reduce_batched`), which is also about what the Jacobian
/// formulas of a bucket set too small for batches cost per bucket (a mixed
/// and a projective addition, about 11 and 16 field multiplications, against
/// about 6 for a batched affine addition) over its few buckets.
const REDUCTION_COST: usize = 2;
/// Most digits of one base: a split table's `2·rows·rounds`, with
/// `rows·rounds < 2·half_windows(2)`.
const MAX_DIGITS: usize = 4 * (HALF_BITS + 1).div_ceil(2);
/// Largest window of a split table: its negated digits reach `2^(c-1)`,
/// which an `i16` holds for `c <= 15`.
const MAX_SPLIT_WINDOW: usize = 15;

/// Precomputed multiples `2^(c·j)·P` of the bases of one MSM (all of them,
/// or every `rounds`-th: see the module docs).
pub struct FixedBaseTable<P: RawCurve> {
    /// Window size in bits.
    window: usize,
    /// Signed digits per base: the windows of a scalar, or in a split table
    /// `2·rows·rounds` (each half's windows, padded to `rows·rounds`).
    windows: usize,
    /// Table points per base, as stored (a split table holds as many again
    /// in memory: their images under the endomorphism).
    rows: usize,
    /// Bucket passes per MSM: `⌈windows / rows⌉` (of a half's windows in a
    /// split table).
    rounds: usize,
    /// The scalar split of a table that serves `φ(P)` beside `P`.
    split: Option<Box<GlvSplit>>,
    /// Index into the scalar vector of every kept (non-zero) base.
    indices: Vec<u32>,
    /// Point `k·rows + i` is `2^(window·rounds·i) · base[indices[k]]`, as
    /// raw limbs ([`crate::points`]); in a split table point
    /// `(len + k)·rows + i` is its image under the endomorphism.
    points: PointBytes,
    _curve: std::marker::PhantomData<P>,
}

/// One bucket pass of an MSM over a table ([`FixedBaseTable::rounds`]).
#[derive(Clone, Copy, Debug)]
pub struct Round<'a> {
    /// Which pass, in `0..rounds()`.
    pub index: usize,
    /// The scalars' signed digits computed once for all the passes
    /// ([`FixedBaseTable::digits`]), or `None`: computed as they are used.
    pub digits: Option<&'a Digits>,
}

impl Round<'static> {
    /// The one pass of a full table (digits computed as they are used).
    pub const ONLY: Self = Round {
        index: 0,
        digits: None,
    };
}

/// The signed digits of every kept base's scalar, `windows` per base: what
/// the rounds of a compact table share, computed once per MSM instead of
/// once per round.
#[derive(Debug)]
pub struct Digits(Vec<i16>);

/// Cost model for a fixed-base MSM over `n` bases with window `c` split into
/// `chunks` independent bucket sets, in `rounds` passes, in batched affine
/// additions: one per digit (of both halves of a `split` scalar) plus the
/// bucket reductions.
fn cost(n: usize, c: usize, chunks: usize, rounds: usize, split: bool) -> usize {
    let digits = if split {
        2 * HALF_BITS.div_ceil(c)
    } else {
        SCALAR_BITS.div_ceil(c)
    };
    n * digits + rounds * chunks * REDUCTION_COST * (1 << (c - 1))
}

/// Signed `c`-bit digits of a scalar, or of one half of a `split` one.
fn scalar_windows(c: usize, split: bool) -> usize {
    if split {
        half_windows(c)
    } else {
        num_windows(c)
    }
}

/// Bucket passes of a table with `rows` points per base and window `c`.
fn rounds_for(c: usize, rows: usize, split: bool) -> usize {
    scalar_windows(c, split).div_ceil(rows)
}

/// Number of signed `c`-bit digits of one half of a split scalar
/// ([`crate::glv`]; room for the final carry).
pub fn half_windows(c: usize) -> usize {
    (HALF_BITS + 1).div_ceil(c)
}

/// Number of signed `c`-bit digits of a BN254 scalar (room for the final carry).
pub fn num_windows(c: usize) -> usize {
    // signed digits in [-2^(c-1), 2^(c-1)): c·windows >= 256 leaves room
    // for the final carry
    (SCALAR_BITS + 2).div_ceil(c)
}

impl<P: RawCurve> FixedBaseTable<P> {
    /// Tables for `bases`, with a window chosen for `chunks` parallel bucket
    /// sets.
    pub fn new(bases: &[Affine<P>], chunks: usize) -> Self {
        Self::build(bases, chunks, None, false)
    }

    /// A compact, split table of at most `rows` stored points per base (at
    /// least 1; 1: the bases alone, Pippenger's algorithm with the
    /// endomorphism), its window chosen for that many rows.
    pub fn compact(bases: &[Affine<P>], chunks: usize, rows: usize) -> Self {
        Self::build(bases, chunks, Some(rows.max(1)), true)
    }

    /// [`Self::new`] (`rows` `None`: every window) or [`Self::compact`]
    /// (`split`: serving `φ(P)`, [`crate::glv`]).
    fn build(bases: &[Affine<P>], chunks: usize, rows: Option<usize>, split: bool) -> Self {
        let indices: Vec<u32> = bases
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.is_zero())
            .map(|(i, _)| i as u32)
            .collect();
        let n = indices.len();
        let per = |c: usize| scalar_windows(c, split);
        let rows_for = |c: usize| rows.map_or(per(c), |r| r.min(per(c)));
        let most = if split { MAX_SPLIT_WINDOW } else { 16 };
        let images = if split { 2 } else { 1 };
        let window = (2..=most)
            .filter(|&c| n * rows_for(c) * images <= MAX_TABLE_POINTS || c == most)
            .min_by_key(|&c| {
                cost(
                    n,
                    c,
                    chunks.max(1),
                    rounds_for(c, rows_for(c), split),
                    split,
                )
            })
            .unwrap_or(most);
        let rows = rows_for(window);
        let rounds = rounds_for(window, rows, split);
        let build = |&i: &u32| {
            let mut p: Projective<P> = bases[i as usize].into_group();
            let mut row = Vec::with_capacity(rows);
            for _ in 0..rows {
                row.push(p);
                for _ in 0..window * rounds {
                    p.double_in_place();
                }
            }
            Projective::normalize_batch(&row)
        };
        #[cfg(feature = "parallel")]
        let table_rows: Vec<Vec<Affine<P>>> = indices.par_iter().map(build).collect();
        #[cfg(not(feature = "parallel"))]
        let table_rows: Vec<Vec<Affine<P>>> = indices.iter().map(build).collect();
        let mut points = PointBytes::zeroed(n * rows * P::BYTES);
        let put = |(row, out): (&Vec<Affine<P>>, &mut [u8])| {
            for (p, o) in row.iter().zip(out.chunks_exact_mut(P::BYTES)) {
                P::put(p, o);
            }
        };
        let row_bytes = (rows * P::BYTES).max(1);
        #[cfg(feature = "parallel")]
        table_rows
            .par_iter()
            .zip(points.make_mut().par_chunks_mut(row_bytes))
            .for_each(put);
        #[cfg(not(feature = "parallel"))]
        table_rows
            .iter()
            .zip(points.make_mut().chunks_mut(row_bytes))
            .for_each(put);
        Self::assemble(window, rows, split, indices, points)
    }

    /// The table of `window`, `rows` and `split` over the stored `points`
    /// (checked by the callers), with the endomorphism's images of a split
    /// table appended.
    fn assemble(
        window: usize,
        rows: usize,
        split: bool,
        indices: Vec<u32>,
        points: PointBytes,
    ) -> Self {
        let rounds = rounds_for(window, rows, split);
        let (windows, split, points) = if split {
            (
                2 * rows * rounds,
                Some(Box::new(GlvSplit::new::<P>())),
                with_images::<P>(&points),
            )
        } else {
            (num_windows(window), None, points)
        };
        Self {
            window,
            windows,
            rows,
            rounds,
            split,
            indices,
            points,
            _curve: std::marker::PhantomData,
        }
    }

    /// Whether `window`, `rows` and `split` make a table: a window in
    /// `2..=16` (`2..=15` split) and `rows` in `1..=` the windows of a
    /// scalar (of a half, split).
    pub fn valid_shape(window: usize, rows: usize, split: bool) -> bool {
        let most = if split { MAX_SPLIT_WINDOW } else { 16 };
        (2..=most).contains(&window) && (1..=scalar_windows(window, split)).contains(&rows)
    }

    /// Whether the table is split ([`crate::glv`]): its scalars are cut in
    /// two halves and it serves the endomorphism's images of its points.
    pub fn is_split(&self) -> bool {
        self.split.is_some()
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

    /// Number of precomputed points in memory (`len() · rows()`, twice that
    /// in a split table), the table's memory in affine points.
    pub fn points(&self) -> usize {
        self.points.len() / P::BYTES
    }

    /// Number of signed digits per base: the windows of a scalar (in a
    /// split table, of both halves, each padded to `rows() · rounds()`).
    pub fn windows(&self) -> usize {
        self.windows
    }

    /// Stored table points per kept base (`windows()` in a full table).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Bucket passes per MSM (`⌈windows / rows⌉`; 1 in a full table): the
    /// `round` argument of [`Self::shape_for`], [`Self::sort_digits`] and
    /// [`Self::msm_piece`] runs over `0..rounds()`, and the MSM is
    /// [`Self::join_rounds`] of their sums.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// Index into the scalar vector of every kept base.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// The stored table points as raw limbs ([`crate::points`]): point
    /// `k·rows + i` is `2^(window·rounds·i)` times base `indices()[k]` (a
    /// split table's images are not stored: they are computed from these).
    pub fn point_bytes(&self) -> &[u8] {
        &self.points[..self.len() * self.rows * P::BYTES]
    }

    /// Every kept base with its index, as raw limbs: the table's first row
    /// (`2^0` times the base), so that a table also stores its bases.
    pub fn bases(&self) -> impl Iterator<Item = (u32, &[u8])> + '_ {
        let stride = self.rows * P::BYTES;
        self.indices.iter().copied().zip(
            self.point_bytes()
                .chunks_exact(stride)
                .map(|p| &p[..P::BYTES]),
        )
    }

    /// Whether the points are a range of a shared backing (a mapped cache
    /// file) rather than the table's own memory.
    pub fn is_shared(&self) -> bool {
        self.points.is_shared()
    }

    /// A table from its parts, as a cache file stores them (a split table's
    /// images are computed here); `None` unless [`Self::valid_shape`] and
    /// there are exactly `indices.len() · rows` points.
    pub fn from_parts(
        window: usize,
        rows: usize,
        split: bool,
        indices: Vec<u32>,
        points: PointBytes,
    ) -> Option<Self> {
        (Self::valid_shape(window, rows, split) && points.len() == indices.len() * rows * P::BYTES)
            .then(|| Self::assemble(window, rows, split, indices, points))
    }

    /// The signed digits of `scalars` for every round of a compact or split
    /// table, computed once (in parallel); `None` for a full table, whose
    /// one round computes them as it adds.
    pub fn digits(&self, scalars: &[Scalar]) -> Option<Digits> {
        if self.rounds == 1 && self.split.is_none() {
            return None;
        }
        let w = self.windows;
        let mut out = vec![0i16; self.len() * w];
        let fill = |(k, row): (usize, &mut [i16])| {
            let s = &scalars[self.indices[k] as usize];
            if s.is_zero() {
                return;
            }
            // digits of c <= 16 bits (15 split) fit i16
            let mut d = [0i32; MAX_DIGITS];
            self.base_digits(s, &mut d[..w]);
            for (o, &d) in row.iter_mut().zip(&d[..w]) {
                *o = d as i16;
            }
        };
        #[cfg(feature = "parallel")]
        out.par_chunks_mut(w).enumerate().for_each(fill);
        #[cfg(not(feature = "parallel"))]
        out.chunks_mut(w).enumerate().for_each(fill);
        Some(Digits(out))
    }

    /// What [`mod@crate::split`] needs to cut this table's MSM into pieces.
    pub fn shape(&self) -> Shape {
        Shape {
            bases: self.len(),
            base_cost: (self.rows * (1 + usize::from(self.is_split()))) as f64 * P::ADD_COST,
            piece_cost: (REDUCTION_COST << (self.window - 1)) as f64 * P::ADD_COST,
            prefix: Vec::new(),
            // sorted digits address table points in 32 bits
            buckets: if (self.points() as u64) < 1 << 32 {
                1 << (self.window - 1)
            } else {
                0
            },
        }
    }

    /// [`Self::shape`] of round `round` with the cost of every base
    /// estimated from its scalar: one addition per `c`-bit window of its bit
    /// length that falls in the round (none for zero), and one more for a
    /// scalar of a single window, whose additions meet in the same few
    /// buckets (a witness's zeros, ones and small values: cheap, and far
    /// from uniform along the bases).
    pub fn shape_for(&self, scalars: &[Scalar], round: usize) -> Shape {
        let c = self.window as u32;
        let (s, r) = (self.rounds as u32, round as u32);
        let mut prefix = Vec::with_capacity(self.len() + 1);
        let mut acc = 0.0;
        prefix.push(acc);
        for &i in &self.indices {
            let bits = scalars[i as usize].num_bits();
            let adds = if self.is_split() && bits > 128 {
                // both halves, each about half_windows digits
                2 * (half_windows(c as usize) as u32)
                    .saturating_sub(r)
                    .div_ceil(s)
            } else {
                // (a split scalar below 2^128 is its own first half)
                let used = bits.div_ceil(c) + u32::from(bits > 0 && bits <= c);
                used.saturating_sub(r).div_ceil(s)
            };
            acc += adds as f64 * P::ADD_COST;
            prefix.push(acc);
        }
        Shape {
            prefix,
            ..self.shape()
        }
    }

    /// `Σ scalars[i] · base[i]` over all bases, cut into pieces for the
    /// current thread pool ([`mod@crate::split`]). This is the MSM of zkbench's
    /// prover on its own, for the `primitives` suite (the Groth16 prover
    /// splits its five MSMs together instead).
    pub fn msm(&self, scalars: &[Scalar]) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        on_cores(|| {
            // one plan entry per round (Block::msm, Piece::msm: the round)
            let shapes: Vec<Shape> = (0..self.rounds)
                .map(|r| self.shape_for(scalars, r))
                .collect();
            let plan = split(&shapes, threads());
            let digits = self.digits(scalars);
            let round = |index| Round {
                index,
                digits: digits.as_ref(),
            };
            let mut sums = vec![<Projective<P> as AdditiveGroup>::ZERO; self.rounds];
            let parts = run_plan(
                &plan,
                |b| self.sort_digits(scalars, b, round(b.msm)),
                |p, sorted| (p.msm, self.msm_piece(scalars, p, sorted, round(p.msm))),
            );
            for (round, sum) in parts {
                sums[round] += sum;
            }
            self.join_rounds(&sums)
        })
    }

    /// `Σ_r 2^(window·r) · sums[r]`: the MSM from the sums of its rounds
    /// (one per round; Horner's rule, `window` doublings apart).
    pub fn join_rounds<G: AdditiveGroup>(&self, sums: &[G]) -> G {
        debug_assert_eq!(sums.len(), self.rounds);
        let mut acc = G::ZERO;
        for (r, sum) in sums.iter().enumerate().rev() {
            if r + 1 < sums.len() {
                for _ in 0..self.window {
                    acc.double_in_place();
                }
            }
            acc += sum;
        }
        acc
    }

    /// The digits of round `round` of the bases of `block` sorted into its
    /// bucket parts, for the pieces of a [`crate::split::Plan`]
    /// ([`Self::msm_piece`]).
    pub fn sort_digits(&self, scalars: &[Scalar], block: &Block, round: Round<'_>) -> SortedDigits {
        let c = self.window;
        let w = self.windows;
        // bucket b goes to part b >> shift, at b & mask within it
        let shift = (c - 1) - block.parts.ilog2() as usize;
        let mask = (1u32 << shift) - 1;
        let guess = block.range.len() * w.div_ceil(self.rounds) / block.parts + 16;
        let mut parts: Vec<Vec<u64>> = (0..block.parts)
            .map(|_| Vec::with_capacity(guess))
            .collect();
        self.for_each_addition(scalars, block.range.clone(), round, |e| {
            parts[(e.bucket >> shift) as usize].push(SortedDigits::pack(Entry {
                bucket: e.bucket & mask,
                ..e
            }));
        });
        SortedDigits(parts)
    }

    /// The sum of one piece of a [`crate::split::Plan`] in round `round`:
    /// the bases `piece.range` with one bucket set, or, where the buckets
    /// are cut into parts, the digits of its part that `sorted` (the piece's
    /// blocks, from [`Self::sort_digits`] of the same round) hold, with the
    /// buckets of that part.
    pub fn msm_piece(
        &self,
        scalars: &[Scalar],
        piece: &Piece,
        sorted: &[SortedDigits],
        round: Round<'_>,
    ) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        if piece.parts <= 1 {
            return self.msm_range(scalars, piece.range.clone(), round);
        }
        let size = (1usize << (self.window - 1)) / piece.parts;
        let vector = P::BaseField::has_x8() && crate::split::vector_here();
        let mut buckets = AffineBuckets::<P>::new(size, &self.points, vector);
        for block in sorted {
            for &e in &block.0[piece.part] {
                buckets.add(SortedDigits::unpack(e));
            }
        }
        buckets.sum_weighted((piece.part * size) as u64)
    }

    /// Round `round` of `Σ scalars[indices[k]] · base[indices[k]]` over the
    /// kept bases with `k` in `range`, with one set of affine buckets (the
    /// whole sum in a full table).
    ///
    /// The signed digits of a scalar are computed once, before its row of
    /// the table is added.
    pub fn msm_range(
        &self,
        scalars: &[Scalar],
        range: std::ops::Range<usize>,
        round: Round<'_>,
    ) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        let vector = P::BaseField::has_x8() && crate::split::vector_here();
        self.msm_range_with(scalars, range, round, vector)
    }

    /// [`Self::msm_range`], with the eight-lane kernel for the batches
    /// (`vector`, where this CPU has it) or without.
    fn msm_range_with(
        &self,
        scalars: &[Scalar],
        range: std::ops::Range<usize>,
        round: Round<'_>,
        vector: bool,
    ) -> Projective<P>
    where
        P::BaseField: MsmField,
    {
        let mut buckets = AffineBuckets::<P>::new(1 << (self.window - 1), &self.points, vector);
        self.for_each_addition(scalars, range, round, |e| buckets.add(e));
        buckets.sum_weighted(0)
    }

    /// `f` of every bucket addition of round `round` over the bases
    /// `range`: for each non-zero signed digit `d` of window
    /// `j = i·rounds + round` of base `k`'s scalar, the table point
    /// `k·rows + i` (negated where `d < 0`) into bucket `|d| − 1`. A
    /// scalar's digits are computed once, before its row of the table is
    /// added.
    fn for_each_addition(
        &self,
        scalars: &[Scalar],
        range: std::ops::Range<usize>,
        round: Round<'_>,
        mut f: impl FnMut(Entry),
    ) {
        let w = self.windows;
        if let Some(Digits(all)) = round.digits {
            for k in range {
                let digits = all[k * w..(k + 1) * w].iter().map(|&d| i32::from(d));
                self.emit(k, round.index, digits, &mut f);
            }
            return;
        }
        let mut digits = vec![0i32; w];
        for k in range {
            let s = &scalars[self.indices[k] as usize];
            if s.is_zero() {
                continue;
            }
            self.base_digits(s, &mut digits);
            self.emit(k, round.index, digits.iter().copied(), &mut f);
        }
    }

    /// The `windows()` signed digits of one base's scalar `s`: its windows,
    /// or in a split table those of its halves (negated for a negative
    /// half), the first half's from 0 and the second's from `rows·rounds`.
    fn base_digits(&self, s: &Scalar, out: &mut [i32]) {
        let Some(split) = &self.split else {
            return signed_digits(s, self.window, out);
        };
        out.fill(0);
        let half = self.rows * self.rounds;
        let used = half_windows(self.window);
        for ((neg, v), out) in split.split(s).iter().zip(out.chunks_exact_mut(half)) {
            let out = &mut out[..used];
            signed_digits(v, self.window, out);
            if *neg {
                out.iter_mut().for_each(|d| *d = -*d);
            }
        }
    }

    /// Table point `i` of base `k` in memory: `k·rows + i`, or for
    /// `i >= rows` in a split table the image of point `i − rows`.
    #[inline(always)]
    fn point(&self, k: usize, i: usize) -> usize {
        if i < self.rows {
            k * self.rows + i
        } else {
            (self.len() + k) * self.rows + i - self.rows
        }
    }

    /// `f` of the additions of base `k` in round `round`: its digits of
    /// windows `round`, `round + rounds`, … go with its table points
    /// [`Self::point`]`(k, 0, 1, …)`.
    #[inline(always)]
    fn emit(
        &self,
        k: usize,
        round: usize,
        digits: impl Iterator<Item = i32>,
        f: &mut impl FnMut(Entry),
    ) {
        for (i, d) in digits.skip(round).step_by(self.rounds).enumerate() {
            if d != 0 {
                f(Entry {
                    bucket: d.unsigned_abs() - 1,
                    neg: d < 0,
                    point: self.point(k, i),
                });
            }
        }
    }
}

/// One block's digits sorted into bucket parts ([`FixedBaseTable::sort_digits`]):
/// per part, its additions packed in a `u64` each (table point in the low
/// 32 bits, the sign in bit 32, the bucket within the part above).
pub struct SortedDigits(Vec<Vec<u64>>);

impl SortedDigits {
    fn pack(e: Entry) -> u64 {
        debug_assert!(e.point < 1 << 32);
        e.point as u64 | u64::from(e.neg) << 32 | u64::from(e.bucket) << 33
    }

    fn unpack(v: u64) -> Entry {
        Entry {
            point: (v & 0xffff_ffff) as usize,
            neg: v >> 32 & 1 == 1,
            bucket: (v >> 33) as u32,
        }
    }
}

/// The stored points of a split table followed by their images under the
/// endomorphism `φ(x, y) = (ω·x, y)` ([`RawCurve::put_image`]), in memory
/// of the table's own.
fn with_images<P: RawCurve>(stored: &[u8]) -> PointBytes {
    // the stored points copied, the images' half zeroed once and written
    let mut out = Vec::with_capacity(2 * stored.len());
    out.extend_from_slice(stored);
    out.resize(2 * stored.len(), 0);
    let images = &mut out[stored.len()..];
    let image = |(src, dst): (&[u8], &mut [u8])| {
        for (s, d) in src
            .chunks_exact(P::BYTES)
            .zip(dst.chunks_exact_mut(P::BYTES))
        {
            P::put_image(s, d);
        }
    };
    let block = 256 * P::BYTES;
    #[cfg(feature = "parallel")]
    stored
        .par_chunks(block)
        .zip(images.par_chunks_mut(block))
        .for_each(image);
    #[cfg(not(feature = "parallel"))]
    stored
        .chunks(block)
        .zip(images.chunks_mut(block))
        .for_each(image);
    PointBytes::owned(out)
}

/// The signed `c`-bit digits `d_j ∈ [-2^(c-1), 2^(c-1))` of `s = Σ d_j·2^(c·j)`
/// (`out.len()` windows, enough for the final carry).
fn signed_digits(s: &Scalar, c: usize, out: &mut [i32]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{G1Affine, G1Projective, G2Affine, G2Projective};
    use ark_ec::VariableBaseMSM;
    use ark_ff::UniformRand;
    use ark_ff::Zero;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// `parts` ranges of about equal length covering `0..n`.
    fn even_ranges(n: usize, parts: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
        (0..parts).map(move |p| p * n / parts..(p + 1) * n / parts)
    }

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
                let got: G1Projective = even_ranges(table.len(), chunks)
                    .map(|r| table.msm_range(&big, r, Round::ONLY))
                    .sum();
                assert_eq!(got, expected, "n = {n}, chunks = {chunks}");
            }
            let bases2: Vec<G2Affine> = (0..n).map(|_| G2Affine::rand(&mut rng)).collect();
            let table2 = FixedBaseTable::new(&bases2, 2);
            let got2: G2Projective = even_ranges(table2.len(), 2)
                .map(|r| table2.msm_range(&big, r, Round::ONLY))
                .sum();
            assert_eq!(got2, G2Projective::msm(&bases2, &scalars).unwrap());
            assert_eq!(table2.msm(&big), got2);
            let table = FixedBaseTable::new(&bases, 2);
            assert_eq!(table.msm(&big), expected);
            assert_eq!(table.points(), table.len() * table.windows);
        }
    }

    /// Compact tables (every row count from the bases alone to the full
    /// table), split and not, give arkworks' MSM, whole and joined from
    /// their rounds' range sums, G1 and G2, and hold `len · rows` points
    /// (twice that in memory, split).
    #[test]
    fn compact_tables_match_arkworks() {
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        for n in [1usize, 7, 120] {
            let mut bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
            if n > 2 {
                bases[1] = G1Affine::zero();
            }
            let mut scalars: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            scalars[0] = -Fr::from(1u64);
            // a split scalar below 2^128 is its own first half
            let small = [
                Fr::from(1u64),
                Fr::from(u64::MAX),
                Fr::from(u128::MAX),
                Fr::zero(),
            ];
            for (s, v) in scalars.iter_mut().skip(2).step_by(3).zip(small) {
                *s = v;
            }
            let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
            let expected = G1Projective::msm(&bases, &scalars).unwrap();
            let full = FixedBaseTable::new(&bases, 1);
            let tables = [1, 2, 3, full.windows() - 1, full.windows(), 1000]
                .into_iter()
                .flat_map(|rows| [true, false].map(|split| (rows, split)));
            for (rows, split) in tables {
                let table = FixedBaseTable::build(&bases, 1, Some(rows), split);
                let case = format!("n = {n}, rows = {rows}, split = {split}");
                assert!(table.rows() <= rows.max(1) && table.rows() >= 1);
                assert_eq!(table.is_split(), split);
                let stored = table.len() * table.rows();
                if split {
                    assert_eq!(table.windows(), 2 * table.rows() * table.rounds());
                    assert!(table.rows() * table.rounds() >= half_windows(table.window()));
                    assert_eq!(table.points(), 2 * stored);
                } else {
                    assert!(table.rows() * table.rounds() >= table.windows());
                    assert_eq!(table.points(), stored);
                }
                assert_eq!(table.point_bytes().len(), stored * 64);
                assert_eq!(table.msm(&big), expected, "{case}");
                // digits computed per round, and once for all rounds
                let digits = table.digits(&big);
                assert_eq!(digits.is_some(), table.rounds() > 1 || split);
                for shared in [None, digits.as_ref()] {
                    let sums: Vec<G1Projective> = (0..table.rounds())
                        .map(|index| {
                            let round = Round {
                                index,
                                digits: shared,
                            };
                            table.msm_range(&big, 0..table.len(), round)
                        })
                        .collect();
                    assert_eq!(table.join_rounds(&sums), expected, "rounds joined, {case}");
                }
            }
            let bases2: Vec<G2Affine> = (0..n).map(|_| G2Affine::rand(&mut rng)).collect();
            let expected2 = G2Projective::msm(&bases2, &scalars).unwrap();
            for rows in [1, 2] {
                let table2 = FixedBaseTable::compact(&bases2, 1, rows);
                assert_eq!(table2.rows(), rows);
                assert_eq!(
                    table2.rounds(),
                    half_windows(table2.window()).div_ceil(rows)
                );
                assert_eq!(table2.msm(&big), expected2, "G2, rows = {rows}");
            }
        }
    }

    /// A compact table rebuilt from its parts is the same table; parts whose
    /// row count or length do not fit are refused.
    #[test]
    fn compact_table_from_parts() {
        let mut rng = ChaCha20Rng::seed_from_u64(18);
        let bases: Vec<G1Affine> = (0..9).map(|_| G1Affine::rand(&mut rng)).collect();
        let scalars: Vec<_> = (0..9).map(|_| Fr::rand(&mut rng).into_bigint()).collect();
        for split in [true, false] {
            let t = FixedBaseTable::build(&bases, 1, Some(3), split);
            let parts = |window, rows, split| {
                FixedBaseTable::<ark_bn254::g1::Config>::from_parts(
                    window,
                    rows,
                    split,
                    t.indices().to_vec(),
                    PointBytes::owned(t.point_bytes().to_vec()),
                )
            };
            let back = parts(t.window(), t.rows(), split).expect("same parts");
            assert_eq!((back.rows(), back.rounds()), (t.rows(), t.rounds()));
            assert_eq!(back.points(), t.points());
            assert_eq!(back.msm(&scalars), t.msm(&scalars));
            assert!(parts(t.window(), 0, split).is_none());
            assert!(parts(t.window(), t.rows() + 1, split).is_none());
            assert!(parts(t.window(), t.windows() + 1, split).is_none());
            assert!(parts(1, t.rows(), split).is_none());
            assert!(parts(17, t.rows(), split).is_none());
        }
        // a split table's negated digits need a window below 16
        assert!(FixedBaseTable::<ark_bn254::g1::Config>::valid_shape(
            16, 1, false
        ));
        assert!(!FixedBaseTable::<ark_bn254::g1::Config>::valid_shape(
            16, 1, true
        ));
        assert!(FixedBaseTable::<ark_bn254::g1::Config>::valid_shape(
            15, 9, true
        ));
        assert!(!FixedBaseTable::<ark_bn254::g1::Config>::valid_shape(
            15, 10, true
        ));
    }

    /// The MSM cut for pools of 1 to 16 threads, odd counts and more threads
    /// than bases included, equals arkworks' (G1 and G2).
    #[cfg(feature = "parallel")]
    #[test]
    fn msm_matches_arkworks_at_every_thread_count() {
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        for n in [1usize, 3, 40, 2500] {
            let bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
            let bases2: Vec<G2Affine> = (0..n).map(|_| G2Affine::rand(&mut rng)).collect();
            let scalars: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
            let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
            let want = G1Projective::msm(&bases, &scalars).unwrap();
            let want2 = G2Projective::msm(&bases2, &scalars).unwrap();
            for threads in [1usize, 2, 3, 5, 7, 16] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let table = FixedBaseTable::new(&bases, threads);
                let table2 = FixedBaseTable::new(&bases2, 1);
                let (got, got2) = pool.install(|| (table.msm(&big), table2.msm(&big)));
                assert_eq!(got, want, "G1 n = {n}, threads = {threads}");
                assert_eq!(got2, want2, "G2 n = {n}, threads = {threads}");
            }
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
            assert_eq!(
                table.msm_range_with(&big, 0..table.len(), Round::ONLY, vector),
                want
            );
            assert_eq!(
                table2.msm_range_with(&big, 0..table2.len(), Round::ONLY, vector),
                want2
            );
        }
        // random bases: the common case
        let bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
        let table = FixedBaseTable::new(&bases, 1);
        let want = G1Projective::msm(&bases, &scalars).unwrap();
        for vector in [true, false] {
            assert_eq!(
                table.msm_range_with(&big, 0..table.len(), Round::ONLY, vector),
                want
            );
        }
    }

    /// Pieces cut by buckets (2 to 8 parts, digits sorted in blocks of
    /// unequal size) add up to arkworks' MSM, G1 and G2, random and skewed
    /// scalars.
    #[test]
    fn bucket_parts_add_up() {
        let mut rng = ChaCha20Rng::seed_from_u64(23);
        let n = 3000;
        let bases: Vec<G1Affine> = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
        let bases2: Vec<G2Affine> = (0..n).map(|_| G2Affine::rand(&mut rng)).collect();
        let scalars: Vec<Fr> = (0..n)
            .map(|i| match i % 4 {
                0 | 1 => Fr::rand(&mut rng),
                2 => Fr::from((i % 7) as u64),
                _ => -Fr::from(1u64),
            })
            .collect();
        let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
        let table = FixedBaseTable::new(&bases, 1);
        let table2 = FixedBaseTable::new(&bases2, 1);
        assert!(table.window >= 11 && table2.window >= 11);
        let want = G1Projective::msm(&bases, &scalars).unwrap();
        let want2 = G2Projective::msm(&bases2, &scalars).unwrap();
        for parts in [2usize, 4, 8] {
            let cuts = [0, 700, 701, 2200, n];
            let blocks: Vec<Block> = cuts
                .windows(2)
                .map(|w| Block {
                    msm: 0,
                    range: w[0]..w[1],
                    parts,
                })
                .collect();
            let pieces: Vec<Piece> = (0..parts)
                .map(|part| Piece {
                    msm: 0,
                    range: 0..n,
                    part,
                    parts,
                    blocks: 0..blocks.len(),
                })
                .collect();
            let sorted: Vec<_> = blocks
                .iter()
                .map(|b| table.sort_digits(&big, b, Round::ONLY))
                .collect();
            let got: G1Projective = pieces
                .iter()
                .map(|p| table.msm_piece(&big, p, &sorted, Round::ONLY))
                .sum();
            assert_eq!(got, want, "G1, {parts} parts");
            let sorted: Vec<_> = blocks
                .iter()
                .map(|b| table2.sort_digits(&big, b, Round::ONLY))
                .collect();
            let got: G2Projective = pieces
                .iter()
                .map(|p| table2.msm_piece(&big, p, &sorted, Round::ONLY))
                .sum();
            assert_eq!(got, want2, "G2, {parts} parts");
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
            table.msm(&big),
            G1Projective::msm(&bases, &scalars).unwrap()
        );
    }
}
