//! Round-number calculator for Poseidon and Poseidon2 over a prime field with
//! an `x^alpha` S-box (`alpha >= 3`, `gcd(alpha, p - 1) = 1`).
//!
//! A port of the reference script `calc_round_numbers.py` of hadeshash
//! (<https://extgit.iaik.tugraz.at/krypto/hadeshash>, `code/calc_round_numbers.py`),
//! whose bounds come from the Poseidon paper (eprint 2019/458, §5.5 and
//! Appendix C), with the same brute-force search: every even `R_F >= 4` and every
//! `R_P >= 1` whose bounds hold is a candidate; with the security margin the
//! candidate becomes `(R_F + 2, ceil(1.075 · R_P))`; the candidate with the
//! fewest S-boxes `t · R_F + R_P` wins (ties: smaller `R_F`).
//!
//! Two generations of the bounds exist ([`BoundSet`]):
//!
//! * [`BoundSet::Poseidon2019`] — the script as published with the paper
//!   (statistical; interpolation; Gröbner 1 `1 + log_α(2)·min(M/3, log2 p / 2)`;
//!   Gröbner 2 `t − 1 + min(log_α(2)·M/(t+1), log_α(2)·log2 p / 2)`). circomlib's
//!   `N_ROUNDS_P` was produced with it: the script's `R_P`, rounded **up to a
//!   multiple of `t`** (circomlibjs `poseidon_reference.js`: "rounded up to
//!   nearest integer that divides by t"). See [`circomlib_rounds_partial`].
//! * [`BoundSet::Current`] — the script after the 2023 updates (as also embedded
//!   in HorizenLabs `poseidon2_rust_params.sage`, and used for Poseidon2, eprint
//!   2023/323 §4): Gröbner 1 becomes `log_α(2)·min(M, log2 p)`, Gröbner 2
//!   `t − 1 + log_α(2)·min(M/(t+1), log2 p / 2)`, a third Gröbner bound
//!   `(t − 2 + M / (2·log2 α) − R_P) / (t − 1)` is added, and the binomial bound of
//!   Ashur–Buschman–Mahzoun (eprint 2023/537):
//!   `ceil(2·log2 C(v, u)) >= M` with `r = floor(t/3)`,
//!   `v = (R_F − 1)·t + 2·R_P + r + r·R_F/2 + α`, `u = r·R_F/2 + R_P + α`.
//!
//! For BN254 (`log2 p ≈ 253.59`), `M = 128`, `α = 5` both generations give the
//! same numbers for every `t = 2..=17` (checked by the tests): `R_F = 8` and
//! `R_P = 56` (t = 2..=5), `57` (t = 6..=17); circomlib's table is that rounded up
//! to a multiple of `t` (so the current script gives exactly circomlib's numbers
//! before the rounding; no width differs). For `α = 7` the calculator gives
//! `R_F = 8`, `R_P = 46` (t = 2..=7) and `47` (t = 8..=16); zkOS's Poseidon2
//! t = 8, α = 7 instance uses `R_P = 48` (not reproduced; see the tests).
//! Poseidon2 uses the current bounds with its fixed `R_F = 8`, which is what the
//! search returns for these fields, giving the published `R_P = 56` (t = 2, 3, 4)
//! and `57` (t = 8, 12, 16).

use crate::field::modulus;
use num_traits::ToPrimitive;

/// A pair of round numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundNumbers {
    /// Number of full rounds `R_F` (even; half at each end).
    pub rounds_full: usize,
    /// Number of partial rounds `R_P`.
    pub rounds_partial: usize,
}

/// Which version of `calc_round_numbers.py`'s inequalities to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundSet {
    /// The 2019 script (four bounds), which produced circomlib's numbers.
    Poseidon2019,
    /// The current script (five bounds plus the eprint 2023/537 binomial bound),
    /// also used by Poseidon2.
    Current,
}

/// `log2 r` for the BN254 scalar field (≈ 253.5923).
pub fn bn254_log2_modulus() -> f64 {
    modulus().to_f64().expect("r fits in f64").log2()
}

/// Python's `math.log(x, base)`, i.e. `ln x / ln base`.
fn log_base(x: f64, base: f64) -> f64 {
    x.ln() / base.ln()
}

/// `log2` of the binomial coefficient `C(n, k)` (`0 <= k <= n`).
fn log2_binomial(n: u64, k: u64) -> f64 {
    let k = k.min(n - k);
    (1..=k)
        .map(|i| ((n - k + i) as f64 / i as f64).log2())
        .sum()
}

/// Whether `(R_F, R_P)` satisfies the bounds: `calc_round_numbers.py`'s
/// `sat_inequiv_alpha` for `alpha > 0`.
///
/// `log2_p`: `log2` of the field modulus; `t`: width (`>= 2`); `alpha >= 3`;
/// `security_bits`: `M`.
pub fn satisfies_bounds(
    bounds: BoundSet,
    log2_p: f64,
    t: usize,
    rounds_full: usize,
    rounds_partial: usize,
    alpha: u64,
    security_bits: u32,
) -> bool {
    assert!(t >= 2, "width must be at least 2");
    assert!(alpha >= 3, "alpha must be at least 3");
    let m = security_bits as f64;
    let n = log2_p.ceil();
    let tf = t as f64;
    let a = alpha as f64;
    let rf = rounds_full as f64;
    let rp = rounds_partial as f64;
    let l2a = log_base(2.0, a); // log_alpha(2)

    // Statistical.
    let rf1 = if m <= (log2_p - (a - 1.0) / 2.0).floor() * (tf + 1.0) {
        6.0
    } else {
        10.0
    };
    // Interpolation.
    let rf2 = 1.0 + (l2a * m.min(n)).ceil() + log_base(tf, a).ceil() - rp;
    let rf_max = match bounds {
        BoundSet::Poseidon2019 => {
            let rf3 = 1.0 + l2a * (m / 3.0).min(log2_p / 2.0) - rp;
            let rf4 = tf - 1.0 + (l2a * m / (tf + 1.0)).min(l2a * log2_p / 2.0) - rp;
            [rf1, rf2.ceil(), rf3.ceil(), rf4.ceil()]
                .into_iter()
                .fold(f64::MIN, f64::max)
        }
        BoundSet::Current => {
            let rf3 = l2a * m.min(log2_p) - rp;
            let rf4 = tf - 1.0 + l2a * (m / (tf + 1.0)).min(log2_p / 2.0) - rp;
            let rf5 = (tf - 2.0 + m / (2.0 * log_base(a, 2.0)) - rp) / (tf - 1.0);
            [rf1, rf2.ceil(), rf3.ceil(), rf4.ceil(), rf5.ceil()]
                .into_iter()
                .fold(f64::MIN, f64::max)
        }
    };
    if rf < rf_max {
        return false;
    }
    match bounds {
        BoundSet::Poseidon2019 => true,
        BoundSet::Current => {
            // Binomial bound (eprint 2023/537). R_F is even, so R_F/2 is exact.
            let r = (t / 3) as u64;
            let (rfu, rpu) = (rounds_full as u64, rounds_partial as u64);
            let over = (rfu - 1) * t as u64 + rpu + r + r * (rfu / 2) + rpu + alpha;
            let under = r * (rfu / 2) + rpu + alpha;
            (2.0 * log2_binomial(over, under)).ceil() >= m
        }
    }
}

/// `calc_round_numbers.py`'s `find_FD_round_numbers` with the S-box cost
/// `t · R_F + R_P`: the cheapest round numbers satisfying the bounds, with the
/// optional security margin (`R_F + 2`, `R_P · 1.075` rounded up).
pub fn find_round_numbers(
    bounds: BoundSet,
    log2_p: f64,
    t: usize,
    alpha: u64,
    security_bits: u32,
    security_margin: bool,
) -> RoundNumbers {
    let mut best = RoundNumbers {
        rounds_full: 0,
        rounds_partial: 0,
    };
    let mut min_cost = usize::MAX;
    for rp in 1..500usize {
        for rf in (4..100usize).step_by(2) {
            if !satisfies_bounds(bounds, log2_p, t, rf, rp, alpha, security_bits) {
                continue;
            }
            let (rf, rp) = if security_margin {
                (rf + 2, (rp as f64 * 1.075).ceil() as usize)
            } else {
                (rf, rp)
            };
            let cost = t * rf + rp;
            if cost < min_cost || (cost == min_cost && rf < best.rounds_full) {
                best = RoundNumbers {
                    rounds_full: rf,
                    rounds_partial: rp,
                };
                min_cost = cost;
            }
            // A larger R_F at this R_P only costs more (the script keeps looping,
            // and with the margin also keeps inflating R_P, which costs more still).
            break;
        }
    }
    best
}

/// Poseidon round numbers by the current reference script (with its security
/// margin) for a prime field with `log2 p = log2_p`.
pub fn poseidon_rounds(log2_p: f64, t: usize, alpha: u64, security_bits: u32) -> RoundNumbers {
    find_round_numbers(BoundSet::Current, log2_p, t, alpha, security_bits, true)
}

/// Poseidon2 round numbers (eprint 2023/323 §4, HorizenLabs
/// `poseidon2_rust_params.sage`): the same bounds and margin as
/// [`poseidon_rounds`] (the paper fixes `R_F = 8`, which the search returns for
/// 128-bit security over ≥ 64-bit fields).
pub fn poseidon2_rounds(log2_p: f64, t: usize, alpha: u64, security_bits: u32) -> RoundNumbers {
    poseidon_rounds(log2_p, t, alpha, security_bits)
}

/// circomlib's number of partial rounds for width `t`: the 2019 script's `R_P`
/// (BN254, `alpha = 5`, 128 bits, margin) rounded up to a multiple of `t`.
pub fn circomlib_rounds_partial(t: usize) -> usize {
    let rp = find_round_numbers(
        BoundSet::Poseidon2019,
        bn254_log2_modulus(),
        t,
        5,
        128,
        true,
    )
    .rounds_partial;
    rp.div_ceil(t) * t
}

#[cfg(test)]
mod tests {
    use super::*;

    const CIRCOMLIB: [usize; 16] = [
        56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68,
    ];

    #[test]
    fn reproduces_circomlib_table() {
        for t in 2..=17 {
            assert_eq!(circomlib_rounds_partial(t), CIRCOMLIB[t - 2], "t = {t}");
            assert_eq!(crate::poseidon::ROUNDS_PARTIAL[t - 2], CIRCOMLIB[t - 2]);
        }
    }

    #[test]
    fn old_and_current_bounds_agree_on_bn254_alpha5() {
        let l = bn254_log2_modulus();
        for t in 2..=17 {
            let old = find_round_numbers(BoundSet::Poseidon2019, l, t, 5, 128, true);
            let new = poseidon_rounds(l, t, 5, 128);
            assert_eq!(old, new, "t = {t}");
            assert_eq!(new.rounds_full, 8);
        }
    }

    #[test]
    fn reproduces_poseidon2_published_rounds() {
        let l = bn254_log2_modulus();
        for (t, rp) in [(2, 56), (3, 56), (4, 56), (8, 57), (12, 57), (16, 57)] {
            assert_eq!(
                poseidon2_rounds(l, t, 5, 128),
                RoundNumbers {
                    rounds_full: 8,
                    rounds_partial: rp
                },
                "t = {t}"
            );
        }
    }

    /// alpha = 7 over BN254 (what Poseidon2 with x^7 needs). The calculator gives
    /// R_P = 46 (t = 2, 3, 4) and 47 (t = 8, 12, 16); the binding bound is the
    /// interpolation bound `R_F + R_P >= 1 + ceil(128 · log_7 2) + ceil(log_7 t)`
    /// (= 48 for t <= 7, 49 for 8 <= t <= 49), met at R_F = 6 (before the margin).
    /// zkOS's published t = 8 instance uses R_P = 48, one more than this script
    /// gives: 47 rounded up to a multiple of t = 8 (circomlib's convention) would
    /// explain it, but we found no source for how 48 was derived.
    #[test]
    fn alpha7_bn254() {
        let l = bn254_log2_modulus();
        let expected = [(2, 46), (3, 46), (4, 46), (8, 47), (12, 47), (16, 47)];
        for (t, rp) in expected {
            let r = poseidon2_rounds(l, t, 7, 128);
            println!(
                "alpha=7 t={t}: R_F={} R_P={}",
                r.rounds_full, r.rounds_partial
            );
            assert_eq!(
                r,
                RoundNumbers {
                    rounds_full: 8,
                    rounds_partial: rp
                },
                "t = {t}"
            );
        }
        assert_eq!(
            poseidon2_rounds(l, 8, 7, 128).rounds_partial.div_ceil(8) * 8,
            48
        );
    }

    #[test]
    fn binomial_helper() {
        assert!((log2_binomial(10, 3) - 120f64.log2()).abs() < 1e-12);
        assert_eq!(log2_binomial(7, 0), 0.0);
    }
}
