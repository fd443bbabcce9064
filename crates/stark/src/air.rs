//! The note-spend and membership AIR and its trace.
//!
//! One row is one Poseidon2 permutation, width 16 for a binary tree and 24
//! for arity 4 and 8 ([`TreeHash`]), constrained by Plonky3's
//! `Poseidon2Air` on the row's first [`Layout::hash_cols`] columns (one
//! committed `x³` per S-box, degree-3 constraints); the statement's wiring
//! lives in [`EXTRA_COLS`] more columns and seven fixed selectors given as
//! periodic columns of period = trace height (the verifier evaluates them
//! itself, so a prover cannot move a row's role). Rows, for a tree of
//! height `d` and `c = arity / 2` rows per level:
//!
//! | row | spend | membership |
//! |---|---|---|
//! | 0 | `H(n, D)` = public `nullifier_hash` | level 0 |
//! | 1 | `H(n, s)` = the leaf; `s ≠ D` | level 0 or 1 |
//! | 2 .. 2+c·d | levels 0 .. d−1 of the path, `c` rows each | ... |
//! | last path row | its output = public `root` | its output = public `root` |
//!
//! A level's row absorbs two children (16 lanes); with width 24 the other 8
//! lanes are the sponge's capacity, zero on a level's first row and the
//! previous row's on the others. A path row holds `cur` (the node coming up,
//! 8 columns, the same on every row of a level), two boolean flags (`cur`
//! is the left / the right child of this row: `flag·(child − cur) = 0`) and
//! `acc`, the flags set on the level's earlier rows: `acc = 0` on its first
//! row and `acc + flags = 1` on its last, so `cur` is exactly one of the
//! level's children (for arity 2: `(1 − b)·left + b·right = cur`). The
//! next level's `cur` is the output (first 8 lanes) of this level's last
//! row. The spend's nullifier row fixes its right half to `D` and hands `n`
//! to the leaf row; `s ≠ D` is `Σ_j (s_j − D_j)·inv_j = 1` with 8 hint
//! columns. The external-data hash is 9 columns equal to the public limbs
//! on every row. Every column outside its role is constrained to zero, so
//! that no cell of a valid trace is free (the mutation audit checks this).
//! Padding rows are permutations of zero.
//!
//! The STARK is the construction of Ben-Sasson, Bentov, Horesh and Riabzev,
//! "Scalable, transparent, and post-quantum secure computational integrity"
//! (ePrint 2018/046), with Poseidon2 (Grassi, Khovratovich, Schofnegger,
//! ePrint 2023/323) as the hash in the AIR and in the commitments.

use std::borrow::{Borrow, Cow};
use std::sync::OnceLock;

use p3_air::symbolic::{get_constraint_layout, get_max_constraint_degree, AirLayout};
use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_baby_bear::{
    GenericPoseidon2LinearLayersBabyBear, BABYBEAR_POSEIDON2_HALF_FULL_ROUNDS,
    BABYBEAR_POSEIDON2_PARTIAL_ROUNDS_16, BABYBEAR_POSEIDON2_PARTIAL_ROUNDS_24,
    BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL, BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
    BABYBEAR_POSEIDON2_RC_16_INTERNAL, BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL, BABYBEAR_POSEIDON2_RC_24_INTERNAL,
    BABYBEAR_S_BOX_DEGREE,
};
use p3_field::{Field, PrimeCharacteristicRing};
use p3_matrix::dense::RowMajorMatrix;
use p3_poseidon2::GenericPoseidon2LinearLayers;
use p3_poseidon2_air::{
    generate_trace_rows, num_cols, Poseidon2Air, Poseidon2Cols, RoundConstants,
};
use p3_symmetric::Permutation;
use p3_uni_stark::SubAirBuilder;

pub use crate::native::TreeHash;
use crate::native::{
    children, domain_nullifier, permutation, permutation24, Digest, Val, DIGEST, EXT_LIMBS, RATE,
};

const SBOX_DEGREE: u64 = BABYBEAR_S_BOX_DEGREE;
const SBOX_REGISTERS: usize = 1;
const HALF_FULL_ROUNDS: usize = BABYBEAR_POSEIDON2_HALF_FULL_ROUNDS;
const P16: usize = BABYBEAR_POSEIDON2_PARTIAL_ROUNDS_16;
const P24: usize = BABYBEAR_POSEIDON2_PARTIAL_ROUNDS_24;

type Linear = GenericPoseidon2LinearLayersBabyBear;

/// Plonky3's Poseidon2 AIR over BabyBear of width `W` (`P` partial rounds).
pub type HashAirOf<const W: usize, const P: usize> =
    Poseidon2Air<Val, Linear, W, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, P>;

/// The width-16 permutation's AIR, with `p3-baby-bear`'s round constants
/// (the same permutation as [`crate::native::permutation`]).
pub type HashAir = HashAirOf<16, P16>;

/// The width-24 permutation's AIR ([`crate::native::permutation24`]).
pub type HashAir24 = HashAirOf<24, P24>;

type HashCols<T, const W: usize, const P: usize> =
    Poseidon2Cols<T, W, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, P>;

/// Columns beyond the permutation's: two flags, `acc`, `cur` (8), the
/// `s ≠ D` hints (8), the external-data limbs (9).
pub const EXTRA_COLS: usize = 3 + 2 * DIGEST + EXT_LIMBS;

/// Where a row's columns are, for one permutation width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Columns of one permutation (inputs, S-box registers, round outputs).
    pub hash_cols: usize,
    /// The two flags: `cur` is this row's left / right child.
    pub flags: usize,
    /// Flags set on the level's earlier rows.
    pub acc: usize,
    /// The node coming up the path (8 columns).
    pub cur: usize,
    /// The hints of `s ≠ D` (8 columns).
    pub inv: usize,
    /// The external-data limbs (9 columns).
    pub ext: usize,
    /// Trace width.
    pub width: usize,
}

impl Layout {
    /// The layout of rows hashed with `tree`'s permutation.
    pub const fn of(tree: TreeHash) -> Self {
        let hash_cols = match tree {
            TreeHash::Compress16 => {
                num_cols::<16, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, P16>()
            }
            TreeHash::Sponge24 => {
                num_cols::<24, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, P24>()
            }
        };
        Self {
            hash_cols,
            flags: hash_cols,
            acc: hash_cols + 2,
            cur: hash_cols + 3,
            inv: hash_cols + 3 + DIGEST,
            ext: hash_cols + 3 + 2 * DIGEST,
            width: hash_cols + EXTRA_COLS,
        }
    }
}

/// Public values: the root's limbs first, then (spend) the nullifier hash's
/// and the external data's.
pub const PV_ROOT: usize = 0;
/// Offset of the nullifier hash in the public values (spend).
pub const PV_NF: usize = DIGEST;
/// Offset of the external-data limbs in the public values (spend).
pub const PV_EXT: usize = 2 * DIGEST;

/// The smallest trace the hiding PCS accepts at both security levels: its
/// mask (one random row per trace row) must cover twice the values a proof
/// discloses, `2 · (5 · 2 + queries)` ≤ 128 for up to 54 queries at two
/// opening points over the quintic extension.
pub const MIN_HEIGHT: usize = 128;

/// The fixed selectors (periodic columns), by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sel {
    /// The spend's `H(n, D)` row.
    Nullifier = 0,
    /// The spend's `H(n, s)` row.
    Leaf = 1,
    /// Every path row.
    Path = 2,
    /// A level's first row (`acc = 0`, zero capacity).
    Start = 3,
    /// A level's rows but its last (the next row continues the level).
    Carry = 4,
    /// Rows whose output is the next row's `cur` (the leaf row, a level's
    /// last row below the root).
    Link = 5,
    /// The last path row: its output is the public root.
    Root = 6,
}

/// Which statement the AIR proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AirKind {
    /// Note spend: public root, nullifier hash, external data.
    Spend,
    /// Membership: public root.
    Membership,
}

/// The permutation's AIR, one per width.
#[derive(Clone)]
enum Hash {
    W16(Box<HashAir>),
    W24(Box<HashAir24>),
}

/// The AIR of a statement over a tree of some arity and height.
#[derive(Clone)]
pub struct NoteAir {
    kind: AirKind,
    depth: usize,
    arity: usize,
    tree: TreeHash,
    min_height: usize,
    hash: Hash,
    periodic: Vec<Vec<Val>>,
    /// [`NoteAir::constraint_degree`], inferred on first use.
    degree: OnceLock<usize>,
    /// [`NoteAir::constraint_count`], counted on first use.
    count: OnceLock<usize>,
}

impl std::fmt::Debug for NoteAir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoteAir")
            .field("kind", &self.kind)
            .field("arity", &self.arity)
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

/// The width-16 permutation's round constants (`p3-baby-bear`'s).
fn constants16() -> RoundConstants<Val, 16, HALF_FULL_ROUNDS, P16> {
    RoundConstants::new(
        BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
        BABYBEAR_POSEIDON2_RC_16_INTERNAL,
        BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
    )
}

/// The width-24 permutation's round constants (`p3-baby-bear`'s).
fn constants24() -> RoundConstants<Val, 24, HALF_FULL_ROUNDS, P24> {
    RoundConstants::new(
        BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
        BABYBEAR_POSEIDON2_RC_24_INTERNAL,
        BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    )
}

impl Hash {
    /// The AIR of `tree`'s permutation.
    fn of(tree: TreeHash) -> Self {
        match tree {
            TreeHash::Compress16 => Self::W16(Box::new(HashAir::new(constants16()))),
            TreeHash::Sponge24 => Self::W24(Box::new(HashAir24::new(constants24()))),
        }
    }
}

impl NoteAir {
    /// The AIR of `kind` over a binary tree of height `depth` (at least 1),
    /// padded to [`MIN_HEIGHT`] rows at least.
    pub fn new(kind: AirKind, depth: usize) -> Result<Self, String> {
        Self::with_arity(kind, 2, depth, MIN_HEIGHT)
    }

    /// The binary tree's AIR padded to `min_height` rows at least
    /// ([`NoteAir::with_arity`]).
    pub fn with_min_height(kind: AirKind, depth: usize, min_height: usize) -> Result<Self, String> {
        Self::with_arity(kind, 2, depth, min_height)
    }

    /// The AIR of `kind` over a tree of `arity` (2, 4 or 8) and height
    /// `depth`, padded to `min_height` rows at least (a power of two, at
    /// least 8). Below [`MIN_HEIGHT`] the trace is too short to hide the
    /// witness behind the queries of the hiding PCS; the mutation audit,
    /// which proves nothing, uses 8 rows.
    pub fn with_arity(
        kind: AirKind,
        arity: usize,
        depth: usize,
        min_height: usize,
    ) -> Result<Self, String> {
        let tree = TreeHash::for_arity(arity)?;
        if depth == 0 {
            return Err(format!("a path needs at least one level ({arity} leaves)"));
        }
        if !min_height.is_power_of_two() || min_height < 8 {
            return Err(format!(
                "minimum height {min_height} is not a power of two of at least 8"
            ));
        }
        let mut air = Self {
            kind,
            depth,
            arity,
            tree,
            min_height,
            hash: Hash::of(tree),
            periodic: Vec::new(),
            degree: OnceLock::new(),
            count: OnceLock::new(),
        };
        air.periodic = air.selectors();
        Ok(air)
    }

    /// The same statement and tree padded to `min_height` rows at least.
    pub fn resized(&self, min_height: usize) -> Result<Self, String> {
        Self::with_arity(self.kind, self.arity, self.depth, min_height)
    }

    /// The statement.
    pub fn kind(&self) -> AirKind {
        self.kind
    }

    /// Tree height.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Tree arity.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// The tree's hash.
    pub fn tree_hash(&self) -> TreeHash {
        self.tree
    }

    /// Where a row's columns are.
    pub fn layout(&self) -> Layout {
        Layout::of(self.tree)
    }

    /// Rows per path level (two children a row).
    pub fn rows_per_level(&self) -> usize {
        self.arity / 2
    }

    /// The first path row (after the nullifier and leaf rows of a spend).
    pub fn first_path_row(&self) -> usize {
        match self.kind {
            AirKind::Spend => 2,
            AirKind::Membership => 0,
        }
    }

    /// Rows in use (permutations).
    pub fn rows(&self) -> usize {
        self.first_path_row() + self.depth * self.rows_per_level()
    }

    /// Trace height: the next power of two, at least the minimum height.
    pub fn height(&self) -> usize {
        self.rows().next_power_of_two().max(self.min_height)
    }

    /// The constraint degree Plonky3 infers for this AIR over its own trace
    /// height (`p3_air::symbolic::get_max_constraint_degree`: the AIR
    /// evaluated symbolically and the polynomial degree of every constraint,
    /// periodic selectors included; 3 here). It sizes the quotient; the
    /// inference walks the Poseidon2 rounds' expressions once per constraint
    /// (~10 ms), so it runs once per AIR and is kept (the view of the AIR uses it,
    /// [`crate::view`]; `Stark::setup` computes it).
    pub fn constraint_degree(&self) -> usize {
        *self.degree.get_or_init(|| {
            get_max_constraint_degree::<Val, _>(self, AirLayout::from_air(self), self.height())
        })
    }

    /// How many constraints the AIR emits, all of them over the base field
    /// (`p3_air::symbolic::get_constraint_layout`, the layout Plonky3's
    /// prover orders its random-combination powers by: base-field indices
    /// `0..n` in emission order, no extension-field constraint). Counted
    /// once per AIR and kept, like [`NoteAir::constraint_degree`] (the
    /// view uses it, [`crate::view`]).
    pub fn constraint_count(&self) -> usize {
        *self.count.get_or_init(|| {
            let layout = get_constraint_layout::<Val, Val, _>(self, AirLayout::from_air(self));
            let n = layout.base_indices.len();
            // The AIR is written over `AirBuilder` alone: it cannot emit an
            // extension-field constraint, so the layout is `0..n` in order.
            assert!(
                layout.ext_indices.is_empty() && layout.base_indices.iter().copied().eq(0..n),
                "the note AIR emits base-field constraints only, in order"
            );
            n
        })
    }

    fn selectors(&self) -> Vec<Vec<Val>> {
        let h = self.height();
        let (first, last, c) = (
            self.first_path_row(),
            self.rows() - 1,
            self.rows_per_level(),
        );
        let spend = self.kind == AirKind::Spend;
        let path = |r: usize| (first..=last).contains(&r);
        let level_end = move |r: usize| path(r) && (r - first) % c == c - 1;
        let col = |on: &dyn Fn(usize) -> bool| (0..h).map(|r| Val::from_bool(on(r))).collect();
        vec![
            col(&|r| spend && r == 0),
            col(&|r| spend && r == 1),
            col(&path),
            col(&|r| path(r) && (r - first) % c == 0),
            col(&|r| path(r) && !level_end(r)),
            col(&|r| (spend && r == 1) || (level_end(r) && r != last)),
            col(&|r| r == last),
        ]
    }
}

impl BaseAir<Val> for NoteAir {
    fn width(&self) -> usize {
        self.layout().width
    }

    fn num_public_values(&self) -> usize {
        match self.kind {
            AirKind::Spend => 2 * DIGEST + EXT_LIMBS,
            AirKind::Membership => DIGEST,
        }
    }

    fn num_periodic_columns(&self) -> usize {
        self.periodic.len()
    }

    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        Cow::Borrowed(&self.periodic)
    }
}

impl<AB: AirBuilder<F = Val>> Air<AB> for NoteAir {
    fn eval(&self, builder: &mut AB) {
        match &self.hash {
            Hash::W16(h) => self.eval_with::<AB, 16, P16>(builder, h),
            Hash::W24(h) => self.eval_with::<AB, 24, P24>(builder, h),
        }
    }
}

/// A row's permutation inputs and outputs, and the next row's inputs.
struct Lanes<'a, V> {
    input: &'a [V],
    out: &'a [V],
    next_input: &'a [V],
}

impl NoteAir {
    /// The permutation's constraints on the first columns, then the
    /// statement's.
    fn eval_with<AB: AirBuilder<F = Val>, const W: usize, const P: usize>(
        &self,
        builder: &mut AB,
        hash: &HashAirOf<W, P>,
    ) where
        Linear: GenericPoseidon2LinearLayers<W>,
    {
        let hash_cols = self.layout().hash_cols;
        hash.eval(&mut SubAirBuilder::<AB, HashAirOf<W, P>, AB::Var>::new(
            builder,
            0..hash_cols,
        ));
        let sel: Vec<AB::Expr> = builder
            .periodic_values()
            .iter()
            .map(|&v| v.into())
            .collect();
        let pv: Vec<AB::Expr> = builder.public_values().iter().map(|&v| v.into()).collect();
        let main = builder.main();
        let (local, next) = (main.current_slice(), main.next_slice());
        let cols: &HashCols<AB::Var, W, P> = local[..hash_cols].borrow();
        let next_cols: &HashCols<AB::Var, W, P> = next[..hash_cols].borrow();
        let lanes = Lanes {
            input: &cols.inputs,
            out: &cols.ending_full_rounds[HALF_FULL_ROUNDS - 1].post,
            next_input: &next_cols.inputs,
        };
        self.eval_path(builder, &sel, &pv, local, next, &lanes);
        self.eval_note(builder, &sel, &pv, local, &lanes);
    }

    /// The path: `cur` is exactly one child of its level, carried along the
    /// level's rows, then the level's output; the sponge's capacity.
    fn eval_path<AB: AirBuilder<F = Val>>(
        &self,
        builder: &mut AB,
        sel: &[AB::Expr],
        pv: &[AB::Expr],
        local: &[AB::Var],
        next: &[AB::Var],
        lanes: &Lanes<'_, AB::Var>,
    ) {
        let l = self.layout();
        let s = |k: Sel| sel[k as usize].clone();
        let (path, carry) = (s(Sel::Path), s(Sel::Carry));
        let flags: [AB::Expr; 2] = [local[l.flags].into(), local[l.flags + 1].into()];
        let acc: AB::Expr = local[l.acc].into();
        for f in &flags {
            builder.assert_zero(path.clone() * f.clone() * (AB::Expr::ONE - f.clone()));
            builder.assert_zero((AB::Expr::ONE - path.clone()) * f.clone());
        }
        builder.assert_zero((AB::Expr::ONE - path.clone()) * acc.clone());
        builder.assert_zero(s(Sel::Start) * acc.clone());
        let seen = acc + flags[0].clone() + flags[1].clone();
        builder.assert_zero((path.clone() - carry.clone()) * (seen.clone() - AB::Expr::ONE));
        builder.assert_zero(carry.clone() * (next[l.acc].into() - seen));
        for j in 0..DIGEST {
            let cur: AB::Expr = local[l.cur + j].into();
            for (side, f) in flags.iter().enumerate() {
                let child: AB::Expr = lanes.input[side * DIGEST + j].into();
                builder.assert_zero(f.clone() * (child - cur.clone()));
            }
            builder.assert_zero((AB::Expr::ONE - path.clone()) * cur.clone());
            let next_cur: AB::Expr = next[l.cur + j].into();
            builder.assert_zero(carry.clone() * (next_cur.clone() - cur));
            let out: AB::Expr = lanes.out[j].into();
            builder.assert_zero(s(Sel::Link) * (next_cur - out.clone()));
            builder.assert_zero(s(Sel::Root) * (out - pv[PV_ROOT + j].clone()));
        }
        // the sponge's capacity (width 24): zero where a hash starts, the
        // previous row's where a level goes on
        let lead = s(Sel::Nullifier) + s(Sel::Leaf) + s(Sel::Start);
        for j in RATE..lanes.input.len() {
            builder.assert_zero(lead.clone() * lanes.input[j].into());
            let kept: AB::Expr = lanes.next_input[j].into() - lanes.out[j].into();
            builder.assert_zero(carry.clone() * kept);
        }
    }

    /// The spend's nullifier and leaf rows, the `s ≠ D` hints and the external
    /// data (membership: the hints are zero and there is no external data).
    fn eval_note<AB: AirBuilder<F = Val>>(
        &self,
        builder: &mut AB,
        sel: &[AB::Expr],
        pv: &[AB::Expr],
        local: &[AB::Var],
        lanes: &Lanes<'_, AB::Var>,
    ) {
        let l = self.layout();
        let s = |k: Sel| sel[k as usize].clone();
        let d = domain_nullifier();
        let mut differs = AB::Expr::ZERO;
        for j in 0..DIGEST {
            let inv: AB::Expr = local[l.inv + j].into();
            builder.assert_zero((AB::Expr::ONE - s(Sel::Leaf)) * inv.clone());
            if self.kind == AirKind::Membership {
                continue;
            }
            let dj = AB::Expr::from(d[j]);
            let nf = s(Sel::Nullifier);
            let right: AB::Expr = lanes.input[DIGEST + j].into();
            builder.assert_zero(nf.clone() * (right - dj.clone()));
            builder.assert_zero(nf.clone() * (lanes.out[j].into() - pv[PV_NF + j].clone()));
            builder.assert_zero(nf * (lanes.next_input[j].into() - lanes.input[j].into()));
            differs += (lanes.input[DIGEST + j].into() - dj) * inv;
        }
        if self.kind == AirKind::Spend {
            builder.assert_zero(s(Sel::Leaf) * (differs - AB::Expr::ONE));
            for j in 0..EXT_LIMBS {
                let e: AB::Expr = local[l.ext + j].into();
                builder.assert_zero(e - pv[PV_EXT + j].clone());
            }
        } else {
            for j in 0..EXT_LIMBS {
                builder.assert_zero(local[l.ext + j]);
            }
        }
    }
}

/// What a trace is made of: the private values and the public values.
#[derive(Clone, Debug)]
pub struct TraceInput {
    /// Spend: `(nullifier, secret)`; membership: `None`.
    pub note: Option<(Digest, Digest)>,
    /// Membership: the leaf (spend: the note commitment, computed).
    pub leaf: Digest,
    /// Siblings bottom-up: `arity − 1` per level, in child order.
    pub siblings: Vec<Vec<Digest>>,
    /// `digits[i]`: the path node's position among its level's children.
    pub digits: Vec<usize>,
    /// External-data limbs (spend).
    pub ext: [Val; EXT_LIMBS],
}

/// A row's permutation input: two digests, then zero lanes.
fn block<const W: usize>(a: &Digest, b: &Digest) -> [Val; W] {
    std::array::from_fn(|i| match i {
        i if i < DIGEST => a[i],
        i if i < RATE => b[i - DIGEST],
        _ => Val::ZERO,
    })
}

impl NoteAir {
    /// The permutation inputs of every row (padding: zero), the sponge's
    /// capacity carried along a level with the native permutation `perm`.
    fn perm_inputs<const W: usize>(
        &self,
        t: &TraceInput,
        nodes: &[Digest],
        perm: &impl Permutation<[Val; W]>,
    ) -> Vec<[Val; W]> {
        let mut rows = Vec::with_capacity(self.height());
        if let Some((n, s)) = &t.note {
            rows.push(block(n, &domain_nullifier()));
            rows.push(block(n, s));
        }
        for (i, sib) in t.siblings.iter().enumerate() {
            let kids = children(&nodes[i], sib, t.digits[i]);
            let mut state = [Val::ZERO; W];
            for pair in kids.chunks(2) {
                let mut row = block::<W>(&pair[0], &pair[1]);
                row[RATE..].copy_from_slice(&state[RATE..]);
                state = perm.permute(row);
                rows.push(row);
            }
        }
        rows.resize(self.height(), [Val::ZERO; W]);
        rows
    }

    /// The Poseidon2 columns of every row.
    fn hash_rows<const W: usize, const P: usize>(
        &self,
        t: &TraceInput,
        nodes: &[Digest],
        perm: &impl Permutation<[Val; W]>,
        constants: &RoundConstants<Val, W, HALF_FULL_ROUNDS, P>,
    ) -> RowMajorMatrix<Val>
    where
        Linear: GenericPoseidon2LinearLayers<W>,
    {
        let inputs = self.perm_inputs(t, nodes, perm);
        generate_trace_rows::<Val, Linear, W, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, P>(
            inputs, constants, 0,
        )
    }

    /// The trace of `t` (shapes checked by the caller: `depth` levels of
    /// `arity − 1` siblings and digits below `arity`). `nodes[i]` is the path
    /// node entering level `i` (`nodes[0]` is the leaf), as the native
    /// computation gives them.
    pub fn trace(&self, t: &TraceInput, nodes: &[Digest]) -> RowMajorMatrix<Val> {
        let hashes = match self.tree {
            TreeHash::Compress16 => self.hash_rows(t, nodes, permutation(), &constants16()),
            TreeHash::Sponge24 => self.hash_rows(t, nodes, permutation24(), &constants24()),
        };
        let (l, h, c) = (self.layout(), self.height(), self.rows_per_level());
        let mut values = Val::zero_vec(h * l.width);
        let first = self.first_path_row();
        for (r, row) in values.chunks_mut(l.width).enumerate() {
            row[..l.hash_cols]
                .copy_from_slice(&hashes.values[r * l.hash_cols..(r + 1) * l.hash_cols]);
            if (first..self.rows()).contains(&r) {
                let (level, m) = ((r - first) / c, (r - first) % c);
                let d = t.digits[level];
                if d / 2 == m {
                    row[l.flags + d % 2] = Val::ONE;
                }
                row[l.acc] = Val::from_bool(d / 2 < m);
                row[l.cur..l.cur + DIGEST].copy_from_slice(&nodes[level]);
            }
            if self.kind == AirKind::Spend {
                row[l.ext..l.ext + EXT_LIMBS].copy_from_slice(&t.ext);
            }
        }
        if let Some((_, s)) = &t.note {
            let d = domain_nullifier();
            if let Some(j) = (0..DIGEST).find(|&j| s[j] != d[j]) {
                values[l.width + l.inv + j] = (s[j] - d[j]).inverse();
            }
        }
        RowMajorMatrix::new(values, l.width)
    }

    /// The output (first 8 lanes) of the permutation on row `r` of `trace`.
    pub fn row_output(&self, trace: &RowMajorMatrix<Val>, r: usize) -> Digest {
        let l = self.layout();
        let row = &trace.values[r * l.width..r * l.width + l.hash_cols];
        // the last full round's outputs are the row's last `width` hash columns
        let width = self.tree.width();
        std::array::from_fn(|j| row[l.hash_cols - width + j])
    }
}
