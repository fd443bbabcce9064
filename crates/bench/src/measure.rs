//! Timing of one phase under a [`Profile`]: warm-up, repetitions by time budget,
//! wall and CPU time per sample, peak memory of the phase.

use std::time::Instant;

use crate::{suite::Profile, sys};

/// Samples of one phase.
#[derive(Clone, Debug, Default)]
pub struct PhaseSamples {
    /// Wall-clock seconds per sample.
    pub wall: Vec<f64>,
    /// CPU seconds (all threads) per sample.
    pub cpu: Vec<f64>,
    /// Peak RSS during the phase (counter reset at its start), bytes.
    pub peak_rss: Option<u64>,
}

/// Times one run of `f`: (wall seconds, cpu seconds, result).
pub fn time_once<T>(f: impl FnOnce() -> T) -> (f64, f64, T) {
    let c0 = sys::cpu_time_s();
    let t0 = Instant::now();
    let out = f();
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (c0, sys::cpu_time_s()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    (wall, cpu, out)
}

/// Runs `f` `profile.warmup` times unmeasured, then samples it until the
/// profile is satisfied. `f` returns an error to abort the phase.
pub fn sample<E>(
    profile: &Profile,
    mut f: impl FnMut() -> Result<(), E>,
) -> Result<PhaseSamples, E> {
    sys::reset_peak_rss();
    for _ in 0..profile.warmup {
        f()?;
    }
    let mut s = PhaseSamples::default();
    let mut spent = 0.0;
    while profile.wants_more(s.wall.len(), spent) {
        let (w, c, r) = time_once(&mut f);
        r?;
        spent += w;
        s.wall.push(w);
        s.cpu.push(c);
    }
    s.peak_rss = sys::peak_rss_bytes();
    Ok(s)
}

/// Runs `f` once (a cold run, or a phase too expensive to repeat) and records it as one sample.
pub fn once<T, E>(f: impl FnOnce() -> Result<T, E>) -> Result<(T, PhaseSamples), E> {
    sys::reset_peak_rss();
    let (w, c, r) = time_once(f);
    let v = r?;
    Ok((
        v,
        PhaseSamples {
            wall: vec![w],
            cpu: vec![c],
            peak_rss: sys::peak_rss_bytes(),
        },
    ))
}

/// Runs `f` `n` times (at least once), each run a cold one of its own (`f`
/// starts from nothing: reads its keys, for instance), and records every
/// run as a sample; what a run returns is dropped after its timing (freeing
/// keys is not part of the cold proof).
pub fn fresh<T, E>(n: usize, mut f: impl FnMut() -> Result<T, E>) -> Result<PhaseSamples, E> {
    sys::reset_peak_rss();
    let mut s = PhaseSamples::default();
    for _ in 0..n.max(1) {
        let (w, c, r) = time_once(&mut f);
        drop(r?);
        s.wall.push(w);
        s.cpu.push(c);
    }
    s.peak_rss = sys::peak_rss_bytes();
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_follows_profile() {
        let p = Profile {
            warmup: 2,
            min_samples: 3,
            max_samples: 4,
            target_seconds: 0.0,
            case_timeout_seconds: 1.0,
            max_log_size: Default::default(),
        };
        let mut calls = 0;
        let s = sample::<()>(&p, || {
            calls += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(calls, 2 + 3);
        assert_eq!(s.wall.len(), 3);
        assert!(s.wall.iter().all(|&w| w >= 0.0));
        let mut n = 0;
        let e = sample(&p, || {
            n += 1;
            if n == 4 {
                Err("boom")
            } else {
                Ok(())
            }
        });
        assert_eq!(e.unwrap_err(), "boom");
    }
}
