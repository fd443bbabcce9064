//! Summary statistics over timing samples.

use serde::{Deserialize, Serialize};

/// Order statistics of a set of samples (seconds, bytes, ...).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Smallest sample.
    pub min: f64,
    /// Median (mean of the two middle samples for even `n`).
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// 95th percentile (nearest-rank method).
    pub p95: f64,
    /// Largest sample.
    pub max: f64,
    /// Sample standard deviation (0 for a single sample).
    pub stddev: f64,
}

impl Summary {
    /// Summarises `samples`; `None` when there are none or any is not finite.
    pub fn of(samples: &[f64]) -> Option<Self> {
        if samples.is_empty() || samples.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut v = samples.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        let median = median_of_sorted(&v);
        let mean = v.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Self {
            n,
            min: v[0],
            median,
            mean,
            p95: percentile_nearest_rank(&v, 95.0),
            max: v[n - 1],
            stddev: var.sqrt(),
        })
    }
}

/// The median of the finite values of `xs` (mean of the two middle values
/// for an even count); `None` when there are none. The one median of the
/// workspace: [`Summary::median`], the report and the server use it.
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(median_of_sorted(&v))
}

/// The median of sorted, non-empty `v`.
fn median_of_sorted(v: &[f64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Nearest-rank percentile of sorted, non-empty `v`: the smallest sample such
/// that at least `p` percent of the samples are less than or equal to it.
pub fn percentile_nearest_rank(v: &[f64], p: f64) -> f64 {
    assert!(!v.is_empty(), "percentile of no samples");
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_and_even_medians() {
        let s = Summary::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.min, s.median, s.max, s.n), (1.0, 2.0, 3.0, 3));
        let s = Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
        assert_eq!(s.mean, 2.5);
    }

    #[test]
    fn median_skips_non_finite() {
        assert_eq!(median(&[3.0, f64::NAN, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0]), Some(2.5));
        assert_eq!(median(&[f64::INFINITY]), None);
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn p95_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(Summary::of(&v).unwrap().p95, 95.0);
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(Summary::of(&v).unwrap().p95, 10.0);
        assert_eq!(Summary::of(&[7.0]).unwrap().p95, 7.0);
    }

    #[test]
    fn stddev_and_rejects() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert!((s.stddev - 2.138).abs() < 1e-3, "{}", s.stddev);
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }
}
