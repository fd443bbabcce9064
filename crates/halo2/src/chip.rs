//! The Poseidon2 chip: one hash (permutation plus its input/output convention)
//! per block of rows, written against [`Poseidon2Instructions`] so that
//! another layout can be swapped in.
//!
//! # Layout (see the crate docs for the reasoning)
//! Columns: `t_max` *state* columns, `n_extra` *extra* columns (`e0` holds the
//! running node — the hash input "current node" and the hash output — and the
//! feed-forward copy; `e1…` hold partial-round S-box outputs and the
//! membership partial products), and `max(t_max, p)` fixed round-constant
//! columns. A hash of width `t` with `p` partial rounds per row uses
//! `T = R_F + ⌈R_P / p⌉` rows after its input row:
//!
//! * input row: the input lanes in state columns, the current node in `e0`;
//!   gate *first* = initial `M_E` + first full round, written as
//!   `M_E⁻¹·next = (M_E·in + c)^α` (one S-box per constraint); constant input
//!   lanes (sponge capacity, zero padding, a domain tag) are constants in the
//!   gate, not cells; gate *member* checks `Π (lane_i − e0) = 0` over the
//!   child lanes (chunked with partial products in `e1…` so that every
//!   constraint stays within the constraint system's degree);
//! * full-round rows: `M_E⁻¹·next = (cur + c)^α`;
//! * partial rows: `p` partial rounds; the S-box outputs of the first `p − 1`
//!   go into extra columns (`e_j = (lin_j + c_j)^α`, `lin_j` a linear form of the row),
//!   the last as `(M_I⁻¹·next)_0 = (lin_p + c_p)^α`, and the other lanes
//!   linearly (`(M_I⁻¹·next)_i = lin_i`); a remainder chunk gate handles
//!   `R_P mod p`;
//! * last full round: only lane 0 is computed and written into `e0` of the next
//!   row (`+ e0` of the current row for the compression feed-forward
//!   `perm(x)[0] + x[0]`, with `x[0]` copied there). The next row's state
//!   columns are therefore free: the next hash's input row is the same row
//!   (its current node is this output), so a Merkle level costs exactly `T`
//!   rows, with no row for the membership check.
//!
//! **Split S-boxes** ([`ChipLayout::split_sbox`], the default): every S-box
//! `y = x^α` gets a helper cell `a = x^((α−1)/2)` (`x³` for α = 7) checked by
//! `a − x^((α−1)/2) = 0`, and `y` enters its constraint as `a²·x` (degree 3).
//! Full-round rows hold their `t` helpers in `extra[aux..aux + t]` (`aux`:
//! the columns an input row needs for `e0`, the membership partial products
//! and the caller's cells); a partial row holds round `j`'s helper in
//! `extra[2j]` and its S-box output in `extra[2j + 1]`. Every gate then has
//! degree 4 (with the selector), so the quotient lives on the 4n extended
//! domain in 3 pieces, against 8n and 7 pieces for one S-box per constraint
//! (degree α + 1 = 8). The default pins the degree to 5 (same domain; halo2
//! then merges selectors into fewer fixed columns and needs one permutation
//! product). Spend α = 7, arity 7: 19 advice columns instead of 13, the same
//! 241 rows (k = 8), prover CPU time −17% from the split alone (the
//! `halo2_layouts` example, `--sbox both`).
//!
//! Without the split, every gate has degree α + 1 (8 for α = 7, 6 for α = 5),
//! so the quotient lives on the 8n extended domain either way.

use std::collections::BTreeMap;
use std::sync::Arc;

use halo2_axiom::{
    circuit::{AssignedCell, Cell, Region, Value},
    halo2curves::{bn256::Fr, ff::Field},
    plonk::{
        Advice, Assigned, Column, ColumnType, ConstraintSystem, Error, Expression, Fixed, Selector,
        VirtualCells,
    },
    poly::Rotation,
};

use crate::params::{mat_inverse, pow_small, Poseidon2Params};

/// How one input lane of a hash is fed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A witness cell (a child, a note component).
    Cell,
    /// A constant (sponge capacity 0, zero padding, a domain tag): no cell
    /// is constrained, the constant is part of the gate.
    Const(Fr),
}

/// A hash computed by the chip: a Poseidon2 instance, how its input lanes are
/// fed, and its output convention.
#[derive(Clone, Debug)]
pub struct HashSpec {
    /// The permutation.
    pub params: Arc<Poseidon2Params>,
    /// One entry per state lane.
    pub lanes: Vec<Lane>,
    /// Compression mode: output `perm(x)[0] + x[0]` (lane 0 must be a cell);
    /// otherwise sponge mode, output `perm(x)[0]`.
    pub feed_forward: bool,
    /// Check on the input row that the current node (`e0`) is one of the
    /// cell lanes (Merkle levels).
    pub membership: bool,
}

impl HashSpec {
    /// Indices of the cell lanes.
    pub fn cell_lanes(&self) -> Vec<usize> {
        (0..self.lanes.len())
            .filter(|&i| self.lanes[i] == Lane::Cell)
            .collect()
    }

    /// Native output for the values of the cell lanes.
    pub fn hash(&self, cells: &[Fr]) -> Fr {
        let x = self.full_input(cells);
        let y = self.params.permute(&x);
        if self.feed_forward {
            y[0] + x[0]
        } else {
            y[0]
        }
    }

    fn full_input(&self, cells: &[Fr]) -> Vec<Fr> {
        let mut it = cells.iter();
        let x: Vec<Fr> = self
            .lanes
            .iter()
            .map(|l| match l {
                Lane::Cell => *it.next().expect("one value per cell lane"),
                Lane::Const(c) => *c,
            })
            .collect();
        assert!(it.next().is_none(), "one value per cell lane");
        x
    }

    /// Number of extra columns its membership check needs (`e0` included)
    /// when a constraint may multiply `m` factors.
    fn member_extras(&self, m: usize) -> usize {
        if !self.membership {
            return 1;
        }
        let a = self.cell_lanes().len();
        if a <= m {
            1
        } else {
            1 + (a - m).div_ceil(m - 1)
        }
    }
}

/// Layout parameters of the chip (default: 6 partial rounds per row, split
/// S-boxes and degree pinned to 5, which puts the 2^36-leaf Poseidon2 α = 7
/// arity-7 spend at 241 rows, k = 8, 19 advice columns, extended domain 4n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ChipLayout {
    /// Partial rounds per row `p` (≥ 1); `p − 1` S-box helper columns
    /// (`2p − 1` with [`ChipLayout::split_sbox`]).
    pub partial_per_row: usize,
    /// Constraint-system degree to pin (0: the gates' own degree). A value
    /// above the gates' degree keeps the extended domain if it stays in the
    /// same power of two and lets halo2's selector compression merge
    /// selectors into fewer fixed columns, at the price of more quotient
    /// pieces.
    #[serde(default)]
    pub degree: usize,
    /// Split every S-box `y = x^α` into a helper cell `a = x^((α−1)/2)`
    /// (`x³` for α = 7, `x²` for α = 5) and `y = a²·x`: every gate then has
    /// degree 4 (extended domain 4n, 3 quotient pieces) instead of α + 1
    /// (8n, α quotient pieces), at the price of one helper cell per S-box.
    /// Absent in a serialised layout: `false` (the layout of keys made before
    /// the option existed).
    #[serde(default)]
    pub split_sbox: bool,
    /// Physical rows per logical row (1: the wide layout). With `fold = B`
    /// the `i`-th logical column of each kind (state lanes, extra cells,
    /// round constants) lives in physical column `i / B`, row `i % B` of the
    /// logical row's block, so every gate is the same polynomial over cells
    /// `B` times closer together in columns and `B` rows apart in rotations.
    /// Every column is a KZG commitment that an EVM verifier multiplies
    /// (one 6,000-gas ecMul each), so folding trades prover rows for
    /// verifier gas: see [`ChipLayout::evm`]. Absent in a serialised layout:
    /// 1 (and 1 is not written, so the keys of unfolded layouts keep their
    /// cache names).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub fold: usize,
}

fn one() -> usize {
    1
}

fn is_one(v: &usize) -> bool {
    *v == 1
}

impl ChipLayout {
    /// `p` partial rounds per row, split S-boxes, degree pinned to 5: the
    /// same 4n extended domain as the gates' own degree 4, and in the spend
    /// the same prover time (measured with the `halo2_layouts` example),
    /// but halo2 merges selectors into fewer fixed columns (two a column:
    /// 14 fixed columns instead of 20 for the α = 7 arity-7 spend) and the
    /// permutation argument needs one grand product instead of two, so the
    /// proof is smaller (2,400 B) for one more quotient piece.
    pub fn new(partial_per_row: usize) -> Self {
        Self {
            partial_per_row,
            degree: 5,
            split_sbox: true,
            fold: 1,
        }
    }

    /// [`ChipLayout::new`]`(p)` folded into `fold` physical rows per logical
    /// row (see [`ChipLayout::fold`]).
    pub fn folded(partial_per_row: usize, fold: usize) -> Self {
        Self {
            fold: fold.max(1),
            ..Self::new(partial_per_row)
        }
    }

    /// The layout the EVM verifier is generated for by default: 6 partial
    /// rounds per row folded 4 ways. For the α = 7 arity-7 spend that is
    /// 5 advice columns instead of 19 and 2 round-constant columns instead of
    /// 8, at 4x the rows (k = 10 instead of 8).
    pub fn evm() -> Self {
        Self::folded(6, 4)
    }

    /// `p` partial rounds per row, one S-box per constraint, the gates' own
    /// degree α + 1: the layout before [`ChipLayout::split_sbox`], kept for
    /// comparison.
    pub fn unsplit(partial_per_row: usize) -> Self {
        Self {
            partial_per_row,
            degree: 0,
            split_sbox: false,
            fold: 1,
        }
    }

    /// Degree of the chip's S-box gates: 4 with split S-boxes, α + 1
    /// otherwise.
    pub fn gate_degree(&self, alpha: u64) -> usize {
        if self.split_sbox {
            4
        } else {
            alpha as usize + 1
        }
    }

    /// Degree of the constraint system: the gates' degree or the pinned
    /// [`ChipLayout::degree`], whichever is higher (other gates, such as the
    /// membership products, may use it all).
    pub fn cs_degree(&self, alpha: u64) -> usize {
        self.gate_degree(alpha).max(self.degree)
    }
}

impl Default for ChipLayout {
    fn default() -> Self {
        Self::new(6)
    }
}

/// A cell and its value.
#[derive(Clone, Copy, Debug)]
pub struct Wire {
    /// The cell.
    pub cell: Cell,
    /// Its value (unknown during key generation).
    pub value: Value<Fr>,
}

/// What [`Poseidon2Instructions::assign_hash`] laid out.
#[derive(Clone, Debug)]
pub struct HashCells {
    /// The cell lanes of the input row, in lane order.
    pub inputs: Vec<Wire>,
    /// The output (`e0` of row `offset + rows`).
    pub output: Wire,
    /// Rows used after the input row (the output row is the next hash's input row).
    pub rows: usize,
}

/// The chip's instruction set.
pub trait Poseidon2Instructions {
    /// Rows a hash of spec `spec` takes after its input row.
    fn hash_rows(&self, spec: usize) -> usize;

    /// Lays out one hash of spec `spec` with its input row at `offset`:
    /// assigns the input lanes (values of the cell lanes in `inputs`), every
    /// intermediate row and the output in `e0` of row `offset + rows`. The
    /// caller assigns `e0` of the input row (the current node) when the spec
    /// checks membership, and does not reuse the state cells of rows
    /// `offset..offset + rows`.
    fn assign_hash(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        spec: usize,
        inputs: Value<Vec<Fr>>,
    ) -> Result<HashCells, Error>;
}

/// Factors one membership constraint multiplies (its degree without the
/// selector): the S-box gates' degree minus one. Not the pinned
/// constraint-system degree: a gate of that full degree keeps its selector
/// out of halo2's selector compression (a selector shares a fixed column only
/// where the gates it guards leave degree to spare), which costs a fixed
/// column (one commitment, one ecMul on chain) to save a cell on input rows.
fn member_chunk(layout: &ChipLayout, alpha: u64) -> usize {
    layout.gate_degree(alpha) - 1
}

/// Where a logical column of the chip lives: a physical column and the row
/// inside each logical row's block of [`ChipLayout::fold`] rows.
#[derive(Clone, Copy, Debug)]
pub struct Slot<C: ColumnType> {
    /// The physical column.
    pub column: Column<C>,
    /// The row inside the block (0 when unfolded).
    pub row: usize,
}

/// Column set shared by all hashes, as logical columns ([`Slot`]s).
#[derive(Clone, Debug)]
pub struct Poseidon2Columns {
    /// State lanes (`t_max`).
    pub state: Vec<Slot<Advice>>,
    /// Extra cells (`e0`, helpers).
    pub extra: Vec<Slot<Advice>>,
    /// Round constants.
    pub rc: Vec<Slot<Fixed>>,
    /// Physical rows per logical row.
    pub fold: usize,
}

impl Poseidon2Columns {
    /// `n` logical columns folded into `⌈n / fold⌉` physical ones.
    fn allocate<C: ColumnType>(
        n: usize,
        fold: usize,
        mut new: impl FnMut() -> Column<C>,
    ) -> Vec<Slot<C>> {
        let physical: Vec<Column<C>> = (0..n.div_ceil(fold)).map(|_| new()).collect();
        (0..n)
            .map(|i| Slot {
                column: physical[i / fold],
                row: i % fold,
            })
            .collect()
    }

    fn rotation(&self, row: usize, logical: i32) -> Rotation {
        Rotation(logical * self.fold as i32 + row as i32)
    }

    /// The physical row of `slot` in logical row `row`.
    pub fn row<C: ColumnType>(&self, slot: Slot<C>, row: usize) -> usize {
        row * self.fold + slot.row
    }

    /// Queries advice `slot` of the logical row at `logical` rotation.
    pub fn query(
        &self,
        vc: &mut VirtualCells<'_, Fr>,
        slot: Slot<Advice>,
        logical: i32,
    ) -> Expression<Fr> {
        vc.query_advice(slot.column, self.rotation(slot.row, logical))
    }

    /// Queries fixed `slot` of the current logical row.
    pub fn query_fixed(&self, vc: &mut VirtualCells<'_, Fr>, slot: Slot<Fixed>) -> Expression<Fr> {
        vc.query_fixed(slot.column, self.rotation(slot.row, 0))
    }

    /// Assigns advice `slot` of logical row `row` (through the audit hook).
    pub fn assign<'v>(
        &self,
        region: &mut Region<'_, Fr>,
        slot: Slot<Advice>,
        row: usize,
        value: Value<Fr>,
    ) -> AssignedCell<&'v Assigned<Fr>, Fr> {
        crate::audit::assign_advice(region, slot.column, self.row(slot, row), value)
    }

    fn assign_fixed(&self, region: &mut Region<'_, Fr>, slot: Slot<Fixed>, row: usize, v: Fr) {
        region.assign_fixed(slot.column, self.row(slot, row), v);
    }

    /// Enables `q` on logical row `row` (the first row of its block).
    pub fn enable(
        &self,
        region: &mut Region<'_, Fr>,
        q: Selector,
        row: usize,
    ) -> Result<(), Error> {
        q.enable(region, row * self.fold)
    }

    /// Physical rows of `logical` logical rows whose last one holds only
    /// first-row cells (a hash's output in `e0`).
    pub fn physical_rows(&self, logical: usize) -> usize {
        (logical.max(1) - 1) * self.fold + 1
    }
}

#[derive(Clone, Debug)]
struct WidthGates {
    params: Arc<Poseidon2Params>,
    q_full: Selector,
    /// `(rounds in the chunk, selector)`: `p` and, if nonzero, `R_P mod p`.
    q_partial: Vec<(usize, Selector)>,
}

#[derive(Clone, Debug)]
struct SpecGates {
    spec: HashSpec,
    q_first: Selector,
    q_last: Selector,
    q_member: Option<Selector>,
}

/// The chip's configuration: columns, selectors, specs.
#[derive(Clone, Debug)]
pub struct Poseidon2Config {
    /// Columns.
    pub columns: Poseidon2Columns,
    /// Layout.
    pub layout: ChipLayout,
    /// With split S-boxes: the extra column of the first full-round helper
    /// (`x^((α−1)/2)` of lane `i` in `extra[aux + i]`); the columns below it
    /// hold, on a hash's input row, the current node, the membership partial
    /// products and the caller's cells.
    pub aux: usize,
    widths: BTreeMap<usize, WidthGates>,
    specs: Vec<SpecGates>,
}

/// Linear form over a list of variables plus a constant.
#[derive(Clone, Debug)]
struct Lin {
    coeffs: Vec<Fr>,
    constant: Fr,
}

impl Lin {
    fn zero(n: usize) -> Self {
        Self {
            coeffs: vec![Fr::ZERO; n],
            constant: Fr::ZERO,
        }
    }
    fn var(n: usize, i: usize) -> Self {
        let mut l = Self::zero(n);
        l.coeffs[i] = Fr::ONE;
        l
    }
    fn constant(n: usize, c: Fr) -> Self {
        let mut l = Self::zero(n);
        l.constant = c;
        l
    }
    fn add(&self, o: &Lin) -> Lin {
        Lin {
            coeffs: self
                .coeffs
                .iter()
                .zip(&o.coeffs)
                .map(|(a, b)| *a + b)
                .collect(),
            constant: self.constant + o.constant,
        }
    }
    fn scale(&self, s: Fr) -> Lin {
        Lin {
            coeffs: self.coeffs.iter().map(|a| *a * s).collect(),
            constant: self.constant * s,
        }
    }
    fn expr(&self, vars: &[Expression<Fr>]) -> Expression<Fr> {
        let mut e: Option<Expression<Fr>> = None;
        for (c, v) in self.coeffs.iter().zip(vars) {
            if bool::from(c.is_zero()) {
                continue;
            }
            let term = if *c == Fr::ONE {
                v.clone()
            } else {
                v.clone() * Expression::Constant(*c)
            };
            e = Some(match e {
                None => term,
                Some(e) => e + term,
            });
        }
        let k = Expression::Constant(self.constant);
        match e {
            None => k,
            Some(e) if bool::from(self.constant.is_zero()) => e,
            Some(e) => e + k,
        }
    }
}

fn mat_lin(m: &[Vec<Fr>], x: &[Lin]) -> Vec<Lin> {
    let n = x[0].coeffs.len();
    m.iter()
        .map(|row| {
            row.iter()
                .zip(x)
                .fold(Lin::zero(n), |acc, (a, l)| acc.add(&l.scale(*a)))
        })
        .collect()
}

fn pow_expr(x: Expression<Fr>, alpha: u64) -> Expression<Fr> {
    // Square-and-multiply; the prover's evaluator shares the repeated subtrees.
    let mut result: Option<Expression<Fr>> = None;
    let mut base = x;
    let mut e = alpha;
    while e > 0 {
        if e & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => r * base.clone(),
            });
        }
        e >>= 1;
        if e > 0 {
            base = base.clone() * base;
        }
    }
    result.expect("alpha ≥ 1")
}

/// How the gates write an S-box (see [`ChipLayout::split_sbox`]).
#[derive(Clone, Copy, Debug)]
struct SboxForm {
    split: bool,
    /// First extra column of the full-round helpers.
    aux: usize,
}

impl SboxForm {
    /// `x^α` as an expression of degree ≤ 3 given the helper cell `a`
    /// (`a²·x`), with the helper's check `a − x^((α−1)/2)` (degree ≤ 3); or
    /// `x^α` itself without a helper.
    fn sbox(
        x: Expression<Fr>,
        helper: Option<Expression<Fr>>,
        alpha: u64,
    ) -> (Expression<Fr>, Option<Expression<Fr>>) {
        match helper {
            None => (pow_expr(x, alpha), None),
            Some(a) => (
                a.clone() * a.clone() * x.clone(),
                Some(a - pow_expr(x, (alpha - 1) / 2)),
            ),
        }
    }

    /// The helper of full-round lane `i`, if split.
    fn full_helper(
        &self,
        vc: &mut VirtualCells<'_, Fr>,
        cols: &Poseidon2Columns,
        i: usize,
    ) -> Option<Expression<Fr>> {
        self.split
            .then(|| cols.query(vc, cols.extra[self.aux + i], 0))
    }

    /// Extra columns holding a row's helper cells, in the order of
    /// [`Trace::helpers`]: on a full-round row one per lane (split only); on a
    /// partial row of `chunk` rounds the S-box outputs of all rounds but the
    /// last, interleaved with each round's helper when split.
    fn row_columns(&self, full_round: Option<usize>, chunk: usize) -> Vec<usize> {
        match full_round {
            Some(t) if self.split => (self.aux..self.aux + t).collect(),
            Some(_) => vec![],
            None if self.split => (0..2 * chunk - 1).collect(),
            None => (0..chunk - 1).collect(),
        }
    }
}

/// `q·e` for each expression.
fn gated(q: &Expression<Fr>, es: impl IntoIterator<Item = Expression<Fr>>) -> Vec<Expression<Fr>> {
    es.into_iter().map(|e| q.clone() * e).collect()
}

fn invert(m: &[Vec<Fr>]) -> Vec<Vec<Fr>> {
    mat_inverse(m).expect("Poseidon2 matrices are invertible")
}

/// The `t` state cells of a row at `rotation`, queried in lane order.
fn query_state(
    vc: &mut VirtualCells<'_, Fr>,
    cols: &Poseidon2Columns,
    t: usize,
    rotation: i32,
) -> Vec<Expression<Fr>> {
    (0..t)
        .map(|i| cols.query(vc, cols.state[i], rotation))
        .collect()
}

/// The first `n` round constants of the current row, queried in order.
fn query_rc(
    vc: &mut VirtualCells<'_, Fr>,
    cols: &Poseidon2Columns,
    n: usize,
) -> Vec<Expression<Fr>> {
    (0..n).map(|i| cols.query_fixed(vc, cols.rc[i])).collect()
}

/// A full-round row: its state, the next row's state and its round
/// constants (queried in that order).
type FullRow = (
    Vec<Expression<Fr>>,
    Vec<Expression<Fr>>,
    Vec<Expression<Fr>>,
);

/// [`FullRow`] of a width-`t` permutation.
fn query_full_row(vc: &mut VirtualCells<'_, Fr>, cols: &Poseidon2Columns, t: usize) -> FullRow {
    let cur = query_state(vc, cols, t, 0);
    let next = query_state(vc, cols, t, 1);
    let rc = query_rc(vc, cols, t);
    (cur, next, rc)
}

/// `inv · next` as linear forms in the next row's `t` state cells: what the
/// round's output must equal before its (inverted) linear layer.
fn pre_image(inv: &[Vec<Fr>], t: usize) -> Vec<Lin> {
    let next_lin: Vec<Lin> = (0..t).map(|i| Lin::var(t, i)).collect();
    mat_lin(inv, &next_lin)
}

/// A full round's constraints, lane by lane: the S-box of `inputs[i]` (its
/// helper queried here, in lane order, when split) equals lane `i` of
/// `me_inv · next`, followed by the S-box's own checks.
fn full_round_out(
    vc: &mut VirtualCells<'_, Fr>,
    cols: &Poseidon2Columns,
    sb: SboxForm,
    params: &Poseidon2Params,
    me_inv: &[Vec<Fr>],
    inputs: &[Expression<Fr>],
    next: &[Expression<Fr>],
) -> Vec<Expression<Fr>> {
    let pre = pre_image(me_inv, params.width);
    let mut out = vec![];
    for (i, input) in inputs.iter().enumerate() {
        let h = sb.full_helper(vc, cols, i);
        let (y, check) = SboxForm::sbox(input.clone(), h, params.alpha);
        out.push(pre[i].expr(next) - y);
        out.extend(check);
    }
    out
}

impl Poseidon2Config {
    /// Columns needed for `specs` under `layout`, with `min_extra` extra
    /// columns reserved for the caller on input rows: `(state, extra, rc)`.
    pub fn column_counts(
        specs: &[HashSpec],
        layout: &ChipLayout,
        min_extra: usize,
    ) -> (usize, usize, usize) {
        let t_max = specs.iter().map(|s| s.params.width).max().unwrap_or(1);
        let p = layout.partial_per_row.max(1);
        let aux = Self::aux_columns(specs, layout, min_extra);
        let extra = if layout.split_sbox {
            // Full rounds: a helper per lane from `aux` on; partial rows: a
            // helper and an output per round (the last one's output is the
            // next row's lane 0).
            (aux + t_max).max(2 * p - 1)
        } else {
            aux.max(p.saturating_sub(1))
        };
        (t_max, extra, t_max.max(p))
    }

    /// Extra columns a hash's input row needs besides its S-box helpers:
    /// `e0`, the membership partial products, `min_extra`.
    fn aux_columns(specs: &[HashSpec], layout: &ChipLayout, min_extra: usize) -> usize {
        specs
            .iter()
            .map(|s| s.member_extras(member_chunk(layout, s.params.alpha)))
            .max()
            .unwrap_or(1)
            .max(min_extra)
            .max(1)
    }

    /// Allocates columns for `specs` (plus `min_extra` extra columns at least,
    /// which the chip leaves free on input rows) and configures the chip.
    pub fn configure(
        meta: &mut ConstraintSystem<Fr>,
        specs: Vec<HashSpec>,
        layout: ChipLayout,
        min_extra: usize,
    ) -> Self {
        let (t, e, f) = Self::column_counts(&specs, &layout, min_extra);
        let fold = layout.fold.max(1);
        let columns = Poseidon2Columns {
            state: Poseidon2Columns::allocate(t, fold, || meta.advice_column()),
            extra: Poseidon2Columns::allocate(e, fold, || meta.advice_column()),
            rc: Poseidon2Columns::allocate(f, fold, || meta.fixed_column()),
            fold,
        };
        let aux = Self::aux_columns(&specs, &layout, min_extra);
        Self::configure_with_columns(meta, columns, specs, layout, aux)
    }

    /// Configures the chip on given columns (at least the counts of
    /// [`Poseidon2Config::column_counts`]); with split S-boxes the full-round
    /// helpers start at `extra[aux]`.
    pub fn configure_with_columns(
        meta: &mut ConstraintSystem<Fr>,
        columns: Poseidon2Columns,
        specs: Vec<HashSpec>,
        layout: ChipLayout,
        aux: usize,
    ) -> Self {
        let sb = SboxForm {
            split: layout.split_sbox,
            aux,
        };
        let widths = Self::width_gates(meta, &columns, &specs, &layout, sb);
        let specs = Self::spec_gates(meta, &columns, specs, &layout, sb);
        Self {
            columns,
            layout,
            aux,
            widths,
            specs,
        }
    }

    /// The round gates of each width of `specs`, made once per width in the
    /// order the widths first appear (specs of one width must share their
    /// instance).
    fn width_gates(
        meta: &mut ConstraintSystem<Fr>,
        columns: &Poseidon2Columns,
        specs: &[HashSpec],
        layout: &ChipLayout,
        sb: SboxForm,
    ) -> BTreeMap<usize, WidthGates> {
        let p = layout.partial_per_row.max(1);
        let mut widths = BTreeMap::new();
        for s in specs {
            let t = s.params.width;
            if let Some(w) = widths.get(&t) {
                let w: &WidthGates = w;
                assert_eq!(
                    w.params, s.params,
                    "two specs of width {t} with different instances"
                );
                continue;
            }
            widths.insert(t, Self::round_gates(meta, columns, &s.params, p, sb));
        }
        widths
    }

    /// The gates of one instance's rounds: the full round, and the partial
    /// rounds in chunks of `p` and, if nonzero and different, of
    /// `R_P mod p` rounds.
    fn round_gates(
        meta: &mut ConstraintSystem<Fr>,
        columns: &Poseidon2Columns,
        params: &Arc<Poseidon2Params>,
        p: usize,
        sb: SboxForm,
    ) -> WidthGates {
        let params = params.clone();
        let q_full = meta.selector();
        Self::full_gate(meta, columns, &params, sb, q_full);
        let mut q_partial = vec![];
        for r in [p.min(params.rounds_partial), params.rounds_partial % p] {
            if r == 0 || q_partial.iter().any(|(x, _)| *x == r) {
                continue;
            }
            let q = meta.selector();
            Self::partial_gate(meta, columns, &params, sb, r, q);
            q_partial.push((r, q));
        }
        WidthGates {
            params,
            q_full,
            q_partial,
        }
    }

    /// The gates of each spec, in order: its first round, its last round
    /// (shared by the specs of one width and output convention) and, for a
    /// membership spec, its membership check.
    fn spec_gates(
        meta: &mut ConstraintSystem<Fr>,
        columns: &Poseidon2Columns,
        specs: Vec<HashSpec>,
        layout: &ChipLayout,
        sb: SboxForm,
    ) -> Vec<SpecGates> {
        // The last round's gate depends only on the width and the output
        // convention: hashes that share both share the gate (the nullifier
        // and leaf hashes of the spend), one selector fewer for the verifier
        // to commit to.
        let mut last_gates: BTreeMap<(usize, bool), Selector> = BTreeMap::new();
        specs
            .into_iter()
            .map(|spec| {
                let q_first = meta.selector();
                Self::first_gate(meta, columns, &spec, sb, q_first);
                let key = (spec.params.width, spec.feed_forward);
                let q_last = *last_gates.entry(key).or_insert_with(|| {
                    let q = meta.selector();
                    Self::last_gate(meta, columns, &spec, sb, q);
                    q
                });
                let q_member = spec.membership.then(|| {
                    let q = meta.selector();
                    let m = member_chunk(layout, spec.params.alpha);
                    Self::member_gate(meta, columns, &spec, m, q);
                    q
                });
                SpecGates {
                    spec,
                    q_first,
                    q_last,
                    q_member,
                }
            })
            .collect()
    }

    /// The spec with index `i`.
    pub fn spec(&self, i: usize) -> &HashSpec {
        &self.specs[i].spec
    }

    fn full_gate(
        meta: &mut ConstraintSystem<Fr>,
        cols: &Poseidon2Columns,
        params: &Poseidon2Params,
        sb: SboxForm,
        q: Selector,
    ) {
        let t = params.width;
        let me_inv = invert(&params.mat_external);
        meta.create_gate("poseidon2 full round", |vc| {
            let q = vc.query_selector(q);
            let (cur, next, rc) = query_full_row(vc, cols, t);
            let inputs: Vec<_> = (0..t).map(|i| cur[i].clone() + rc[i].clone()).collect();
            let out = full_round_out(vc, cols, sb, params, &me_inv, &inputs, &next);
            gated(&q, out)
        });
    }

    fn partial_gate(
        meta: &mut ConstraintSystem<Fr>,
        cols: &Poseidon2Columns,
        params: &Poseidon2Params,
        sb: SboxForm,
        r: usize,
        q: Selector,
    ) {
        let t = params.width;
        let mi = params.mat_internal();
        let mi_inv = invert(&mi);
        meta.create_gate("poseidon2 partial rounds", |vc| {
            let q = vc.query_selector(q);
            // Variables: state (t), S-box outputs (r - 1), round constants (r).
            // Split: round j's helper in extra[2j], its output in extra[2j + 1].
            let out_col = |j: usize| if sb.split { 2 * j + 1 } else { j };
            let mut vars = query_state(vc, cols, t, 0);
            vars.extend((0..r - 1).map(|j| cols.query(vc, cols.extra[out_col(j)], 0)));
            vars.extend(query_rc(vc, cols, r));
            let n = vars.len();
            let next = query_state(vc, cols, t, 1);
            let pre = pre_image(&mi_inv, t);
            let mut x: Vec<Lin> = (0..t).map(|i| Lin::var(n, i)).collect();
            let mut out = vec![];
            for j in 0..r {
                let u = x[0].add(&Lin::var(n, t + (r - 1) + j));
                let h = sb.split.then(|| cols.query(vc, cols.extra[2 * j], 0));
                let (y, check) = SboxForm::sbox(u.expr(&vars), h, params.alpha);
                out.extend(check);
                if j + 1 < r {
                    out.push(vars[t + j].clone() - y);
                    x[0] = Lin::var(n, t + j);
                    x = mat_lin(&mi, &x);
                } else {
                    out.push(pre[0].expr(&next) - y);
                    for i in 1..t {
                        out.push(pre[i].expr(&next) - x[i].expr(&vars));
                    }
                }
            }
            gated(&q, out)
        });
    }

    fn first_gate(
        meta: &mut ConstraintSystem<Fr>,
        cols: &Poseidon2Columns,
        spec: &HashSpec,
        sb: SboxForm,
        q: Selector,
    ) {
        let params = &spec.params;
        let t = params.width;
        let me_inv = invert(&params.mat_external);
        meta.create_gate("poseidon2 first round", |vc| {
            let q = vc.query_selector(q);
            let (vars, next, rc) = query_full_row(vc, cols, t);
            let input: Vec<Lin> = spec
                .lanes
                .iter()
                .enumerate()
                .map(|(i, l)| match l {
                    Lane::Cell => Lin::var(t, i),
                    Lane::Const(c) => Lin::constant(t, *c),
                })
                .collect();
            let y = if params.initial_linear {
                mat_lin(&params.mat_external, &input)
            } else {
                input
            };
            let inputs: Vec<_> = (0..t).map(|i| y[i].expr(&vars) + rc[i].clone()).collect();
            let out = full_round_out(vc, cols, sb, params, &me_inv, &inputs, &next);
            gated(&q, out)
        });
    }

    fn last_gate(
        meta: &mut ConstraintSystem<Fr>,
        cols: &Poseidon2Columns,
        spec: &HashSpec,
        sb: SboxForm,
        q: Selector,
    ) {
        let params = &spec.params;
        let t = params.width;
        meta.create_gate("poseidon2 last round (lane 0)", |vc| {
            let q = vc.query_selector(q);
            let out = cols.query(vc, cols.extra[0], 1);
            let mut acc = Expression::Constant(Fr::ZERO);
            let mut checks = vec![];
            for j in 0..t {
                let s = cols.query(vc, cols.state[j], 0);
                let c = cols.query_fixed(vc, cols.rc[j]);
                let h = sb.full_helper(vc, cols, j);
                let (y, check) = SboxForm::sbox(s + c, h, params.alpha);
                checks.extend(check);
                acc = acc + y * Expression::Constant(params.mat_external[0][j]);
            }
            if spec.feed_forward {
                acc = acc + cols.query(vc, cols.extra[0], 0);
            }
            checks.push(out - acc);
            gated(&q, checks)
        });
    }

    fn member_gate(
        meta: &mut ConstraintSystem<Fr>,
        cols: &Poseidon2Columns,
        spec: &HashSpec,
        m: usize,
        q: Selector,
    ) {
        let lanes = spec.cell_lanes();
        meta.create_gate("membership product", |vc| {
            let q = vc.query_selector(q);
            let cur = cols.query(vc, cols.extra[0], 0);
            let factors: Vec<Expression<Fr>> = lanes
                .iter()
                .map(|&i| cols.query(vc, cols.state[i], 0) - cur.clone())
                .collect();
            let prod = |fs: &[Expression<Fr>]| {
                fs.iter()
                    .cloned()
                    .reduce(|a, b| a * b)
                    .expect("non-empty chunk")
            };
            let mut out = vec![];
            if factors.len() <= m {
                out.push(q.clone() * prod(&factors));
                return out;
            }
            let mut k = 1;
            out.push(q.clone() * (cols.query(vc, cols.extra[1], 0) - prod(&factors[..m])));
            let mut rest = &factors[m..];
            loop {
                let acc = cols.query(vc, cols.extra[k], 0);
                if rest.len() < m {
                    out.push(q.clone() * (acc * prod(rest)));
                    break;
                }
                let nxt = cols.query(vc, cols.extra[k + 1], 0);
                out.push(q.clone() * (nxt - acc * prod(&rest[..m - 1])));
                rest = &rest[m - 1..];
                k += 1;
            }
            out
        });
    }

    fn p(&self) -> usize {
        self.layout.partial_per_row.max(1)
    }
}

/// Row-by-row values of one hash (witness generation).
struct Trace {
    /// State at rows `0..T` (row 0 = input).
    state: Vec<Vec<Fr>>,
    /// Helper cells per row, in the order of [`SboxForm::row_columns`].
    helpers: Vec<Vec<Fr>>,
    output: Fr,
}

fn trace(spec: &HashSpec, p: usize, split: bool, x: Vec<Fr>) -> Trace {
    let params = &spec.params;
    let half = params.rounds_full / 2;
    let rounds = params.rounds_full + params.rounds_partial;
    let d = (params.alpha - 1) / 2;
    // Helpers of a full round with constants of round `r` on state `s`.
    let full_helpers = |s: &[Fr], r: usize| -> Vec<Fr> {
        if !split {
            return vec![];
        }
        s.iter()
            .zip(&params.round_constants[r])
            .map(|(v, c)| pow_small(*v + c, d))
            .collect()
    };
    let mut state = vec![x.clone()];
    let mut helpers = vec![];
    let mut s = x.clone();
    if params.initial_linear {
        params.apply_external(&mut s);
    }
    for r in 0..half {
        helpers.push(full_helpers(&s, r));
        params.full_round(r, &mut s);
        state.push(s.clone());
    }
    let mut r = half;
    let end = half + params.rounds_partial;
    while r < end {
        let chunk = p.min(end - r);
        let mut h = vec![];
        for j in 0..chunk {
            let u = s[0] + params.round_constants[r + j][0];
            if split {
                h.push(pow_small(u, d));
            }
            s[0] = params.sbox(u);
            if j + 1 < chunk {
                h.push(s[0]);
            }
            params.apply_internal(&mut s);
        }
        helpers.push(h);
        state.push(s.clone());
        r += chunk;
    }
    for r in end..rounds {
        helpers.push(full_helpers(&s, r));
        params.full_round(r, &mut s);
        if r + 1 < rounds {
            state.push(s.clone());
        }
    }
    let output = if spec.feed_forward { s[0] + x[0] } else { s[0] };
    Trace {
        state,
        helpers,
        output,
    }
}

impl Poseidon2Instructions for Poseidon2Config {
    fn hash_rows(&self, spec: usize) -> usize {
        let params = &self.specs[spec].spec.params;
        params.rounds_full + params.rounds_partial.div_ceil(self.p())
    }

    fn assign_hash(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        spec_idx: usize,
        inputs: Value<Vec<Fr>>,
    ) -> Result<HashCells, Error> {
        let spec = &self.specs[spec_idx].spec;
        let rows = self.hash_rows(spec_idx);
        let cols = &self.columns;

        let full_in = inputs.map(|v| spec.full_input(&v));
        let split = self.layout.split_sbox;
        let tr = full_in.map(|x| trace(spec, self.p(), split, x));

        self.assign_hash_fixed(region, offset, spec_idx)?;
        let input_cells = self.assign_hash_state(region, offset, spec, rows, &tr);
        self.assign_hash_helpers(region, offset, spec, rows, &tr);
        // Feed-forward copy of x[0] into e0 of the last-round row.
        if spec.feed_forward {
            let x0 = &input_cells[0];
            let ff = cols
                .assign(region, cols.extra[0], offset + rows - 1, x0.value)
                .cell();
            region.constrain_equal(x0.cell, ff);
        }
        let out_v = tr.as_ref().map(|tr| tr.output);
        let out = cols
            .assign(region, cols.extra[0], offset + rows, out_v)
            .cell();
        Ok(HashCells {
            inputs: input_cells,
            output: Wire {
                cell: out,
                value: out_v,
            },
            rows,
        })
    }
}

impl Poseidon2Config {
    /// Enables the selectors of hash `spec_idx` (input row at `offset`) and
    /// assigns its round constants, row by row.
    fn assign_hash_fixed(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        spec_idx: usize,
    ) -> Result<(), Error> {
        let sg = &self.specs[spec_idx];
        let params = &sg.spec.params;
        let wg = &self.widths[&params.width];
        let cols = &self.columns;
        let half = params.rounds_full / 2;
        let rounds = params.rounds_full + params.rounds_partial;

        cols.enable(region, sg.q_first, offset)?;
        if let Some(q) = sg.q_member {
            cols.enable(region, q, offset)?;
        }
        let mut row = offset;
        for r in 0..half {
            let q = (r > 0).then_some(wg.q_full);
            self.assign_full_round_row(region, row, q, params, r)?;
            row += 1;
        }
        row = self.assign_partial_rows(region, row, wg, params)?;
        for r in half + params.rounds_partial..rounds {
            let q = if r + 1 == rounds {
                sg.q_last
            } else {
                wg.q_full
            };
            self.assign_full_round_row(region, row, Some(q), params, r)?;
            row += 1;
        }
        debug_assert_eq!(row, offset + self.hash_rows(spec_idx));
        Ok(())
    }

    /// Row `row` of full round `r`: enables `q` (if any), then assigns the
    /// round's constants.
    fn assign_full_round_row(
        &self,
        region: &mut Region<'_, Fr>,
        row: usize,
        q: Option<Selector>,
        params: &Poseidon2Params,
        r: usize,
    ) -> Result<(), Error> {
        let cols = &self.columns;
        if let Some(q) = q {
            cols.enable(region, q, row)?;
        }
        for i in 0..params.width {
            cols.assign_fixed(region, cols.rc[i], row, params.round_constants[r][i]);
        }
        Ok(())
    }

    /// The partial-round rows from row `row` on, `p` rounds a row (the last
    /// chunk may be shorter): each row's selector and constants. Returns the
    /// row after them.
    fn assign_partial_rows(
        &self,
        region: &mut Region<'_, Fr>,
        mut row: usize,
        wg: &WidthGates,
        params: &Poseidon2Params,
    ) -> Result<usize, Error> {
        let cols = &self.columns;
        let half = params.rounds_full / 2;
        let mut r = half;
        let end = half + params.rounds_partial;
        while r < end {
            let chunk = self.p().min(end - r);
            let q = wg
                .q_partial
                .iter()
                .find(|(n, _)| *n == chunk)
                .expect("partial gate for chunk")
                .1;
            cols.enable(region, q, row)?;
            for j in 0..chunk {
                cols.assign_fixed(region, cols.rc[j], row, params.round_constants[r + j][0]);
            }
            r += chunk;
            row += 1;
        }
        Ok(row)
    }

    /// Assigns the state columns of a hash's `rows` rows from `offset` (the
    /// input row's cell lanes only); returns the input row's cells.
    fn assign_hash_state(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        spec: &HashSpec,
        rows: usize,
        tr: &Value<Trace>,
    ) -> Vec<Wire> {
        let cols = &self.columns;
        let mut input_cells = vec![];
        for k in 0..rows {
            for i in 0..spec.params.width {
                // A constant lane of the input row (DOMAIN_NULLIFIER in the
                // nullifier hash) is a constant of the first round's gate: no
                // gate reads its cell, so it is left unassigned rather than
                // holding a value nothing checks (found by `zkbench audit`).
                if k == 0 && spec.lanes[i] != Lane::Cell {
                    continue;
                }
                let v = tr.as_ref().map(|tr| tr.state[k][i]);
                let cell = cols.assign(region, cols.state[i], offset + k, v).cell();
                if k == 0 {
                    input_cells.push(Wire { cell, value: v });
                }
            }
        }
        input_cells
    }

    /// Assigns a hash's helper cells: S-box outputs on partial rows (rows
    /// half..half + chunks), S-box helpers on every row when split.
    fn assign_hash_helpers(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        spec: &HashSpec,
        rows: usize,
        tr: &Value<Trace>,
    ) {
        let cols = &self.columns;
        let params = &spec.params;
        let (t, p, half) = (params.width, self.p(), params.rounds_full / 2);
        let chunks = params.rounds_partial.div_ceil(p);
        let sb = SboxForm {
            split: self.layout.split_sbox,
            aux: self.aux,
        };
        for k in 0..rows {
            let row_cols = if (half..half + chunks).contains(&k) {
                sb.row_columns(None, p.min(params.rounds_partial - (k - half) * p))
            } else {
                sb.row_columns(Some(t), 0)
            };
            for (j, c) in row_cols.into_iter().enumerate() {
                let v = tr.as_ref().map(|tr| tr.helpers[k][j]);
                cols.assign(region, cols.extra[c], offset + k, v);
            }
        }
    }

    /// Assigns the membership partial products on an input row (call after
    /// the hash's inputs and current node are known).
    pub fn assign_member_helpers(
        &self,
        region: &mut Region<'_, Fr>,
        offset: usize,
        spec_idx: usize,
        children: Value<Vec<Fr>>,
        cur: Value<Fr>,
    ) {
        let spec = &self.specs[spec_idx].spec;
        if !spec.membership {
            return;
        }
        let m = member_chunk(&self.layout, spec.params.alpha);
        let a = spec.cell_lanes().len();
        if a <= m {
            return;
        }
        let factors = children
            .zip(cur)
            .map(|(c, x)| c.iter().map(|ci| *ci - x).collect::<Vec<_>>());
        let mut used = m;
        let mut k = 1;
        let mut acc = factors.as_ref().map(|f| f[..m].iter().product::<Fr>());
        let cols = &self.columns;
        cols.assign(region, cols.extra[1], offset, acc);
        while a - used > m - 1 {
            let lo = used;
            acc = acc
                .zip(factors.as_ref())
                .map(|(acc, f)| acc * f[lo..lo + m - 1].iter().product::<Fr>());
            k += 1;
            cols.assign(region, cols.extra[k], offset, acc);
            used += m - 1;
        }
    }
}
