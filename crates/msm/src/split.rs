//! How a batch of MSMs is cut into pieces for a thread pool.
//!
//! A piece is a range of one MSM's bases added into a bucket set of its own;
//! the pieces' sums are added at the end. More pieces balance the threads'
//! loads better but each costs one more bucket reduction (about
//! `3·2^(c-1)` additions for a window of `c` bits), so the split is sized by
//! cost, not by count:
//!
//! * the total work `W` (table points to add, weighted by the cost of one
//!   addition in the MSM's group) is cut into about one piece per thread,
//!   each MSM getting pieces in proportion to its share of `W` (gnark-crypto
//!   splits by windows first and then by points when there are more cores
//!   than windows; with fixed-base tables every window of a base goes to the
//!   same buckets, so splitting by bases is the one split that adds no
//!   doubling chain);
//! * no piece is so small that its reduction is more than an eighth of its
//!   additions: on one or two threads an MSM is one piece, the work of a
//!   proof at 16 threads stays within a few percent of the work at one;
//! * pieces are ordered largest first, so that a pool taking them in order
//!   finishes them at about the same time (longest processing time first).

use std::ops::Range;

/// What the split needs to know of one MSM.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Number of bases the pieces cut (a table's kept bases).
    pub bases: usize,
    /// Cost of one base: table points per base times the cost of one
    /// addition in its group (G1 = 1).
    pub base_cost: f64,
    /// Cost of one more piece: its bucket reduction, in the same unit.
    pub piece_cost: f64,
}

impl Shape {
    /// The additions of the whole MSM.
    pub fn work(&self) -> f64 {
        self.bases as f64 * self.base_cost
    }
}

/// One piece: the bases `range` of MSM number `msm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Index of the MSM in the slice given to [`split`].
    pub msm: usize,
    /// The bases of that MSM this piece adds.
    pub range: Range<usize>,
}

/// A piece's reduction is at most this fraction of its additions.
const MAX_REDUCTION_SHARE: f64 = 1.0 / 8.0;

/// The pieces of the MSMs `shapes` for `threads` workers, largest first.
/// Every base of every MSM is in exactly one piece; an MSM without bases
/// has none.
pub fn split(shapes: &[Shape], threads: usize) -> Vec<Piece> {
    let total: f64 = shapes.iter().map(Shape::work).sum();
    let target = total / threads.max(1) as f64;
    let mut pieces = Vec::new();
    for (msm, s) in shapes.iter().enumerate() {
        if s.bases == 0 {
            continue;
        }
        let k = pieces_for(s, target, threads);
        let n = s.bases;
        pieces.extend((0..k).map(|p| Piece {
            msm,
            range: p * n / k..(p + 1) * n / k,
        }));
    }
    pieces.retain(|p| !p.range.is_empty());
    let cost = |p: &Piece| p.range.len() as f64 * shapes[p.msm].base_cost;
    pieces.sort_by(|a, b| cost(b).total_cmp(&cost(a)));
    pieces
}

/// How many pieces MSM `s` gets when a piece should do about `target`
/// additions.
fn pieces_for(s: &Shape, target: f64, threads: usize) -> usize {
    if threads <= 1 || target <= 0.0 {
        return 1;
    }
    let by_share = (s.work() / target).round().max(1.0);
    // the largest count whose pieces still pay for their reduction
    let by_overhead = if s.piece_cost > 0.0 {
        (s.work() * MAX_REDUCTION_SHARE / s.piece_cost).floor().max(1.0)
    } else {
        f64::INFINITY
    };
    let k = by_share.min(by_overhead).min(threads as f64) as usize;
    k.clamp(1, s.bases)
}

/// The threads work is cut for: the current rayon pool's, but no more than
/// the CPUs this process may run on (its affinity mask and CPU quota, as
/// `std::thread::available_parallelism` reads them). A pool larger than the
/// machine gains nothing from finer pieces (they take turns on the same
/// cores) and pays for them: one bucket reduction each, and caches that
/// the turns evict. 1 without the `parallel` feature.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        let cores = std::thread::available_parallelism().map_or(usize::MAX, |n| n.get());
        rayon::current_num_threads().min(cores).max(1)
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Runs `f` on a worker of a pool of [`threads`] threads: the current pool
/// itself unless it has more threads than this process has CPUs, a pool of
/// that many threads (made once per size, kept) otherwise.
///
/// A proof opens many parallel regions (the witness map's passes and FFT
/// layers, the MSM batch). In a pool larger than the machine, every region's
/// idle workers spin (rayon yields about 32 times before a worker sleeps)
/// on the cores the busy ones need: on a 2-core machine a 16-thread pool
/// took 3x the CPU time of one thread for the same proof. Work cut for the
/// cores and run by as many threads does the same work at any pool size.
/// From a thread outside any pool, `f` runs as one job injected into the
/// pool (one injection per proof rather than one per region).
pub fn on_cores<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    #[cfg(feature = "parallel")]
    {
        use std::{collections::HashMap, sync::Mutex, sync::OnceLock};
        let want = threads();
        if want >= rayon::current_num_threads() {
            return rayon::scope(|_| f());
        }
        static POOLS: OnceLock<Mutex<HashMap<usize, std::sync::Arc<rayon::ThreadPool>>>> =
            OnceLock::new();
        let pool = {
            let mut pools = POOLS
                .get_or_init(Default::default)
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            match pools.get(&want) {
                Some(p) => p.clone(),
                None => match rayon::ThreadPoolBuilder::new().num_threads(want).build() {
                    Ok(p) => pools.entry(want).or_insert(std::sync::Arc::new(p)).clone(),
                    // no thread to spare: run where we are
                    Err(_) => return f(),
                },
            }
        };
        pool.install(f)
    }
    #[cfg(not(feature = "parallel"))]
    {
        f()
    }
}

/// `f` of every piece, in the order of `pieces`, computed by up to
/// [`threads`] workers that take the pieces in that order from one shared
/// queue: with the pieces largest first ([`split`]'s order) this is the
/// longest-processing-time-first schedule, which keeps the workers' loads
/// within one piece of each other. (A rayon `par_iter` over the pieces would
/// instead cut the list in halves, fixing which pieces go together before
/// any finishes.)
pub fn run_pieces<T: Send>(pieces: &[Piece], f: impl Fn(&Piece) -> T + Sync) -> Vec<T> {
    let workers = threads().min(pieces.len());
    if workers <= 1 {
        return pieces.iter().map(f).collect();
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let worker = |_| {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = pieces.get(i) else { break };
                done.push((i, f(p)));
            }
            done
        };
        let mut out: Vec<(usize, T)> = (0..workers)
            .into_par_iter()
            .with_max_len(1)
            .flat_map_iter(worker)
            .collect();
        out.sort_by_key(|(i, _)| *i);
        out.into_iter().map(|(_, t)| t).collect()
    }
    #[cfg(not(feature = "parallel"))]
    unreachable!("one worker without the parallel feature")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn shape(bases: usize, base_cost: f64, piece_cost: f64) -> Shape {
        Shape {
            bases,
            base_cost,
            piece_cost,
        }
    }

    #[test]
    fn one_thread_one_piece_per_msm() {
        let s = [shape(10, 20.0, 100.0), shape(0, 20.0, 1.0), shape(5, 60.0, 1.0)];
        let p = split(&s, 1);
        assert_eq!(p.len(), 2);
        assert!(p.iter().all(|p| p.range.len() == s[p.msm].bases));
    }

    #[test]
    fn many_threads_share_by_work() {
        // a G1 MSM twice the work of a G2 one: twice the pieces
        let s = [shape(8000, 20.0, 1000.0), shape(2000, 40.0, 1000.0)];
        let p = split(&s, 12);
        let count = |m| p.iter().filter(|p| p.msm == m).count();
        assert_eq!((count(0), count(1)), (8, 4));
        // largest first
        let cost = |p: &Piece| p.range.len() as f64 * s[p.msm].base_cost;
        assert!(p.windows(2).all(|w| cost(&w[0]) >= cost(&w[1])));
    }

    #[test]
    fn small_msms_are_not_cut_below_their_reduction() {
        // 300 bases × 20 points = 6000 additions; a reduction of 3000: one piece
        let p = split(&[shape(300, 20.0, 3000.0)], 16);
        assert_eq!(p.len(), 1);
    }

    proptest! {
        #[test]
        fn pieces_cover_every_base_once(
            sizes in proptest::collection::vec((0usize..5000, 1.0f64..60.0, 0.0f64..50_000.0), 1..6),
            threads in 1usize..40,
        ) {
            let shapes: Vec<Shape> = sizes.iter().map(|&(n, c, r)| shape(n, c, r)).collect();
            let pieces = split(&shapes, threads);
            for (m, s) in shapes.iter().enumerate() {
                let mut ranges: Vec<_> = pieces.iter().filter(|p| p.msm == m).map(|p| p.range.clone()).collect();
                ranges.sort_by_key(|r| r.start);
                let mut next = 0;
                for r in &ranges {
                    prop_assert_eq!(r.start, next);
                    prop_assert!(!r.is_empty());
                    next = r.end;
                }
                prop_assert_eq!(next, s.bases);
                prop_assert!(ranges.len() <= threads.max(1));
            }
        }
    }
}
