//! Where a cold proof's time goes: the first proof after loading a cached
//! proving key (what a user waits for), part by part, next to a warm proof.
//!
//! ```text
//! cargo run --release -p zkbench-groth16 --example cold_breakdown -- \
//!     [family=poseidon2-gnark] [arity=2] [log2 leaves=32] [circuit=membership] [reps=10]
//! ```
//!
//! `COMPACT=1`: instead, the key file's bytes (`Keys::to_bytes`) and the
//! warm proof's time with the full tables and with compact ones of 8, 4, 2
//! and 1 rows per base (`Keys::compacted`), beside a first proof from the
//! key file's bytes: decoded, then proved (`Keys::from_bytes`), and streamed
//! (`streamed::prove_streamed` on the whole file, nothing left to wait for:
//! its own cost); `COMPACT_OUT=<dir>` also writes each key file there
//! (`rows-full.bin`, `rows-<n>.bin`).
//!
//! TEST SETUP (seed 1): the toxic waste is known; for measurement only.

use std::time::Instant;

use ark_groth16::prepare_verifying_key;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{
    keys, prover::ProverTables, prover_cache, Circuit, CircuitKind, SpendConfig,
};
use zkbench_hash::HashFamily;

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

/// Mean wall and CPU (all threads) milliseconds of `f` over `reps` runs.
fn ms<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, f64) {
    let t = Instant::now();
    let c = cpu_ns();
    for _ in 0..reps {
        std::hint::black_box(f());
    }
    (
        t.elapsed().as_secs_f64() * 1e3 / reps as f64,
        (cpu_ns() - c) / 1e6 / reps as f64,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let family: HashFamily = get(1, "poseidon2-gnark").parse().expect("family");
    let arity: usize = get(2, "2").parse().expect("arity");
    let log_leaves: u32 = get(3, "32").parse().expect("log2 leaves");
    let circuit: CircuitKind = get(4, "membership").parse().expect("circuit");
    let reps: usize = get(5, "10").parse().expect("reps");
    let cfg = SpendConfig {
        family,
        alpha: None,
        arity,
        leaves: 1u64 << log_leaves,
        circuit,
    };
    let c = Circuit::new(&cfg).expect("config");
    let k = c.setup(1).expect("setup"); // TEST SETUP
    let dir = std::env::temp_dir().join(format!("zkbench-cold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = c.key_path(&dir, 1).unwrap();
    k.write(&path).unwrap(); // proving key + prover cache
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let w = c.random_witness(&mut rng);
    let a = c.witness(&w).unwrap();
    let (g1, g2) = k.prover_tables().table_points();
    println!(
        "{family} arity {arity} 2^{log_leaves} {}: {} constraints; tables {g1} G1 + {g2} G2 points; key file {} bytes, prover cache {} bytes",
        circuit.name(),
        k.matrices.num_constraints,
        std::fs::metadata(&path).unwrap().len(),
        std::fs::metadata(prover_cache::cache_path(&path)).unwrap().len()
    );
    for (query, bases, window, points) in k.prover_tables().describe() {
        println!("  table {query}: {bases} bases, window {window}, {points} points");
    }
    if std::env::var_os("COMPACT").is_some() {
        let out = std::env::var_os("COMPACT_OUT").map(std::path::PathBuf::from);
        println!(
            "{:>6} {:>12} {:>10} {:>10} {:>14} {:>12} {:>14}",
            "rows", "key bytes", "wall ms", "CPU ms", "decode+prove", "streamed", "streamed CPU"
        );
        let compact = [8, 4, 2, 1].map(|rows| (rows.to_string(), k.compacted(rows)));
        for (label, keys) in std::iter::once(("full".to_string(), &k))
            .chain(compact.iter().map(|(l, k)| (l.clone(), k)))
        {
            let bytes = keys.to_bytes();
            if std::env::var_os("DESCRIBE").is_some() {
                for (query, bases, window, points) in keys.prover_tables().describe() {
                    println!("  rows {label}, table {query}: {bases} bases, window {window}, {points} points in memory");
                }
            }
            if let Some(dir) = &out {
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(dir.join(format!("rows-{label}.bin")), &bytes).unwrap();
            }
            ms(3, || c.prove_assignment(keys, &a, &mut rng).unwrap());
            let (t, cpu) = ms(reps, || c.prove_assignment(keys, &a, &mut rng).unwrap());
            let (decoded, _) = ms(reps, || {
                let keys = zkbench_groth16::Keys::from_bytes(&bytes).unwrap();
                c.prove_assignment(&keys, &a, &mut rng).unwrap()
            });
            let (streamed, streamed_cpu) = ms(reps, || {
                let stream = zkbench_groth16::streamed::KeyStream::new();
                stream.push(&bytes);
                stream.close();
                let (r, s) = (ark_bn254::Fr::from(3u64), ark_bn254::Fr::from(5u64));
                zkbench_groth16::streamed::prove_streamed(&stream, &a, r, s).unwrap()
            });
            println!(
                "{label:>6} {:>12} {t:>10.2} {cpu:>10.2} {decoded:>14.2} {streamed:>12.2} {streamed_cpu:>14.2}",
                bytes.len()
            );
        }
        return;
    }
    let cache_bytes = std::fs::read(prover_cache::cache_path(&path)).unwrap();
    if std::env::var_os("DECODE_ONLY").is_some() {
        let t = ms(reps, || {
            prover_cache::from_bytes(&k.pk, &cache_bytes).unwrap()
        });
        println!("decode {:.2} ms (CPU {:.2} ms)", t.0, t.1);
        for _ in 0..3 {
            let v = prover_cache::from_bytes(&k.pk, &cache_bytes).unwrap();
            let t = Instant::now();
            drop(v.1);
            let a = t.elapsed();
            drop(v.0);
            println!("drop tables {a:?} matrices {:?}", t.elapsed() - a);
        }
        return;
    }
    let rows = [
        (
            "read proving key",
            ms(reps, || keys::read_proving_key(&path).unwrap()),
        ),
        (
            "read prover cache (matrices + tables)",
            ms(reps, || prover_cache::read(&path, &k.pk).unwrap().unwrap()),
        ),
        (
            "  of which reading the file",
            ms(reps, || {
                std::fs::read(prover_cache::cache_path(&path)).unwrap()
            }),
        ),
        (
            "  of which decoding it",
            ms(reps, || {
                prover_cache::from_bytes(&k.pk, &cache_bytes).unwrap()
            }),
        ),
        (
            "R1CS matrices (synthesis)",
            ms(reps, || c.matrices().unwrap()),
        ),
        (
            "prepare verifying key",
            ms(reps, || prepare_verifying_key(&k.pk.vk)),
        ),
        (
            "build prover tables",
            ms(reps.min(3), || ProverTables::new(&k.pk)),
        ),
        ("witness", ms(reps, || c.witness(&w).unwrap())),
        (
            "prove, tables (warm)",
            ms(reps, || c.prove_assignment(&k, &a, &mut rng).unwrap()),
        ),
        (
            "prove, ark-groth16 (no tables)",
            ms(reps, || {
                c.prove_assignment_arkworks(&k, &a, &mut rng).unwrap()
            }),
        ),
        (
            "cold: load_or_setup (key + cache) + witness + prove",
            ms(reps.min(5), || {
                let (kk, _) = c.load_or_setup(&dir, 1).unwrap();
                let aa = c.witness(&w).unwrap();
                c.prove_assignment(&kk, &aa, &mut rng).unwrap()
            }),
        ),
    ];
    // the cold proof's steps one by one (the keys dropped outside the timing,
    // as the harness does)
    let mut steps = [(0.0f64, 0.0f64); 4];
    let n = reps.min(5);
    for _ in 0..n {
        let mut keys = None;
        let mut assignment = None;
        let mut step = |i: usize, f: &mut dyn FnMut()| {
            let t = Instant::now();
            let c0 = cpu_ns();
            f();
            steps[i].0 += t.elapsed().as_secs_f64() * 1e3 / n as f64;
            steps[i].1 += (cpu_ns() - c0) / 1e6 / n as f64;
        };
        step(0, &mut || keys = Some(c.load_or_setup(&dir, 1).unwrap().0));
        step(1, &mut || assignment = Some(c.witness(&w).unwrap()));
        let (kk, aa) = (keys.as_ref().unwrap(), assignment.as_ref().unwrap());
        step(2, &mut || {
            std::hint::black_box(c.prove_assignment(kk, aa, &mut rng).unwrap());
        });
        step(3, &mut || {
            std::hint::black_box(c.prove_assignment(kk, aa, &mut rng).unwrap());
        });
    }
    let rows: Vec<(&str, (f64, f64))> = rows
        .into_iter()
        .chain([
            ("  cold step: load_or_setup", steps[0]),
            ("  cold step: witness", steps[1]),
            ("  cold step: first prove with the loaded keys", steps[2]),
            ("  cold step: second prove with the loaded keys", steps[3]),
        ])
        .collect();
    println!("{:>52}  {:>9}  {:>9}", "", "wall ms", "CPU ms");
    for (name, (t, c)) in rows {
        println!("{name:>52}: {t:9.2}  {c:9.2}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
