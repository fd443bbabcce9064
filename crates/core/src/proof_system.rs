//! The proof-system trait: what every backend (Groth16, Halo2-KZG, and the
//! ones to come) offers to the harness, the CLI, the WebAssembly bindings and
//! the pool.
//!
//! A backend proves the statements of `zkbench-statement`: it turns a
//! [`StatementConfig`] into a circuit, makes keys, turns a statement
//! [`Witness`] into its own prepared witness (an R1CS assignment, or the
//! values a PLONKish synthesis needs), proves and verifies against the
//! [`PublicInputs`] the statement crate computes natively. The phases are
//! separate methods so that a harness can time them one by one:
//!
//! | method | phase |
//! |---|---|
//! | [`ProofSystem::setup`] | `setup` (test setup: toxic waste known) |
//! | [`ProofSystem::write_keys`] / [`ProofSystem::read_keys`] | keys to and from disk (`prove_cold` reads them) |
//! | [`ProofSystem::witness`] | `witness` |
//! | [`ProofSystem::prove`] | `prove` |
//! | [`ProofSystem::verify`] | `verify` |
//!
//! The trait has associated types so that each backend keeps its own key and
//! proof types (no boxing on the hot path); code that iterates over backends
//! uses a generic adapter (the harness's `ProofBackend<P>` in `zkbench-bench`)
//! behind its own object-safe trait.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    time::Duration,
};

use rand::RngCore;
use zkbench_statement::{PublicInputs, StatementConfig, Witness};

use crate::audit::AuditReport;

/// Named quantities a backend reports about a circuit or its keys
/// (`constraints`, `rows`, `k`, `pk_bytes`, `vk_bytes` ...), recorded as
/// `metrics` of the results records.
pub type Metrics = BTreeMap<String, f64>;

/// Wall-clock seconds of the named parts of one prover call (see
/// [`ProofSystem::prove_with_phases`]).
pub type PhaseParts = Vec<(&'static str, f64)>;

/// A proof system that proves zkbench's statements.
///
/// Implementations never panic on malformed input: [`ProofSystem::verify`]
/// returns `Ok(false)` for an invalid or malformed proof and an error only
/// for inputs of the wrong shape (a wrong number of public inputs);
/// [`ProofSystem::proof_from_bytes`] returns an error for bytes that are not
/// a proof.
pub trait ProofSystem: Send + Sync + 'static {
    /// A configured circuit (statement, tree shape, hashes, layout).
    type Circuit: Send + Sync;
    /// Proving and verifying keys (with whatever setup material they need).
    type Keys: Send + Sync;
    /// The backend's prepared witness (e.g. a full R1CS assignment).
    type Witness: Send + Sync;
    /// A proof.
    type Proof: Send + Sync;
    /// The backend's error type.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The name used in suites and results (`case.system`): `groth16`,
    /// `halo2-kzg`, ...
    fn name(&self) -> &'static str;

    /// One line for `zkbench list`: library, curve, commitment, setup.
    fn description(&self) -> &'static str;

    /// The circuit of `cfg`, or an error saying why this backend cannot
    /// prove it (e.g. no gadget or chip for the hash family).
    fn circuit(&self, cfg: &StatementConfig) -> Result<Self::Circuit, Self::Error>;

    /// Size of the circuit: `constraints` (R1CS) or `rows`, `k`, columns
    /// (PLONKish), `public_inputs`, `height` ...
    fn circuit_metrics(&self, circuit: &Self::Circuit) -> Result<Metrics, Self::Error>;

    /// **Test setup**: keys from a seeded RNG. The toxic waste is derivable
    /// from `seed`; such keys protect nothing and are labelled
    /// `test_setup: true` wherever they are used. The keys are ready for
    /// repeated proving (precomputed tables, if the backend has any).
    fn setup(&self, circuit: &Self::Circuit, seed: u64) -> Result<Self::Keys, Self::Error>;

    /// Whether `keys` come from a test setup (toxic waste known).
    fn is_test_setup(&self, keys: &Self::Keys) -> bool;

    /// Sizes of the keys (`pk_bytes`, `vk_bytes`).
    fn key_metrics(&self, keys: &Self::Keys) -> Metrics;

    /// Writes the proving key into `dir` (the backend's key-cache layout,
    /// keyed by every parameter and `seed`); returns the file written.
    fn write_keys(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
        dir: &Path,
        seed: u64,
    ) -> Result<PathBuf, Self::Error>;

    /// Reads the keys that [`ProofSystem::write_keys`] wrote for `circuit`
    /// and `seed` (the start of a cold proof: the first proof a user waits for).
    fn read_keys(
        &self,
        circuit: &Self::Circuit,
        dir: &Path,
        seed: u64,
    ) -> Result<Self::Keys, Self::Error>;

    /// The start of a user's first proof in a fresh process: the keys from
    /// `dir` ([`ProofSystem::read_keys`]) and the prepared witness
    /// ([`ProofSystem::witness`]). The two are independent, so a backend may
    /// do them at once (the Groth16 backend reads its key files while the
    /// witness is generated); this default does one after the other.
    fn read_keys_and_witness(
        &self,
        circuit: &Self::Circuit,
        dir: &Path,
        seed: u64,
        witness: &Witness,
    ) -> Result<(Self::Keys, Self::Witness), Self::Error> {
        let keys = self.read_keys(circuit, dir, seed)?;
        let prepared = self.witness(circuit, witness)?;
        Ok((keys, prepared))
    }

    /// Witness generation: the backend's prepared witness for a statement
    /// witness (checks that it fits the circuit).
    fn witness(
        &self,
        circuit: &Self::Circuit,
        witness: &Witness,
    ) -> Result<Self::Witness, Self::Error>;

    /// The public inputs of a prepared witness, in circuit order (as
    /// `PublicInputs::compute` gives them natively).
    fn public_inputs(&self, circuit: &Self::Circuit, witness: &Self::Witness) -> PublicInputs;

    /// Proves, with zero-knowledge randomness from `rng`.
    fn prove(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
        witness: &Self::Witness,
        rng: &mut dyn RngCore,
    ) -> Result<Self::Proof, Self::Error>;

    /// [`ProofSystem::prove`] with the wall time of the prover's parts as
    /// `(name, seconds)`, for the phase breakdown the harness records as
    /// `metrics.phase_<name>_s` of `prove` records (Groth16: `h`, `msm_a`,
    /// `msm_b_g1`, `msm_b_g2`, `msm_c`, `msm_h`, `rest`). The parts should add
    /// up to the call's wall time. Default: [`ProofSystem::prove`], no parts.
    fn prove_with_phases(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
        witness: &Self::Witness,
        rng: &mut dyn RngCore,
    ) -> Result<(Self::Proof, PhaseParts), Self::Error> {
        self.prove(circuit, keys, witness, rng)
            .map(|p| (p, Vec::new()))
    }

    /// Verifies `proof` for `public`: `Ok(false)` for an invalid or malformed
    /// proof, an error for a wrong number of public inputs.
    fn verify(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
        public: &PublicInputs,
        proof: &Self::Proof,
    ) -> Result<bool, Self::Error>;

    /// The proof's canonical bytes (what its size is measured on).
    fn proof_to_bytes(&self, proof: &Self::Proof) -> Vec<u8>;

    /// Parses [`ProofSystem::proof_to_bytes`]' output; an error (never a
    /// panic) for anything else.
    fn proof_from_bytes(&self, bytes: &[u8]) -> Result<Self::Proof, Self::Error>;

    /// Structured malformed encodings of `proof` for the verifier fuzzer
    /// ([`crate::fuzz`]): points off the curve, outside the prime-order
    /// subgroup, the identity ... as `(kind, bytes)`. None by default.
    fn malformed_proofs(
        &self,
        proof: &Self::Proof,
        rng: &mut dyn RngCore,
    ) -> Vec<(String, Vec<u8>)> {
        let _ = (proof, rng);
        Vec::new()
    }

    /// Mutation audit of `circuit` from the valid `witness` (see
    /// [`crate::audit`]); `Ok(None)` when the backend has no audit.
    fn audit(
        &self,
        circuit: &Self::Circuit,
        witness: &Witness,
        rng: &mut dyn RngCore,
    ) -> Result<Option<AuditReport>, Self::Error> {
        let _ = (circuit, witness, rng);
        Ok(None)
    }
}

/// Wall-clock time of each phase of one run (what the CLI prints; the
/// harness samples the same phases through [`ProofSystem`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PhaseTimings {
    /// Key generation (or loading from the cache).
    pub setup: Option<Duration>,
    /// Witness generation.
    pub witness: Option<Duration>,
    /// The prover proper, from the witness.
    pub prove: Option<Duration>,
    /// Verification.
    pub verify: Option<Duration>,
}
