//! [`Halo2Kzg`]: this crate as a [`ProofSystem`] (the trait the harness, the
//! CLI and the other front ends program against).

use std::path::{Path, PathBuf};

use rand::RngCore;
use zkbench_core::{AuditReport, Metrics, ProofSystem};

use crate::api::{verify_for, Halo2Circuit, Halo2Config, Keys, Srs, Transcript};
use crate::chip::ChipLayout;
use crate::statement::{PublicInputs, StatementConfig, Witness};
use crate::Halo2Error;

/// Halo2 (halo2-axiom) with KZG on BN254 and SHPLONK, with the given chip
/// layout and transcript; keys under the **unsafe test SRS**
/// `Srs::TestSetup { seed }`. Named `halo2-kzg` with the Blake2b transcript
/// and `halo2-kzg-keccak` with the Keccak (EVM) one, so that a suite records
/// both side by side (prove time, proof size).
#[derive(Clone, Copy, Debug, Default)]
pub struct Halo2Kzg {
    /// Chip layout (partial rounds per row).
    pub layout: ChipLayout,
    /// The Fiat–Shamir transcript.
    pub transcript: Transcript,
}

impl Halo2Kzg {
    /// The Keccak (EVM) transcript with its chip layout, the folded
    /// [`ChipLayout::evm`] (fewer commitments for the EVM verifier to
    /// multiply, more rows to prove).
    pub fn keccak() -> Self {
        Self {
            transcript: Transcript::Keccak,
            layout: Transcript::Keccak.chip_layout(),
        }
    }
}

/// A statement witness with its natively computed public inputs (Halo2
/// synthesises the witness inside `create_proof`).
#[derive(Clone, Debug)]
pub struct PreparedWitness {
    /// The statement witness.
    pub witness: Witness,
    /// Its public inputs.
    pub public: PublicInputs,
}

impl ProofSystem for Halo2Kzg {
    type Circuit = Halo2Circuit;
    type Keys = Keys;
    type Witness = PreparedWitness;
    type Proof = Vec<u8>;
    type Error = Halo2Error;

    fn name(&self) -> &'static str {
        match self.transcript {
            Transcript::Blake2b => "halo2-kzg",
            Transcript::Keccak => "halo2-kzg-keccak",
        }
    }

    fn description(&self) -> &'static str {
        match self.transcript {
            Transcript::Blake2b => "Halo2 (halo2-axiom 0.5) with KZG/SHPLONK on BN254, Poseidon2 and Poseidon chips, Blake2b transcript; UNSAFE test SRS",
            Transcript::Keccak => "Halo2 (halo2-axiom 0.5) with KZG/SHPLONK on BN254, Keccak (EVM, snark-verifier) transcript and the chip folded 4 rows deep (a quarter of the columns, so fewer ecMul on chain), the proofs `zkbench verifier --system halo2-kzg` checks on chain; UNSAFE test SRS",
        }
    }

    fn circuit(&self, cfg: &StatementConfig) -> Result<Halo2Circuit, Halo2Error> {
        Ok(Halo2Circuit::new(&Halo2Config {
            statement: cfg.clone(),
            layout: self.layout,
        })?
        .with_transcript(self.transcript))
    }

    fn circuit_metrics(&self, circuit: &Halo2Circuit) -> Result<Metrics, Halo2Error> {
        let s = circuit.stats()?;
        Ok(Metrics::from([
            ("k".into(), s.k as f64),
            ("rows".into(), s.rows as f64),
            ("advice_columns".into(), s.advice_columns as f64),
            ("fixed_columns".into(), s.fixed_columns as f64),
            ("max_degree".into(), s.max_degree as f64),
            ("public_inputs".into(), s.public_inputs as f64),
            ("height".into(), circuit.shape().height as f64),
        ]))
    }

    fn setup(&self, circuit: &Halo2Circuit, seed: u64) -> Result<Keys, Halo2Error> {
        circuit.keygen(&Srs::TestSetup { seed })
    }

    fn is_test_setup(&self, keys: &Keys) -> bool {
        keys.test_setup
    }

    fn key_metrics(&self, keys: &Keys) -> Metrics {
        Metrics::from([("vk_bytes".into(), keys.vk_size() as f64)])
    }

    fn write_keys(
        &self,
        circuit: &Halo2Circuit,
        keys: &Keys,
        dir: &Path,
        seed: u64,
    ) -> Result<PathBuf, Halo2Error> {
        circuit.write_keys(dir, &Srs::TestSetup { seed }, keys)
    }

    fn read_keys(&self, circuit: &Halo2Circuit, dir: &Path, seed: u64) -> Result<Keys, Halo2Error> {
        circuit.read_keys(dir, &Srs::TestSetup { seed })
    }

    fn witness(
        &self,
        circuit: &Halo2Circuit,
        witness: &Witness,
    ) -> Result<PreparedWitness, Halo2Error> {
        Ok(PreparedWitness {
            public: circuit.public_inputs(witness)?,
            witness: witness.clone(),
        })
    }

    fn public_inputs(&self, _circuit: &Halo2Circuit, witness: &PreparedWitness) -> PublicInputs {
        witness.public.clone()
    }

    fn prove(
        &self,
        circuit: &Halo2Circuit,
        keys: &Keys,
        witness: &PreparedWitness,
        mut rng: &mut dyn RngCore,
    ) -> Result<Vec<u8>, Halo2Error> {
        circuit.prove_with_public(keys, &witness.witness, &witness.public, &mut rng)
    }

    fn verify(
        &self,
        circuit: &Halo2Circuit,
        keys: &Keys,
        public: &PublicInputs,
        proof: &Vec<u8>,
    ) -> Result<bool, Halo2Error> {
        verify_for(circuit, keys, public, proof)
    }

    fn proof_to_bytes(&self, proof: &Vec<u8>) -> Vec<u8> {
        proof.clone()
    }

    fn proof_from_bytes(&self, bytes: &[u8]) -> Result<Vec<u8>, Halo2Error> {
        // A Halo2 proof is its transcript; malformed transcripts are rejected
        // by `verify` (never a panic).
        Ok(bytes.to_vec())
    }

    fn audit(
        &self,
        circuit: &Halo2Circuit,
        witness: &Witness,
        rng: &mut dyn RngCore,
    ) -> Result<Option<AuditReport>, Halo2Error> {
        Ok(Some(crate::audit::mutation_audit(circuit, witness, rng)?))
    }
}
