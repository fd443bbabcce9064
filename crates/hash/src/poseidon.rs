//! Poseidon over the BN254 scalar field, compatible with iden3's circomlib /
//! circomlibjs (`Poseidon(n)` templates, `buildPoseidon`), arnaucube/poseidon-rs
//! and Lightprotocol/light-poseidon.
//!
//! # Construction
//!
//! The HADES design of Grassi, Khovratovich, Rechberger, Roy, Schofnegger,
//! "Poseidon: A New Hash Function for Zero-Knowledge Proof Systems"
//! (eprint 2019/458). A permutation of `Fr^t` runs `R_F + R_P` rounds; each
//! round adds `t` round constants, applies the S-box `x^5` to every cell
//! (the first `R_F / 2` and last `R_F / 2` "full" rounds) or to cell 0 only
//! (the `R_P` "partial" rounds in between), and multiplies the state by a
//! `t × t` Cauchy MDS matrix.
//!
//! [`PoseidonBn254::permute_in_place`] evaluates the equivalent optimised form of
//! the paper's Appendix B (as circomlib's `poseidon_constants_opt` /
//! `poseidon_opt.js`): the partial-round constants are moved ahead of the partial
//! rounds (one scalar per partial round remains) and the dense MDS of every
//! partial round is replaced by a sparse matrix (`2(t - 1) + 1` multiplications
//! instead of `t²`); the textbook form is kept as
//! [`PoseidonBn254::permute_reference`] and a unit test checks both agree on
//! random states for every width.
//!
//! # Parameters (circomlib)
//!
//! * `alpha = 5` (`gcd(5, r - 1) = 1`), `rounds_full = R_F = 8`;
//! * `rounds_partial = R_P` for `t = 2..=17`:
//!   `[56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68]`
//!   ([`ROUNDS_PARTIAL`]) — the output of hadeshash `calc_round_numbers.py`
//!   (128-bit security, with its security margin) rounded up to a multiple of
//!   `t`; [`crate::rounds`] reproduces the table.
//!
//! # Constants
//!
//! Generated at run time (once per width, cached in a [`OnceLock`]) exactly as
//! hadeshash `code/generate_parameters_grain.sage 1 0 254 t 8 R_P
//! 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001` does:
//!
//! 1. the Grain LFSR ([`Grain::bn254`]`(t, 8, R_P)`, i.e. field = 1, sbox = 0,
//!    n = 254) yields `(R_F + R_P) · t` round constants, each by rejection
//!    sampling 254-bit integers below r (`generate_constants`);
//! 2. the *subsequent* Grain output yields the MDS matrix (`create_mds_p`):
//!    `2t` draws of 254 bits each, reduced modulo r **without** rejection
//!    (`F(grain_random_bits(n))`), split into `x_0..x_{t-1}`, `y_0..y_{t-1}`;
//!    the draw is repeated if the `2t` values are not distinct or some
//!    `x_i + y_j = 0`; then `M[i][j] = 1 / (x_i + y_j)`.
//!
//! The script then runs three subspace-trail security checks
//! (`algorithm_1/2/3`) and draws a fresh matrix if one fails. Those checks are
//! not re-run here: for every circomlib width the first candidate is the matrix
//! circomlib uses, so reproducing the first candidate is exact. Evidence: the unit
//! test `constants_match_circomlibjs` compares round constants (first, `t`-th,
//! last) and MDS entries (`M[0][0]`, `M[0][t-1]`, `M[t-1][t-1]`) for
//! t = 2, 3, 4, 5, 9, 13, 16, 17 with circomlibjs's `src/poseidon_constants.json`
//! (produced by that script), and `tests/kat_poseidon.rs` checks hash outputs
//! for every t = 2..=17 against circomlibjs, which would fail for any other
//! matrix or constant.
//!
//! # Hash, Merkle node
//!
//! * [`hash`]`(x_1..x_n)` for `n = 1..=16` is circomlib `Poseidon(n)`:
//!   `permutation_{t = n + 1}([0, x_1, ..., x_n])[0]` (no padding; the width
//!   encodes the length).
//! * An `A`-ary Merkle node (`A = 2..=16`) is `Poseidon(A)` of its children in
//!   order: `perm_{t = A + 1}([0, c_1, ..., c_A])[0]` (one permutation per node),
//!   as in circomlib-based trees (Semaphore, zk-kit `LeanIMT`, Tornado-Nova).
//!
//! Reference implementation: iden3/circomlibjs `src/poseidon_reference.js` and
//! `src/poseidon_constants.json` (npm `circomlibjs@0.1.7`); iden3/circomlib
//! `circuits/poseidon.circom`.

use crate::error::check_node_arity;
use crate::traits::{family_and_width, getters};
use std::sync::{Arc, OnceLock};

use crate::grain::Grain;
use crate::{params, FieldHasher, Fr, HashError, NodeHasher, Params, Permutation};
use ark_ff::{Field, Zero};

/// Family name used by the registry.
pub const FAMILY: &str = "poseidon";

/// Number of full rounds `R_F` (all widths).
pub const ROUNDS_FULL: usize = 8;

/// S-box exponent.
pub const ALPHA: u64 = 5;

/// Smallest supported state width.
pub const MIN_WIDTH: usize = 2;

/// Largest supported state width (circomlib `Poseidon(16)`).
pub const MAX_WIDTH: usize = 17;

/// Number of partial rounds `R_P` for `t = 2..=17` (index `t - 2`), circomlib's
/// `N_ROUNDS_P`.
pub const ROUNDS_PARTIAL: [usize; 16] = [
    56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68,
];

/// Widths `2..=17` for which a circomlib instance exists.
pub fn supported_widths() -> Vec<usize> {
    (MIN_WIDTH..=MAX_WIDTH).collect()
}

/// Number of partial rounds for state width `width`.
pub fn rounds_partial(width: usize) -> Result<usize, HashError> {
    check_width(width)?;
    Ok(ROUNDS_PARTIAL[width - MIN_WIDTH])
}

fn check_width(width: usize) -> Result<(), HashError> {
    if (MIN_WIDTH..=MAX_WIDTH).contains(&width) {
        Ok(())
    } else {
        Err(HashError::unsupported_width(
            FAMILY,
            width,
            supported_widths(),
        ))
    }
}

/// A circomlib-compatible Poseidon instance of one width, with its constants.
///
/// The round constants and the MDS matrix are exposed so that circuit gadgets
/// (R1CS, PLONKish) can use exactly the same instance.
#[derive(Clone, Debug)]
pub struct PoseidonBn254 {
    width: usize,
    rounds_full: usize,
    rounds_partial: usize,
    alpha: u64,
    /// `(R_F + R_P) · t` constants, round-major: round `r` uses `[r·t, (r+1)·t)`.
    round_constants: Vec<Fr>,
    /// Rows of the MDS matrix.
    mds: Vec<Vec<Fr>>,
    /// The MDS matrix row-major, flat (hot loop).
    mds_flat: Vec<Fr>,
    /// Precomputed data of the optimised permutation (see [`OptimizedRounds`]).
    opt: OptimizedRounds,
}

/// The equivalent, cheaper form of the rounds used by
/// [`PoseidonBn254::permute_in_place`] (Poseidon paper, eprint 2019/458,
/// Appendix B; the same idea as circomlib's `poseidon_constants_opt`).
///
/// With `M = [[m00, m01ᵀ], [m10, M̂]]` (`M̂` the lower-right `(t-1)×(t-1)` block):
///
/// 1. *Constants*: in a partial round only cell 0 goes through the S-box, so
///    the part of `M⁻¹ · c_{p+1}` on cells `1..t` can be added before the
///    S-box of round `p`, and its cell-0 part right after that S-box. Going
///    backwards over the partial rounds leaves one full vector `c'_0` before the
///    first partial round and one scalar `k_p` per partial round (`k_last = 0`).
/// 2. *Matrices*: `A = S · diag(1, B)` with `B = A₁₁` and the sparse
///    `S = [[a00, a01ᵀ·B⁻¹], [a10, I]]`; `diag(1, B)` commutes with the
///    cell-0 S-box, so it moves into the previous round (`A ← diag(1, B) · M`).
///    Partial round `p` then uses `S_p = [[m00, ŵ_pᵀ], [v̂_p, I]]` with
///    `ŵ_pᵀ = m01ᵀ · M̂^{-(R_P - p)}`, `v̂_p = M̂^{R_P - 1 - p} · m10` (`2t - 1`
///    multiplications instead of `t²`), and the last full round before the
///    partial rounds uses `M_pre = diag(1, M̂^{R_P}) · M` followed by adding
///    `diag(1, M̂^{R_P}) · c'_0`.
#[derive(Clone, Debug)]
struct OptimizedRounds {
    /// `M_pre`, row-major `t × t`.
    mds_pre: Vec<Fr>,
    /// `diag(1, M̂^{R_P}) · c'_0`, added after `M_pre`.
    constants_pre: Vec<Fr>,
    /// `k_p`, added to cell 0 after the S-box of partial round `p`.
    constants_partial: Vec<Fr>,
    /// Per partial round `2(t - 1)` entries: `ŵ_p`, then `v̂_p` (the shared
    /// top-left entry is `m00`).
    sparse: Vec<Fr>,
    /// `M[0][0]`.
    m00: Fr,
}

impl OptimizedRounds {
    fn new(
        t: usize,
        rounds_full: usize,
        rounds_partial: usize,
        rc: &[Fr],
        mds: &[Vec<Fr>],
    ) -> Self {
        let half = rounds_full / 2;
        let n = t - 1;
        let m_inv = invert(mds).expect("MDS matrix is invertible");
        let m_hat: Vec<Vec<Fr>> = mds[1..].iter().map(|row| row[1..].to_vec()).collect();
        let m_hat_inv = invert(&m_hat).expect("MDS submatrix is invertible");
        // 1. Constants, backwards over the partial rounds.
        let partial_rc = |p: usize| &rc[(half + p) * t..(half + p + 1) * t];
        let mut constants_partial = vec![Fr::zero(); rounds_partial];
        let mut carry: Vec<Fr> = partial_rc(rounds_partial - 1).to_vec();
        for p in (0..rounds_partial - 1).rev() {
            // Round p + 1 adds `carry` before its S-box: move M⁻¹·carry into round p.
            let d = mat_vec(&m_inv, &carry);
            constants_partial[p] = d[0];
            carry = partial_rc(p).to_vec();
            for (c, x) in carry[1..].iter_mut().zip(&d[1..]) {
                *c += x;
            }
        }
        // 2. Sparse matrices, backwards: ŵ_p = ŵ_{p+1} · M̂⁻¹ (row vector), v̂_p = M̂ · v̂_{p+1}.
        let m01: Vec<Fr> = mds[0][1..].to_vec();
        let m10: Vec<Fr> = mds[1..].iter().map(|row| row[0]).collect();
        let mut sparse = vec![Fr::zero(); rounds_partial * 2 * n];
        let mut w = vec_mat(&m01, &m_hat_inv);
        let mut v = m10;
        for p in (0..rounds_partial).rev() {
            let dst = &mut sparse[p * 2 * n..(p + 1) * 2 * n];
            dst[..n].copy_from_slice(&w);
            dst[n..].copy_from_slice(&v);
            w = vec_mat(&w, &m_hat_inv);
            v = mat_vec(&m_hat, &v);
        }
        // diag(1, M̂^{R_P}).
        let mut m_hat_pow = identity(n);
        for _ in 0..rounds_partial {
            m_hat_pow = mat_mul(&m_hat, &m_hat_pow);
        }
        let mut big = identity(t);
        for (i, row) in m_hat_pow.iter().enumerate() {
            big[i + 1][1..].copy_from_slice(row);
        }
        let mds_pre = mat_mul(&big, mds).into_iter().flatten().collect();
        let constants_pre = mat_vec(&big, &carry);
        Self {
            mds_pre,
            constants_pre,
            constants_partial,
            sparse,
            m00: mds[0][0],
        }
    }
}

fn identity(n: usize) -> Vec<Vec<Fr>> {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { Fr::ONE } else { Fr::zero() })
                .collect()
        })
        .collect()
}

fn mat_vec(m: &[Vec<Fr>], x: &[Fr]) -> Vec<Fr> {
    m.iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| *a * b).sum())
        .collect()
}

/// Row vector times matrix: `(xᵀ · M)ᵀ`.
fn vec_mat(x: &[Fr], m: &[Vec<Fr>]) -> Vec<Fr> {
    (0..m[0].len())
        .map(|j| x.iter().zip(m).map(|(a, row)| *a * row[j]).sum())
        .collect()
}

fn mat_mul(a: &[Vec<Fr>], b: &[Vec<Fr>]) -> Vec<Vec<Fr>> {
    a.iter()
        .map(|row| {
            (0..b[0].len())
                .map(|j| row.iter().zip(b).map(|(x, brow)| *x * brow[j]).sum())
                .collect()
        })
        .collect()
}

/// Gauss–Jordan inverse of a square matrix (`None` if singular).
fn invert(m: &[Vec<Fr>]) -> Option<Vec<Vec<Fr>>> {
    let n = m.len();
    let mut a: Vec<Vec<Fr>> = m.to_vec();
    let mut inv = identity(n);
    for col in 0..n {
        let pivot = (col..n).find(|&r| !a[r][col].is_zero())?;
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let f = a[col][col].inverse()?;
        a[col].iter_mut().for_each(|x| *x *= f);
        inv[col].iter_mut().for_each(|x| *x *= f);
        for r in 0..n {
            if r != col && !a[r][col].is_zero() {
                let g = a[r][col];
                let (pa, pi) = (a[col].clone(), inv[col].clone());
                a[r].iter_mut().zip(&pa).for_each(|(x, y)| *x -= g * y);
                inv[r].iter_mut().zip(&pi).for_each(|(x, y)| *x -= g * y);
            }
        }
    }
    Some(inv)
}

static CACHE: [OnceLock<Arc<PoseidonBn254>>; MAX_WIDTH - MIN_WIDTH + 1] =
    [const { OnceLock::new() }; MAX_WIDTH - MIN_WIDTH + 1];

impl PoseidonBn254 {
    /// The cached instance of width `width` (`2..=17`); constants are generated
    /// on first use.
    pub fn new(width: usize) -> Result<&'static Self, HashError> {
        Ok(Self::cached(width)?.as_ref())
    }

    /// The cached instance of width `width` as a shared pointer.
    pub fn shared(width: usize) -> Result<Arc<Self>, HashError> {
        Ok(Arc::clone(Self::cached(width)?))
    }

    fn cached(width: usize) -> Result<&'static Arc<Self>, HashError> {
        check_width(width)?;
        Ok(CACHE[width - MIN_WIDTH].get_or_init(|| Arc::new(Self::generate_uncached(width))))
    }

    /// Generates the instance of width `width` from the Grain LFSR, without
    /// touching the cache (see the module docs for the procedure).
    pub fn generate(width: usize) -> Result<Self, HashError> {
        check_width(width)?;
        Ok(Self::generate_uncached(width))
    }

    fn generate_uncached(width: usize) -> Self {
        let t = width;
        let rounds_full = ROUNDS_FULL;
        let rounds_partial = ROUNDS_PARTIAL[t - MIN_WIDTH];
        let mut grain = Grain::bn254(t, rounds_full, rounds_partial);
        let round_constants: Vec<Fr> = (0..(rounds_full + rounds_partial) * t)
            .map(|_| grain.next_field_element())
            .collect();
        let mds = cauchy_mds(&mut grain, t);
        let mds_flat = mds.iter().flatten().copied().collect();
        let opt = OptimizedRounds::new(t, rounds_full, rounds_partial, &round_constants, &mds);
        Self {
            width,
            rounds_full,
            rounds_partial,
            alpha: ALPHA,
            round_constants,
            mds,
            mds_flat,
            opt,
        }
    }

    getters! {
        /// State width `t`.
        width: usize,
        /// Number of full rounds `R_F` (half before, half after the partial rounds).
        rounds_full: usize,
        /// Number of partial rounds `R_P`.
        rounds_partial: usize,
        /// S-box exponent `alpha` (5).
        alpha: u64,
    }

    /// All `(R_F + R_P) · t` round constants, round-major.
    pub fn round_constants(&self) -> &[Fr] {
        &self.round_constants
    }

    /// The `t` constants added at the start of round `round`
    /// (`0 <= round < R_F + R_P`).
    ///
    /// # Panics
    /// Panics if `round` is out of range.
    pub fn round_constants_of(&self, round: usize) -> &[Fr] {
        &self.round_constants[round * self.width..(round + 1) * self.width]
    }

    /// The MDS matrix as rows: the linear layer is `state ← M · state`,
    /// i.e. `new[i] = Σ_j M[i][j] · state[j]`.
    pub fn mds(&self) -> &[Vec<Fr>] {
        &self.mds
    }

    /// Whether round `round` is a full round.
    pub fn is_full_round(&self, round: usize) -> bool {
        let half = self.rounds_full / 2;
        round < half || round >= half + self.rounds_partial
    }

    /// circomlib `Poseidon(t - 1)` with this instance: `perm([0, inputs...])[0]`.
    ///
    /// Errors unless `inputs.len() == t - 1`.
    pub fn hash_inputs(&self, inputs: &[Fr]) -> Result<Fr, HashError> {
        if inputs.len() + 1 != self.width {
            return Err(HashError::InputLength {
                what: format!("poseidon hash of width {}", self.width),
                got: inputs.len(),
                expected: format!("exactly {}", self.width - 1),
            });
        }
        Ok(self.hash_unchecked(inputs))
    }

    fn hash_unchecked(&self, inputs: &[Fr]) -> Fr {
        let mut state = [Fr::zero(); MAX_WIDTH];
        state[1..self.width].copy_from_slice(inputs);
        self.permute_in_place(&mut state[..self.width]);
        state[0]
    }

    /// The permutation, in place (no allocation).
    ///
    /// Runs the equivalent optimised rounds of the Poseidon paper's Appendix B
    /// (partial-round constants moved ahead, sparse matrices in the partial
    /// rounds; see `OptimizedRounds` in the source); bit-identical to
    /// [`permute_reference`](Self::permute_reference).
    ///
    /// # Panics
    /// Panics if `state.len() != self.width()`.
    pub fn permute_in_place(&self, state: &mut [Fr]) {
        let t = self.assert_width(state);
        let mut tmp = [Fr::zero(); MAX_WIDTH];
        let tmp = &mut tmp[..t];
        let half = self.rounds_full / 2;
        let opt = &self.opt;
        let mut rc = self.round_constants.chunks_exact(t);
        let add_sbox = |state: &mut [Fr], c: &[Fr]| {
            for (s, c) in state.iter_mut().zip(c) {
                *s = sbox(*s + c);
            }
        };
        // First half of the full rounds; the last one uses M_pre and c'_0.
        for _ in 0..half - 1 {
            add_sbox(state, rc.next().expect("round constants"));
            apply_matrix(&self.mds_flat, state, tmp);
        }
        add_sbox(state, rc.next().expect("round constants"));
        apply_matrix(&opt.mds_pre, state, tmp);
        for (s, c) in state.iter_mut().zip(&opt.constants_pre) {
            *s += c;
        }
        // Partial rounds: S-box on cell 0, scalar constant, sparse matrix.
        let n = t - 1;
        for (k, sp) in opt
            .constants_partial
            .iter()
            .zip(opt.sparse.chunks_exact(2 * n))
        {
            let (w, v) = sp.split_at(n);
            let (s0, rest) = state.split_first_mut().expect("width >= 2");
            let x0 = sbox(*s0) + k;
            let mut acc = opt.m00 * x0;
            for (s, w) in rest.iter().zip(w) {
                acc += *s * w;
            }
            for (s, v) in rest.iter_mut().zip(v) {
                *s += x0 * v;
            }
            *s0 = acc;
        }
        // Second half of the full rounds (original constants).
        let mut rc = self.round_constants[(half + self.rounds_partial) * t..].chunks_exact(t);
        for _ in 0..half {
            add_sbox(state, rc.next().expect("round constants"));
            apply_matrix(&self.mds_flat, state, tmp);
        }
    }

    /// Panics unless `state` has `t` cells; returns `t`.
    #[inline]
    fn assert_width(&self, state: &[Fr]) -> usize {
        let t = self.width;
        assert_eq!(
            state.len(),
            t,
            "poseidon permutation of width {t} given {} cells",
            state.len()
        );
        t
    }

    /// The textbook permutation (every round: add constants, S-box, dense MDS),
    /// exactly as circomlibjs `poseidon_reference.js`. Slower than
    /// [`permute_in_place`](Self::permute_in_place), which must agree with it;
    /// kept for tests and as executable documentation.
    ///
    /// # Panics
    /// Panics if `state.len() != self.width()`.
    pub fn permute_reference(&self, state: &mut [Fr]) {
        let t = self.assert_width(state);
        let mut tmp = [Fr::zero(); MAX_WIDTH];
        let tmp = &mut tmp[..t];
        for (round, c) in self.round_constants.chunks_exact(t).enumerate() {
            for (s, c) in state.iter_mut().zip(c) {
                *s += c;
            }
            if self.is_full_round(round) {
                state.iter_mut().for_each(|s| *s = sbox(*s));
            } else {
                state[0] = sbox(state[0]);
            }
            apply_matrix(&self.mds_flat, state, tmp);
        }
    }
}

/// `state ← M · state` for a row-major flat `t × t` matrix `m`.
#[inline]
fn apply_matrix(m: &[Fr], state: &mut [Fr], tmp: &mut [Fr]) {
    let t = state.len();
    for (out, row) in tmp.iter_mut().zip(m.chunks_exact(t)) {
        let mut acc = Fr::zero();
        for (m, s) in row.iter().zip(state.iter()) {
            acc += *m * s;
        }
        *out = acc;
    }
    state.copy_from_slice(tmp);
}

/// `x^5`.
#[inline(always)]
fn sbox(x: Fr) -> Fr {
    let x2 = x.square();
    x2.square() * x
}

/// Draws the Cauchy matrix as hadeshash `create_mds_p` does (see module docs).
fn cauchy_mds(grain: &mut Grain, t: usize) -> Vec<Vec<Fr>> {
    loop {
        let vals: Vec<Fr> = (0..2 * t)
            .map(|_| grain.next_field_element_mod_r())
            .collect();
        let distinct = (0..vals.len()).all(|i| (i + 1..vals.len()).all(|j| vals[i] != vals[j]));
        if !distinct {
            continue;
        }
        let (xs, ys) = vals.split_at(t);
        let rows: Option<Vec<Vec<Fr>>> = xs
            .iter()
            .map(|x| ys.iter().map(|y| (*x + y).inverse()).collect())
            .collect();
        if let Some(rows) = rows {
            return rows;
        }
    }
}

impl Permutation for PoseidonBn254 {
    family_and_width!();

    fn params(&self) -> Params {
        params! {
            "family" => FAMILY,
            "variant" => "circomlib",
            "field" => "bn254-fr",
            "width" => self.width,
            "alpha" => self.alpha,
            "rounds_full" => self.rounds_full,
            "rounds_partial" => self.rounds_partial,
            "mds" => "cauchy 1/(x_i+y_j), x,y from Grain (mod r), first candidate",
            "round_constants" => format!(
                "Grain LFSR (field=1, sbox=0, n=254, t={}, R_F={}, R_P={}), rejection sampling",
                self.width, self.rounds_full, self.rounds_partial
            ),
            "reference" => "hadeshash generate_parameters_grain.sage; circomlibjs poseidon_constants.json",
        }
    }

    fn permute_mut(&self, state: &mut [Fr]) {
        self.permute_in_place(state);
    }
}

/// The circomlib Poseidon permutation of width `width` (`2..=17`).
pub fn permutation(width: usize) -> Result<Arc<dyn Permutation>, HashError> {
    Ok(PoseidonBn254::shared(width)?)
}

/// circomlib `Poseidon(n)` / circomlibjs `poseidon(inputs)` for `n = 1..=16`
/// inputs: `perm_{t = n + 1}([0, inputs...])[0]`.
pub fn hash(inputs: &[Fr]) -> Result<Fr, HashError> {
    if inputs.is_empty() || inputs.len() > MAX_WIDTH - 1 {
        return Err(HashError::InputLength {
            what: "poseidon hash".into(),
            got: inputs.len(),
            expected: format!("1 to {}", MAX_WIDTH - 1),
        });
    }
    Ok(PoseidonBn254::new(inputs.len() + 1)?.hash_unchecked(inputs))
}

/// [`FieldHasher`] for [`hash`] (width chosen by the number of inputs).
#[derive(Clone, Copy, Debug, Default)]
pub struct PoseidonHasher;

impl FieldHasher for PoseidonHasher {
    fn family(&self) -> &'static str {
        FAMILY
    }

    fn params(&self) -> Params {
        params! {
            "family" => FAMILY,
            "variant" => "circomlib",
            "alpha" => ALPHA,
            "rounds_full" => ROUNDS_FULL,
            "rounds_partial" => ROUNDS_PARTIAL.to_vec(),
            "mode" => "circomlib Poseidon(n): perm_{t=n+1}([0, x_1..x_n])[0], n = 1..16",
        }
    }

    fn hash(&self, inputs: &[Fr]) -> Result<Fr, HashError> {
        hash(inputs)
    }
}

/// Merkle node hasher: circomlib `Poseidon(A)` of the `A` children.
#[derive(Clone, Debug)]
pub struct PoseidonNodeHasher {
    perm: &'static PoseidonBn254,
}

impl PoseidonNodeHasher {
    /// Node hasher of arity `arity` (`2..=16`, width `arity + 1`).
    pub fn new(arity: usize) -> Result<Self, HashError> {
        check_node_arity(FAMILY, arity)?;
        Ok(Self {
            perm: PoseidonBn254::new(arity + 1)?,
        })
    }

    /// The underlying permutation instance (width `arity + 1`).
    pub fn instance(&self) -> &'static PoseidonBn254 {
        self.perm
    }
}

impl NodeHasher for PoseidonNodeHasher {
    fn family(&self) -> &'static str {
        FAMILY
    }

    fn arity(&self) -> usize {
        self.perm.width - 1
    }

    fn params(&self) -> Params {
        let mut p = self.perm.params();
        p.extend(params! {
            "arity" => self.arity(),
            "node" => "circomlib Poseidon(A): perm_{t=A+1}([0, c_1..c_A])[0]",
            "permutations_per_node" => 1,
        });
        p
    }

    fn hash_node(&self, children: &[Fr]) -> Fr {
        assert_eq!(
            children.len(),
            self.arity(),
            "node hasher called with wrong child count"
        );
        self.perm.hash_unchecked(children)
    }
}

/// Merkle node hasher of arity `arity` (`2..=16`): circomlib `Poseidon(arity)`.
pub fn node_hasher(arity: usize) -> Result<Arc<dyn NodeHasher>, HashError> {
    Ok(Arc::new(PoseidonNodeHasher::new(arity)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::fr_const;

    /// Values copied from iden3/circomlibjs `src/poseidon_constants.json`
    /// (npm circomlibjs@0.1.7): for each width, `C[t-2][0]`, `C[t-2][t]`,
    /// `C[t-2][last]`, `M[t-2][0][0]`, `M[t-2][0][t-1]`, `M[t-2][t-1][t-1]`.
    const REFERENCE: &[(usize, usize, [&str; 6])] = &[
        (
            2,
            128,
            [
                "0x09c46e9ec68e9bd4fe1faaba294cba38a71aa177534cdd1b6c7dc0dbd0abd7a7",
                "0x1e28a1d935698ad1142e51182bb54cf4a00ea5aabd6268bd317ea977cc154a30",
                "0x269e4b5b7a2eb21afd567970a717ceec5bd4184571c254fdc06e03a7ff8378f0",
                "0x066f6f85d6f68a85ec10345351a23a3aaf07f38af8c952a7bceca70bd2af7ad5",
                "0x2b9d4b4110c9ae997782e1509b1d0fdb20a7c02bbd8bea7305462b9f8125b1e8",
                "0x1274e649a32ed355a31a6ed69724e1adade857e86eb5c3a121bcd147943203c8",
            ],
        ),
        (
            3,
            195,
            [
                "0x0ee9a592ba9a9518d05986d656f40c2114c4993c11bb29938d21d47304cd8e6e",
                "0x2f27be690fdaee46c3ce28f7532b13c856c35342c84bda6e20966310fadc01d0",
                "0x1da55cc900f0d21f4a3e694391918a1b3c23b2ac773c6b3ef88e2e4228325161",
                "0x109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b",
                "0x2b90bba00fca0589f617e7dcbfe82e0df706ab640ceb247b791a93b74e36736d",
                "0x19a3fc0a56702bf417ba7fee3802593fa644470307043f7773279cd71d25d5e0",
            ],
        ),
        (
            4,
            256,
            [
                "0x19b849f69450b06848da1d39bd5e4a4302bb86744edc26238b0878e269ed23e5",
                "0x2e49c43c4569dd9c5fd35ac45fca33f10b15c590692f8beefe18f4896ac94902",
                "0x163ec73251f85443687222487dda9a65467d90b22f0b38664686077c6a4486d5",
                "0x236d13393ef85cc48a351dd786dd7a1de5e39942296127fd87947223ae5108ad",
                "0x1d359d245f286c12d50d663bae733f978af08cdbd63017c57b3a75646ff382c1",
                "0x00c15fc3a1d5733dd835eae0823e377f8ba4a8b627627cc2bb661c25d20fb52a",
            ],
        ),
        (
            5,
            340,
            [
                "0x0eb544fee2815dda7f53e29ccac98ed7d889bb4ebd47c3864f3c2bd81a6da891",
                "0x2eb4f99c69f966ebf8a42192de7ff61621c7bb47b93750c2b9ea08d18446c122",
                "0x29eb1de42a3ad381b23b4131426897a32709b29d53bb946dfd15784d1f63e572",
                "0x251e7fdf99591080080b0af133b9e4369f22e57ace3cd7f64fc6fdbcf38d7da1",
                "0x0aaa35e2c84baf117dea3e336cd96a39792b3813954fe9bf3ed5b90f2f69c977",
                "0x14074bb14c982c81c9ad171e4f35fe49b39c4a7a72dbb6d9c98d803bfed65e64",
            ],
        ),
        (
            9,
            639,
            [
                "0x2088ce9534577bf38be7bc457f2756d558d66e0c07b9cc001a580bd42cda0e77",
                "0x2b15176925df33a45c9e99a7c4f26ad946b1075de58c7064c0ff92c431d31dd5",
                "0x0ef2861f4ec9ba5fec74ba22c0b7af9d458c3cd8f90c825c1f36110ca2ee9076",
                "0x0190f922d97c8a7dcf0a142a3be27749d1c64bc22f1c556aaa24925d158cac56",
                "0x10726dcff87299c8532159976607633f1bc2ad24453c1bab26b726b82d756ebb",
                "0x1f47c67a4325672f17b8bd1ddbd80e4e9e6c62419a9c204cc7e8821892431aae",
            ],
        ),
        (
            13,
            949,
            [
                "0x1373c771cdf15121a224f330d84b6688ef9fe0038a3bc26a28e3196578a0000d",
                "0x17a732ad13f1b6a1aff42664c390b9017c418210273c7d048bf300aa7be9c65e",
                "0x0dcc426dc88bdec8c2848f2d88a200571b8a012cd0870fc6ea0b981494f58278",
                "0x0d064dee824928d39f2a8be7d2fa583223c33995784d228839adde2559592592",
                "0x04b46526207edc70a0d23c8438bc49a365635552dee240661a2cdeef966f20f6",
                "0x19f11771049b5be81b43ca81e3611f4108a4b9dc30cd122441f74319c3adcde9",
            ],
        ),
        (
            16,
            1152,
            [
                "0x11e27da7b7ef964948a332974d07cceea778bc33aedbcd09de222fa22ad0b101",
                "0x2a938c2540d63615763ec3ba10c1a26001b9f4bf1418d1092a6b02dda5195db3",
                "0x2f8a8ee41d90aac2a91c1cc70772ed6f98340052516b3a54bd8df388870c5b24",
                "0x2b6fd7bc3a3b595c206c43daac752b765a12255c37ab51ae183933737a8b8099",
                "0x2af324ec4f9e7786dcf00439c75a294bff753e3292bbf62e66471fa730f19c79",
                "0x208b7c8c1ff8422d4a1bd13a02a94681ce217d925f40d2875f73def14de7a220",
            ],
        ),
        (
            17,
            1292,
            [
                "0x2fb583762b37592c6c5a95eb1d06694b6c6f9dc4f1ad4862dd8f5e67cb7a3f5c",
                "0x2741e1a7bc6ba2cb162858c4e8454dba0d0e12dcd956d127bed071739ba5ef86",
                "0x2a437b970ff32645bd5303f9474b5743427333c6663d17f44d918e9f2ca005d4",
                "0x196b76cefdcc7f6a54c71d40114a0bb82694c936f1573ac7ac1ea3fcce1fe938",
                "0x1aaefc2e9925fcd453996fda804063fdab276b37c5f51dfdfef9255b4ec10cc0",
                "0x1d3ee85f078fbeecda2473efc2bedd1ba7ec6f4795faaeae3b0de48d3080c625",
            ],
        ),
    ];

    #[test]
    fn constants_match_circomlibjs() {
        for (t, n, v) in REFERENCE {
            let p = PoseidonBn254::new(*t).unwrap();
            let c = p.round_constants();
            assert_eq!(c.len(), *n, "t={t}: number of round constants");
            let m = p.mds();
            let got = [c[0], c[*t], c[n - 1], m[0][0], m[0][t - 1], m[t - 1][t - 1]];
            for (k, (g, want)) in got.iter().zip(v).enumerate() {
                assert_eq!(*g, fr_const(want), "t={t}, value #{k}");
            }
        }
    }

    /// The optimised rounds equal the textbook rounds on random states, every width.
    #[test]
    fn optimized_equals_reference() {
        use ark_std::UniformRand;
        let mut rng = ark_std::test_rng();
        for t in MIN_WIDTH..=MAX_WIDTH {
            let p = PoseidonBn254::new(t).unwrap();
            for k in 0..8 {
                let input: Vec<Fr> = if k == 0 {
                    vec![Fr::zero(); t]
                } else {
                    (0..t).map(|_| Fr::rand(&mut rng)).collect()
                };
                let mut fast = input.clone();
                p.permute_in_place(&mut fast);
                let mut slow = input;
                p.permute_reference(&mut slow);
                assert_eq!(fast, slow, "t={t}, sample {k}");
            }
        }
    }

    #[test]
    fn widths_and_errors() {
        assert_eq!(supported_widths(), (2..=17).collect::<Vec<_>>());
        assert!(matches!(
            PoseidonBn254::new(1),
            Err(HashError::UnsupportedWidth { .. })
        ));
        assert!(matches!(
            PoseidonBn254::new(18),
            Err(HashError::UnsupportedWidth { .. })
        ));
        assert!(matches!(hash(&[]), Err(HashError::InputLength { .. })));
        assert!(matches!(
            hash(&[Fr::zero(); 17]),
            Err(HashError::InputLength { .. })
        ));
        assert!(matches!(
            node_hasher(1),
            Err(HashError::UnsupportedArity { .. })
        ));
        assert!(matches!(
            node_hasher(17),
            Err(HashError::UnsupportedArity { .. })
        ));
        let p = PoseidonBn254::new(3).unwrap();
        assert!(p.permute(&[Fr::zero(); 2]).is_err());
        assert!(p.hash_inputs(&[Fr::zero(); 3]).is_err());
        assert_eq!(p.rounds_partial(), 57);
        assert!(p.is_full_round(3) && !p.is_full_round(4) && p.is_full_round(61));
    }

    #[test]
    fn hash_node_and_permutation_agree() {
        let inputs: Vec<Fr> = (1..=4u64).map(Fr::from).collect();
        let h = hash(&inputs).unwrap();
        assert_eq!(node_hasher(4).unwrap().hash_node(&inputs), h);
        assert_eq!(PoseidonHasher.hash(&inputs).unwrap(), h);
        let mut state = vec![Fr::zero()];
        state.extend(&inputs);
        assert_eq!(permutation(5).unwrap().permute(&state).unwrap()[0], h);
        // circomlibjs test/poseidon.js: poseidon([1, 2, 3, 4])
        assert_eq!(
            h,
            fr_const(
                "18821383157269793795438455681495246036402687001665670618754263018637548127333"
            )
        );
    }
}
