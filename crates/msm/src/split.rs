//! How a batch of MSMs is cut into pieces for a thread pool.
//!
//! A piece is a range of one MSM's bases and one part of its buckets. Two
//! cuts, with different costs:
//!
//! * **By buckets** (free in additions): the `2^(c-1)` buckets of a window
//!   of `c` bits are cut into `parts` equal ranges (a power of two); a piece
//!   adds only the digits that fall in its range, and reduces only its
//!   buckets: the reduction `Σ (i+1)·bucket[i]` of a range starting at `lo`
//!   is its own weighted sum plus `lo` times its plain sum, so the parts'
//!   reductions add up to one whole reduction. The digits are sorted into
//!   their parts once, in a first parallel pass over blocks of bases
//!   ([`Block`]), so that no piece reads another's digits. A part keeps at
//!   least [`MIN_PART_BUCKETS`] buckets, so that its batches of affine
//!   additions stay long and rarely collide.
//! * **By bases**: a range of bases with its own bucket set; each more
//!   piece costs one more bucket reduction (about `4·2^(c-1)` additions).
//!
//! Starting from one piece per MSM, the MSM whose pieces are largest is cut
//! again (by buckets while it may, then by bases) while that lowers the
//! estimated time of the batch, `max(total work / threads, largest piece)`,
//! by at least 2%, and while the total work stays within 20% of the unsplit
//! work. On one thread nothing is cut.
//!
//! gnark-crypto splits by windows first and then by points when there are
//! more cores than windows; with fixed-base tables every window of a base
//! goes to the same buckets, so the cuts that add no doubling chain are by
//! buckets and by bases. Pieces are ordered largest first, so that workers
//! taking them in order ([`run_pieces`]) finish at about the same time
//! (longest processing time first).

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
    /// Number of buckets of one bucket set (`2^(c-1)` for a window of `c`
    /// bits); 0 or 1: the buckets are not cut.
    pub buckets: usize,
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

    /// The most bucket parts: a power of two leaving every part at least
    /// [`MIN_PART_BUCKETS`] buckets.
    fn max_parts(&self) -> usize {
        let most = (self.buckets / MIN_PART_BUCKETS).max(1);
        1 << most.ilog2()
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

/// One piece: the bases `range` of MSM number `msm`, and of their digits
/// those in bucket part `part` of `parts`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Index of the MSM in the slice given to [`split`].
    pub msm: usize,
    /// The bases of that MSM this piece adds.
    pub range: Range<usize>,
    /// Which part of the buckets (`0..parts`).
    pub part: usize,
    /// Into how many equal parts the buckets are cut (a power of two; 1:
    /// not cut, the piece reads its digits from the scalars itself).
    pub parts: usize,
    /// Where `parts > 1`: the blocks of [`Plan::blocks`] whose sorted
    /// digits this piece adds (their bases make up `range`).
    pub blocks: Range<usize>,
}

/// A block of one MSM's bases whose digits are sorted into `parts` bucket
/// parts before the pieces run (the first pass of a [`Plan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Index of the MSM.
    pub msm: usize,
    /// Its bases.
    pub range: Range<usize>,
    /// Into how many bucket parts its digits go.
    pub parts: usize,
}

/// The pieces of a batch of MSMs, and the blocks whose digits are sorted
/// first (only for MSMs cut by buckets).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The pieces, largest first.
    pub pieces: Vec<Piece>,
    /// The blocks of the first pass.
    pub blocks: Vec<Block>,
}

/// Splitting stops when the batch's estimated time improves by less than
/// this fraction.
const MIN_GAIN: f64 = 0.02;
/// The split's total work (additions, reductions, sorting) stays within
/// this factor of the unsplit work.
const MAX_WORK: f64 = 1.2;
/// Fewest buckets in one bucket part: its batches of affine additions
/// (at most a quarter of the buckets) stay 256 long or more.
pub const MIN_PART_BUCKETS: usize = 1024;
/// Cost of sorting one base's digits into bucket parts, against adding
/// them: a digit is written and read once more (a few nanoseconds) where its
/// addition takes about a hundred.
const SORT_COST: f64 = 0.04;
/// Bases per block of the sorting pass.
const BLOCK_BASES: usize = 1024;

/// How an MSM is cut: `k` ranges of bases times `m` bucket parts.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cut {
    k: usize,
    m: usize,
}

/// The pieces of the MSMs `shapes` for `threads` workers (largest first),
/// and the blocks to sort first. Every digit of every base of every MSM is
/// in exactly one piece; an MSM without bases has none.
pub fn split(shapes: &[Shape], threads: usize) -> Plan {
    let cuts = cuts(shapes, threads);
    let mut plan = Plan::default();
    for ((msm, s), cut) in shapes.iter().enumerate().zip(&cuts) {
        if cut.k == 0 {
            continue;
        }
        for range in s.cut(cut.k).into_iter().filter(|r| !r.is_empty()) {
            let first = plan.blocks.len();
            if cut.m > 1 {
                let blocks = range.len().div_ceil(BLOCK_BASES);
                plan.blocks.extend((0..blocks).map(|b| Block {
                    msm,
                    range: range.start + b * range.len() / blocks
                        ..range.start + (b + 1) * range.len() / blocks,
                    parts: cut.m,
                }));
            }
            let blocks = first..plan.blocks.len();
            plan.pieces.extend((0..cut.m).map(|part| Piece {
                msm,
                range: range.clone(),
                part,
                parts: cut.m,
                blocks: blocks.clone(),
            }));
        }
    }
    let cost = |p: &Piece| {
        let s = &shapes[p.msm];
        (s.cost(&p.range) + s.piece_cost) / p.parts as f64
    };
    plan.pieces.sort_by(|a, b| cost(b).total_cmp(&cost(a)));
    plan
}

/// How each MSM is cut (`k = 0` for an MSM without bases).
fn cuts(shapes: &[Shape], threads: usize) -> Vec<Cut> {
    let t = threads.max(1) as f64;
    let mut c: Vec<Cut> = shapes
        .iter()
        .map(|s| Cut {
            k: usize::from(s.bases > 0),
            m: 1,
        })
        .collect();
    let piece = |i: usize, c: &[Cut]| {
        let s = &shapes[i];
        (s.work() / c[i].k as f64 + s.piece_cost) / c[i].m as f64
    };
    let total = |c: &[Cut]| -> f64 {
        shapes
            .iter()
            .zip(c)
            .map(|(s, c)| {
                let sort = if c.m > 1 { SORT_COST * s.work() } else { 0.0 };
                s.work() + c.k as f64 * s.piece_cost + sort
            })
            .sum()
    };
    let estimate = |c: &[Cut]| {
        let largest = (0..c.len())
            .filter(|&i| c[i].k > 0)
            .map(|i| piece(i, c))
            .fold(0.0, f64::max);
        (total(c) / t).max(largest)
    };
    let budget = total(&c) * MAX_WORK;
    let mut best = (estimate(&c), c.clone());
    // cut the MSM with the largest pieces again and again (by buckets
    // first), keeping the best split seen; ties between MSMs take several
    // cuts to pay off
    loop {
        let next = |i: usize| {
            let (s, Cut { k, m }) = (&shapes[i], c[i]);
            if k == 0 || k * m >= 2 * threads {
                None
            } else if 2 * m <= s.max_parts() && 2 * k * m <= 2 * threads {
                Some(Cut { k, m: 2 * m })
            } else if k < s.bases {
                Some(Cut { k: k + 1, m })
            } else {
                None
            }
        };
        let Some(i) = (0..shapes.len())
            .filter(|&i| next(i).is_some())
            .max_by(|&a, &b| piece(a, &c).total_cmp(&piece(b, &c)))
        else {
            return best.1;
        };
        c[i] = next(i).expect("filtered");
        if total(&c) > budget {
            return best.1;
        }
        let e = estimate(&c);
        if e < best.0 * (1.0 - MIN_GAIN) {
            best = (e, c.clone());
        }
    }
}

/// The threads work is cut for: the current rayon pool's, but no more than
/// the CPUs this process may run on (its affinity mask and CPU quota, as
/// `std::thread::available_parallelism` reads them; in WebAssembly, which
/// cannot read it, the page starts no more workers than the browser's
/// `navigator.hardwareConcurrency`). A pool larger than the
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
    on_at_most(usize::MAX, f)
}

/// Rows of a proof's trace or circuit per prover thread ([`threads_for_rows`]).
/// Measured on a 16-core Xeon VM with `zkbench run perf --filter spend`:
/// the STARK spend (128 trace rows) took 11.5 / 9.8 / 9.0 / 9.2 / 11.2 ms at
/// 1 / 2 / 4 / 8 / 16 threads with 6.5x the one-thread CPU time at 16, and
/// capped at four 2.1x with its wall time within that VM's run-to-run
/// spread; the Halo2-KZG spend (k = 8, 256 rows) was at most 7% faster at 16
/// threads than at 8 in four lendings (56.8 / 52.8, 52.0 / 54.8, 49.0 /
/// 49.3, 49.1 / 51.6 ms) with twice the CPU time. Beyond one thread per 32
/// rows, each of these provers' parallel regions is too small to share.
pub const ROWS_PER_THREAD: usize = 32;

/// The most threads a prover of `rows` rows (a STARK trace's height, a
/// Halo2 circuit's `2^k`) is run on: one per [`ROWS_PER_THREAD`], at least
/// one; pass it to [`on_at_most`].
pub fn threads_for_rows(rows: usize) -> usize {
    (rows / ROWS_PER_THREAD).max(1)
}

/// [`on_cores`] with at most `max` threads: for work whose parallel regions
/// are too small to feed more (a prover of a small trace), the pool's other
/// workers would only add wake-ups and cache traffic to each region.
pub fn on_at_most<T: Send>(max: usize, f: impl FnOnce() -> T + Send) -> T {
    #[cfg(feature = "parallel")]
    {
        use std::{collections::HashMap, sync::Mutex, sync::OnceLock};
        let want = threads().min(max).max(1);
        // WebAssembly cannot start a pool of its own (wasm-bindgen-rayon's, which the page
        // started, is the only one): there `f` runs in that pool, on all its workers
        if want >= rayon::current_num_threads() || cfg!(target_arch = "wasm32") {
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
        let _ = max;
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
pub fn run_pieces<I: Sync, T: Send>(pieces: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let workers = threads().min(pieces.len());
    if workers <= 1 {
        return pieces.iter().map(f).collect();
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let scalar = workers > vector_workers();
        let worker = |_| {
            let _kernel = ScalarWorker::set(scalar);
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

/// The most workers a batch may have for them to use the eight-lane
/// AVX-512 IFMA kernel (where the CPU has it); a batch with more workers
/// takes the scalar path on every worker. No limit by default.
///
/// Until the kernel inverted its lanes on its own thread
/// ([`crate::inverse::invert_lanes`]), it called `ark_ff::batch_inversion`,
/// which cuts even sixteen elements into one chunk per pool thread, each
/// with its own inversion, and hands them to the pool: at 16 threads every
/// batch paid 16 inversions (about 100 µs, more than its additions) and
/// pulled the other workers into it. On a 16-core Xeon the vector kernel
/// then stopped gaining beyond 4-8 threads while the scalar path (one
/// inversion per batch) kept scaling, and a few vector workers slowed the
/// scalar ones beside them (a Groth16 proof at 16 threads: 31.2 ms all
/// scalar, 36.8 ms all vector; at 8 threads 53.8 ms all scalar, 40.4 ms all
/// vector), so the default was 8. Without the per-thread inversions that
/// cost is gone; the limit stays settable for measurements: the
/// environment variable `ZKBENCH_AVX512_WORKERS` (0: never the vector
/// kernel).
pub fn vector_workers() -> usize {
    use std::sync::OnceLock;
    static WORKERS: OnceLock<usize> = OnceLock::new();
    *WORKERS.get_or_init(|| {
        std::env::var("ZKBENCH_AVX512_WORKERS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(usize::MAX)
    })
}

thread_local! {
    /// Whether this thread is a [`run_pieces`] worker of a batch too wide
    /// for the vector kernel ([`vector_workers`]).
    static SCALAR_WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether work on this thread may use the vector kernel: false on the
/// workers of a batch of more than [`vector_workers`] while they run
/// pieces.
pub fn vector_here() -> bool {
    !SCALAR_WORKER.with(|s| s.get())
}

/// Marks this thread a scalar worker (or not) until dropped (only pools
/// have workers: unused without the `parallel` feature).
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
struct ScalarWorker(bool);

#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
impl ScalarWorker {
    fn set(scalar: bool) -> Self {
        Self(SCALAR_WORKER.with(|s| s.replace(scalar)))
    }
}

impl Drop for ScalarWorker {
    fn drop(&mut self) {
        SCALAR_WORKER.with(|s| s.set(self.0));
    }
}

/// Runs a [`Plan`]: `sort` of every block (the first pass, in parallel),
/// then `add` of every piece with the sorted blocks it reads
/// (`&sorted[piece.blocks]`), both through [`run_pieces`]; the pieces'
/// results in the plan's order.
pub fn run_plan<L: Send + Sync, T: Send>(
    plan: &Plan,
    sort: impl Fn(&Block) -> L + Sync,
    add: impl Fn(&Piece, &[L]) -> T + Sync,
) -> Vec<T> {
    let sorted = run_pieces(&plan.blocks, sort);
    run_pieces(&plan.pieces, |p| add(p, &sorted[p.blocks.clone()]))
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
            buckets: 0,
        }
    }

    /// `on_at_most` runs its closure on a worker of a pool of at most that
    /// many threads, and `on_cores` on one of at most the CPUs' count.
    #[cfg(feature = "parallel")]
    #[test]
    fn pools_are_capped() {
        let big = rayon::ThreadPoolBuilder::new()
            .num_threads(8)
            .build()
            .unwrap();
        big.install(|| {
            assert_eq!(on_at_most(1, rayon::current_num_threads), 1);
            assert!(on_at_most(1, || rayon::current_thread_index().is_some()));
            let cores = std::thread::available_parallelism().map_or(8, |n| n.get());
            assert_eq!(on_cores(rayon::current_num_threads), cores.min(8));
        });
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
            buckets: 0,
        };
        let p = split(std::slice::from_ref(&s), 4).pieces;
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
        let p = split(&s, 1).pieces;
        assert_eq!(p.len(), 2);
        assert!(p.iter().all(|p| p.range.len() == s[p.msm].bases));
    }

    #[test]
    fn many_threads_share_by_work() {
        // a G1 MSM twice the work of a G2 one, cheap reductions: pieces of
        // about equal work, twice as many for the larger MSM
        let s = [shape(8000, 20.0, 100.0), shape(2000, 40.0, 100.0)];
        let p = split(&s, 12).pieces;
        let count = |m| p.iter().filter(|p| p.msm == m).count();
        assert_eq!((count(0), count(1)), (8, 4), "{p:?}");
        // largest first
        let cost = |p: &Piece| p.range.len() as f64 * s[p.msm].base_cost;
        assert!(p.windows(2).all(|w| cost(&w[0]) >= cost(&w[1])));
        // two threads: the MSM of two thirds of the work is cut in two
        let p = split(&s, 2).pieces;
        assert_eq!(p.iter().map(|p| p.msm).collect::<Vec<_>>(), [0, 0, 1]);
        // one thread: nothing is cut
        assert_eq!(split(&s, 1).pieces.len(), 2);
    }

    #[test]
    fn the_work_stays_within_its_budget() {
        // reductions a tenth of the MSM: some pieces, not sixteen
        let p = split(&[shape(1000, 20.0, 2000.0)], 16).pieces;
        let work = 20_000.0 + p.len() as f64 * 2000.0;
        assert!(
            p.len() > 1 && work <= 1.2 * 22_000.0 + 1e-9,
            "{} pieces",
            p.len()
        );
    }

    /// A large MSM with many buckets is cut by buckets, not bases: one
    /// reduction in all, sixteen pieces for sixteen threads.
    #[test]
    fn large_windows_cut_by_buckets() {
        let s = Shape {
            buckets: 1 << 15,
            ..shape(1 << 18, 16.0, 4.0 * 32768.0)
        };
        let plan = split(std::slice::from_ref(&s), 16);
        assert_eq!(plan.pieces.len(), 16, "{:?}", plan.pieces);
        assert!(plan
            .pieces
            .iter()
            .all(|p| p.parts == 16 && p.range == (0..1 << 18)));
        assert_eq!(plan.blocks.len(), (1 << 18) / BLOCK_BASES);
        // a window of 13 bits (4096 buckets): at most 4 parts
        let s = Shape {
            buckets: 1 << 12,
            ..shape(6000, 20.0, 4.0 * 4096.0)
        };
        let plan = split(std::slice::from_ref(&s), 16);
        assert!(plan.pieces.iter().all(|p| p.parts <= 4), "{plan:?}");
        assert!(plan.pieces.len() >= 8, "{plan:?}");
        // one thread: nothing is cut, nothing sorted
        let plan = split(std::slice::from_ref(&s), 1);
        assert_eq!((plan.pieces.len(), plan.blocks.len()), (1, 0));
    }

    /// A scalar worker's mark holds while it runs pieces and is lifted
    /// after, nested marks included.
    #[test]
    fn scalar_worker_mark_is_scoped() {
        assert!(vector_here());
        {
            let _outer = ScalarWorker::set(true);
            assert!(!vector_here());
            {
                let _inner = ScalarWorker::set(false);
                assert!(vector_here());
            }
            assert!(!vector_here());
        }
        assert!(vector_here());
    }

    proptest! {
        /// Every (base, bucket part) of every MSM is in exactly one piece,
        /// and a piece's blocks make up its bases.
        #[test]
        fn pieces_cover_every_base_once(
            sizes in proptest::collection::vec((0usize..5000, 1.0f64..60.0, 0.0f64..50_000.0, 0u32..17), 1..6),
            threads in 1usize..40,
        ) {
            let shapes: Vec<Shape> = sizes
                .iter()
                .map(|&(n, c, r, b)| Shape { buckets: (1usize << b) >> 1, ..shape(n, c, r) })
                .collect();
            let plan = split(&shapes, threads);
            for (m, s) in shapes.iter().enumerate() {
                let mine: Vec<&Piece> = plan.pieces.iter().filter(|p| p.msm == m).collect();
                let mut ranges: Vec<_> = mine.iter().map(|p| p.range.clone()).collect();
                ranges.sort_by_key(|r| r.start);
                ranges.dedup();
                let mut next = 0;
                for r in &ranges {
                    prop_assert_eq!(r.start, next);
                    prop_assert!(!r.is_empty());
                    next = r.end;
                    let mut parts: Vec<_> = mine.iter().filter(|p| p.range == *r).map(|p| (p.part, p.parts)).collect();
                    parts.sort();
                    let m = parts[0].1;
                    prop_assert_eq!(parts, (0..m).map(|q| (q, m)).collect::<Vec<_>>());
                    prop_assert!(m == 1 || m * MIN_PART_BUCKETS <= s.buckets);
                }
                prop_assert_eq!(next, s.bases);
                prop_assert!(mine.len() <= 2 * threads.max(1));
                for p in &mine {
                    let blocks = &plan.blocks[p.blocks.clone()];
                    if p.parts > 1 {
                        prop_assert_eq!(blocks[0].range.start, p.range.start);
                        prop_assert_eq!(blocks[blocks.len() - 1].range.end, p.range.end);
                        prop_assert!(blocks.windows(2).all(|w| w[0].range.end == w[1].range.start));
                        prop_assert!(blocks.iter().all(|b| b.msm == m && b.parts == p.parts));
                    } else {
                        prop_assert!(blocks.is_empty());
                    }
                }
            }
        }
    }
}
