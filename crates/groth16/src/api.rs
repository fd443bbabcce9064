//! Setup, witness generation, proving and verification, as separate phases
//! that a benchmark harness can time one by one.
//!
//! **Test setup.** [`Circuit::setup`] runs the circuit-specific Groth16 setup
//! with a ChaCha20 RNG seeded from a `u64`: the toxic waste (α, β, γ, δ, τ)
//! is reproducible by anyone who knows the seed. Keys made this way are for
//! testing and benchmarking only; every key and artifact records
//! `test_setup: true`.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

// std's `Instant` panics on wasm32-unknown-unknown; web-time's is std's natively.
use web_time::Instant;

use ark_bn254::Bn254;
use ark_groth16::{
    prepare_verifying_key, Groth16, PreparedVerifyingKey, Proof, ProvingKey, VerifyingKey,
};
use ark_relations::r1cs::{
    ConstraintMatrices, ConstraintSynthesizer, ConstraintSystem, OptimizationGoal, SynthesisMode,
};
use ark_serialize::CanonicalSerialize;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkbench_hash::Fr;

use ark_ff::UniformRand;

use crate::backend::HashBackend;
use crate::circuits::StatementCircuit;
use crate::keys;
use crate::prover::{self, ProverTables};
use crate::statement::{PublicInputs, TreeShape, Witness};
use crate::Groth16Error;

/// What to prove (hash family and exponent, tree arity and size, circuit):
/// the shared [`StatementConfig`](crate::statement::StatementConfig).
pub type SpendConfig = crate::statement::StatementConfig;

/// A file-name-safe key of every parameter of `cfg` and the setup seed, used
/// by the key cache.
pub fn cache_key(cfg: &SpendConfig, seed: u64) -> Result<String, Groth16Error> {
    Ok(format!(
        "groth16-bn254-{}-seed{}-v{}-r{}",
        cfg.key_label()?,
        seed,
        keys::FORMAT_VERSION,
        R1CS_LAYOUT
    ))
}

/// Version of the rows the keys are made from: 2 since [`crate::balance`]
/// reorders their factors (keys cached before are another circuit's, so
/// they get another name).
pub const R1CS_LAYOUT: u32 = 2;

/// Constraint-system size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ConstraintCounts {
    /// R1CS constraints.
    pub constraints: usize,
    /// Public inputs (not counting the constant 1).
    pub public_inputs: usize,
    /// Private witness variables.
    pub witness_variables: usize,
    /// Non-zero entries of A, B, C.
    pub nonzeros: [usize; 3],
}

pub use zkbench_core::PhaseTimings;

/// Proving key, prepared verifying key and the R1CS matrices of one circuit.
pub struct Keys {
    /// The proving key (contains the verifying key).
    pub pk: ProvingKey<Bn254>,
    /// The prepared verifying key.
    pub pvk: PreparedVerifyingKey<Bn254>,
    /// Constraint matrices (needed to prove from a witness assignment).
    pub matrices: Arc<ConstraintMatrices<Fr>>,
    /// Always `true` for keys from [`Circuit::setup`]: the toxic waste is
    /// derivable from the seed.
    pub test_setup: bool,
    /// Fixed-base MSM tables of `pk` for [`prover`].
    tables: OnceLock<Arc<ProverTables>>,
}

impl Keys {
    /// Keys from their parts, without prover tables (build them with
    /// [`Keys::prover_tables`] before proving repeatedly).
    pub fn new(
        pk: ProvingKey<Bn254>,
        pvk: PreparedVerifyingKey<Bn254>,
        matrices: Arc<ConstraintMatrices<Fr>>,
        test_setup: bool,
    ) -> Self {
        Keys {
            pk,
            pvk,
            matrices,
            test_setup,
            tables: OnceLock::new(),
        }
    }

    /// Keys with prover tables already built (read from the prover cache,
    /// [`crate::prover_cache`]).
    pub fn with_tables(
        pk: ProvingKey<Bn254>,
        pvk: PreparedVerifyingKey<Bn254>,
        matrices: Arc<ConstraintMatrices<Fr>>,
        test_setup: bool,
        tables: ProverTables,
    ) -> Self {
        let keys = Keys::new(pk, pvk, matrices, test_setup);
        let _ = keys.tables.set(Arc::new(tables));
        keys
    }

    /// The same keys with compact prover tables of at most `rows` points
    /// per base ([`ProverTables::compact`]; 1: the bases alone): a key file
    /// ([`Keys::to_bytes`]) a fraction of the full one's size, for a first
    /// proof before the full tables arrive.
    pub fn compacted(&self, rows: usize) -> Keys {
        Keys::with_tables(
            self.pk.clone(),
            self.pvk.clone(),
            Arc::clone(&self.matrices),
            self.test_setup,
            ProverTables::compact(&self.pk, rows),
        )
    }

    /// The prover tables if they have been built (or loaded).
    pub fn built_tables(&self) -> Option<&Arc<ProverTables>> {
        self.tables.get()
    }

    /// Writes the proving key to `path` and, when the prover tables are
    /// built, the prover cache beside it ([`crate::prover_cache`]).
    pub fn write(&self, path: &Path) -> Result<(), Groth16Error> {
        keys::write_proving_key(path, &self.pk, self.test_setup)?;
        if let Some(t) = self.tables.get() {
            crate::prover_cache::write(path, &self.pk, &self.matrices, t)?;
        }
        Ok(())
    }

    /// The keys as one byte string, for serving as a static file or storing
    /// in a browser (`zkbench-wasm`): the prover cache's bytes
    /// ([`crate::prover_cache::to_bytes`]: matrices and fixed-base tables,
    /// built here if they are not yet), then the proving key's head
    /// ([`keys::proving_key_head_to_bytes`]: the key without its queries,
    /// whose points are the tables' first rows), each after its length as a
    /// little-endian `u64`. [`Keys::from_bytes`] reads it back. The order is
    /// a streamed first proof's ([`crate::streamed`]): it needs the
    /// matrices and tables first and the key's head (for the binding checks
    /// and the randomisers' terms) last.
    pub fn to_bytes(&self) -> Vec<u8> {
        let head = keys::proving_key_head_to_bytes(&self.pk, self.test_setup);
        let cache = crate::prover_cache::to_bytes(&self.pk, &self.matrices, self.prover_tables());
        let mut out = Vec::with_capacity(16 + head.len() + cache.len());
        for part in [&cache, &head] {
            out.extend_from_slice(&(part.len() as u64).to_le_bytes());
            out.extend_from_slice(part);
        }
        out
    }

    /// Decodes [`Keys::to_bytes`]' output (a cold start: no setup, no table
    /// building); an error (never a panic) for damaged or foreign bytes.
    /// The tables' points are copied out of `data`; [`Keys::from_shared`]
    /// keeps them where they are.
    pub fn from_bytes(data: &[u8]) -> Result<Self, Groth16Error> {
        let (head, cache) = key_file_parts(data)?;
        Self::assemble(
            &data[head],
            crate::prover_cache::unbound_from_bytes(&data[cache])?,
        )
    }

    /// [`Keys::from_bytes`] of bytes the keys may keep: the tables' points
    /// stay in `data` (a range of it each, nothing copied), as a browser's
    /// key file read straight into WebAssembly memory does.
    pub fn from_shared(data: Arc<dyn zkbench_msm::Backing>) -> Result<Self, Groth16Error> {
        let (head, cache) = key_file_parts((*data).as_ref())?;
        let part = Arc::new(Part {
            data: data.clone(),
            range: cache,
        });
        let unbound = crate::prover_cache::from_shared(part)?;
        Self::assemble(&(*data).as_ref()[head], unbound)
    }

    /// The keys from the proving key head's bytes and the decoded prover
    /// cache, bound to each other ([`crate::prover_cache::Unbound::bind_head`]).
    fn assemble(
        head_bytes: &[u8],
        cache: crate::prover_cache::Unbound,
    ) -> Result<Self, Groth16Error> {
        let (head, test_setup) = keys::proving_key_head_from_bytes(head_bytes)?;
        // bind_head checks the public inputs' count among the dimensions
        let (pk, matrices, tables) = cache.bind_head(head)?;
        let pvk = prepare_verifying_key(&pk.vk);
        Ok(Keys::with_tables(
            pk,
            pvk,
            Arc::new(matrices),
            test_setup,
            tables,
        ))
    }

    /// The fixed-base MSM tables of the proving key (see [`prover`]), built
    /// on the first call (about 256 doublings per proving-key point: several
    /// times one proof; [`Circuit::setup`] does it as part of key
    /// preparation).
    pub fn prover_tables(&self) -> &Arc<ProverTables> {
        self.tables
            .get_or_init(|| Arc::new(ProverTables::new(&self.pk)))
    }

    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<Bn254> {
        &self.pk.vk
    }

    /// Size of the compressed proving key in bytes.
    pub fn pk_size(&self) -> usize {
        self.pk.compressed_size()
    }

    /// Size of the compressed verifying key in bytes.
    pub fn vk_size(&self) -> usize {
        self.pk.vk.compressed_size()
    }
}

/// A full variable assignment (`[1, public..., witness...]`) from witness
/// generation.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// The assignment, constant 1 first.
    pub full: Vec<Fr>,
    /// Number of instance variables including the constant 1.
    pub num_instance: usize,
}

impl Assignment {
    /// The public inputs (without the constant 1).
    pub fn public_inputs(&self) -> PublicInputs {
        PublicInputs(self.full[1..self.num_instance].to_vec())
    }
}

/// A configured circuit: configuration, tree shape and hashes.
#[derive(Clone)]
pub struct Circuit {
    cfg: SpendConfig,
    shape: TreeShape,
    backend: Arc<HashBackend>,
}

impl Circuit {
    /// The circuit of `cfg`, with the library's hash family and its gadget.
    pub fn new(cfg: &SpendConfig) -> Result<Self, Groth16Error> {
        let backend = HashBackend::for_family(cfg.family, cfg.alpha, cfg.arity)?;
        Self::with_backend(cfg, Arc::new(backend))
    }

    /// The circuit of `cfg` with explicit hashes (the family in `cfg` is then
    /// only a label).
    pub fn with_backend(
        cfg: &SpendConfig,
        backend: Arc<HashBackend>,
    ) -> Result<Self, Groth16Error> {
        let shape = cfg.shape()?;
        if backend.arity() != cfg.arity {
            return Err(Groth16Error::Config(format!(
                "backend arity {} differs from the configured arity {}",
                backend.arity(),
                cfg.arity
            )));
        }
        Ok(Self {
            cfg: cfg.clone(),
            shape,
            backend,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &SpendConfig {
        &self.cfg
    }

    /// The tree shape.
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// The hashes.
    pub fn backend(&self) -> &Arc<HashBackend> {
        &self.backend
    }

    pub(crate) fn circuit(&self, witness: Option<Witness>) -> StatementCircuit {
        StatementCircuit {
            kind: self.cfg.circuit,
            shape: self.shape,
            backend: self.backend.clone(),
            witness,
        }
    }

    /// A random witness for this circuit.
    pub fn random_witness<R: rand::Rng>(&self, rng: &mut R) -> Witness {
        Witness::random(rng, self.cfg.circuit, &self.shape)
    }

    /// Native computation of the public inputs of `witness`.
    pub fn public_inputs(&self, witness: &Witness) -> Result<PublicInputs, Groth16Error> {
        self.check_kind(witness)?;
        Ok(PublicInputs::compute(
            self.backend.native(),
            &self.shape,
            witness,
        )?)
    }

    fn check_kind(&self, witness: &Witness) -> Result<(), Groth16Error> {
        if witness.kind() != self.cfg.circuit {
            return Err(Groth16Error::Witness(format!(
                "a {} witness was given to the {} circuit",
                witness.kind(),
                self.cfg.circuit
            )));
        }
        Ok(())
    }

    /// The constraint matrices (synthesis in setup mode, LCs inlined).
    pub fn matrices(&self) -> Result<ConstraintMatrices<Fr>, Groth16Error> {
        setup_matrices(self.circuit(None))
    }

    /// Constraint counts of this circuit.
    pub fn num_constraints(&self) -> Result<ConstraintCounts, Groth16Error> {
        let m = self.matrices()?;
        Ok(counts(&m))
    }

    /// **Test setup**: circuit-specific Groth16 key generation with a
    /// ChaCha20 RNG seeded by `seed`. The toxic waste is known to anyone who
    /// knows the seed; never use these keys to protect value.
    ///
    /// Also prepares the keys for repeated proving: builds the fixed-base
    /// tables of [`prover`] ([`Keys::prover_tables`]), which costs several
    /// proofs' worth of time and makes every later proof faster.
    pub fn setup(&self, seed: u64) -> Result<Keys, Groth16Error> {
        let keys = self.setup_keys(seed)?;
        keys.prover_tables();
        Ok(keys)
    }

    /// Keys from a real powers-of-tau ceremony file (`.ptau`, phase-2 prepared): phase 1 is
    /// the ceremony's, phase 2 (γ, δ) is one contribution drawn here from `rng` (pass OS
    /// randomness and let it be dropped). `Keys::test_setup` is true only when the file is
    /// a `zkbench ptau new` test file.
    pub fn setup_from_ptau(
        &self,
        path: &Path,
        rng: &mut impl RngCore,
    ) -> Result<Keys, Groth16Error> {
        let matrices = self.matrices()?;
        let n = (matrices.num_constraints + matrices.num_instance_variables).next_power_of_two();
        let k = n.trailing_zeros();
        let file = crate::ptau::read_ptau(path, Some(k))?;
        if file.read_power < k {
            return Err(crate::ptau::PtauError::Parameter(format!(
                "{}: the circuit needs a ceremony of power {k} or more; the file has power {}",
                path.display(),
                file.power
            ))
            .into());
        }
        file.check_consistency(&path.display().to_string())?;
        let lag = crate::ptau::read_lagrange(path, k)?;
        let pk = crate::ptau::groth16_keys(&matrices, &file, &lag, rng)?;
        let pvk = prepare_verifying_key(&pk.vk);
        let keys = Keys::new(pk, pvk, Arc::new(matrices), file.is_test_setup());
        keys.prover_tables();
        Ok(keys)
    }

    /// [`Circuit::setup`] without the prover tables.
    fn setup_keys(&self, seed: u64) -> Result<Keys, Groth16Error> {
        test_setup_keys(self.circuit(None), seed)
    }

    /// Keys from the cache directory `dir` (keyed by every parameter and the
    /// seed), or a fresh [`Circuit::setup`] written there. Returns the keys
    /// and whether they came from the cache. The keys have no prover tables
    /// (meant for one proof, as in the CLI); call [`Keys::prover_tables`]
    /// before proving repeatedly.
    pub fn load_or_setup(&self, dir: &Path, seed: u64) -> Result<(Keys, bool), Groth16Error> {
        let path = self.key_path(dir, seed)?;
        if path.exists() {
            // The prover cache (matrices + fixed-base tables) makes this proof as
            // fast as a warm one; a missing, damaged or stale cache is derived
            // data: rebuilt below and rewritten. The key and the cache are read
            // at the same time (the cache is checked against the key after).
            let (pk, cache) = crate::join(
                || keys::read_proving_key(&path),
                || crate::prover_cache::read_unbound(&path),
            );
            let pk = pk?;
            let pvk = prepare_verifying_key(&pk.vk);
            if let Ok(Some((matrices, tables))) =
                cache.and_then(|c| c.map(|c| c.bind(&pk)).transpose())
            {
                return Ok((
                    Keys::with_tables(pk, pvk, Arc::new(matrices), true, tables),
                    true,
                ));
            }
            let matrices = self.matrices()?;
            if pk.vk.gamma_abc_g1.len() != matrices.num_instance_variables {
                return Err(Groth16Error::decode(
                    path.display().to_string(),
                    "cached key does not match the circuit's number of public inputs",
                ));
            }
            let keys = Keys::new(pk, pvk, Arc::new(matrices), true);
            crate::prover_cache::write(&path, &keys.pk, &keys.matrices, keys.prover_tables())?;
            return Ok((keys, true));
        }
        let keys = self.setup(seed)?;
        std::fs::create_dir_all(dir).map_err(|e| Groth16Error::io(dir, e))?;
        keys.write(&path)?;
        Ok((keys, false))
    }

    /// Where [`Circuit::load_or_setup`] keeps the proving key.
    pub fn key_path(&self, dir: &Path, seed: u64) -> Result<PathBuf, Groth16Error> {
        Ok(dir.join(format!("{}.pk", cache_key(&self.cfg, seed)?)))
    }

    /// Witness generation: synthesises the circuit computing values only (no
    /// matrices) and returns the full assignment.
    pub fn witness(&self, witness: &Witness) -> Result<Assignment, Groth16Error> {
        self.check_kind(witness)?;
        synthesize_assignment(self.circuit(Some(witness.clone())))
    }

    /// Whether `assignment` satisfies every constraint (`A·z ∘ B·z = C·z`).
    pub fn is_satisfied(&self, keys: &Keys, assignment: &Assignment) -> bool {
        is_satisfied(&keys.matrices, &assignment.full)
    }

    /// Proves from a witness assignment (the Groth16 prover proper: QAP
    /// witness map, then the MSMs), with fresh zero-knowledge randomness.
    /// Uses [`prover::create_proof`] when the keys have their prover tables
    /// (keys from [`Circuit::setup`], or after [`Keys::prover_tables`]), else
    /// ark-groth16's prover ([`Circuit::prove_assignment_arkworks`]); both
    /// give the same proof for the same `rng` state.
    pub fn prove_assignment<R: RngCore>(
        &self,
        keys: &Keys,
        assignment: &Assignment,
        rng: &mut R,
    ) -> Result<Proof<Bn254>, Groth16Error> {
        let Some(tables) = keys.tables.get() else {
            return self.prove_assignment_arkworks(keys, assignment, rng);
        };
        check_assignment(&keys.matrices, assignment)?;
        let r = Fr::rand(rng);
        let s = Fr::rand(rng);
        Ok(prover::create_proof(
            &keys.pk,
            tables,
            &keys.matrices,
            &assignment.full,
            r,
            s,
        )?)
    }

    /// [`Circuit::prove_assignment`] with the wall time of the prover's parts
    /// ([`prover::ProveTimings`]); all zero when the keys have no prover
    /// tables (ark-groth16's prover is not instrumented).
    pub fn prove_assignment_timed<R: RngCore>(
        &self,
        keys: &Keys,
        assignment: &Assignment,
        rng: &mut R,
    ) -> Result<(Proof<Bn254>, prover::ProveTimings), Groth16Error> {
        let Some(tables) = keys.tables.get() else {
            return self
                .prove_assignment_arkworks(keys, assignment, rng)
                .map(|p| (p, prover::ProveTimings::default()));
        };
        check_assignment(&keys.matrices, assignment)?;
        let r = Fr::rand(rng);
        let s = Fr::rand(rng);
        Ok(prover::create_proof_timed(
            &keys.pk,
            tables,
            &keys.matrices,
            &assignment.full,
            r,
            s,
        )?)
    }

    /// [`Circuit::prove_assignment`] with ark-groth16's own prover
    /// (`create_proof_with_reduction_and_matrices`); for comparison. With the
    /// same `rng` state both produce the same proof.
    pub fn prove_assignment_arkworks<R: RngCore>(
        &self,
        keys: &Keys,
        assignment: &Assignment,
        rng: &mut R,
    ) -> Result<Proof<Bn254>, Groth16Error> {
        check_assignment(&keys.matrices, assignment)?;
        let m = &keys.matrices;
        let r = Fr::rand(rng);
        let s = Fr::rand(rng);
        Ok(Groth16::<Bn254>::create_proof_with_reduction_and_matrices(
            &keys.pk,
            r,
            s,
            m,
            m.num_instance_variables,
            m.num_constraints,
            &assignment.full,
        )?)
    }

    /// Witness generation then proof, each timed (`timings.witness`,
    /// `timings.prove`).
    pub fn prove<R: RngCore>(
        &self,
        keys: &Keys,
        witness: &Witness,
        rng: &mut R,
    ) -> Result<(Proof<Bn254>, PublicInputs, PhaseTimings), Groth16Error> {
        let t0 = Instant::now();
        let assignment = self.witness(witness)?;
        let t1 = Instant::now();
        let proof = self.prove_assignment(keys, &assignment, rng)?;
        let t2 = Instant::now();
        let timings = PhaseTimings {
            witness: Some(t1 - t0),
            prove: Some(t2 - t1),
            ..Default::default()
        };
        Ok((proof, assignment.public_inputs(), timings))
    }
}

/// The constraint matrices of `circuit` (synthesis in setup mode, LCs
/// inlined), each row's factors in the order [`crate::balance`] picks:
/// [`Circuit::matrices`], and the pool's slot-insert circuit's. Every key of
/// the circuit is made from these rows.
pub(crate) fn setup_matrices<C: ConstraintSynthesizer<Fr>>(
    circuit: C,
) -> Result<ConstraintMatrices<Fr>, Groth16Error> {
    let mut m = synthesized_matrices(circuit)?;
    crate::balance::balance(&mut m);
    Ok(m)
}

/// The constraint matrices of `circuit` as its gadgets wrote them.
pub(crate) fn synthesized_matrices<C: ConstraintSynthesizer<Fr>>(
    circuit: C,
) -> Result<ConstraintMatrices<Fr>, Groth16Error> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Setup);
    circuit.generate_constraints(cs.clone())?;
    cs.finalize();
    cs.to_matrices()
        .ok_or_else(|| Groth16Error::Config("constraint matrices unavailable".into()))
}

/// **Test setup** keys of `circuit` (the circuit without a witness): its
/// matrices, then circuit-specific Groth16 key generation for exactly those
/// rows ([`crate::balance::MatrixCircuit`]) with a ChaCha20 RNG seeded by
/// `seed` (known toxic waste). No prover tables yet.
pub(crate) fn test_setup_keys<C: ConstraintSynthesizer<Fr>>(
    circuit: C,
    seed: u64,
) -> Result<Keys, Groth16Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let matrices = setup_matrices(circuit)?;
    let pk = Groth16::<Bn254>::generate_random_parameters_with_reduction(
        crate::balance::MatrixCircuit(&matrices),
        &mut rng,
    )?;
    let pvk = prepare_verifying_key(&pk.vk);
    Ok(Keys::new(pk, pvk, Arc::new(matrices), true))
}

/// Witness generation for `circuit` (with its witness): synthesis computing
/// values only (no matrices); the full assignment `[1, public…, witness…]`.
pub(crate) fn synthesize_assignment<C: ConstraintSynthesizer<Fr>>(
    circuit: C,
) -> Result<Assignment, Groth16Error> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Prove {
        construct_matrices: false,
    });
    circuit.generate_constraints(cs.clone())?;
    let inner = cs.borrow().expect("constraint system still borrowed");
    let num_instance = inner.instance_assignment.len();
    let mut full = Vec::with_capacity(num_instance + inner.witness_assignment.len());
    full.extend_from_slice(&inner.instance_assignment);
    full.extend_from_slice(&inner.witness_assignment);
    Ok(Assignment { full, num_instance })
}

pub(crate) fn check_assignment(
    m: &ConstraintMatrices<Fr>,
    assignment: &Assignment,
) -> Result<(), Groth16Error> {
    if assignment.full.len() != m.num_instance_variables + m.num_witness_variables
        || assignment.num_instance != m.num_instance_variables
    {
        return Err(Groth16Error::Witness(format!(
            "assignment has {} variables ({} instance), the keys expect {} ({} instance)",
            assignment.full.len(),
            assignment.num_instance,
            m.num_instance_variables + m.num_witness_variables,
            m.num_instance_variables
        )));
    }
    Ok(())
}

/// Verifies `proof` for `public` under `pvk`. A wrong number of public inputs
/// is an error; an invalid proof is `Ok(false)`.
pub fn verify(
    pvk: &PreparedVerifyingKey<Bn254>,
    public: &PublicInputs,
    proof: &Proof<Bn254>,
) -> Result<bool, Groth16Error> {
    if public.0.len() + 1 != pvk.vk.gamma_abc_g1.len() {
        return Err(Groth16Error::Witness(format!(
            "{} public inputs given, the verifying key expects {}",
            public.0.len(),
            pvk.vk.gamma_abc_g1.len().saturating_sub(1)
        )));
    }
    Ok(Groth16::<Bn254>::verify_proof(pvk, proof, &public.0)?)
}

/// [`Circuit::new`] then [`Circuit::setup`].
pub fn setup(cfg: &SpendConfig, seed: u64) -> Result<Keys, Groth16Error> {
    Circuit::new(cfg)?.setup(seed)
}

/// [`Circuit::new`] then [`Circuit::prove`] with an OS-seeded RNG.
pub fn prove(
    cfg: &SpendConfig,
    keys: &Keys,
    witness: &Witness,
) -> Result<(Proof<Bn254>, PublicInputs, PhaseTimings), Groth16Error> {
    let mut rng = ChaCha20Rng::from_entropy();
    Circuit::new(cfg)?.prove(keys, witness, &mut rng)
}

/// Constraint counts of the circuit of `cfg`.
pub fn num_constraints(cfg: &SpendConfig) -> Result<ConstraintCounts, Groth16Error> {
    Circuit::new(cfg)?.num_constraints()
}

/// Size of a compressed Groth16 proof on BN254 (2 G1 + 1 G2 points): 128 bytes.
pub fn proof_size(proof: &Proof<Bn254>) -> usize {
    proof.compressed_size()
}

pub(crate) fn counts(m: &ConstraintMatrices<Fr>) -> ConstraintCounts {
    ConstraintCounts {
        constraints: m.num_constraints,
        public_inputs: m.num_instance_variables - 1,
        witness_variables: m.num_witness_variables,
        nonzeros: [m.a_num_non_zero, m.b_num_non_zero, m.c_num_non_zero],
    }
}

/// Checks `A·z ∘ B·z = C·z` row by row.
pub fn is_satisfied(m: &ConstraintMatrices<Fr>, z: &[Fr]) -> bool {
    if z.len() != m.num_instance_variables + m.num_witness_variables {
        return false;
    }
    let eval = |row: &[(Fr, usize)]| row.iter().map(|(c, i)| *c * z[*i]).sum::<Fr>();
    (0..m.num_constraints).all(|i| eval(&m.a[i]) * eval(&m.b[i]) == eval(&m.c[i]))
}

#[allow(dead_code)]
fn _assert_send_sync() {
    fn f<T: Send + Sync>() {}
    f::<Keys>();
    f::<Circuit>();
}

/// The byte ranges of the proving key and of the prover cache in a key file
/// ([`Keys::to_bytes`]: each part after its length as a little-endian
/// `u64`), or why the bytes are not one.
fn key_file_parts(
    data: &[u8],
) -> Result<(std::ops::Range<usize>, std::ops::Range<usize>), Groth16Error> {
    let what = "keys";
    let mut at = 0;
    let mut part = || -> Result<std::ops::Range<usize>, Groth16Error> {
        let len = data
            .get(at..at + 8)
            .ok_or_else(|| Groth16Error::decode(what, "truncated length"))?;
        let len = usize::try_from(u64::from_le_bytes(len.try_into().expect("8 bytes")))
            .map_err(|_| Groth16Error::decode(what, "length out of range"))?;
        let start = at + 8;
        if data.len() - start < len {
            return Err(Groth16Error::decode(what, "truncated"));
        }
        at = start + len;
        Ok(start..at)
    };
    let cache = part()?;
    let head = part()?;
    if at != data.len() {
        return Err(Groth16Error::decode(what, "trailing bytes"));
    }
    Ok((head, cache))
}

/// A range of shared bytes, itself shared (the prover cache inside a key
/// file).
struct Part {
    data: Arc<dyn zkbench_msm::Backing>,
    range: std::ops::Range<usize>,
}

impl AsRef<[u8]> for Part {
    fn as_ref(&self) -> &[u8] {
        &(*self.data).as_ref()[self.range.clone()]
    }
}
