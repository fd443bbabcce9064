//! Valid results documents of a chosen size, for the tests and the load
//! generator. They are made with the schema's own types
//! (`zkbench_results::results`), so they are what `zkbench run --out` writes;
//! their numbers are synthetic and say so (`suite` is `sample`).

use std::collections::BTreeMap;

use zkbench_results::{Case, CaseKind, Circuit, Environment, Record, ResultsFile};

const PHASES: [&str; 4] = ["setup", "witness", "prove", "verify"];
const HASHES: [&str; 3] = ["poseidon2", "poseidon", "griffin"];
const CPUS: [&str; 3] = [
    "Sample CPU A (8 cores)",
    "Sample CPU B (2 cores)",
    "Sample Phone SoC",
];

/// A document with `records` records of `samples` samples each; `seed` makes
/// it distinct (a different seed gives a different content id) and picks one
/// of three sample devices.
pub fn document(seed: u64, records: usize, samples: usize) -> ResultsFile {
    let env = Environment {
        cpu_model: CPUS[(seed % 3) as usize].into(),
        logical_cpus: [8, 2, 6][(seed % 3) as usize],
        memory_bytes: Some(8 << 30),
        os: "Linux 6.1".into(),
        arch: "x86_64".into(),
        rustc: "rustc 1.95.0".into(),
        zkbench_version: "0.1.0".into(),
        crate_versions: BTreeMap::from([("ark-groth16".into(), "0.5.0".into())]),
        git_commit: "0000000".into(),
        build_profile: "release".into(),
        date: "2026-11-23T00:00:00Z".into(),
        hostname: format!("sample-{seed}"),
        ..Default::default()
    };
    let mut f = ResultsFile::new("sample", "quick", env.clone());
    f.duration_s = 1.0 + seed as f64 * 1e-3;
    for i in 0..records {
        let case = Case {
            kind: CaseKind::Proof,
            system: "groth16".into(),
            hash: HASHES[(i / PHASES.len()) % HASHES.len()].into(),
            alpha: None,
            width: None,
            arity: Some(2 << ((i / (PHASES.len() * HASHES.len())) % 4)),
            leaves: Some(1 << 36),
            depth: None,
            circuit: Some(Circuit::Spend),
            threads: 0,
            size: None,
        };
        let mut r = Record::new(&case, PHASES[i % PHASES.len()], 2, &env);
        let base = 0.05 + 0.01 * (i % 7) as f64 + 0.001 * (seed % 97) as f64;
        let wall: Vec<f64> = (0..samples)
            .map(|j| base * (1.0 + 0.01 * j as f64))
            .collect();
        let cpu = wall.iter().map(|w| w * 1.9).collect();
        r.set_samples(wall, cpu);
        r.metrics.insert("constraints".into(), 5000.0 + i as f64);
        r.metrics.insert("proof_bytes".into(), 128.0);
        r.test_setup = true;
        f.records.push(r);
    }
    f
}

/// [`document`] as a JSON value.
pub fn document_json(seed: u64, records: usize, samples: usize) -> serde_json::Value {
    serde_json::to_value(document(seed, records, samples)).unwrap_or_default()
}
