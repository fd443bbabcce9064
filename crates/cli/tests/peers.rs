//! The snarkjs peer (`peers/snarkjs/run.mjs`) end to end on a tiny tree (depth 1,
//! circomlib Poseidon): its records parse as results-schema v1 records, carry the exact
//! system names, and its proofs are rejected with a changed public input. It uses this
//! build's `zkbench` for the test `.ptau` (`zkbench ptau new`) and the native tree. And the
//! generated GMiMC, Poseidon2 and Neptune templates agree with zkbench's native roots, and the
//! circom note spend (peers/snarkjs/circuits/spend.circom) has zkbench's public inputs. The gnark
//! note spend (`peers/gnark --circuit spend`, gnark's Poseidon2 = zkbench's `poseidon2-gnark`)
//! has them too (skipped, with a printed reason, when Go is missing).
//!
//! The snarkjs tests are skipped (with a printed reason) when node or peers/snarkjs/node_modules is missing
//! (scripts/setup.sh installs them).

use std::{collections::BTreeSet, path::PathBuf, process::Command};

use zkbench_bench::{results::Record, runner::parse_record_line};
use zkbench_core::env::Environment;

/// Runs `peers/snarkjs/run.mjs` with `args` (fresh cache, one sample a phase) and returns its
/// stdout and parsed records; `None` (printing why) when node or the npm packages are missing.
fn run_snarkjs(args: &[&str]) -> Option<(String, Vec<Record>)> {
    run_snarkjs_with(args, &[], None)
}

/// [`run_snarkjs`] with extra environment variables, in `cache` when given (else a fresh
/// temporary directory).
fn run_snarkjs_with(
    args: &[&str],
    envs: &[(&str, &str)],
    cache: Option<&std::path::Path>,
) -> Option<(String, Vec<Record>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let have_node = Command::new("node")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !have_node || !root.join("peers/snarkjs/node_modules/circom2").exists() {
        eprintln!("SKIPPED: node or peers/snarkjs/node_modules missing (run scripts/setup.sh)");
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cache = cache.unwrap_or(tmp.path());
    let out = Command::new("node")
        .arg(root.join("peers/snarkjs/run.mjs"))
        .args(args)
        .envs(envs.iter().copied())
        .env("ZKBENCH_BIN", env!("CARGO_BIN_EXE_zkbench"))
        .env("ZKBENCH_SNARKJS_CACHE", cache)
        .env(
            "ZKBENCH_PROFILE",
            r#"{"warmup":0,"min_samples":1,"max_samples":1,"target_seconds":0,"case_timeout_seconds":300}"#,
        )
        .output()
        .expect("running node");
    Some(records_of(&out))
}

/// A runner's stdout and its records; panics (with stdout and stderr) when it failed.
fn records_of(out: &std::process::Output) -> (String, Vec<Record>) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let env = Environment::default();
    let recs = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| parse_record_line(l, &env).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (stdout, recs)
}

#[test]
fn snarkjs_runner_records_all_three_systems() {
    let Some((stdout, recs)) = run_snarkjs(&[
        "--depths",
        "1",
        "--hashes",
        "poseidon,griffin",
        "--systems",
        "groth16,plonk,fflonk",
    ]) else {
        return;
    };
    let systems: BTreeSet<&str> = recs.iter().map(|r| r.case.system.as_str()).collect();
    assert_eq!(
        systems,
        BTreeSet::from(["snarkjs-fflonk", "snarkjs-groth16", "snarkjs-plonk"])
    );
    for sys in ["snarkjs-groth16", "snarkjs-plonk", "snarkjs-fflonk"] {
        let mine: Vec<_> = recs
            .iter()
            .filter(|r| r.case.system == sys && r.case.hash == "poseidon")
            .collect();
        for phase in ["setup", "witness", "prove_cold", "prove", "verify"] {
            let r = mine
                .iter()
                .find(|r| r.phase == phase)
                .unwrap_or_else(|| panic!("{sys}: no {phase} record in\n{stdout}"));
            assert_eq!(r.status, zkbench_bench::results::Status::Ok, "{r:?}");
            assert!(r.test_setup);
        }
        let t = mine.iter().find(|r| r.phase == "verify-tampered").unwrap();
        assert_eq!(t.status, zkbench_bench::results::Status::Ok);
        assert_eq!(t.metrics.get("rejected"), Some(&1.0));
        let p = mine.iter().find(|r| r.phase == "prove").unwrap();
        assert_eq!(
            p.case_id,
            format!("{sys}/poseidon/membership/arity2/2^1/threads-all")
        );
        assert!(p.metrics["constraints"] > 240.0);
    }
    // A hash without a circom template is a recorded skip, not a silent gap.
    let g = recs.iter().find(|r| r.case.hash == "griffin").unwrap();
    assert_eq!(g.status, zkbench_bench::results::Status::Skipped);
}

/// The generated circom templates (peers/snarkjs/circuits/zkbench_hashes.circom) compute
/// zkbench's own GMiMC, Poseidon2 and Neptune nodes: the batch-root circuit of depth 1
/// constrains its public root to the circom hash of the two leaves, and the runner's input
/// is zkbench's native root (`zkbench merkle build`), so the witness exists (and snarkjs
/// proves it) only when the two hashes agree.
#[test]
fn generated_circom_hashes_match_zkbench_roots() {
    let Some((stdout, recs)) = run_snarkjs(&[
        "--circuit",
        "batch-root",
        "--depths",
        "1",
        "--hashes",
        "gmimc,poseidon2,neptune",
        "--systems",
        "groth16",
    ]) else {
        return;
    };
    // R1CS constraints per node, 3 per x^5: GMiMC 226 x^5 (the first on a constant, folded
    // by circom); Poseidon2 t = 2: 8·2 + 56 x^5; Neptune: 68 x^5 and 6 rounds of two pair
    // S-boxes of 2 constraints each.
    for (hash, constraints) in [
        ("gmimc", 225.0 * 3.0),
        ("poseidon2", 72.0 * 3.0),
        ("neptune", 68.0 * 3.0 + 24.0),
    ] {
        let rec = |phase: &str| {
            recs.iter()
                .find(|r| r.case.hash == hash && r.phase == phase)
                .unwrap_or_else(|| panic!("{hash}: no {phase} record in\n{stdout}"))
        };
        let w = rec("witness");
        assert_eq!(w.status, zkbench_bench::results::Status::Ok, "{w:?}");
        assert_eq!(w.case.circuit, Some(zkbench_core::case::Circuit::BatchRoot));
        assert_eq!(w.metrics["constraints"], constraints, "{hash}");
        assert_eq!(rec("verify").status, zkbench_bench::results::Status::Ok);
        assert_eq!(rec("verify-tampered").metrics.get("rejected"), Some(&1.0));
    }
}

/// A depth-2 spend witness (leaf index 2, so both bit orders): the runners' JSON input
/// (`{nullifier, secret, ext_data_hash, index, siblings}`, decimal strings) and the same
/// witness for zkbench.
fn spend_fixture() -> (String, zkbench_statement::Witness) {
    use zkbench_hash::{field::fr_to_decimal, parse_fr};
    use zkbench_statement::{MerklePath, SpendWitness, Witness};
    let nullifier = "0x1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f80";
    let secret = "0x2f1e0d0c0b0a09080706050403020100ffeeddccbbaa99887766554433221100";
    let ext_data_hash = "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    let siblings = [
        "5532213320940331856403351419110492357253397881676430135336357941913922303682",
        "6836732067660658767705155783769993429467946026960449803063655394647328394484",
    ];
    let dec = |h: &str| fr_to_decimal(&parse_fr(h).unwrap());
    let input = serde_json::json!({
        "nullifier": dec(nullifier), "secret": dec(secret), "ext_data_hash": dec(ext_data_hash),
        "index": 2, "siblings": siblings,
    })
    .to_string();
    let w = Witness::Spend(SpendWitness {
        nullifier: parse_fr(nullifier).unwrap(),
        secret: parse_fr(secret).unwrap(),
        path: MerklePath {
            index: 2,
            siblings: siblings
                .iter()
                .map(|s| vec![parse_fr(s).unwrap()])
                .collect(),
        },
        ext_data_hash: parse_fr(ext_data_hash).unwrap(),
    });
    (input, w)
}

/// zkbench's native `[root, nullifier_hash, ext_data_hash]` (crates/statement) of `w` in a
/// binary 4-leaf tree with `family`, as decimal strings.
fn native_spend_public(
    family: zkbench_hash::HashFamily,
    w: &zkbench_statement::Witness,
) -> Vec<String> {
    use zkbench_statement::{CircuitKind, PublicInputs, StatementConfig};
    let cfg = StatementConfig {
        family,
        alpha: None,
        arity: 2,
        leaves: 4,
        circuit: CircuitKind::Spend,
    };
    let native =
        PublicInputs::compute(&cfg.native_hashes().unwrap(), &cfg.shape().unwrap(), w).unwrap();
    native
        .0
        .iter()
        .map(zkbench_hash::field::fr_to_decimal)
        .collect()
}

/// Checks a spend run's records: every phase ok, `case.circuit = spend`, 4 leaves, the
/// tampered proof rejected; returns the systems seen.
fn assert_spend_records(stdout: &str, recs: &[Record]) -> BTreeSet<String> {
    for phase in ["setup", "witness", "prove", "verify"] {
        let r = recs
            .iter()
            .find(|r| r.phase == phase)
            .unwrap_or_else(|| panic!("no {phase} record in\n{stdout}"));
        assert_eq!(r.status, zkbench_bench::results::Status::Ok, "{r:?}");
    }
    for r in recs {
        assert_eq!(r.case.circuit, Some(zkbench_core::case::Circuit::Spend));
        assert_eq!(r.case.leaves, Some(4));
        assert!(r.test_setup);
    }
    let tampered: Vec<_> = recs
        .iter()
        .filter(|r| r.phase == "verify-tampered")
        .collect();
    assert!(
        !tampered.is_empty(),
        "no verify-tampered record in\n{stdout}"
    );
    for t in tampered {
        assert_eq!(t.metrics.get("rejected"), Some(&1.0), "{t:?}");
    }
    recs.iter().map(|r| r.case.system.clone()).collect()
}

/// The circom note spend proves zkbench's statement: for the same private values (nullifier,
/// secret, path of leaf index 2 in a 2^2-leaf tree, so both bit orders, and ext_data_hash),
/// the public signals of snarkjs's proof (root and nullifier_hash computed by the circuit) are
/// zkbench's native `[root, nullifier_hash, ext_data_hash]` (crates/statement, circomlib
/// Poseidon = zkbench `poseidon`), the proof verifies and is rejected with root + 1.
#[test]
fn circom_spend_has_zkbench_public_inputs() {
    let (input, w) = spend_fixture();
    let cache = tempfile::tempdir().unwrap();
    let Some((stdout, recs)) = run_snarkjs_with(
        &[
            "--circuit",
            "spend",
            "--depths",
            "2",
            "--hashes",
            "poseidon",
            "--systems",
            "groth16",
        ],
        &[("ZKBENCH_SNARKJS_SPEND_INPUT", &input)],
        Some(cache.path()),
    ) else {
        return;
    };
    assert_spend_records(&stdout, &recs);
    let public: Vec<String> = serde_json::from_str(
        &std::fs::read_to_string(cache.path().join("spend-poseidon-d2/groth16.public.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        public,
        native_spend_public(zkbench_hash::HashFamily::Poseidon, &w),
        "snarkjs public signals vs zkbench [root, nullifier_hash, ext_data_hash]"
    );
}

/// The gnark note spend (`peers/gnark --circuit spend`) proves zkbench's statement with
/// zkbench's `poseidon2-gnark` hash: for the fixture's witness (ZKBENCH_GNARK_SPEND_INPUT,
/// depth 2), the public inputs gnark's Groth16 and PLONK proofs verify against
/// (`--public-out`: root and nullifier_hash computed by gnark-crypto natively, and the
/// circuit is only satisfiable when gnark's in-circuit hash agrees) are zkbench's native
/// `[root, nullifier_hash, ext_data_hash]`, and both proofs are rejected with root + 1.
/// Skipped (with a printed reason) when Go is missing.
#[test]
fn gnark_spend_has_zkbench_public_inputs() {
    let have_go = Command::new("go")
        .arg("version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !have_go {
        eprintln!("SKIPPED: go is missing (the gnark peer is a Go program)");
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("gnark-peer");
    let built = Command::new("go")
        .arg("-C")
        .arg(root.join("peers/gnark"))
        .args(["build", "-o"])
        .arg(&bin)
        .arg(".")
        .output()
        .expect("running go build");
    assert!(
        built.status.success(),
        "go build peers/gnark: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let (input, w) = spend_fixture();
    let native = native_spend_public(zkbench_hash::HashFamily::Poseidon2Gnark, &w);
    for system in ["groth16", "plonk"] {
        let public_out = tmp.path().join(format!("{system}.public.json"));
        let out = Command::new(&bin)
            .args(["--circuit", "spend", "--depth", "2", "--system", system])
            .arg("--public-out")
            .arg(&public_out)
            .env("ZKBENCH_GNARK_SPEND_INPUT", &input)
            .env(
                "ZKBENCH_PROFILE",
                r#"{"warmup":0,"min_samples":1,"max_samples":1,"target_seconds":0}"#,
            )
            .output()
            .expect("running the gnark peer");
        let (stdout, recs) = records_of(&out);
        let systems = assert_spend_records(&stdout, &recs);
        assert_eq!(systems, BTreeSet::from([format!("gnark-{system}")]));
        let prove = recs.iter().find(|r| r.phase == "prove").unwrap();
        assert_eq!(
            prove.case_id,
            format!("gnark-{system}/poseidon2-gnark/spend/arity2/2^2/threads-all")
        );
        let public: Vec<String> =
            serde_json::from_str(&std::fs::read_to_string(&public_out).unwrap()).unwrap();
        assert_eq!(
            public, native,
            "gnark-{system} public inputs vs zkbench [root, nullifier_hash, ext_data_hash]"
        );
    }
}
