//! How a batch of MSMs is cut into pieces for a thread pool.
//!
//! A piece is a range of one MSM's bases added into a bucket set of its own;
//! the pieces' sums are added at the end. More pieces balance the threads'
//! loads better but each costs one more bucket reduction (about
//! `4·2^(c-1)` additions for a window of `c` bits), so the split is sized by
//! cost, not by count. Starting from one piece per MSM, the MSM whose pieces
//! are largest gets one more piece while that lowers the estimated time of
//! the batch, `max(total work / threads, largest piece)`, by at least 2%,
//! and while the total work stays within 20% of the unsplit work. On one
//! thread nothing is split; on two, only an MSM larger than about half the
//! batch; on sixteen the pieces come out about equal.
//!
//! gnark-crypto splits by windows first and then by points when there are
//! more cores than windows; with fixed-base tables every window of a base
//! goes to the same buckets, so splitting by bases is the split that adds no
//! doubling chain. Pieces are ordered largest first, so that workers taking
//! them in order ([`run_pieces`]) finish at about the same time (longest
//! processing time first).

use std::ops::Range;

/// What the split needs to know of one MSM.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// Number of bases the pieces cut (a table's kept bases).
    pub bases: usize,
    /// Cost of one base: table points per base times the cost of one
    /// addition in its group (G1 = 1), when `prefix` is empty.
    pub base_cost: f64,
    /// Cost of one more piece: its bucket reduction, in the same unit.
    pub piece_cost: f64,
    /// Cumulative cost of the bases in the same unit (`bases + 1` entries
    /// from 0), where the bases cost unequal amounts: a witness is full of
    /// zeros and ones, whose additions are few. Empty: every base costs
    /// `base_cost`.
    pub prefix: Vec<f64>,
}

impl Shape {
    /// The additions of the whole MSM.
    pub fn work(&self) -> f64 {
        match self.prefix.last() {
            Some(&w) => w,
            None => self.bases as f64 * self.base_cost,
        }
    }

    /// The cost of the bases in `range`.
    pub fn cost(&self, range: &Range<usize>) -> f64 {
        if self.prefix.len() == self.bases + 1 {
            self.prefix[range.end] - self.prefix[range.start]
        } else {
            range.len() as f64 * self.base_cost
        }
    }

    /// `k` consecutive ranges of about equal cost covering every base.
    fn cut(&self, k: usize) -> Vec<Range<usize>> {
        let n = self.bases;
        if self.prefix.len() != n + 1 {
            return (0..k).map(|p| p * n / k..(p + 1) * n / k).collect();
        }
        let total = self.work();
        let mut bounds = vec![0];
        for p in 1..k {
            let goal = total * p as f64 / k as f64;
            let at = self.prefix.partition_point(|&c| c < goal).min(n);
            bounds.push(at.max(*bounds.last().unwrap_or(&0)));
        }
        bounds.push(n);
        bounds.windows(2).map(|w| w[0]..w[1]).collect()
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

/// Splitting stops when the batch's estimated time improves by less than
/// this fraction.
const MIN_GAIN: f64 = 0.02;
/// The split's total work (additions and reductions) stays within this
/// factor of the unsplit work.
const MAX_WORK: f64 = 1.2;

/// The pieces of the MSMs `shapes` for `threads` workers, largest first.
/// Every base of every MSM is in exactly one piece; an MSM without bases
/// has none.
pub fn split(shapes: &[Shape], threads: usize) -> Vec<Piece> {
    let counts = piece_counts(shapes, threads);
    let mut pieces = Vec::new();
    for ((msm, s), &k) in shapes.iter().enumerate().zip(&counts) {
        if k > 0 {
            pieces.extend(s.cut(k).into_iter().map(|range| Piece { msm, range }));
        }
    }
    pieces.retain(|p| !p.range.is_empty());
    let cost = |p: &Piece| shapes[p.msm].cost(&p.range);
    pieces.sort_by(|a, b| cost(b).total_cmp(&cost(a)));
    pieces
}

/// How many pieces each MSM gets (0 for an MSM without bases).
fn piece_counts(shapes: &[Shape], threads: usize) -> Vec<usize> {
    let t = threads.max(1) as f64;
    let mut k: Vec<usize> = shapes.iter().map(|s| usize::from(s.bases > 0)).collect();
    let piece = |i: usize, k: &[usize]| shapes[i].work() / k[i] as f64 + shapes[i].piece_cost;
    let total = |k: &[usize]| -> f64 {
        shapes
            .iter()
            .zip(k)
            .map(|(s, &k)| s.work() + k as f64 * s.piece_cost)
            .sum()
    };
    let estimate = |k: &[usize]| {
        let largest = (0..k.len())
            .filter(|&i| k[i] > 0)
            .map(|i| piece(i, k))
            .fold(0.0, f64::max);
        (total(k) / t).max(largest)
    };
    let budget = total(&k) * MAX_WORK;
    let mut best = (estimate(&k), k.clone());
    // cut the MSM with the largest pieces again and again, keeping the
    // best split seen; ties between MSMs take several cuts to pay off
    loop {
        let Some(i) = (0..shapes.len())
            .filter(|&i| k[i] > 0 && k[i] < shapes[i].bases && k[i] < 2 * threads)
            .max_by(|&a, &b| piece(a, &k).total_cmp(&piece(b, &k)))
        else {
            return best.1;
        };
        k[i] += 1;
        if total(&k) > budget {
            return best.1;
        }
        let e = estimate(&k);
        if e < best.0 * (1.0 - MIN_GAIN) {
            best = (e, k.clone());
        }
    }
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
            prefix: vec![],
        }
    }

    /// Pieces follow the cost of the bases, not their number.
    #[test]
    fn skewed_costs_cut_by_cost() {
        // 900 cheap bases (cost 1) then 100 dear ones (cost 20)
        let mut prefix = vec![0.0];
        for i in 0..1000 {
            let c = if i < 900 { 1.0 } else { 20.0 };
            prefix.push(prefix[i] + c);
        }
        let s = Shape {
            bases: 1000,
            base_cost: 0.0,
            piece_cost: 1.0,
            prefix,
        };
        let p = split(std::slice::from_ref(&s), 4);
        let costs: Vec<f64> = p.iter().map(|p| s.cost(&p.range)).collect();
        let (lo, hi) = (costs.iter().cloned().fold(f64::MAX, f64::min), costs[0]);
        assert!(p.len() >= 4 && hi <= 1.5 * lo, "{p:?} {costs:?}");
    }

    #[test]
    fn one_thread_one_piece_per_msm() {
        let s = [
            shape(10, 20.0, 100.0),
            shape(0, 20.0, 1.0),
            shape(5, 60.0, 1.0),
        ];
        let p = split(&s, 1);
        assert_eq!(p.len(), 2);
        assert!(p.iter().all(|p| p.range.len() == s[p.msm].bases));
    }

    #[test]
    fn many_threads_share_by_work() {
        // a G1 MSM twice the work of a G2 one, cheap reductions: pieces of
        // about equal work, twice as many for the larger MSM
        let s = [shape(8000, 20.0, 100.0), shape(2000, 40.0, 100.0)];
        let p = split(&s, 12);
        let count = |m| p.iter().filter(|p| p.msm == m).count();
        assert_eq!((count(0), count(1)), (8, 4), "{p:?}");
        // largest first
        let cost = |p: &Piece| p.range.len() as f64 * s[p.msm].base_cost;
        assert!(p.windows(2).all(|w| cost(&w[0]) >= cost(&w[1])));
        // two threads: the MSM of two thirds of the work is cut in two
        let p = split(&s, 2);
        assert_eq!(p.iter().map(|p| p.msm).collect::<Vec<_>>(), [0, 0, 1]);
        // one thread: nothing is cut
        assert_eq!(split(&s, 1).len(), 2);
    }

    #[test]
    fn the_work_stays_within_its_budget() {
        // reductions a tenth of the MSM: some pieces, not sixteen
        let p = split(&[shape(1000, 20.0, 2000.0)], 16);
        let work = 20_000.0 + p.len() as f64 * 2000.0;
        assert!(
            p.len() > 1 && work <= 1.2 * 22_000.0 + 1e-9,
            "{} pieces",
            p.len()
        );
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
                prop_assert!(ranges.len() <= 2 * threads.max(1));
            }
        }
    }
}
