//! Adding a proof system takes its `ProofSystem` impl and one registration
//! line: a toy system defined here is measured by the same loop as Groth16
//! and Halo2-KZG, with every phase recorded.

use std::path::{Path, PathBuf};

use rand::RngCore;
use zkbench_bench::{
    backends,
    case::{Case, CaseKind, Circuit},
    proof::ProofBackend,
    results::Status,
    suite::Profile,
    sys::detect_environment,
};
use zkbench_core::{
    statement::{NativeHashes, PublicInputs, StatementConfig, StatementError, TreeShape, Witness},
    Metrics, ProofSystem,
};

/// A toy "proof system" whose proof is the public inputs themselves: NOT a
/// proof of anything, only a stand-in with the trait's shape for this test.
struct Toy;

#[derive(Debug, thiserror::Error)]
#[error("toy: {0}")]
struct ToyError(String);

impl From<StatementError> for ToyError {
    fn from(e: StatementError) -> Self {
        ToyError(e.to_string())
    }
}

impl From<std::io::Error> for ToyError {
    fn from(e: std::io::Error) -> Self {
        ToyError(e.to_string())
    }
}

struct ToyCircuit {
    shape: TreeShape,
    hashes: NativeHashes,
}

impl ProofSystem for Toy {
    type Circuit = ToyCircuit;
    type Keys = u64;
    type Witness = PublicInputs;
    type Proof = Vec<u8>;
    type Error = ToyError;

    fn name(&self) -> &'static str {
        "toy"
    }

    fn description(&self) -> &'static str {
        "test-only stand-in"
    }

    fn circuit(&self, cfg: &StatementConfig) -> Result<ToyCircuit, ToyError> {
        Ok(ToyCircuit {
            shape: cfg.shape()?,
            hashes: cfg.native_hashes()?,
        })
    }

    fn circuit_metrics(&self, c: &ToyCircuit) -> Result<Metrics, ToyError> {
        Ok(Metrics::from([("rows".into(), c.shape.height as f64)]))
    }

    fn setup(&self, _: &ToyCircuit, seed: u64) -> Result<u64, ToyError> {
        Ok(seed)
    }

    fn is_test_setup(&self, _: &u64) -> bool {
        true
    }

    fn key_metrics(&self, _: &u64) -> Metrics {
        Metrics::from([("vk_bytes".into(), 8.0)])
    }

    fn write_keys(&self, _: &ToyCircuit, k: &u64, dir: &Path, _: u64) -> Result<PathBuf, ToyError> {
        std::fs::create_dir_all(dir)?;
        let p = dir.join("toy.key");
        std::fs::write(&p, k.to_le_bytes())?;
        Ok(p)
    }

    fn read_keys(&self, _: &ToyCircuit, dir: &Path, _: u64) -> Result<u64, ToyError> {
        let b = std::fs::read(dir.join("toy.key"))?;
        let b: [u8; 8] = b.try_into().map_err(|_| ToyError("bad key".into()))?;
        Ok(u64::from_le_bytes(b))
    }

    fn witness(&self, c: &ToyCircuit, w: &Witness) -> Result<PublicInputs, ToyError> {
        Ok(PublicInputs::compute(&c.hashes, &c.shape, w)?)
    }

    fn public_inputs(&self, _: &ToyCircuit, w: &PublicInputs) -> PublicInputs {
        w.clone()
    }

    fn prove(
        &self,
        _: &ToyCircuit,
        _: &u64,
        w: &PublicInputs,
        _: &mut dyn RngCore,
    ) -> Result<Vec<u8>, ToyError> {
        Ok(format!("{:?}", w.0).into_bytes())
    }

    fn verify(
        &self,
        _: &ToyCircuit,
        _: &u64,
        p: &PublicInputs,
        proof: &Vec<u8>,
    ) -> Result<bool, ToyError> {
        Ok(*proof == format!("{:?}", p.0).into_bytes())
    }

    fn proof_to_bytes(&self, p: &Vec<u8>) -> Vec<u8> {
        p.clone()
    }

    fn proof_from_bytes(&self, b: &[u8]) -> Result<Vec<u8>, ToyError> {
        Ok(b.to_vec())
    }
}

fn case(system: &str) -> Case {
    Case {
        kind: CaseKind::Proof,
        system: system.into(),
        hash: "poseidon2".into(),
        alpha: None,
        width: None,
        arity: Some(4),
        leaves: Some(1 << 12),
        depth: None,
        circuit: Some(Circuit::Spend),
        threads: 1,
        size: None,
    }
}

fn tiny_profile() -> Profile {
    Profile {
        warmup: 0,
        min_samples: 2,
        max_samples: 2,
        target_seconds: 0.01,
        ..Profile::quick()
    }
}

#[test]
fn a_new_backend_is_one_registration_line() {
    let mut registry = backends::all();
    assert!(backends::find(&registry, &case("toy")).is_none());
    registry.push(Box::new(ProofBackend::new(Toy))); // the one line
    let backend = backends::find(&registry, &case("toy")).expect("registered");
    assert_eq!(backend.name(), "toy");

    let records = backend.run(&case("toy"), &tiny_profile(), &detect_environment());
    let phases: Vec<&str> = records.iter().map(|r| r.phase.as_str()).collect();
    assert_eq!(
        phases,
        ["setup", "prove_cold", "witness", "prove", "verify"]
    );
    for r in &records {
        assert_eq!(r.status, Status::Ok, "{}: {:?}", r.phase, r.error);
        assert!(r.test_setup);
        assert_eq!(r.metrics["rows"], 6.0, "height of a 2^12-leaf arity-4 tree");
        assert_eq!(
            r.samples_s.len(),
            match r.phase.as_str() {
                "setup" => 1,
                "prove_cold" => zkbench_bench::proof::COLD_SAMPLES,
                _ => 2,
            }
        );
    }
    assert_eq!(records[0].metrics["vk_bytes"], 8.0);
    assert!(records[3].metrics["proof_bytes"] > 0.0);
}

#[test]
fn the_registry_lists_the_shipped_proof_systems() {
    let names = backends::proof_system_names();
    assert!(
        names.contains(&"groth16") && names.contains(&"halo2-kzg"),
        "{names:?}"
    );
    // a backend that cannot prove a configuration gives a record, not a panic
    let mut c = case("halo2-kzg");
    c.hash = "mimc-sponge".into();
    let backend = backends::for_case(&c).unwrap();
    let r = backend.run(&c, &tiny_profile(), &detect_environment());
    let last = r.last().unwrap();
    assert_eq!(last.status, Status::Error);
    assert!(
        last.error.as_deref().unwrap().contains("poseidon2"),
        "{:?}",
        last.error
    );
}
