//! A proof directory: snarkjs-compatible `proof.json`, `public.json` and
//! `verification_key.json`, the same proof and key in binary (`proof.bin`,
//! `verification_key.bin`), and `meta.json` (configuration, constraint
//! counts, sizes, timings and the `test_setup` label).

use std::path::Path;

use ark_bn254::Bn254;
use ark_groth16::{prepare_verifying_key, Proof, VerifyingKey};
use serde_json::{json, Value};

use crate::api::{verify, ConstraintCounts, PhaseTimings, SpendConfig};
use crate::keys::{self, write_atomic};
use crate::snarkjs;
use crate::statement::PublicInputs;
use crate::Groth16Error;

/// Warning written into `meta.json` of every artifact directory.
pub const TEST_SETUP_WARNING: &str = "TEST SETUP: the Groth16 toxic waste was derived from a public seed; anyone can forge proofs for this key. For testing and benchmarking only.";

/// Everything a proof directory holds.
#[derive(Clone, Debug)]
pub struct Artifacts {
    /// The proof.
    pub proof: Proof<Bn254>,
    /// Its public inputs.
    pub public: PublicInputs,
    /// The verifying key.
    pub vk: VerifyingKey<Bn254>,
    /// `meta.json` (free-form; written by [`write_artifacts`] with the
    /// configuration, `test_setup`, constraint counts and timings).
    pub meta: Value,
}

/// Builds the `meta.json` object.
pub fn meta_json(
    cfg: &SpendConfig,
    seed: u64,
    counts: Option<&ConstraintCounts>,
    timings: &PhaseTimings,
    proof_bytes: usize,
    pk_bytes: Option<usize>,
    vk_bytes: usize,
) -> Value {
    json!({
        "system": "groth16",
        "curve": "bn254",
        "test_setup": true,
        "warning": TEST_SETUP_WARNING,
        "setup_seed": seed,
        "config": cfg,
        "constraints": counts,
        "timings": timings,
        "proof_bytes_compressed": proof_bytes,
        "proving_key_bytes_compressed": pk_bytes,
        "verifying_key_bytes_compressed": vk_bytes,
    })
}

fn write_json(path: &Path, v: &Value) -> Result<(), Groth16Error> {
    write_atomic(path, snarkjs::to_snarkjs_string(v).as_bytes())
}

/// Writes the proof directory `dir` (created if needed).
pub fn write_artifacts(dir: &Path, a: &Artifacts) -> Result<(), Groth16Error> {
    std::fs::create_dir_all(dir).map_err(|e| Groth16Error::io(dir, e))?;
    write_json(&dir.join("proof.json"), &snarkjs::proof_to_json(&a.proof))?;
    write_json(
        &dir.join("public.json"),
        &snarkjs::public_to_json(&a.public),
    )?;
    write_json(
        &dir.join("verification_key.json"),
        &snarkjs::vk_to_json(&a.vk),
    )?;
    write_atomic(&dir.join("proof.bin"), &keys::proof_to_bytes(&a.proof))?;
    let test = a
        .meta
        .get("test_setup")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    write_atomic(
        &dir.join("verification_key.bin"),
        &keys::verifying_key_to_bytes(&a.vk, test),
    )?;
    write_json(&dir.join("meta.json"), &a.meta)
}

fn read_json(path: &Path) -> Result<Value, Groth16Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Groth16Error::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| Groth16Error::decode(path.display().to_string(), e))
}

/// Reads a proof directory from its snarkjs JSON files (so directories
/// written by snarkjs can be read too; `meta.json` is optional).
pub fn read_artifacts(dir: &Path) -> Result<Artifacts, Groth16Error> {
    let proof = snarkjs::proof_from_json(&read_json(&dir.join("proof.json"))?)?;
    let public = snarkjs::public_from_json(&read_json(&dir.join("public.json"))?)?;
    let vk = snarkjs::vk_from_json(&read_json(&dir.join("verification_key.json"))?)?;
    let meta_path = dir.join("meta.json");
    let meta = if meta_path.exists() {
        read_json(&meta_path)?
    } else {
        Value::Null
    };
    Ok(Artifacts {
        proof,
        public,
        vk,
        meta,
    })
}

/// Reads the directory and verifies its proof. If `proof.bin` /
/// `verification_key.bin` exist they must agree with the JSON files.
pub fn verify_dir(dir: &Path) -> Result<bool, Groth16Error> {
    let a = read_artifacts(dir)?;
    let pb = dir.join("proof.bin");
    if pb.exists() {
        let bytes = std::fs::read(&pb).map_err(|e| Groth16Error::io(&pb, e))?;
        if keys::proof_from_bytes(&bytes)? != a.proof {
            return Ok(false);
        }
    }
    let vb = dir.join("verification_key.bin");
    if vb.exists() {
        let bytes = std::fs::read(&vb).map_err(|e| Groth16Error::io(&vb, e))?;
        if keys::verifying_key_from_bytes(&bytes)?.0 != a.vk {
            return Ok(false);
        }
    }
    verify(&prepare_verifying_key(&a.vk), &a.public, &a.proof)
}
