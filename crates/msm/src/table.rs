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

/// Precomputed multiples `2^(c·j)·P` of the bases of one MSM (all of them,
/// or every `rounds`-th: see the module docs).
pub struct FixedBaseTable<P: RawCurve> {
    /// Window size in bits.
    window: usize,
    /// Number of windows (signed digits) per scalar.
    windows: usize,
    /// Table points per base.
    rows: usize,
    /// Bucket passes per MSM: `⌈windows / rows⌉`.
    rounds: usize,
    /// Index into the scalar vector of every kept (non-zero) base.
    indices: Vec<u32>,
    /// Point `k·rows + i` is `2^(window·rounds·i) · base[indices[k]]`, as
    /// raw limbs ([`crate::points`]).
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
/// additions: one per digit plus the bucket reductions.
fn cost(n: usize, c: usize, chunks: usize, rounds: usize) -> usize {
    n * SCALAR_BITS.div_ceil(c) + rounds * chunks * REDUCTION_COST * (1 << (c - 1))
}

/// Bucket passes of a table with `rows` points per base and window `c`.
fn rounds_for(c: usize, rows: usize) -> usize {
    num_windows(c).div_ceil(rows)
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
        Self::build(bases, chunks, None)
    }

    /// A compact table of at most `rows` points per base (at least 1; 1:
    /// the bases alone, Pippenger's algorithm), its window chosen for that
    /// many rows.
    pub fn compact(bases: &[Affine<P>], chunks: usize, rows: usize) -> Self {
        Self::build(bases, chunks, Some(rows.max(1)))
    }

    /// [`Self::new`] (`rows` `None`: every window) or [`Self::compact`].
    fn build(bases: &[Affine<P>], chunks: usize, rows: Option<usize>) -> Self {
        let indices: Vec<u32> = bases
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.is_zero())
            .map(|(i, _)| i as u32)
            .collect();
        let n = indices.len();
        let rows_for = |c: usize| rows.map_or(num_windows(c), |r| r.min(num_windows(c)));
        let window = (2..=16)
            .filter(|&c| n * rows_for(c) <= MAX_TABLE_POINTS || c == 16)
            .min_by_key(|&c| cost(n, c, chunks.max(1), rounds_for(c, rows_for(c))))
            .unwrap_or(16);
        let windows = num_windows(window);
        let rows = rows_for(window);
        let rounds = rounds_for(window, rows);
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
        Self {
            window,
            windows,
            rows,
            rounds,
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

    /// Number of precomputed points (`len() · rows()`), the table's memory
    /// in affine points.
    pub fn points(&self) -> usize {
        self.points.len() / P::BYTES
    }

    /// Number of windows (signed digits) per scalar.
    pub fn windows(&self) -> usize {
        self.windows
    }

    /// Table points per kept base (`windows()` in a full table).
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

    /// The table points as raw limbs ([`crate::points`]): point `k·rows + i`
    /// is `2^(window·rounds·i)` times base `indices()[k]`.
    pub fn point_bytes(&self) -> &[u8] {
        &self.points
    }

    /// Every kept base with its index, as raw limbs: the table's first row
    /// (`2^0` times the base), so that a table also stores its bases.
    pub fn bases(&self) -> impl Iterator<Item = (u32, &[u8])> + '_ {
        let stride = self.rows * P::BYTES;
        self.indices
            .iter()
            .copied()
            .zip(self.points.chunks_exact(stride).map(|p| &p[..P::BYTES]))
    }

    /// Whether the points are a range of a shared backing (a mapped cache
    /// file) rather than the table's own memory.
    pub fn is_shared(&self) -> bool {
        self.points.is_shared()
    }

    /// A table from its parts, as a cache file stores them; `None` unless
    /// the window is in `2..=16`, `rows` in `1..=num_windows(window)` and
    /// there are exactly `indices.len() · rows` points.
    pub fn from_parts(
        window: usize,
        rows: usize,
        indices: Vec<u32>,
        points: PointBytes,
    ) -> Option<Self> {
        if !(2..=16).contains(&window) {
            return None;
        }
        let windows = num_windows(window);
        if !(1..=windows).contains(&rows) {
            return None;
        }
        (points.len() == indices.len() * rows * P::BYTES).then_some(Self {
            window,
            windows,
            rows,
            rounds: rounds_for(window, rows),
            indices,
            points,
            _curve: std::marker::PhantomData,
        })
    }

    /// The signed digits of `scalars` for every round of a compact table,
    /// computed once (in parallel); `None` for a full table, whose one round
    /// computes them as it adds.
    pub fn digits(&self, scalars: &[Scalar]) -> Option<Digits> {
        if self.rounds == 1 {
            return None;
        }
        let (w, c) = (self.windows, self.window);
        let mut out = vec![0i16; self.len() * w];
        let fill = |(k, row): (usize, &mut [i16])| {
            let s = &scalars[self.indices[k] as usize];
            if s.is_zero() {
                return;
            }
            // at most num_windows(2) = 128 windows; digits of c <= 16 bits fit i16
            let mut d = [0i32; 128];
            signed_digits(s, c, &mut d[..w]);
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
            base_cost: self.rows as f64 * P::ADD_COST,
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
            let used = bits.div_ceil(c) + u32::from(bits > 0 && bits <= c);
            let adds = used.saturating_sub(r).div_ceil(s);
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
            signed_digits(s, self.window, &mut digits);
            self.emit(k, round.index, digits.iter().copied(), &mut f);
        }
    }

    /// `f` of the additions of base `k` in round `round`: its digits of
    /// windows `round`, `round + rounds`, … go with its table points
    /// `k·rows + 0, 1, …`.
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
                    point: k * self.rows + i,
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
    /// table) give arkworks' MSM, whole and joined from their rounds' range
    /// sums, G1 and G2, and hold `len · rows` points.
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
            let big: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
            let expected = G1Projective::msm(&bases, &scalars).unwrap();
            let full = FixedBaseTable::new(&bases, 1);
            for rows in [1, 2, 3, full.windows() - 1, full.windows(), 1000] {
                let table = FixedBaseTable::compact(&bases, 1, rows);
                assert!(table.rows() <= rows.max(1) && table.rows() >= 1);
                assert!(table.rows() * table.rounds() >= table.windows());
                assert_eq!(table.points(), table.len() * table.rows());
                assert_eq!(table.msm(&big), expected, "n = {n}, rows = {rows}");
                // digits computed per round, and once for all rounds
                let digits = table.digits(&big);
                assert_eq!(digits.is_some(), table.rounds() > 1);
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
                    assert_eq!(table.join_rounds(&sums), expected, "rounds joined");
                }
            }
            let bases2: Vec<G2Affine> = (0..n).map(|_| G2Affine::rand(&mut rng)).collect();
            let table2 = FixedBaseTable::compact(&bases2, 1, 1);
            assert_eq!(table2.rows(), 1);
            assert_eq!(table2.rounds(), table2.windows());
            assert_eq!(
                table2.msm(&big),
                G2Projective::msm(&bases2, &scalars).unwrap()
            );
        }
    }

    /// A compact table rebuilt from its parts is the same table; parts whose
    /// row count or length do not fit are refused.
    #[test]
    fn compact_table_from_parts() {
        let mut rng = ChaCha20Rng::seed_from_u64(18);
        let bases: Vec<G1Affine> = (0..9).map(|_| G1Affine::rand(&mut rng)).collect();
        let scalars: Vec<_> = (0..9).map(|_| Fr::rand(&mut rng).into_bigint()).collect();
        let t = FixedBaseTable::compact(&bases, 1, 3);
        let parts = |rows| {
            FixedBaseTable::<ark_bn254::g1::Config>::from_parts(
                t.window(),
                rows,
                t.indices().to_vec(),
                PointBytes::owned(t.point_bytes().to_vec()),
            )
        };
        let back = parts(t.rows()).expect("same parts");
        assert_eq!((back.rows(), back.rounds()), (t.rows(), t.rounds()));
        assert_eq!(back.msm(&scalars), t.msm(&scalars));
        assert!(parts(0).is_none());
        assert!(parts(t.rows() + 1).is_none());
        assert!(parts(t.windows() + 1).is_none());
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
