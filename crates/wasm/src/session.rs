//! The provers behind the JavaScript bindings, in plain Rust (usable and
//! tested natively): one [`Session`] holds a circuit of one proof system, its
//! keys, a witness and the last proof, through `zkbench_core::ProofSystem`
//! (the same code as the native harness; no fork of the provers).

use std::sync::Arc;

use ark_ff::PrimeField;
use rand::{rngs::OsRng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use zkbench_core::{Metrics, ProofSystem};
use zkbench_groth16::Groth16;
use zkbench_halo2::{Halo2Kzg, Srs};
use zkbench_hash::Fr;
use zkbench_statement::{CircuitKind, PublicInputs, StatementConfig, TreeShape, Witness};
use zkbench_systems::{ProofConfig, Prover, SystemId};

use crate::streamed::Streamed;
use crate::WasmError;

/// What to prove: the proof system (`groth16` or `halo2-kzg`, a
/// [`SystemId`] name) and the statement (hash family, exponent, arity,
/// leaves, circuit), as the page's form and the browser suite give it (JSON,
/// the field names of `case` in the results schema). Parsed by
/// `zkbench_systems::ProofConfig::parse`, as the CLI's flags are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProveConfig {
    /// `groth16` or `halo2-kzg`.
    pub system: String,
    /// Hash family name (`poseidon`, `poseidon2`, `griffin`, ...).
    pub hash: String,
    /// S-box exponent; `None` for the family's default.
    #[serde(default)]
    pub alpha: Option<u64>,
    /// Tree arity (2..=16).
    pub arity: usize,
    /// Number of leaves.
    pub leaves: u64,
    /// `spend`, `membership` or `batch-root`.
    pub circuit: String,
}

impl ProveConfig {
    /// The system and the statement, checked (system, family, exponent, tree
    /// shape) by the workspace's one parser.
    pub fn parse(&self) -> Result<ProofConfig, WasmError> {
        ProofConfig::parse(
            &self.system,
            &self.hash,
            self.alpha,
            self.arity,
            &self.leaves.to_string(),
            &self.circuit,
        )
        .map_err(|e| WasmError::Config(e.to_string()))
    }

    /// The statement configuration, checked (family, exponent, tree shape).
    pub fn statement(&self) -> Result<StatementConfig, WasmError> {
        self.parse().map(|c| c.statement)
    }
}

/// What a backend needs beyond [`ProofSystem`] to live in a browser: keys to
/// and from one byte string (a static file), and snarkjs JSON where the
/// system has it.
pub trait BrowserSystem: ProofSystem + Sized {
    /// The circuit's statement kind and tree shape (for random witnesses).
    fn kind_and_shape(&self, circuit: &Self::Circuit) -> (CircuitKind, TreeShape);

    /// The keys as one byte string.
    fn keys_to_bytes(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
    ) -> Result<Vec<u8>, WasmError>;

    /// A smaller key file for a first visit, when the system has one
    /// (Groth16: compact tables of at most `rows` points per base,
    /// `zkbench_groth16::Keys::compacted`); [`BrowserSystem::keys_from_bytes`]
    /// reads it like the full one.
    fn compact_keys_to_bytes(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
        rows: usize,
    ) -> Result<Vec<u8>, WasmError> {
        let _ = (circuit, keys, rows);
        Err(backend_err(
            self.name(),
            "no compact key file for this system (Groth16 has one)",
        ))
    }

    /// Keys from [`BrowserSystem::keys_to_bytes`]' output (`seed`: the test
    /// setup's seed they were made with).
    fn keys_from_bytes(
        &self,
        circuit: &Self::Circuit,
        bytes: &[u8],
        seed: u64,
    ) -> Result<Self::Keys, WasmError>;

    /// [`BrowserSystem::keys_from_bytes`] of bytes the keys may keep (a key
    /// file read straight into WebAssembly memory): a system whose keys can
    /// point into them copies nothing.
    fn keys_from_owned(
        &self,
        circuit: &Self::Circuit,
        bytes: Vec<u8>,
        seed: u64,
    ) -> Result<Self::Keys, WasmError> {
        self.keys_from_bytes(circuit, &bytes, seed)
    }

    /// Starts a proof of `witness` with randomness from `rng` that reads
    /// its key file while it arrives ([`crate::streamed`]: a first
    /// visit's download and proof side by side), for a system that has one
    /// (Groth16).
    fn prove_streamed(
        &self,
        circuit: &Self::Circuit,
        witness: &Self::Witness,
        rng: &mut dyn RngCore,
    ) -> Result<Streamed<Self::Keys, Self::Proof>, WasmError> {
        let _ = (circuit, witness, rng);
        Err(backend_err(
            self.name(),
            "no streamed key file for this system (Groth16 has one)",
        ))
    }

    /// `{proof, public, verification_key}` in snarkjs's JSON, when the
    /// system has a snarkjs encoding (Groth16).
    fn snarkjs_json(
        &self,
        keys: &Self::Keys,
        public: &PublicInputs,
        proof: &Self::Proof,
    ) -> Option<serde_json::Value> {
        let _ = (keys, public, proof);
        None
    }

    /// The verification key in snarkjs's JSON (`verification_key.json`),
    /// when the system has a snarkjs encoding (Groth16).
    fn snarkjs_vk(&self, keys: &Self::Keys) -> Option<serde_json::Value> {
        let _ = keys;
        None
    }
}

fn backend_err(system: impl std::fmt::Display, e: impl std::fmt::Display) -> WasmError {
    WasmError::Backend {
        system: system.to_string(),
        message: e.to_string(),
    }
}

impl BrowserSystem for Groth16 {
    fn kind_and_shape(&self, circuit: &Self::Circuit) -> (CircuitKind, TreeShape) {
        (circuit.config().circuit, *circuit.shape())
    }

    fn keys_to_bytes(
        &self,
        _circuit: &Self::Circuit,
        keys: &Self::Keys,
    ) -> Result<Vec<u8>, WasmError> {
        Ok(keys.to_bytes())
    }

    fn compact_keys_to_bytes(
        &self,
        _circuit: &Self::Circuit,
        keys: &Self::Keys,
        rows: usize,
    ) -> Result<Vec<u8>, WasmError> {
        Ok(keys.compacted(rows).to_bytes())
    }

    fn keys_from_bytes(
        &self,
        circuit: &Self::Circuit,
        bytes: &[u8],
        _seed: u64,
    ) -> Result<Self::Keys, WasmError> {
        groth16_keys_for(circuit, zkbench_groth16::Keys::from_bytes(bytes))
    }

    fn keys_from_owned(
        &self,
        circuit: &Self::Circuit,
        bytes: Vec<u8>,
        _seed: u64,
    ) -> Result<Self::Keys, WasmError> {
        groth16_keys_for(circuit, zkbench_groth16::Keys::from_shared(Arc::new(bytes)))
    }

    fn prove_streamed(
        &self,
        _circuit: &Self::Circuit,
        witness: &Self::Witness,
        mut rng: &mut dyn RngCore,
    ) -> Result<Streamed<Self::Keys, Self::Proof>, WasmError> {
        // r and s drawn as the prover draws them (`Circuit::prove_assignment`),
        // so that a seeded streamed proof is the seeded proof
        use ark_ff::UniformRand;
        let r = Fr::rand(&mut rng);
        let s = Fr::rand(&mut rng);
        let assignment = witness.clone();
        Ok(Streamed::start(Box::new(move |stream| {
            zkbench_groth16::streamed::prove_streamed(stream, &assignment, r, s)
                .map(|(proof, keys, times)| (keys, proof, times.parts().to_vec()))
                .map_err(|e| backend_err(SystemId::Groth16, e))
        })))
    }

    fn snarkjs_json(
        &self,
        keys: &Self::Keys,
        public: &PublicInputs,
        proof: &Self::Proof,
    ) -> Option<serde_json::Value> {
        use zkbench_groth16::snarkjs;
        Some(serde_json::json!({
            "proof": snarkjs::proof_to_json(proof),
            "public": snarkjs::public_to_json(public),
            "verification_key": snarkjs::vk_to_json(keys.vk()),
        }))
    }

    fn snarkjs_vk(&self, keys: &Self::Keys) -> Option<serde_json::Value> {
        Some(zkbench_groth16::snarkjs::vk_to_json(keys.vk()))
    }
}

impl BrowserSystem for Halo2Kzg {
    fn kind_and_shape(&self, circuit: &Self::Circuit) -> (CircuitKind, TreeShape) {
        (circuit.config().statement.circuit, *circuit.shape())
    }

    fn keys_to_bytes(
        &self,
        circuit: &Self::Circuit,
        keys: &Self::Keys,
    ) -> Result<Vec<u8>, WasmError> {
        circuit
            .keys_to_bytes(keys)
            .map_err(|e| backend_err(self.name(), e))
    }

    fn keys_from_bytes(
        &self,
        circuit: &Self::Circuit,
        bytes: &[u8],
        seed: u64,
    ) -> Result<Self::Keys, WasmError> {
        circuit
            .keys_from_bytes(bytes, &Srs::TestSetup { seed })
            .map_err(|e| backend_err(self.name(), e))
    }
}

impl BrowserSystem for zkbench_stark::Stark {
    fn kind_and_shape(&self, circuit: &Self::Circuit) -> (CircuitKind, TreeShape) {
        let s = &circuit.statement;
        let shape = TreeShape {
            arity: s.arity,
            height: circuit.air.depth(),
        };
        (s.circuit, shape)
    }

    fn keys_to_bytes(
        &self,
        _circuit: &Self::Circuit,
        keys: &Self::Keys,
    ) -> Result<Vec<u8>, WasmError> {
        serde_json::to_vec(keys).map_err(|e| backend_err(self.name(), e))
    }

    fn keys_from_bytes(
        &self,
        circuit: &Self::Circuit,
        bytes: &[u8],
        seed: u64,
    ) -> Result<Self::Keys, WasmError> {
        let keys: Self::Keys =
            serde_json::from_slice(bytes).map_err(|e| backend_err(self.name(), e))?;
        if keys
            != self
                .setup(circuit, seed)
                .map_err(|e| backend_err(self.name(), e))?
        {
            return Err(backend_err(
                self.name(),
                "the keys were made for another AIR or security level",
            ));
        }
        Ok(keys)
    }
}

/// Decoded Groth16 keys, if they were made for `circuit` (its number of
/// public inputs).
fn groth16_keys_for(
    circuit: &<Groth16 as ProofSystem>::Circuit,
    keys: Result<zkbench_groth16::Keys, zkbench_groth16::Groth16Error>,
) -> Result<zkbench_groth16::Keys, WasmError> {
    let keys = keys.map_err(|e| backend_err(SystemId::Groth16, e))?;
    let expected =
        zkbench_core::statement::PublicInputs::count(circuit.config().circuit, circuit.shape()) + 1;
    if keys.vk().gamma_abc_g1.len() != expected {
        return Err(backend_err(
            SystemId::Groth16,
            "the keys were made for another circuit (number of public inputs differs)",
        ));
    }
    Ok(keys)
}

const NO_STREAM: &str = "no streamed proof: call stream_keys_begin() first";

/// The object-safe face of one backend's state.
trait DynSession {
    fn system(&self) -> &'static str;
    fn metrics(&self) -> Result<Metrics, WasmError>;
    fn setup(&mut self, seed: u64) -> Result<(), WasmError>;
    fn keys_to_bytes(&self) -> Result<Vec<u8>, WasmError>;
    fn compact_keys_to_bytes(&self, rows: usize) -> Result<Vec<u8>, WasmError>;
    fn load_keys(&mut self, bytes: &[u8], seed: u64) -> Result<(), WasmError>;
    fn load_keys_owned(&mut self, bytes: Vec<u8>, seed: u64) -> Result<(), WasmError>;
    fn witness(&mut self, seed: u64) -> Result<(), WasmError>;
    fn witness_from(&mut self, inputs: &serde_json::Value) -> Result<(), WasmError>;
    /// Proves with the OS's randomness, or a ChaCha20 stream of `seed`.
    fn prove(&mut self, seed: Option<u64>) -> Result<Vec<u8>, WasmError>;
    fn stream_begin(&mut self, seed: Option<u64>) -> Result<(), WasmError>;
    fn stream_push(&self, chunk: &[u8]) -> Result<(), WasmError>;
    fn stream_end(&mut self) -> Result<Vec<u8>, WasmError>;
    fn verify(&self) -> Result<bool, WasmError>;
    fn verify_bytes(&self, proof: &[u8], public: &PublicInputs) -> Result<bool, WasmError>;
    fn public_inputs(&self) -> Result<PublicInputs, WasmError>;
    fn snarkjs_json(&self) -> Result<serde_json::Value, WasmError>;
    fn snarkjs_vk(&self) -> Result<serde_json::Value, WasmError>;
}

struct State<P: BrowserSystem> {
    sys: P,
    circuit: P::Circuit,
    keys: Option<P::Keys>,
    witness: Option<P::Witness>,
    proof: Option<P::Proof>,
    /// The parts of the last proof's prover (`ProofSystem::prove_with_phases`).
    phases: zkbench_core::PhaseParts,
    /// A streamed proof whose key file is arriving.
    streaming: Option<Streamed<P::Keys, P::Proof>>,
}

impl<P: BrowserSystem> State<P> {
    fn err(&self, e: impl std::fmt::Display) -> WasmError {
        backend_err(self.sys.name(), e)
    }

    fn keys(&self) -> Result<&P::Keys, WasmError> {
        self.keys.as_ref().ok_or(WasmError::State(
            "no keys: call setup() or load_keys() first",
        ))
    }

    fn prepared(&self) -> Result<&P::Witness, WasmError> {
        self.witness
            .as_ref()
            .ok_or(WasmError::State("no witness: call witness() first"))
    }

    fn prepare(&mut self, w: &Witness) -> Result<(), WasmError> {
        let prepared = self
            .sys
            .witness(&self.circuit, w)
            .map_err(|e| self.err(e))?;
        self.witness = Some(prepared);
        self.proof = None;
        Ok(())
    }

    fn last_proof(&self) -> Result<&P::Proof, WasmError> {
        self.proof
            .as_ref()
            .ok_or(WasmError::State("no proof: call prove() first"))
    }
}

impl<P: BrowserSystem> DynSession for State<P> {
    fn system(&self) -> &'static str {
        self.sys.name()
    }

    fn metrics(&self) -> Result<Metrics, WasmError> {
        let mut m = self
            .sys
            .circuit_metrics(&self.circuit)
            .map_err(|e| self.err(e))?;
        if let Some(k) = &self.keys {
            m.extend(self.sys.key_metrics(k));
        }
        if let Some(p) = &self.proof {
            m.insert(
                "proof_bytes".into(),
                self.sys.proof_to_bytes(p).len() as f64,
            );
            // the last proof's parts, named as the native records'
            for (name, s) in &self.phases {
                m.insert(format!("phase_{name}_s"), *s);
            }
        }
        Ok(m)
    }

    fn setup(&mut self, seed: u64) -> Result<(), WasmError> {
        let keys = self
            .sys
            .setup(&self.circuit, seed)
            .map_err(|e| self.err(e))?;
        self.keys = Some(keys);
        self.proof = None;
        Ok(())
    }

    fn keys_to_bytes(&self) -> Result<Vec<u8>, WasmError> {
        self.sys.keys_to_bytes(&self.circuit, self.keys()?)
    }

    fn compact_keys_to_bytes(&self, rows: usize) -> Result<Vec<u8>, WasmError> {
        self.sys
            .compact_keys_to_bytes(&self.circuit, self.keys()?, rows)
    }

    fn load_keys(&mut self, bytes: &[u8], seed: u64) -> Result<(), WasmError> {
        let keys = self.sys.keys_from_bytes(&self.circuit, bytes, seed)?;
        self.keys = Some(keys);
        self.proof = None;
        Ok(())
    }

    fn load_keys_owned(&mut self, bytes: Vec<u8>, seed: u64) -> Result<(), WasmError> {
        let keys = self.sys.keys_from_owned(&self.circuit, bytes, seed)?;
        self.keys = Some(keys);
        self.proof = None;
        Ok(())
    }

    fn witness(&mut self, seed: u64) -> Result<(), WasmError> {
        let (kind, shape) = self.sys.kind_and_shape(&self.circuit);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let w = Witness::random(&mut rng, kind, &shape);
        self.prepare(&w)
    }

    fn witness_from(&mut self, inputs: &serde_json::Value) -> Result<(), WasmError> {
        let (kind, shape) = self.sys.kind_and_shape(&self.circuit);
        let w = crate::inputs::witness(kind, &shape, inputs)?;
        self.prepare(&w)
    }

    fn prove(&mut self, seed: Option<u64>) -> Result<Vec<u8>, WasmError> {
        let keys = self.keys()?;
        let w = self.prepared()?;
        // zero-knowledge randomness: the OS's (crypto.getRandomValues in a browser)
        let (proof, phases) = match seed {
            Some(seed) => {
                let mut rng = ChaCha20Rng::seed_from_u64(seed);
                self.sys.prove_with_phases(&self.circuit, keys, w, &mut rng)
            }
            None => self
                .sys
                .prove_with_phases(&self.circuit, keys, w, &mut OsRng),
        }
        .map_err(|e| self.err(e))?;
        let bytes = self.sys.proof_to_bytes(&proof);
        self.proof = Some(proof);
        self.phases = phases;
        Ok(bytes)
    }

    fn stream_begin(&mut self, seed: Option<u64>) -> Result<(), WasmError> {
        let w = self.prepared()?;
        let started = match seed {
            Some(seed) => {
                let mut rng = ChaCha20Rng::seed_from_u64(seed);
                self.sys.prove_streamed(&self.circuit, w, &mut rng)
            }
            None => self.sys.prove_streamed(&self.circuit, w, &mut OsRng),
        }?;
        // an earlier stream not ended is dropped: closed, its job stops
        self.streaming = Some(started);
        Ok(())
    }

    fn stream_push(&self, chunk: &[u8]) -> Result<(), WasmError> {
        self.streaming
            .as_ref()
            .ok_or(WasmError::State(NO_STREAM))?
            .push(chunk);
        Ok(())
    }

    fn stream_end(&mut self) -> Result<Vec<u8>, WasmError> {
        let started = self.streaming.take().ok_or(WasmError::State(NO_STREAM))?;
        let (keys, proof, times) = started.finish()?;
        let bytes = self.sys.proof_to_bytes(&proof);
        self.keys = Some(keys);
        self.proof = Some(proof);
        self.phases = times;
        Ok(bytes)
    }

    fn verify(&self) -> Result<bool, WasmError> {
        let public = self.public_inputs()?;
        self.sys
            .verify(&self.circuit, self.keys()?, &public, self.last_proof()?)
            .map_err(|e| self.err(e))
    }

    fn verify_bytes(&self, proof: &[u8], public: &PublicInputs) -> Result<bool, WasmError> {
        let Ok(proof) = self.sys.proof_from_bytes(proof) else {
            return Ok(false);
        };
        self.sys
            .verify(&self.circuit, self.keys()?, public, &proof)
            .map_err(|e| self.err(e))
    }

    fn public_inputs(&self) -> Result<PublicInputs, WasmError> {
        Ok(self.sys.public_inputs(&self.circuit, self.prepared()?))
    }

    fn snarkjs_json(&self) -> Result<serde_json::Value, WasmError> {
        let public = self.public_inputs()?;
        self.sys
            .snarkjs_json(self.keys()?, &public, self.last_proof()?)
            .ok_or_else(|| {
                WasmError::Unsupported(format!(
                    "{} proofs have no snarkjs encoding",
                    self.sys.name()
                ))
            })
    }

    fn snarkjs_vk(&self) -> Result<serde_json::Value, WasmError> {
        self.sys.snarkjs_vk(self.keys()?).ok_or_else(|| {
            WasmError::Unsupported(format!("{} keys have no snarkjs encoding", self.sys.name()))
        })
    }
}

impl<P: BrowserSystem> State<P> {
    fn boxed(sys: P, cfg: &StatementConfig) -> Result<Box<dyn DynSession>, WasmError> {
        let circuit = sys.circuit(cfg).map_err(|e| backend_err(sys.name(), e))?;
        Ok(Box::new(State {
            sys,
            circuit,
            keys: None,
            witness: None,
            proof: None,
            phases: Vec::new(),
            streaming: None,
        }))
    }
}

/// One configured circuit of one proof system with its keys, witness and last
/// proof: the phases of a proof as separate calls, so that JavaScript times
/// each one (setup or key loading, witness, prove, verify).
pub struct Session {
    config: ProveConfig,
    inner: Box<dyn DynSession>,
}

impl Session {
    /// The circuit of `config`; an error says what is wrong with it (unknown
    /// system or hash, unsupported arity, no chip for the hash ...).
    pub fn new(config: &ProveConfig) -> Result<Self, WasmError> {
        let ProofConfig { system, statement } = config.parse()?;
        let inner = match system.prover() {
            // the browser build has no EVM (Keccak) transcript
            Prover::Halo2(_) if system == SystemId::Halo2KzgKeccak => {
                return Err(WasmError::Config(format!(
                    "proof system {system} is not in the browser build; available: {}, {}",
                    SystemId::Groth16,
                    SystemId::Halo2Kzg
                )))
            }
            Prover::Groth16(p) => State::boxed(p, &statement)?,
            Prover::Halo2(p) => State::boxed(p, &statement)?,
            Prover::Stark(p) => State::boxed(p, &statement)?,
        };
        Ok(Session {
            config: config.clone(),
            inner,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &ProveConfig {
        &self.config
    }

    /// The proof system's name (`case.system`).
    pub fn system(&self) -> &'static str {
        self.inner.system()
    }

    /// Circuit metrics (constraints or rows, k, ...), key sizes once there are
    /// keys, `proof_bytes` and the last proof's prover parts
    /// (`phase_<name>_s`, as in native `prove` records; Groth16 only) once
    /// there is a proof.
    pub fn metrics(&self) -> Result<Metrics, WasmError> {
        self.inner.metrics()
    }

    /// **Test setup** from `seed` (toxic waste known): keys ready for proving.
    pub fn setup(&mut self, seed: u64) -> Result<(), WasmError> {
        self.inner.setup(seed)
    }

    /// The keys as one byte string (a static file the page fetches).
    pub fn keys_to_bytes(&self) -> Result<Vec<u8>, WasmError> {
        self.inner.keys_to_bytes()
    }

    /// A first visit's smaller key file (Groth16: compact tables of at most
    /// `rows` points per base; an error for other systems), read back by
    /// [`Session::load_keys`] like the full one.
    pub fn compact_keys_to_bytes(&self, rows: usize) -> Result<Vec<u8>, WasmError> {
        self.inner.compact_keys_to_bytes(rows)
    }

    /// Keys from [`Session::keys_to_bytes`]' output, made with `seed`.
    pub fn load_keys(&mut self, bytes: &[u8], seed: u64) -> Result<(), WasmError> {
        self.inner.load_keys(bytes, seed)
    }

    /// [`Session::load_keys`] of bytes the keys may keep: Groth16's tables
    /// stay in them (no copy of the tens of megabytes of table points).
    pub fn load_keys_owned(&mut self, bytes: Vec<u8>, seed: u64) -> Result<(), WasmError> {
        self.inner.load_keys_owned(bytes, seed)
    }

    /// Starts a proof of the prepared witness (randomness from `seed`, or
    /// the system's) that reads its key file as it arrives: hand the file
    /// over with [`Session::stream_keys_push`], then
    /// [`Session::stream_keys_end`]. Groth16 only ([`crate::streamed`]).
    pub fn stream_keys_begin(&mut self, seed: Option<u64>) -> Result<(), WasmError> {
        self.inner.stream_begin(seed)
    }

    /// The next bytes of the key file of [`Session::stream_keys_begin`].
    pub fn stream_keys_push(&self, chunk: &[u8]) -> Result<(), WasmError> {
        self.inner.stream_push(chunk)
    }

    /// The end of the key file: waits for the proof; returns its bytes,
    /// and the keys decoded on the way become this session's keys. The
    /// metrics then say when the proof reached its milestones
    /// (`phase_stream_<name>_s`, `zkbench_groth16::streamed::Milestones`).
    pub fn stream_keys_end(&mut self) -> Result<Vec<u8>, WasmError> {
        self.inner.stream_end()
    }

    /// A random statement witness from `seed`, prepared for the prover
    /// (the `witness` phase).
    pub fn witness(&mut self, seed: u64) -> Result<(), WasmError> {
        self.inner.witness(seed)
    }

    /// The witness from a dapp's `inputs` (JSON; [`crate::inputs::witness`]),
    /// prepared for the prover.
    pub fn witness_from_inputs(&mut self, inputs: &serde_json::Value) -> Result<(), WasmError> {
        self.inner.witness_from(inputs)
    }

    /// Membership inputs for leaf `index` of a tree of this configuration's
    /// shape holding `leaves` ([`crate::inputs::membership_inputs`]).
    pub fn membership_inputs(
        &self,
        leaves: &[serde_json::Value],
        index: u64,
    ) -> Result<serde_json::Value, WasmError> {
        let st = self.config.statement()?;
        let err = |e: zkbench_statement::StatementError| WasmError::Config(e.to_string());
        crate::inputs::membership_inputs(
            &st.native_hashes().map_err(err)?,
            &st.shape().map_err(err)?,
            leaves,
            index,
        )
    }

    /// Proves the witness (the `prove` phase); returns the proof's bytes.
    pub fn prove(&mut self) -> Result<Vec<u8>, WasmError> {
        self.inner.prove(None)
    }

    /// Proves with the randomness of a ChaCha20 stream of `seed` instead of
    /// the OS's: the same proof bytes for the same keys, witness and seed
    /// (how the page checks that the SIMD128 and scalar MSM paths agree). A
    /// seeded proof is not zero-knowledge against whoever knows the seed.
    pub fn prove_seeded(&mut self, seed: u64) -> Result<Vec<u8>, WasmError> {
        self.inner.prove(Some(seed))
    }

    /// Verifies the last proof (the `verify` phase).
    pub fn verify(&self) -> Result<bool, WasmError> {
        self.inner.verify()
    }

    /// Verifies `proof` (the system's proof bytes) for `public` with this
    /// session's keys: `false` for a malformed or invalid proof.
    pub fn verify_bytes(&self, proof: &[u8], public: &PublicInputs) -> Result<bool, WasmError> {
        self.inner.verify_bytes(proof, public)
    }

    /// The public inputs of the witness, in circuit order.
    pub fn public_inputs(&self) -> Result<PublicInputs, WasmError> {
        self.inner.public_inputs()
    }

    /// `{proof, public, verification_key}` of the last proof in snarkjs JSON
    /// (Groth16 only).
    pub fn snarkjs_json(&self) -> Result<serde_json::Value, WasmError> {
        self.inner.snarkjs_json()
    }

    /// The verification key in snarkjs JSON (Groth16 only; needs keys).
    pub fn snarkjs_verification_key(&self) -> Result<serde_json::Value, WasmError> {
        self.inner.snarkjs_vk()
    }
}

/// Runs the prover's paths once on a small circuit (a binary Poseidon
/// membership over 16 leaves, **test setup**): two proofs from full tables,
/// then a first visit's, streamed from compact tables. V8 runs a new
/// module's functions in its baseline tier and recompiles the hot ones
/// later, so a page that calls this right after loading the module gets its
/// first real proof at full speed (without it the benchmark page's first
/// spend proof took about twice a warm one). An error if a proof does not
/// verify.
pub fn warm_up() -> Result<(), WasmError> {
    let mut s = Session::new(&ProveConfig {
        system: "groth16".into(),
        hash: "poseidon".into(),
        alpha: None,
        arity: 2,
        leaves: 16,
        circuit: "membership".into(),
    })?;
    s.setup(1)?; // TEST SETUP: warm-up only, its proofs are discarded
    s.witness(1)?;
    s.prove()?;
    s.prove()?;
    // the rows of the browser suite's compact key files (web/suite.json)
    let compact = s.compact_keys_to_bytes(2)?;
    s.stream_keys_begin(Some(1))?;
    s.stream_keys_push(&compact)?;
    s.stream_keys_end()?;
    s.prove()?;
    if !s.verify()? {
        return Err(WasmError::Backend {
            system: s.system().into(),
            message: "the warm-up proof does not verify".into(),
        });
    }
    Ok(())
}

/// A field element as a decimal string.
pub fn fr_to_decimal(x: &Fr) -> String {
    x.into_bigint().to_string()
}

/// Parses decimal strings into public inputs; an error names the bad entry.
pub fn public_from_decimals(values: &[String]) -> Result<PublicInputs, WasmError> {
    let modulus = num_bigint::BigUint::from(Fr::MODULUS);
    values
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n: num_bigint::BigUint = s.parse().map_err(|_| {
                WasmError::Config(format!("public input {i}: {s:?} is not a decimal integer"))
            })?;
            if n >= modulus {
                return Err(WasmError::Config(format!(
                    "public input {i} is not below the BN254 scalar modulus"
                )));
            }
            Ok(Fr::from(n))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(PublicInputs)
}

/// Verifies a Groth16 proof given in snarkjs's JSON (`verification_key.json`,
/// `proof.json`, `public.json` as values), with zkbench's verifier: how a
/// proof made natively (or by snarkjs) is checked in WebAssembly. `Ok(false)`
/// for an invalid proof, an error for JSON that is not such a document.
pub fn verify_snarkjs(
    vk: &serde_json::Value,
    proof: &serde_json::Value,
    public: &serde_json::Value,
) -> Result<bool, WasmError> {
    use zkbench_groth16::snarkjs;
    let err = |e: zkbench_groth16::Groth16Error| backend_err(SystemId::Groth16, e);
    let vk = snarkjs::vk_from_json(vk).map_err(err)?;
    let proof = snarkjs::proof_from_json(proof).map_err(err)?;
    let public = snarkjs::public_from_json(public).map_err(err)?;
    let pvk = ark_groth16::prepare_verifying_key(&vk);
    zkbench_groth16::verify(&pvk, &public, &proof).map_err(err)
}
