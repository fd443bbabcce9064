//! Poseidon2 instance parameters in the form the chip needs (halo2curves
//! `Fr`), a straightforward native permutation used as the chip's witness
//! generator and as a cross-check, and conversion from arkworks field elements.
//!
//! The permutation is HorizenLabs Poseidon2 (eprint 2023/323, reference
//! `HorizenLabs/poseidon2`, `plain_implementations/src/poseidon2/poseidon2.rs`):
//! `x ← M_E·x`; `R_F/2` full rounds (`x_i += c_i`, `x_i ← x_i^α`, `x ← M_E·x`);
//! `R_P` partial rounds (`x_0 += c_0`, `x_0 ← x_0^α`, `x ← M_I·x`); `R_F/2`
//! full rounds. `M_E` is `circ(2,1)` (t=2), `circ(2,1,1)` (t=3), `M4` (t=4) or the
//! block matrix `circ(2·M4, M4, …, M4)` (t = 4k); `M_I = J + diag(d)` with `d`
//! the instance's `mat_internal_diag_m_1` (t=2: `[1,2]`, t=3: `[1,1,2]`).

use halo2_axiom::halo2curves::{
    bn256::Fr,
    ff::{Field, PrimeField},
};

use crate::Halo2Error;

/// Converts an arkworks BN254 scalar to a halo2curves one (same field,
/// canonical little-endian representation).
pub fn fr_from_ark(x: &zkbench_hash::Fr) -> Fr {
    use ark_ff::{BigInteger, PrimeField as _};
    let bytes = x.into_bigint().to_bytes_le();
    let mut repr = [0u8; 32];
    repr[..bytes.len()].copy_from_slice(&bytes);
    Fr::from_repr(repr).expect("an arkworks BN254 scalar is canonical")
}

/// Converts a halo2curves BN254 scalar to an arkworks one.
pub fn fr_to_ark(x: &Fr) -> zkbench_hash::Fr {
    use ark_ff::PrimeField as _;
    zkbench_hash::Fr::from_le_bytes_mod_order(&x.to_repr())
}

/// Decimal string of a field element.
pub fn fr_to_decimal(x: &Fr) -> String {
    zkbench_hash::field::fr_to_decimal(&fr_to_ark(x))
}

/// A Poseidon2 instance: width, exponent, round numbers, constants, matrices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Params {
    /// State width `t`.
    pub width: usize,
    /// S-box exponent α (5 or 7).
    pub alpha: u64,
    /// Number of full rounds `R_F` (even; half before, half after the partial rounds).
    pub rounds_full: usize,
    /// Number of partial rounds `R_P`.
    pub rounds_partial: usize,
    /// `R_F + R_P` rows of `t` round constants, in round order (partial
    /// rounds use only the first entry).
    pub round_constants: Vec<Vec<Fr>>,
    /// `d` in `M_I = J + diag(d)`.
    pub mat_internal_diag_m_1: Vec<Fr>,
    /// The external matrix `M_E` (row-major, `t × t`): the full-round layer.
    pub mat_external: Vec<Vec<Fr>>,
    /// The partial-round matrix (row-major): `M_I` for Poseidon2, the MDS
    /// matrix for Poseidon.
    pub mat_partial: Vec<Vec<Fr>>,
    /// Whether the permutation starts with `x ← M_E·x` (Poseidon2: yes;
    /// Poseidon: no).
    pub initial_linear: bool,
}

impl Poseidon2Params {
    /// An instance from its parts; `M_E` is derived from the width.
    pub fn new(
        width: usize,
        alpha: u64,
        rounds_full: usize,
        rounds_partial: usize,
        round_constants: Vec<Vec<Fr>>,
        mat_internal_diag_m_1: Vec<Fr>,
    ) -> Result<Self, Halo2Error> {
        if !rounds_full.is_multiple_of(2) || rounds_full < 2 {
            return Err(Halo2Error::Config(format!(
                "rounds_full must be even and ≥ 2, got {rounds_full}"
            )));
        }
        if round_constants.len() != rounds_full + rounds_partial
            || round_constants.iter().any(|r| r.len() != width)
        {
            return Err(Halo2Error::Config(format!(
                "expected {} rows of {width} round constants",
                rounds_full + rounds_partial
            )));
        }
        if mat_internal_diag_m_1.len() != width {
            return Err(Halo2Error::Config(format!(
                "internal diagonal needs {width} entries"
            )));
        }
        let mat_external = external_matrix(width)?;
        let mat_partial = (0..width)
            .map(|i| {
                (0..width)
                    .map(|j| {
                        if i == j {
                            Fr::ONE + mat_internal_diag_m_1[i]
                        } else {
                            Fr::ONE
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(Self {
            width,
            alpha,
            rounds_full,
            rounds_partial,
            round_constants,
            mat_internal_diag_m_1,
            mat_external,
            mat_partial,
            initial_linear: true,
        })
    }

    /// The library's native instance (`zkbench_hash::poseidon2::instance`):
    /// the same round numbers, round constants and matrices as the native
    /// permutation, converted to halo2curves `Fr`.
    pub fn native(width: usize, alpha: u64) -> Result<Self, Halo2Error> {
        let inst = zkbench_hash::poseidon2::instance(width, alpha)?;
        let half = inst.rounds_full() / 2;
        let ext = inst.external_round_constants();
        let mut rc: Vec<Vec<Fr>> = ext[..half]
            .iter()
            .map(|r| r.iter().map(fr_from_ark).collect())
            .collect();
        for c in inst.internal_round_constants() {
            let mut row = vec![Fr::ZERO; width];
            row[0] = fr_from_ark(c);
            rc.push(row);
        }
        rc.extend(
            ext[half..]
                .iter()
                .map(|r| r.iter().map(fr_from_ark).collect::<Vec<_>>()),
        );
        let diag = inst
            .internal_diagonal_minus_one()
            .iter()
            .map(fr_from_ark)
            .collect();
        let p = Self::new(
            width,
            alpha,
            inst.rounds_full(),
            inst.rounds_partial(),
            rc,
            diag,
        )?;
        let native_me: Vec<Vec<Fr>> = inst
            .external_matrix()
            .iter()
            .map(|r| r.iter().map(fr_from_ark).collect())
            .collect();
        if native_me != p.mat_external {
            return Err(Halo2Error::Config(format!(
                "external matrix of width {width} differs from the native instance"
            )));
        }
        Ok(p)
    }

    /// circomlib Poseidon of width `t` (`zkbench_hash::poseidon`), in the
    /// equivalent form this chip runs: no initial linear layer, the MDS matrix
    /// in full and partial rounds, and **one** constant per partial round.
    ///
    /// The rewrite: a partial round `x ← M·S₀(x + c)` equals
    /// `x ← M·S₀(x + (c₀, 0…)) + M·(0, c₁…)`, and the added vector is folded
    /// into the next round's constants; after the last partial round it lands
    /// in the first full round's constants. The permutation is unchanged
    /// (tested against the native one).
    pub fn poseidon_native(width: usize) -> Result<Self, Halo2Error> {
        let inst = zkbench_hash::poseidon::PoseidonBn254::new(width)?;
        let t = width;
        let rf = inst.rounds_full();
        let rp = inst.rounds_partial();
        let half = rf / 2;
        let mds: Vec<Vec<Fr>> = inst
            .mds()
            .iter()
            .map(|r| r.iter().map(fr_from_ark).collect())
            .collect();
        let mut rc: Vec<Vec<Fr>> = (0..rf + rp)
            .map(|r| inst.round_constants_of(r).iter().map(fr_from_ark).collect())
            .collect();
        for r in half..half + rp {
            let mut rest = rc[r].clone();
            rest[0] = Fr::ZERO;
            let d = mat_vec(&mds, &rest);
            for c in rc[r].iter_mut().skip(1) {
                *c = Fr::ZERO;
            }
            for (c, di) in rc[r + 1].iter_mut().zip(&d) {
                *c += di;
            }
        }
        Ok(Self {
            width: t,
            alpha: inst.alpha(),
            rounds_full: rf,
            rounds_partial: rp,
            round_constants: rc,
            mat_internal_diag_m_1: vec![],
            mat_external: mds.clone(),
            mat_partial: mds,
            initial_linear: false,
        })
    }

    /// A deterministic instance with pseudo-random constants (for tests and
    /// layout experiments only: **not** a standard Poseidon2 instance).
    pub fn pseudo_random(
        width: usize,
        alpha: u64,
        rounds_full: usize,
        rounds_partial: usize,
        seed: u64,
    ) -> Result<Self, Halo2Error> {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let rc = (0..rounds_full + rounds_partial)
            .map(|_| (0..width).map(|_| Fr::random(&mut rng)).collect())
            .collect();
        let diag = match width {
            2 => vec![Fr::ONE, Fr::from(2)],
            3 => vec![Fr::ONE, Fr::ONE, Fr::from(2)],
            _ => (0..width).map(|_| Fr::random(&mut rng)).collect(),
        };
        Self::new(width, alpha, rounds_full, rounds_partial, rc, diag)
    }

    /// The partial-round matrix (`M_I = J + diag(d)` for Poseidon2).
    pub fn mat_internal(&self) -> Vec<Vec<Fr>> {
        self.mat_partial.clone()
    }

    /// `x^α`.
    pub fn sbox(&self, x: Fr) -> Fr {
        pow_small(x, self.alpha)
    }

    /// `x ← M_E·x`.
    pub fn apply_external(&self, x: &mut [Fr]) {
        let y = mat_vec(&self.mat_external, x);
        x.copy_from_slice(&y);
    }

    /// `x ← M_I·x` (the partial-round matrix).
    pub fn apply_internal(&self, x: &mut [Fr]) {
        let y = mat_vec(&self.mat_partial, x);
        x.copy_from_slice(&y);
    }

    /// One full round with constants of round `r`.
    pub fn full_round(&self, r: usize, x: &mut [Fr]) {
        for (xi, c) in x.iter_mut().zip(&self.round_constants[r]) {
            *xi = self.sbox(*xi + c);
        }
        self.apply_external(x);
    }

    /// One partial round with constants of round `r`.
    pub fn partial_round(&self, r: usize, x: &mut [Fr]) {
        x[0] = self.sbox(x[0] + self.round_constants[r][0]);
        self.apply_internal(x);
    }

    /// The permutation, in place.
    pub fn permute_mut(&self, x: &mut [Fr]) {
        assert_eq!(x.len(), self.width, "state width");
        if self.initial_linear {
            self.apply_external(x);
        }
        let half = self.rounds_full / 2;
        for r in 0..half {
            self.full_round(r, x);
        }
        for r in half..half + self.rounds_partial {
            self.partial_round(r, x);
        }
        for r in half + self.rounds_partial..self.rounds_full + self.rounds_partial {
            self.full_round(r, x);
        }
    }

    /// The permutation.
    pub fn permute(&self, x: &[Fr]) -> Vec<Fr> {
        let mut y = x.to_vec();
        self.permute_mut(&mut y);
        y
    }
}

/// `x^e` for a small exponent by square-and-multiply over its significant
/// bits only (`pow_vartime` squares 64 times for any `u64` exponent: the
/// witness generator's S-boxes and helpers took 20× the multiplications they
/// need).
pub(crate) fn pow_small(x: Fr, e: u64) -> Fr {
    let mut acc = Fr::ONE;
    for i in (0..u64::BITS - e.leading_zeros()).rev() {
        acc = acc.square();
        if (e >> i) & 1 == 1 {
            acc *= x;
        }
    }
    acc
}

/// `M·x`.
pub(crate) fn mat_vec(m: &[Vec<Fr>], x: &[Fr]) -> Vec<Fr> {
    m.iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| *a * b).sum())
        .collect()
}

/// HorizenLabs' external matrix for width `t` (2, 3 or a multiple of 4).
pub fn external_matrix(t: usize) -> Result<Vec<Vec<Fr>>, Halo2Error> {
    let f = |v: u64| Fr::from(v);
    match t {
        2 => Ok(vec![vec![f(2), f(1)], vec![f(1), f(2)]]),
        3 => Ok(vec![
            vec![f(2), f(1), f(1)],
            vec![f(1), f(2), f(1)],
            vec![f(1), f(1), f(2)],
        ]),
        t if t % 4 == 0 => {
            let m4 = [[5u64, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];
            Ok((0..t)
                .map(|i| {
                    (0..t)
                        .map(|j| {
                            let v = f(m4[i % 4][j % 4]);
                            if t > 4 && i / 4 == j / 4 {
                                v + v
                            } else {
                                v
                            }
                        })
                        .collect()
                })
                .collect())
        }
        _ => Err(Halo2Error::Config(format!(
            "Poseidon2 has no external matrix for width {t} (2, 3 or a multiple of 4)"
        ))),
    }
}

/// Inverse of a square matrix (Gauss–Jordan); `None` if singular.
pub(crate) fn mat_inverse(m: &[Vec<Fr>]) -> Option<Vec<Vec<Fr>>> {
    let n = m.len();
    let mut a: Vec<Vec<Fr>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { Fr::ONE } else { Fr::ZERO }));
            r
        })
        .collect();
    for col in 0..n {
        let piv = (col..n).find(|&r| !bool::from(a[r][col].is_zero()))?;
        a.swap(col, piv);
        let inv = a[col][col].invert().unwrap();
        for v in a[col].iter_mut() {
            *v *= inv;
        }
        for r in 0..n {
            if r != col && !bool::from(a[r][col].is_zero()) {
                let factor = a[r][col];
                let pivot_row = a[col].clone();
                for (v, p) in a[r].iter_mut().zip(pivot_row) {
                    *v -= factor * p;
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// Writes a Halo2 KZG SRS (halo2's params format, readable by `Srs::File`) of `2^k`
/// rows from powers of a ceremony's τ: `g_raw[i]` = τ^i·G1, `g2_raw` = G2 and
/// `s_g2_raw` = τ·G2, each in halo2curves' raw encoding (Montgomery limbs, little
/// endian, the `.ptau` encoding too). The Lagrange basis is computed by halo2
/// (its own root of unity). Points are checked to be on the curve.
pub fn write_srs_from_powers(
    path: &std::path::Path,
    k: u32,
    g_raw: &[Vec<u8>],
    g2_raw: &[u8],
    s_g2_raw: &[u8],
) -> Result<(), Halo2Error> {
    use halo2_axiom::{
        halo2curves::{
            bn256::{Bn256, G1Affine, G2Affine},
            serde::SerdeObject,
        },
        poly::{commitment::Params, kzg::commitment::ParamsKZG},
    };
    if g_raw.len() != 1usize << k {
        return Err(Halo2Error::Config(format!(
            "an SRS of k = {k} needs {} G1 powers, got {}",
            1usize << k,
            g_raw.len()
        )));
    }
    let bad = |what: &str| {
        Halo2Error::decode(
            path.display().to_string(),
            format!("{what} is not a valid point"),
        )
    };
    let g = g_raw
        .iter()
        .map(|b| G1Affine::from_raw_bytes(b).ok_or_else(|| bad("a G1 power")))
        .collect::<Result<Vec<_>, _>>()?;
    let g2 = G2Affine::from_raw_bytes(g2_raw).ok_or_else(|| bad("G2"))?;
    let s_g2 = G2Affine::from_raw_bytes(s_g2_raw).ok_or_else(|| bad("tau·G2"))?;
    // `from_parts` takes `&self` only for its type: a k = 1 setup is the cheapest receiver.
    use rand::SeedableRng;
    let any = ParamsKZG::<Bn256>::setup(1, rand_chacha::ChaCha20Rng::seed_from_u64(0));
    let params = any.from_parts(k, g, None, g2, s_g2);
    let mut f =
        std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| Halo2Error::io(path, e))?);
    params.write(&mut f).map_err(|e| Halo2Error::io(path, e))?;
    std::io::Write::flush(&mut f).map_err(|e| Halo2Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ark_roundtrip() {
        let x = zkbench_hash::Fr::from(123456789u64);
        assert_eq!(fr_from_ark(&x), Fr::from(123456789u64));
        assert_eq!(fr_to_ark(&fr_from_ark(&x)), x);
        let m1 = -zkbench_hash::Fr::from(1u64);
        assert_eq!(fr_from_ark(&m1), -Fr::ONE);
    }

    #[test]
    fn native_instances_agree_with_the_hash_library() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for alpha in [5, 7] {
            for t in [2, 3, 4, 8, 12, 16] {
                let p = Poseidon2Params::native(t, alpha).unwrap();
                let x: Vec<Fr> = (0..t).map(|_| Fr::random(&mut rng)).collect();
                let perm = zkbench_hash::HashFamily::Poseidon2
                    .permutation(Some(t), Some(alpha))
                    .unwrap();
                let xa: Vec<_> = x.iter().map(fr_to_ark).collect();
                let ya = perm.permute(&xa).unwrap();
                let y: Vec<Fr> = ya.iter().map(fr_from_ark).collect();
                assert_eq!(p.permute(&x), y, "t={t} alpha={alpha}");
            }
        }
    }

    #[test]
    fn poseidon_equivalent_form_agrees_with_the_hash_library() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        for t in 2..=17 {
            let p = Poseidon2Params::poseidon_native(t).unwrap();
            let x: Vec<Fr> = (0..t).map(|_| Fr::random(&mut rng)).collect();
            let perm = zkbench_hash::HashFamily::Poseidon
                .permutation(Some(t), None)
                .unwrap();
            let xa: Vec<_> = x.iter().map(fr_to_ark).collect();
            let y: Vec<Fr> = perm.permute(&xa).unwrap().iter().map(fr_from_ark).collect();
            assert_eq!(p.permute(&x), y, "t={t}");
        }
    }

    #[test]
    fn pow_small_agrees_with_pow_vartime() {
        let x = Fr::from(123456789u64) - Fr::from(987654321987u64);
        for e in 0..20u64 {
            assert_eq!(pow_small(x, e), x.pow_vartime([e]), "e = {e}");
        }
    }

    #[test]
    fn inverse_of_external_matrices() {
        for t in [2, 3, 4, 8, 12, 16] {
            let m = external_matrix(t).unwrap();
            let inv = mat_inverse(&m).unwrap();
            for i in 0..t {
                let mut e = vec![Fr::ZERO; t];
                e[i] = Fr::ONE;
                let col = mat_vec(&m, &mat_vec(&inv, &e));
                assert_eq!(col, e);
            }
        }
    }
}
