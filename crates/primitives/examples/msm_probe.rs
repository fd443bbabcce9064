//! Times zkbench's fixed-base MSM (and optionally arkworks') on the
//! `primitives` suite's inputs, for profiling and before/after comparisons:
//! `cargo run --release -p zkbench-primitives --example msm_probe -- g1 16,18 1,2,16 5 [ark] [skew]`
//! (group, log sizes, thread counts, repetitions; `ark`: also time arkworks
//! and check the result; `skew`: witness-like scalars, 9 in 10 of them 0 or
//! ±1). The table is built once per size, with every thread; each thread
//! count then runs in a pool of its own.
//! It prints wall and CPU nanoseconds per point (CPU: all threads, steadier
//! on a loaded machine).

use std::time::Instant;

use ark_ec::CurveGroup;
use zkbench_msm::FixedBaseTable;
use zkbench_primitives::{inputs, msm};

/// CPU nanoseconds of all of this process's threads so far (Linux
/// `/proc/self/task/*/schedstat`; 0 elsewhere): steadier than wall time on
/// a loaded machine.
fn cpu_ns() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .sum()
}

fn run<P: zkbench_msm::RawCurve<ScalarField = ark_bn254::Fr, BaseField: zkbench_msm::MsmField>>(
    logs: &[usize],
    threads: &[usize],
    reps: usize,
    ark: bool,
    skew: bool,
) {
    for &k in logs {
        let n = 1usize << k;
        let points = inputs::points::<P>(n, 1);
        let mut scalars = inputs::scalars(n, 2);
        if skew {
            // witness-like: 9 in 10 scalars are 0, 1 or -1
            for (i, s) in scalars.iter_mut().enumerate() {
                match i % 10 {
                    0 => {}
                    1 | 2 => *s = ark_bn254::Fr::from(0u64),
                    3 => *s = -ark_bn254::Fr::from(1u64),
                    _ => *s = ark_bn254::Fr::from(1u64),
                }
            }
        }
        let t = Instant::now();
        let table = FixedBaseTable::new(&points, 1);
        let build = t.elapsed().as_secs_f64();
        let expected = ark.then(|| msm::arkworks(&points, &scalars).into_affine());
        for &th in threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(th)
                .build()
                .expect("thread pool");
            let mut times = Vec::new();
            let mut cpu = Vec::new();
            for _ in 0..reps {
                let t = Instant::now();
                let c0 = cpu_ns();
                let got = pool
                    .install(|| msm::zkbench(&table, &scalars))
                    .into_affine();
                cpu.push((cpu_ns() - c0) / n as f64);
                times.push(t.elapsed().as_secs_f64() * 1e9 / n as f64);
                if let Some(e) = expected {
                    assert_eq!(got, e);
                }
            }
            times.sort_by(f64::total_cmp);
            cpu.sort_by(f64::total_cmp);
            let mut line = format!(
                "2^{k} threads {th}: window {} build {build:.1}s zkbench ns/pt min {:.0} median {:.0} cpu-ns/pt min {:.0} median {:.0}",
                table.window(),
                times[0],
                times[times.len() / 2],
                cpu[0],
                cpu[cpu.len() / 2]
            );
            if ark {
                let mut a = Vec::new();
                for _ in 0..reps.min(3) {
                    let t = Instant::now();
                    let _ = std::hint::black_box(pool.install(|| msm::arkworks(&points, &scalars)));
                    a.push(t.elapsed().as_secs_f64() * 1e9 / n as f64);
                }
                a.sort_by(f64::total_cmp);
                line += &format!(" | arkworks min {:.0} ratio {:.2}", a[0], times[0] / a[0]);
            }
            println!("{line}");
        }
    }
}

/// The comma-separated numbers of argument `i` (`default` when absent).
fn numbers(args: &[String], i: usize, default: &str, what: &str) -> Vec<usize> {
    let list = args.get(i).map_or(default, String::as_str);
    list.split(',')
        .map(|s| {
            s.parse()
                .unwrap_or_else(|_| panic!("{what}: {s:?} is not a number"))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let group = args.get(1).map(String::as_str).unwrap_or("g1");
    let logs = numbers(&args, 2, "16", "log size");
    let threads = numbers(&args, 3, "2", "threads");
    let reps: usize = args.get(4).map_or(5, |s| s.parse().expect("reps"));
    let ark = args.iter().skip(5).any(|s| s == "ark");
    let skew = args.iter().skip(5).any(|s| s == "skew");
    match group {
        "g2" => run::<ark_bn254::g2::Config>(&logs, &threads, reps, ark, skew),
        _ => run::<ark_bn254::g1::Config>(&logs, &threads, reps, ark, skew),
    }
}
