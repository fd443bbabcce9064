//! The note-spend and membership AIR and its trace.
//!
//! One row is one Poseidon2 permutation (width 16), constrained by Plonky3's
//! `Poseidon2Air` on the row's first [`HASH_COLS`] columns (one committed
//! `x³` per S-box, degree-3 constraints); the statement's wiring lives in
//! [`EXTRA_COLS`] more columns and five fixed selectors given as periodic
//! columns of period = trace height (the verifier evaluates them itself, so a
//! prover cannot move a row's role). Rows, for a tree of height `d`:
//!
//! | row | spend | membership |
//! |---|---|---|
//! | 0 | `H(n, D)` = public `nullifier_hash` | level 0 |
//! | 1 | `H(n, s)` = the leaf; `s ≠ D` | level 1 |
//! | 2 .. 2+d | levels 0 .. d−1 of the path | ... |
//! | last path row | its output = public `root` | its output = public `root` |
//!
//! A path row holds `cur` (the node coming up, 8 columns) and a bit `b`, and
//! the permutation input is `(cur, sibling)` for `b = 0` and `(sibling, cur)`
//! for `b = 1`: `(1 − b)·left + b·right = cur` with `b(1 − b) = 0`; the next
//! row's `cur` is this row's output (the first 8 output lanes). The spend's
//! nullifier row fixes its right half to `D` and hands `n` to the leaf row;
//! `s ≠ D` is `Σ_j (s_j − D_j)·inv_j = 1` with 8 hint columns. The
//! external-data hash is 9 columns equal to the public limbs on every row.
//! Every column outside its role is constrained to zero, so that no cell of
//! a valid trace is free (the mutation audit checks this). Padding rows are
//! permutations of zero.
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
    BABYBEAR_POSEIDON2_PARTIAL_ROUNDS_16, BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
    BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL, BABYBEAR_POSEIDON2_RC_16_INTERNAL,
    BABYBEAR_S_BOX_DEGREE,
};
use p3_field::{Field, PrimeCharacteristicRing};
use p3_matrix::dense::RowMajorMatrix;
use p3_poseidon2_air::{
    generate_trace_rows, num_cols, Poseidon2Air, Poseidon2Cols, RoundConstants,
};
use p3_uni_stark::SubAirBuilder;

use crate::native::{domain_nullifier, Digest, Val, DIGEST, EXT_LIMBS};

const WIDTH: usize = 16;
const SBOX_DEGREE: u64 = BABYBEAR_S_BOX_DEGREE;
const SBOX_REGISTERS: usize = 1;
const HALF_FULL_ROUNDS: usize = BABYBEAR_POSEIDON2_HALF_FULL_ROUNDS;
const PARTIAL_ROUNDS: usize = BABYBEAR_POSEIDON2_PARTIAL_ROUNDS_16;

/// Plonky3's Poseidon2 AIR over BabyBear, width 16, with `p3-baby-bear`'s
/// round constants (the same permutation as [`crate::native::permutation`]).
pub type HashAir = Poseidon2Air<
    Val,
    GenericPoseidon2LinearLayersBabyBear,
    WIDTH,
    SBOX_DEGREE,
    SBOX_REGISTERS,
    HALF_FULL_ROUNDS,
    PARTIAL_ROUNDS,
>;

type HashCols<T> =
    Poseidon2Cols<T, WIDTH, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, PARTIAL_ROUNDS>;

/// Columns of one permutation (inputs, S-box registers, round outputs).
pub const HASH_COLS: usize =
    num_cols::<WIDTH, SBOX_DEGREE, SBOX_REGISTERS, HALF_FULL_ROUNDS, PARTIAL_ROUNDS>();
/// The path bit.
pub const BIT: usize = HASH_COLS;
/// The node coming up the path (8 columns).
pub const CUR: usize = BIT + 1;
/// The hints of `s ≠ D` (8 columns).
pub const INV: usize = CUR + DIGEST;
/// The external-data limbs (9 columns).
pub const EXT: usize = INV + DIGEST;
/// Columns beyond the permutation's.
pub const EXTRA_COLS: usize = 1 + 2 * DIGEST + EXT_LIMBS;
/// Trace width.
pub const TRACE_WIDTH: usize = HASH_COLS + EXTRA_COLS;

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
    Nullifier = 0,
    Leaf = 1,
    Path = 2,
    Root = 3,
    Link = 4,
}

/// Which statement the AIR proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AirKind {
    /// Note spend: public root, nullifier hash, external data.
    Spend,
    /// Membership: public root.
    Membership,
}

/// The AIR of a statement over a binary tree of height `depth`.
#[derive(Clone)]
pub struct NoteAir {
    kind: AirKind,
    depth: usize,
    min_height: usize,
    hash: HashAir,
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
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

/// The permutation's round constants (`p3-baby-bear`'s).
fn round_constants() -> RoundConstants<Val, WIDTH, HALF_FULL_ROUNDS, PARTIAL_ROUNDS> {
    RoundConstants::new(
        BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
        BABYBEAR_POSEIDON2_RC_16_INTERNAL,
        BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
    )
}

impl NoteAir {
    /// The AIR of `kind` over a tree of height `depth` (at least 1), padded
    /// to [`MIN_HEIGHT`] rows at least.
    pub fn new(kind: AirKind, depth: usize) -> Result<Self, String> {
        Self::with_min_height(kind, depth, MIN_HEIGHT)
    }

    /// The same AIR padded to `min_height` rows at least (a power of two, at
    /// least 8). Below [`MIN_HEIGHT`] the trace is too short to hide the
    /// witness behind the queries of the hiding PCS; the mutation audit, which
    /// proves nothing, uses 8 rows.
    pub fn with_min_height(kind: AirKind, depth: usize, min_height: usize) -> Result<Self, String> {
        if depth == 0 {
            return Err("a path needs at least one level (2 leaves)".into());
        }
        if !min_height.is_power_of_two() || min_height < 8 {
            return Err(format!(
                "minimum height {min_height} is not a power of two of at least 8"
            ));
        }
        let mut air = Self {
            kind,
            depth,
            min_height,
            hash: HashAir::new(round_constants()),
            periodic: Vec::new(),
            degree: OnceLock::new(),
            count: OnceLock::new(),
        };
        air.periodic = air.selectors();
        Ok(air)
    }

    /// The statement.
    pub fn kind(&self) -> AirKind {
        self.kind
    }

    /// Tree height.
    pub fn depth(&self) -> usize {
        self.depth
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
        self.first_path_row() + self.depth
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
        let first = self.first_path_row();
        let last = self.rows() - 1;
        let col = |on: &dyn Fn(usize) -> bool| (0..h).map(|r| Val::from_bool(on(r))).collect();
        let spend = self.kind == AirKind::Spend;
        vec![
            col(&|r| spend && r == 0),
            col(&|r| spend && r == 1),
            col(&|r| (first..=last).contains(&r)),
            col(&|r| r == last),
            col(&|r| r >= usize::from(spend) && r < last),
        ]
    }
}

impl BaseAir<Val> for NoteAir {
    fn width(&self) -> usize {
        TRACE_WIDTH
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
        self.hash
            .eval(&mut SubAirBuilder::<AB, HashAir, AB::Var>::new(
                builder,
                0..HASH_COLS,
            ));
        let sel: Vec<AB::Expr> = builder
            .periodic_values()
            .iter()
            .map(|&v| v.into())
            .collect();
        let pv: Vec<AB::Expr> = builder.public_values().iter().map(|&v| v.into()).collect();
        let main = builder.main();
        let (local, next) = (main.current_slice(), main.next_slice());
        let cols: &HashCols<AB::Var> = local[..HASH_COLS].borrow();
        let out = cols.ending_full_rounds[HALF_FULL_ROUNDS - 1].post;
        let input = cols.inputs;
        let s = |k: Sel| sel[k as usize].clone();
        let d = domain_nullifier();

        // the path: a boolean bit places `cur` left or right; outside path rows, zero
        let bit: AB::Expr = local[BIT].into();
        builder.assert_zero(s(Sel::Path) * bit.clone() * (AB::Expr::ONE - bit.clone()));
        builder.assert_zero((AB::Expr::ONE - s(Sel::Path)) * bit.clone());
        for j in 0..DIGEST {
            let cur: AB::Expr = local[CUR + j].into();
            let chosen = (AB::Expr::ONE - bit.clone()) * input[j].into()
                + bit.clone() * input[DIGEST + j].into();
            builder.assert_zero(s(Sel::Path) * (chosen - cur.clone()));
            builder.assert_zero((AB::Expr::ONE - s(Sel::Path)) * cur);
            let next_cur: AB::Expr = next[CUR + j].into();
            builder.assert_zero(s(Sel::Link) * (next_cur - out[j].into()));
            builder.assert_zero(s(Sel::Root) * (out[j].into() - pv[PV_ROOT + j].clone()));
        }
        self.eval_note(builder, &sel, &pv, local, next, &input, &out, &d);
    }
}

impl NoteAir {
    /// The spend's nullifier and leaf rows, the `s ≠ D` hints and the external
    /// data (membership: the hints are zero and there is no external data).
    #[allow(clippy::too_many_arguments)]
    fn eval_note<AB: AirBuilder<F = Val>>(
        &self,
        builder: &mut AB,
        sel: &[AB::Expr],
        pv: &[AB::Expr],
        local: &[AB::Var],
        next: &[AB::Var],
        input: &[AB::Var; WIDTH],
        out: &[AB::Var; WIDTH],
        d: &Digest,
    ) {
        let s = |k: Sel| sel[k as usize].clone();
        let mut differs = AB::Expr::ZERO;
        for j in 0..DIGEST {
            let inv: AB::Expr = local[INV + j].into();
            builder.assert_zero((AB::Expr::ONE - s(Sel::Leaf)) * inv.clone());
            if self.kind == AirKind::Membership {
                continue;
            }
            let dj = AB::Expr::from(d[j]);
            let nf = s(Sel::Nullifier);
            builder.assert_zero(nf.clone() * (input[DIGEST + j].into() - dj.clone()));
            builder.assert_zero(nf.clone() * (out[j].into() - pv[PV_NF + j].clone()));
            builder.assert_zero(nf * (next[j].into() - input[j].into()));
            differs += (input[DIGEST + j].into() - dj) * inv;
        }
        if self.kind == AirKind::Spend {
            builder.assert_zero(s(Sel::Leaf) * (differs - AB::Expr::ONE));
            for j in 0..EXT_LIMBS {
                let e: AB::Expr = local[EXT + j].into();
                builder.assert_zero(e - pv[PV_EXT + j].clone());
            }
        } else {
            for j in 0..EXT_LIMBS {
                builder.assert_zero(local[EXT + j]);
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
    /// Siblings bottom-up.
    pub siblings: Vec<Digest>,
    /// `bits[i] = true` when the path node is the right child at level `i`.
    pub bits: Vec<bool>,
    /// External-data limbs (spend).
    pub ext: [Val; EXT_LIMBS],
}

impl NoteAir {
    /// The permutation inputs of every row (padding: zero).
    fn perm_inputs(&self, t: &TraceInput, nodes: &[Digest]) -> Vec<[Val; WIDTH]> {
        let cat = |a: &Digest, b: &Digest| -> [Val; WIDTH] {
            std::array::from_fn(|i| if i < DIGEST { a[i] } else { b[i - DIGEST] })
        };
        let mut rows = Vec::with_capacity(self.height());
        if let Some((n, s)) = &t.note {
            rows.push(cat(n, &domain_nullifier()));
            rows.push(cat(n, s));
        }
        for (i, sib) in t.siblings.iter().enumerate() {
            rows.push(if t.bits[i] {
                cat(sib, &nodes[i])
            } else {
                cat(&nodes[i], sib)
            });
        }
        rows.resize(self.height(), [Val::ZERO; WIDTH]);
        rows
    }

    /// The trace of `t` (shapes checked by the caller: `depth` siblings and
    /// bits). `nodes[i]` is the path node entering level `i` (`nodes[0]` is
    /// the leaf), as the native computation gives them.
    pub fn trace(&self, t: &TraceInput, nodes: &[Digest]) -> RowMajorMatrix<Val> {
        let inputs = self.perm_inputs(t, nodes);
        let hashes = generate_trace_rows::<
            Val,
            GenericPoseidon2LinearLayersBabyBear,
            WIDTH,
            SBOX_DEGREE,
            SBOX_REGISTERS,
            HALF_FULL_ROUNDS,
            PARTIAL_ROUNDS,
        >(inputs, &round_constants(), 0);
        let h = self.height();
        let mut values = Val::zero_vec(h * TRACE_WIDTH);
        let first = self.first_path_row();
        for (r, row) in values.chunks_mut(TRACE_WIDTH).enumerate() {
            row[..HASH_COLS].copy_from_slice(&hashes.values[r * HASH_COLS..(r + 1) * HASH_COLS]);
            if (first..self.rows()).contains(&r) {
                let level = r - first;
                row[BIT] = Val::from_bool(t.bits[level]);
                row[CUR..CUR + DIGEST].copy_from_slice(&nodes[level]);
            }
            if self.kind == AirKind::Spend {
                row[EXT..EXT + EXT_LIMBS].copy_from_slice(&t.ext);
            }
        }
        if let Some((_, s)) = &t.note {
            let d = domain_nullifier();
            if let Some(j) = (0..DIGEST).find(|&j| s[j] != d[j]) {
                values[TRACE_WIDTH + INV + j] = (s[j] - d[j]).inverse();
            }
        }
        RowMajorMatrix::new(values, TRACE_WIDTH)
    }

    /// The output (first 8 lanes) of the permutation on row `r` of `trace`.
    pub fn row_output(trace: &RowMajorMatrix<Val>, r: usize) -> Digest {
        let row = &trace.values[r * TRACE_WIDTH..r * TRACE_WIDTH + HASH_COLS];
        let cols: &HashCols<Val> = row.borrow();
        std::array::from_fn(|j| cols.ending_full_rounds[HALF_FULL_ROUNDS - 1].post[j])
    }
}
