//! [`Stark`]: this crate as a [`ProofSystem`] (what the harness, the CLI,
//! the audit and the browser bindings program against).
//!
//! The setup is transparent: the "keys" are the security level and the AIR's
//! shape (nothing secret, nothing to trust), written to the key cache as a
//! small JSON file so that a cold proof reads the same thing the other
//! backends read.

use std::path::{Path, PathBuf};

use rand::RngCore;
use zkbench_core::{AuditReport, Metrics, ProofSystem};
use zkbench_statement::{PublicInputs, StatementConfig, Witness};

use crate::air::{AirKind, NoteAir};
use crate::params::{security_bits, SecurityLevel};
use crate::prover::{self, air_for, Prepared, StarkProof};
use crate::StarkError;

/// The note spend as a STARK at a security level: `stark-babybear`
/// (about 100 conjectured bits) and `stark-babybear-128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stark {
    /// FRI parameters' conjectured security level.
    pub level: SecurityLevel,
}

impl Stark {
    /// The backend at `level`.
    pub const fn new(level: SecurityLevel) -> Self {
        Self { level }
    }
}

/// A configured AIR and the statement it was made from.
#[derive(Clone, Debug)]
pub struct StarkCircuit {
    /// The AIR.
    pub air: NoteAir,
    /// The statement configuration.
    pub statement: StatementConfig,
}

/// The transparent "keys": the level and the AIR's shape.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StarkKeys {
    /// Security level.
    pub level: SecurityLevel,
    /// Statement.
    pub kind: AirKind,
    /// Tree height.
    pub depth: usize,
    /// Tree arity (key files written before arity 4 and 8 existed are binary).
    #[serde(default = "binary")]
    pub arity: usize,
}

fn binary() -> usize {
    2
}

impl ProofSystem for Stark {
    type Circuit = StarkCircuit;
    type Keys = StarkKeys;
    type Witness = Prepared;
    type Proof = StarkProof;
    type Error = StarkError;

    fn name(&self) -> &'static str {
        match self.level {
            SecurityLevel::Bits100 => "stark-babybear",
            SecurityLevel::Bits128 => "stark-babybear-128",
        }
    }

    fn description(&self) -> &'static str {
        match self.level {
            SecurityLevel::Bits100 => "STARK (Plonky3 0.8 uni-STARK, hiding FRI, Keccak-256 commitments) over BabyBear, Poseidon2 tree (width 16, arity 2; width-24 sponge, arity 4 and 8) in the AIR; ~100-bit conjectured security; transparent",
            SecurityLevel::Bits128 => "STARK (Plonky3 0.8 uni-STARK, hiding FRI, Keccak-256 commitments) over BabyBear, Poseidon2 tree (width 16, arity 2; width-24 sponge, arity 4 and 8) in the AIR; 128-bit conjectured security; transparent",
        }
    }

    fn circuit(&self, cfg: &StatementConfig) -> Result<StarkCircuit, StarkError> {
        Ok(StarkCircuit {
            air: air_for(cfg)?,
            statement: cfg.clone(),
        })
    }

    fn circuit_metrics(&self, c: &StarkCircuit) -> Result<Metrics, StarkError> {
        let fri = self.level.fri();
        let public = PublicInputs::count(c.statement.circuit, &c.statement.shape()?);
        Ok(Metrics::from([
            ("rows".into(), c.air.rows() as f64),
            ("trace_height".into(), c.air.height() as f64),
            ("trace_columns".into(), c.air.layout().width as f64),
            ("arity".into(), c.air.arity() as f64),
            ("permutation_width".into(), c.air.tree_hash().width() as f64),
            ("height".into(), c.air.depth() as f64),
            ("public_inputs".into(), public as f64),
            (
                "security_bits".into(),
                security_bits(self.level, &c.air) as f64,
            ),
            ("fri_log_blowup".into(), fri.log_blowup as f64),
            ("fri_queries".into(), fri.num_queries as f64),
            ("fri_pow_bits".into(), fri.query_pow_bits as f64),
        ]))
    }

    fn setup(&self, c: &StarkCircuit, _seed: u64) -> Result<StarkKeys, StarkError> {
        // the quotient's sizing and the constraint layout: inferred here,
        // once per AIR (`crate::view`), not at
        // every proof or verify
        c.air.constraint_degree();
        c.air.constraint_count();
        Ok(StarkKeys {
            level: self.level,
            kind: c.air.kind(),
            depth: c.air.depth(),
            arity: c.air.arity(),
        })
    }

    fn is_test_setup(&self, _keys: &StarkKeys) -> bool {
        false
    }

    fn key_metrics(&self, _keys: &StarkKeys) -> Metrics {
        Metrics::new()
    }

    fn write_keys(
        &self,
        c: &StarkCircuit,
        keys: &StarkKeys,
        dir: &Path,
        _seed: u64,
    ) -> Result<PathBuf, StarkError> {
        let path = key_path(self, c, dir)?;
        let io = |source| StarkError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let json =
            serde_json::to_vec_pretty(keys).map_err(|e| StarkError::Decode(e.to_string()))?;
        std::fs::write(&path, json).map_err(io)?;
        Ok(path)
    }

    fn read_keys(&self, c: &StarkCircuit, dir: &Path, seed: u64) -> Result<StarkKeys, StarkError> {
        let path = key_path(self, c, dir)?;
        let bytes = std::fs::read(&path).map_err(|source| StarkError::Io {
            path: path.clone(),
            source,
        })?;
        let keys: StarkKeys = serde_json::from_slice(&bytes)
            .map_err(|e| StarkError::Decode(format!("{}: {e}", path.display())))?;
        if keys != self.setup(c, seed)? {
            return Err(StarkError::Decode(format!(
                "{}: written for another AIR or level ({keys:?})",
                path.display()
            )));
        }
        Ok(keys)
    }

    fn witness(&self, c: &StarkCircuit, witness: &Witness) -> Result<Prepared, StarkError> {
        prover::prepare(&c.air, witness)
    }

    fn public_inputs(&self, _c: &StarkCircuit, witness: &Prepared) -> PublicInputs {
        witness.public.clone()
    }

    fn prove(
        &self,
        c: &StarkCircuit,
        keys: &StarkKeys,
        witness: &Prepared,
        rng: &mut dyn RngCore,
    ) -> Result<StarkProof, StarkError> {
        prover::prove(keys.level, &c.air, witness, rng.next_u64())
    }

    fn verify(
        &self,
        c: &StarkCircuit,
        keys: &StarkKeys,
        public: &PublicInputs,
        proof: &StarkProof,
    ) -> Result<bool, StarkError> {
        Ok(match prover::public_values(&c.air, public)? {
            Some(pv) => prover::verify(keys.level, &c.air, &pv, proof),
            None => false,
        })
    }

    fn proof_to_bytes(&self, proof: &StarkProof) -> Vec<u8> {
        prover::proof_to_bytes(proof)
    }

    fn proof_from_bytes(&self, bytes: &[u8]) -> Result<StarkProof, StarkError> {
        prover::proof_from_bytes(bytes)
    }

    fn audit(
        &self,
        c: &StarkCircuit,
        witness: &Witness,
        rng: &mut dyn RngCore,
    ) -> Result<Option<AuditReport>, StarkError> {
        // the same constraints over an 8-row trace (every row role is there;
        // 128 rows would only repeat the padding rows)
        let air = c.air.resized(8).map_err(StarkError::Config)?;
        let prepared = prover::prepare(&air, witness)?;
        let circuit = format!(
            "{} {}, arity {}, height {}, trace {}x{}",
            c.statement.family.name(),
            c.statement.circuit.name(),
            air.arity(),
            air.depth(),
            air.height(),
            air.layout().width
        );
        crate::audit::mutation_audit(&air, &prepared, self.name(), circuit, rng)
            .map(Some)
            .map_err(StarkError::Witness)
    }
}

/// `<dir>/<system>-<statement label>.json`.
fn key_path(s: &Stark, c: &StarkCircuit, dir: &Path) -> Result<PathBuf, StarkError> {
    Ok(dir.join(format!("{}-{}.json", s.name(), c.statement.key_label()?)))
}
