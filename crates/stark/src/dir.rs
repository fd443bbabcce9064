//! Proof directories (`zkbench prove --system stark-babybear` and
//! `zkbench verify`): `proof.bin` (the postcard proof), `public.json` (the
//! public inputs as decimal strings) and `meta.json` (system and statement).
//! A STARK needs no keys: the directory is all a verifier reads.

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use web_time::Instant;
use zkbench_core::ProofSystem;
use zkbench_hash::field::{fr_to_decimal, parse_fr};
use zkbench_statement::{PublicInputs, StatementConfig, Witness};

use crate::{SecurityLevel, Stark, StarkError};

/// What `meta.json` holds.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// The system's name.
    pub system: String,
    /// Its security level.
    pub level: SecurityLevel,
    /// The statement.
    pub statement: StatementConfig,
}

/// A proof written to a directory, with its timings.
#[derive(Clone, Debug)]
pub struct DirProof {
    /// Proof size in bytes.
    pub proof_bytes: usize,
    /// The public inputs.
    pub public: PublicInputs,
    /// Witness (trace) generation, prove and verify, in seconds.
    pub seconds: [f64; 3],
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), StarkError> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|source| StarkError::Io { path, source })
}

fn read(dir: &Path, name: &str) -> Result<Vec<u8>, StarkError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| StarkError::Io { path, source })
}

fn json_err(what: &str, e: impl std::fmt::Display) -> StarkError {
    StarkError::Decode(format!("{what}: {e}"))
}

/// Proves a random witness of `statement` (from `seed`) and writes the
/// proof directory `dir`; the proof is verified before it is written.
pub fn prove_into(
    stark: Stark,
    statement: &StatementConfig,
    seed: u64,
    dir: &Path,
) -> Result<DirProof, StarkError> {
    let circuit = stark.circuit(statement)?;
    let keys = stark.setup(&circuit, seed)?;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let witness = Witness::random(&mut rng, statement.circuit, &statement.shape()?);
    let t = Instant::now();
    let prepared = stark.witness(&circuit, &witness)?;
    let witness_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let proof = stark.prove(&circuit, &keys, &prepared, &mut rng)?;
    let prove_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    if !stark.verify(&circuit, &keys, &prepared.public, &proof)? {
        return Err(StarkError::Prove("the fresh proof does not verify".into()));
    }
    let verify_s = t.elapsed().as_secs_f64();
    let bytes = stark.proof_to_bytes(&proof);
    std::fs::create_dir_all(dir).map_err(|source| StarkError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    write(dir, "proof.bin", &bytes)?;
    let public: Vec<String> = prepared.public.0.iter().map(fr_to_decimal).collect();
    let public_json = serde_json::to_vec_pretty(&public).map_err(|e| json_err("public.json", e))?;
    write(dir, "public.json", &public_json)?;
    let meta = Meta {
        system: stark.name().into(),
        level: stark.level,
        statement: statement.clone(),
    };
    let meta_json = serde_json::to_vec_pretty(&meta).map_err(|e| json_err("meta.json", e))?;
    write(dir, "meta.json", &meta_json)?;
    Ok(DirProof {
        proof_bytes: bytes.len(),
        public: prepared.public,
        seconds: [witness_s, prove_s, verify_s],
    })
}

/// Verifies the proof directory `dir`: `Ok(false)` for an invalid proof, an
/// error for a directory that does not hold one of this backend's proofs.
pub fn verify_dir(dir: &Path) -> Result<bool, StarkError> {
    let meta: Meta =
        serde_json::from_slice(&read(dir, "meta.json")?).map_err(|e| json_err("meta.json", e))?;
    let stark = Stark::new(meta.level);
    if meta.system != stark.name() {
        return Err(StarkError::Decode(format!(
            "meta.json: system {:?} is not {}",
            meta.system,
            stark.name()
        )));
    }
    let texts: Vec<String> = serde_json::from_slice(&read(dir, "public.json")?)
        .map_err(|e| json_err("public.json", e))?;
    let public = texts
        .iter()
        .map(|t| parse_fr(t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| json_err("public.json", e))?;
    let circuit = stark.circuit(&meta.statement)?;
    let keys = stark.setup(&circuit, 0)?;
    let proof = match stark.proof_from_bytes(&read(dir, "proof.bin")?) {
        Ok(p) => p,
        Err(_) => return Ok(false),
    };
    stark.verify(&circuit, &keys, &PublicInputs(public), &proof)
}
