//! `recommend` on synthetic results (scaling, ranking, exclusions, front, browser) and on
//! the checked-in results files of `docs/data`.

use std::path::Path;

use zkbench_recommend::{recommend, Breach, Budget, Objective, ProveTime, Target};
use zkbench_results::{
    case::{Case, CaseKind},
    Circuit, Environment, Record, ResultsFile,
};

fn proof(system: &str, hash: &str, arity: usize, circuit: Circuit) -> Case {
    Case {
        arity: Some(arity),
        leaves: Some(1 << 36),
        circuit: Some(circuit),
        ..Case::new(CaseKind::Proof, system, hash)
    }
}

fn prove(case: &Case, threads: usize, ms: f64, size: f64, bytes: f64) -> Record {
    let c = Case {
        threads,
        ..case.clone()
    };
    let mut r = Record::new(&c, "prove", threads, &Environment::default());
    r.set_samples(vec![ms / 1e3; 3], vec![ms / 1e3; 3]);
    r.metrics.insert("constraints".into(), size);
    r.metrics.insert("proof_bytes".into(), bytes);
    r
}

fn evm(verifier: &str, statement: &Case, gas: f64) -> Record {
    let c = Case {
        kind: CaseKind::Evm,
        system: verifier.into(),
        ..statement.clone()
    };
    let mut r = Record::new(&c, "verify", 1, &Environment::default());
    r.metrics.insert("gas_tx".into(), gas);
    r
}

/// Groth16 spends a (size 1000), b (2000, measured on 1 thread only), c (3000);
/// a Groth16 membership; a "halo2-kzg-keccak" spend with its own gas.
fn synthetic() -> ResultsFile {
    let a = proof("groth16", "poseidon2", 4, Circuit::Spend);
    let b = proof("groth16", "griffin", 7, Circuit::Spend);
    let c = proof("groth16", "poseidon", 4, Circuit::Spend);
    let m = proof("groth16", "poseidon", 2, Circuit::Membership);
    let h = proof("halo2-kzg-keccak", "poseidon2", 4, Circuit::Spend);
    let mut f = ResultsFile::new("synthetic", "quick", Environment::default());
    f.records = vec![
        prove(&a, 1, 10.0, 1000.0, 128.0),
        prove(&a, 2, 6.0, 1000.0, 128.0),
        prove(&b, 1, 20.0, 2000.0, 128.0),
        prove(&c, 1, 30.0, 3000.0, 128.0),
        prove(&c, 2, 18.0, 3000.0, 128.0),
        prove(&m, 2, 3.0, 500.0, 128.0),
        prove(&h, 2, 9.0, 800.0, 2752.0),
        evm("zkbench", &a, 228_000.0),
        evm("zkbench-halo2", &h, 476_000.0),
    ];
    f
}

#[test]
fn predicts_ranks_and_says_why() {
    let budget = Budget {
        max_prove_ms: Some(15.0),
        threads: Some(2),
        max_verify_gas: Some(300_000),
        circuit: Some(Circuit::Spend),
        ..Default::default()
    };
    let r = recommend(&[synthetic()], &budget).unwrap();
    let names: Vec<&str> = r.ranked.iter().map(|c| c.hash.as_str()).collect();
    assert_eq!(names, ["poseidon2", "griffin"], "{}", r.text());
    // griffin on 2 threads was not run: its own 20 ms on 1 thread × 0.6, the
    // groth16 1 → 2 thread ratio of a (10 → 6 ms) and c (30 → 18 ms), = 12 ms
    match &r.ranked[1].prove {
        ProveTime::Scaled(s) => {
            assert!((s.prove_ms - 12.0).abs() < 1e-9, "{s:?}");
            assert_eq!((s.measured_ms, s.scaling.pairs.len()), (20.0, 2));
        }
        other => panic!("griffin should be scaled: {other:?}"),
    }
    // gas of the griffin spend: the Groth16 verifier of the same circuit
    assert_eq!(r.ranked[1].verify_gas, Some(228_000.0));
    let why = |hash: &str| {
        r.excluded
            .iter()
            .find(|e| e.candidate.hash == hash && e.candidate.circuit == Some(Circuit::Spend))
            .map(|e| e.breaks.clone())
            .unwrap_or_default()
    };
    assert!(
        matches!(why("poseidon")[..], [Breach::ProveTime { prove_ms, max }] if prove_ms == 18.0 && max == 15.0)
    );
    let halo2 = r
        .excluded
        .iter()
        .find(|e| e.candidate.system == "halo2-kzg-keccak")
        .unwrap();
    assert!(matches!(
        halo2.breaks[..],
        [Breach::VerifyGas { max: 300_000, .. }]
    ));
    assert!(r
        .excluded
        .iter()
        .any(|e| e.breaks.iter().any(|b| matches!(b, Breach::Circuit { .. }))));
    let text = r.text();
    assert!(
        text.contains("scaled from 1 threads") && text.contains("verify gas 476000 > 300000"),
        "{text}"
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["ranked"][1]["prove"]["source"], "scaled");
}

#[test]
fn front_objectives_and_security() {
    let f = synthetic();
    // without a gas limit the Halo2 spend is eligible; lowest gas first with --optimize gas
    let gas = recommend(
        std::slice::from_ref(&f),
        &Budget {
            threads: Some(2),
            circuit: Some(Circuit::Spend),
            optimize: Objective::Gas,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(gas.ranked.last().unwrap().system, "halo2-kzg-keccak");
    // the 6 ms Groth16 spend beats every other on all three: the only one on the front
    let front: Vec<&str> = gas
        .ranked
        .iter()
        .filter(|c| c.pareto)
        .map(|c| c.hash.as_str())
        .collect();
    assert_eq!(front, ["poseidon2"]);
    // BN254 (about 100 bits) caps everything: 128 excludes all, naming the curve
    let strict = recommend(
        std::slice::from_ref(&f),
        &Budget {
            min_security: Some(128),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(strict.ranked.is_empty());
    assert!(strict.excluded.iter().all(|e| e
        .breaks
        .iter()
        .any(|b| matches!(b, Breach::Security { limited_by, .. } if limited_by.contains("bn254") || limited_by.contains("hash")))));
    // leaves and an unmeasured thread count
    let r = recommend(
        std::slice::from_ref(&f),
        &Budget {
            min_leaves: Some(1 << 40),
            threads: Some(4),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(r.ranked.is_empty());
    assert!(r.excluded.iter().all(
        |e| e.breaks.iter().any(|b| matches!(b, Breach::Leaves { .. }))
            && e.breaks
                .iter()
                .any(|b| matches!(b, Breach::ProveUnknown { .. }))
    ));
    // browser: none measured is an error that says how to get some
    let e = recommend(
        std::slice::from_ref(&f),
        &Budget {
            target: Target::Browser,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(e.contains("zkbench run browser"), "{e}");
    assert!(recommend(&[], &Budget::default())
        .unwrap_err()
        .contains("--quick"));
}

#[test]
fn checked_in_two_core_results() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/data/scaling-2core.json");
    let f = ResultsFile::read(&path).unwrap();
    let r = recommend(
        &[f],
        &Budget {
            threads: Some(2),
            max_prove_ms: Some(200.0),
            ..Default::default()
        },
    )
    .unwrap();
    // measured there on 2 threads: zkbench Groth16 membership (55.5 ms), Halo2-KZG spend (121 ms)
    assert!(!r.ranked.is_empty(), "{}", r.text());
    assert_eq!(r.ranked[0].system, "groth16");
    assert!(
        matches!(r.ranked[0].prove, ProveTime::Measured { prove_ms, .. } if (prove_ms - 55.5).abs() < 0.1)
    );
    // the file has no evm records: a gas budget excludes everything and says why
    let f = ResultsFile::read(&path).unwrap();
    let g = recommend(
        &[f],
        &Budget {
            max_verify_gas: Some(300_000),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(g.ranked.is_empty());
    // Groth16 has an EVM verifier (`zkbench run evm` measures it); Halo2-KZG with
    // the Blake2b transcript has none, and the exclusion says so
    for e in &g.excluded {
        let evm_verifier = e.candidate.system.contains("groth16");
        assert!(
            e.breaks.contains(&Breach::GasUnknown { evm_verifier }),
            "{}: {:?}",
            e.candidate.statement,
            e.breaks
        );
    }
    assert!(g.excluded.iter().any(|e| e.candidate.system == "halo2-kzg"));
}

#[test]
fn checked_in_quick_results_predict_and_price_gas() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/data/recommend-quick-2core.json");
    let files = [ResultsFile::read(&path).unwrap()];
    let r = recommend(
        &files,
        &Budget {
            optimize: Objective::Gas,
            circuit: Some(Circuit::Spend),
            min_leaves: Some(1 << 32),
            ..Default::default()
        },
    )
    .unwrap();
    // every Groth16 spend has the gas of the one measured Groth16 spend verifier (3 public inputs)
    let top = &r.ranked[0];
    assert_eq!(top.system, "groth16");
    assert_eq!(top.verify_gas, Some(228_111.0));
    assert!(top.pareto);
    let last = r.ranked.last().unwrap();
    assert_eq!(last.system, "halo2-kzg-keccak");
    assert!(last.verify_gas.unwrap() > 400_000.0);
    // statements run on 1 thread only are scaled to 2 from their own 1-thread time
    let scaled: Vec<_> = r
        .ranked
        .iter()
        .filter_map(|c| match &c.prove {
            ProveTime::Scaled(s) => Some(s),
            _ => None,
        })
        .collect();
    assert!(!scaled.is_empty(), "{}", r.text());
    assert!(scaled.iter().all(|s| s.scaling.from_threads == 1
        && s.scaling.to_threads == 2
        && !s.scaling.pairs.is_empty()));
    assert!(r
        .ranked
        .iter()
        .all(|c| !matches!(c.prove, ProveTime::Predicted(_))));
}

/// A browser record: the page's case id starts with `browser/`.
fn browser(case: &Case, threads: usize, ms: f64, size: f64) -> Record {
    let mut r = prove(case, threads, ms, size, 128.0);
    r.case_id = format!("browser/{}", r.case_id);
    r
}

#[test]
fn browser_budget_uses_browser_records_and_scales_native_ones() {
    let mut f = synthetic();
    let a = proof("groth16", "poseidon2", 4, Circuit::Spend);
    let c = proof("groth16", "poseidon", 4, Circuit::Spend);
    // the page measured a and c on 4 threads: 4× and 5× their 1-thread native times
    f.records.push(browser(&a, 4, 40.0, 1000.0));
    f.records.push(browser(&c, 4, 150.0, 3000.0));
    let r = recommend(
        &[f],
        &Budget {
            target: Target::Browser,
            threads: Some(4),
            max_prove_ms: Some(200.0),
            max_verify_gas: Some(300_000),
            circuit: Some(Circuit::Spend),
            ..Default::default()
        },
    )
    .unwrap();
    let text = r.text();
    // a: measured in the page; b (griffin, 20 ms natively on 1 thread): × 4.5, the
    // median of the two native 1 thread → browser 4 thread ratios, = 90 ms
    assert_eq!(r.ranked[0].hash, "poseidon2", "{text}");
    assert!(
        matches!(r.ranked[0].prove, ProveTime::Measured { prove_ms, samples: 3 } if prove_ms == 40.0)
    );
    let griffin = r.ranked.iter().find(|c| c.hash == "griffin").unwrap();
    match &griffin.prove {
        ProveTime::Scaled(s) => {
            assert!((s.prove_ms - 90.0).abs() < 1e-9, "{s:?}");
            assert_eq!(
                (
                    s.scaling.from_target,
                    s.scaling.from_threads,
                    s.scaling.pairs.len()
                ),
                (Target::Native, 1, 2)
            );
        }
        other => panic!("griffin should be scaled: {other:?}"),
    }
    assert!(text.contains("scaled from native 1 threads"), "{text}");
    assert_eq!(griffin.prove.source(), "scaled from native 1 threads");
    // the Halo2 spend: no browser record of halo2 at all, so none to scale by
    let h = r
        .excluded
        .iter()
        .find(|e| e.candidate.system == "halo2-kzg-keccak")
        .unwrap();
    assert!(h
        .breaks
        .iter()
        .any(|b| matches!(b, Breach::ProveUnknown { why } if why.contains("browser"))));
}
