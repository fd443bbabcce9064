//! Library API for the CLI and the benchmarks: configuration, SRS, key
//! generation (cached on disk), proving and verification as separately timed
//! phases, proof artifacts, row/column accounting.
//!
//! Proofs: halo2-axiom `create_proof` with KZG on BN254, SHPLONK multi-opening
//! (`ProverSHPLONK` / `VerifierSHPLONK`), verified with `SingleStrategy` (two
//! pairings). The Fiat–Shamir transcript is a [`Transcript`]: Blake2b
//! (`Challenge255`, halo2's default, compressed 32-byte points) or, with the
//! `evm` feature, Keccak-256 (snark-verifier's `EvmTranscript`, uncompressed
//! 64-byte points), the one a Solidity verifier can afford to recompute
//! (crates/evm generates that verifier).
//!
//! **SRS.** [`Srs::TestSetup`] runs `ParamsKZG::setup(k, ChaCha20Rng(seed))`:
//! the toxic waste τ is derivable from the seed, so **anyone can forge proofs
//! under it** — it is labelled `UNSAFE-TEST-SRS` in [`Srs::label`], in the
//! key-cache file names and in every artifact (`"test_setup": true`). For real
//! use, [`Srs::File`] reads parameters in halo2's KZG params format
//! (`ParamsKZG::read`, e.g. the files converted from the Perpetual Powers of
//! Tau that the halo2 ecosystem publishes) and downsizes them to the
//! circuit's `k`.

use std::{
    fs::File,
    io::{BufReader, BufWriter, Read, Write},
    path::{Path, PathBuf},
};

// std's `Instant` panics on wasm32-unknown-unknown; web-time's is std's natively.
use web_time::Instant;

use halo2_axiom::{
    dev::MockProver,
    halo2curves::bn256::{Bn256, Fr, G1Affine},
    plonk::{create_proof, keygen_pk, keygen_vk_custom, verify_proof, ProvingKey, VerifyingKey},
    poly::{
        commitment::{Params, ParamsProver},
        kzg::{
            commitment::{KZGCommitmentScheme, ParamsKZG},
            multiopen::VerifierSHPLONK,
            strategy::SingleStrategy,
        },
    },
    transcript::{
        Blake2bRead, Blake2bWrite, Challenge255, TranscriptReadBuffer, TranscriptWriterBuffer,
    },
    SerdeFormat,
};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkbench_hash::HashFamily;

use crate::chip::ChipLayout;
use crate::circuit::{circuit_stats, CircuitParams, CircuitStats, StatementCircuit};
use crate::commit::{FastKzg, FastShplonk};
use crate::params::{fr_from_ark, fr_to_decimal};
use crate::statement::{
    CircuitKind, NativeHashes, PublicInputs, StatementConfig, TreeShape, Witness, DEFAULT_LEAVES,
};
use crate::Halo2Error;

/// Version of the key-cache and artifact formats (2: hashes of one width and
/// output convention share their last round's gate and membership products
/// multiply 3 factors a constraint, so the constraint systems, and every
/// key, differ from version 1's).
pub const FORMAT_VERSION: u32 = 2;

/// The Fiat–Shamir transcript of a proof. The proving key does not depend on
/// it: one key proves with either, but a proof only verifies with the
/// transcript it was made with.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Transcript {
    /// Blake2b with `Challenge255` (halo2's default; points compressed to 32
    /// bytes): the cheapest to prove and verify natively.
    #[default]
    Blake2b,
    /// Keccak-256 as snark-verifier's `EvmTranscript` hashes it (points as
    /// uncompressed big-endian `(x, y)`, 64 bytes; scalars big-endian): the
    /// transcript of proofs verified on chain. Needs the `evm` feature.
    Keccak,
}

impl Transcript {
    /// Every transcript, in the order `zkbench` lists them.
    pub const ALL: [Transcript; 2] = [Transcript::Blake2b, Transcript::Keccak];

    /// `"blake2b"` or `"keccak"`.
    pub fn name(self) -> &'static str {
        match self {
            Transcript::Blake2b => "blake2b",
            Transcript::Keccak => "keccak",
        }
    }

    /// The chip layout proofs with this transcript are made with by default:
    /// the folded [`ChipLayout::evm`] for the Keccak transcript (its proofs are
    /// verified on chain, where every column costs an ecMul), the wide
    /// [`ChipLayout::default`] (fastest to prove) otherwise.
    pub fn chip_layout(self) -> ChipLayout {
        match self {
            Transcript::Blake2b => ChipLayout::default(),
            Transcript::Keccak => ChipLayout::evm(),
        }
    }

    /// `true` for the default (Blake2b), so that artifacts written before the
    /// transcript was recorded read back unchanged.
    pub fn is_default(&self) -> bool {
        *self == Transcript::default()
    }
}

impl std::fmt::Display for Transcript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Transcript {
    type Err = Halo2Error;

    fn from_str(s: &str) -> Result<Self, Halo2Error> {
        Transcript::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                Halo2Error::Config(format!(
                    "unknown transcript {s:?}; accepted: blake2b, keccak"
                ))
            })
    }
}

/// The most physical rows a logical row of the chip may be folded into
/// ([`ChipLayout::fold`]). At 16 every kind of column of the suites' chips
/// (at most 8 state lanes at arity 7, a few more helpers) is one or two
/// physical columns, so a larger fold would save nothing and only multiply
/// the rows.
pub const MAX_FOLD: usize = 16;

/// What to prove (the shared [`StatementConfig`]) and how (the chip layout).
/// Serialised flat: `family`, `alpha`, `arity`, `leaves`, `circuit`, `layout`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Halo2Config {
    /// The statement.
    #[serde(flatten)]
    pub statement: StatementConfig,
    /// Chip layout (partial rounds per row).
    pub layout: ChipLayout,
}

impl Halo2Config {
    /// `statement` with the default chip layout.
    pub fn new(statement: StatementConfig) -> Self {
        Self {
            statement,
            layout: ChipLayout::default(),
        }
    }

    /// `statement` in the chip layout of proofs with `transcript`
    /// ([`Transcript::chip_layout`]: folded for the Keccak (EVM) transcript).
    pub fn for_transcript(statement: StatementConfig, transcript: Transcript) -> Self {
        Self {
            statement,
            layout: transcript.chip_layout(),
        }
    }

    /// The note spend over 2^36 leaves ([`DEFAULT_LEAVES`]) with `family`,
    /// S-box exponent `alpha` and `arity`, laid out as `layout`.
    pub fn spend(family: HashFamily, alpha: u64, arity: usize, layout: ChipLayout) -> Self {
        Self {
            statement: StatementConfig {
                family,
                alpha: Some(alpha),
                arity,
                leaves: DEFAULT_LEAVES,
                circuit: CircuitKind::Spend,
            },
            layout,
        }
    }

    /// The zkOS-comparable note spend: Poseidon2 α = 7, arity 7, 2^36 leaves.
    pub fn zkos_like() -> Self {
        Self::spend(HashFamily::Poseidon2, 7, 7, ChipLayout::default())
    }

    /// The circuit parameters (shape of the constraint system).
    pub fn circuit_params(&self) -> Result<CircuitParams, Halo2Error> {
        let st = &self.statement;
        if !matches!(st.family, HashFamily::Poseidon2 | HashFamily::Poseidon) {
            return Err(Halo2Error::Config(format!(
                "the halo2 backend has chips for poseidon2 and poseidon only, not {}",
                st.family.name()
            )));
        }
        if self.layout.partial_per_row == 0 {
            return Err(Halo2Error::Config("partial_per_row must be ≥ 1".into()));
        }
        if !(1..=MAX_FOLD).contains(&self.layout.fold) {
            return Err(Halo2Error::Config(format!(
                "fold must be 1 to {MAX_FOLD} (physical rows per logical row), not {}",
                self.layout.fold
            )));
        }
        let shape = st.shape()?;
        Ok(CircuitParams {
            family: st.family,
            alpha: st.resolved_alpha()?,
            arity: st.arity,
            height: shape.height,
            kind: st.circuit,
            layout: self.layout,
        })
    }

    /// A file-name-safe key of every parameter and the SRS, used by the key cache.
    pub fn cache_key(&self, srs: &Srs) -> Result<String, Halo2Error> {
        let fold = match self.layout.fold {
            1 => String::new(),
            f => format!("-f{f}"),
        };
        Ok(format!(
            "halo2-kzg-bn254-{}-p{}-d{}{}{fold}-{}-v{}",
            self.statement.key_label()?,
            self.layout.partial_per_row,
            self.layout.degree,
            if self.layout.split_sbox { "-split" } else { "" },
            srs.label(),
            FORMAT_VERSION
        ))
    }
}

/// Where the structured reference string comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Srs {
    /// **UNSAFE** deterministic test SRS: `ParamsKZG::setup(k, ChaCha20Rng::seed_from_u64(seed))`.
    /// τ is known to anyone who knows the seed.
    TestSetup {
        /// RNG seed.
        seed: u64,
    },
    /// Parameters in halo2's KZG params format (`ParamsKZG::read`), of any
    /// `k` at least the circuit's (downsized on load).
    File(PathBuf),
}

impl Srs {
    /// A label for file names and output: `UNSAFE-TEST-SRS-seed<seed>` or
    /// `srs-<file stem>`.
    pub fn label(&self) -> String {
        match self {
            Srs::TestSetup { seed } => format!("UNSAFE-TEST-SRS-seed{seed}"),
            Srs::File(p) => format!(
                "srs-{}",
                p.file_stem()
                    .map(|s| s
                        .to_string_lossy()
                        .replace(|c: char| !c.is_ascii_alphanumeric(), "_"))
                    .unwrap_or_default()
            ),
        }
    }

    /// Whether this is the unsafe test setup.
    pub fn is_test_setup(&self) -> bool {
        matches!(self, Srs::TestSetup { .. })
    }

    /// The parameters for `2^k` rows.
    pub fn load(&self, k: u32) -> Result<ParamsKZG<Bn256>, Halo2Error> {
        match self {
            Srs::TestSetup { seed } => Ok(ParamsKZG::<Bn256>::setup(
                k,
                ChaCha20Rng::seed_from_u64(*seed),
            )),
            Srs::File(path) => {
                let f = File::open(path).map_err(|e| Halo2Error::io(path, e))?;
                // halo2curves unwraps short reads inside point decoding: a
                // truncated file panics there, which is turned into an error.
                let mut params = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    ParamsKZG::<Bn256>::read(&mut BufReader::new(f))
                }))
                .map_err(|_| {
                    Halo2Error::decode(
                        path.display().to_string(),
                        "truncated or corrupt params file",
                    )
                })?
                .map_err(|e| Halo2Error::decode(path.display().to_string(), e.to_string()))?;
                if params.k() < k {
                    return Err(Halo2Error::Config(format!(
                        "{}: SRS has k = {}, the circuit needs k = {k}",
                        path.display(),
                        params.k()
                    )));
                }
                if params.k() > k {
                    params.downsize(k);
                }
                Ok(params)
            }
        }
    }
}

pub use zkbench_core::PhaseTimings;

/// SRS and keys of one circuit.
#[derive(Debug)]
pub struct Keys {
    /// KZG parameters, downsized to the circuit's `k`.
    pub params: ParamsKZG<Bn256>,
    /// Proving key (contains the verifying key).
    pub pk: ProvingKey<G1Affine>,
    /// `true` when the SRS is the unsafe test setup.
    pub test_setup: bool,
    /// [`Srs::label`] of the SRS.
    pub srs_label: String,
    /// The prover's commitment tables of `params`, built by the first proof.
    commit: std::sync::OnceLock<crate::commit::FastParams>,
}

impl Keys {
    /// Keys of `params` and `pk` under `srs`.
    fn new(params: ParamsKZG<Bn256>, pk: ProvingKey<G1Affine>, srs: &Srs) -> Self {
        Keys {
            params,
            pk,
            test_setup: srs.is_test_setup(),
            srs_label: srs.label(),
            commit: Default::default(),
        }
    }

    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<G1Affine> {
        self.pk.get_vk()
    }

    /// The prover's KZG parameters: `params` with window tables of its bases
    /// (built on first use, then kept with the keys).
    fn commit_params(&self) -> &crate::commit::FastParams {
        self.commit
            .get_or_init(|| crate::commit::FastParams::new(self.params.clone()))
    }

    /// Size of the serialised verifying key (halo2 `RawBytes` format).
    pub fn vk_size(&self) -> usize {
        let mut v = vec![];
        self.vk()
            .write(&mut v, SerdeFormat::RawBytes)
            .map(|_| v.len())
            .unwrap_or(0)
    }
}

/// A proof and what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofOutput {
    /// Transcript bytes.
    pub proof: Vec<u8>,
    /// Public inputs, in circuit order.
    pub public: PublicInputs,
}

/// A configured circuit.
#[derive(Clone)]
pub struct Halo2Circuit {
    cfg: Halo2Config,
    shape: TreeShape,
    params: CircuitParams,
    native: NativeHashes,
    transcript: Transcript,
}

impl Halo2Circuit {
    /// The circuit of `cfg`.
    pub fn new(cfg: &Halo2Config) -> Result<Self, Halo2Error> {
        let params = cfg.circuit_params()?;
        let shape = cfg.statement.shape()?;
        let native = cfg.statement.native_hashes()?;
        params.specs()?;
        Ok(Self {
            cfg: cfg.clone(),
            shape,
            params,
            native,
            transcript: Transcript::default(),
        })
    }

    /// The same circuit proving and verifying with `transcript` (the keys
    /// are the same for every transcript).
    pub fn with_transcript(mut self, transcript: Transcript) -> Self {
        self.transcript = transcript;
        self
    }

    /// The transcript its proofs use.
    pub fn transcript(&self) -> Transcript {
        self.transcript
    }

    /// The number of public inputs (one instance column).
    pub fn num_public_inputs(&self) -> usize {
        PublicInputs::count(self.cfg.statement.circuit, &self.shape)
    }

    /// The configuration.
    pub fn config(&self) -> &Halo2Config {
        &self.cfg
    }

    /// The tree shape.
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// The circuit parameters.
    pub fn circuit_params(&self) -> &CircuitParams {
        &self.params
    }

    /// Rows, columns, degree, `k`.
    pub fn stats(&self) -> Result<CircuitStats, Halo2Error> {
        circuit_stats(&self.params)
    }

    /// Statistics completed with the fixed-column count after selector
    /// compression (from the verifying key).
    pub fn stats_with_keys(&self, keys: &Keys) -> Result<CircuitStats, Halo2Error> {
        let mut s = self.stats()?;
        s.fixed_columns_compressed = Some(keys.vk().cs().num_fixed_columns());
        Ok(s)
    }

    /// A random witness for this circuit.
    pub fn random_witness<R: rand::Rng>(&self, rng: &mut R) -> Witness {
        Witness::random(rng, self.cfg.statement.circuit, &self.shape)
    }

    /// Native computation of the public inputs of `witness`.
    pub fn public_inputs(&self, witness: &Witness) -> Result<PublicInputs, Halo2Error> {
        self.check_kind(witness)?;
        Ok(PublicInputs::compute(&self.native, &self.shape, witness)?)
    }

    fn check_kind(&self, witness: &Witness) -> Result<(), Halo2Error> {
        if witness.kind() != self.cfg.statement.circuit {
            return Err(Halo2Error::Witness(format!(
                "a {} witness was given to the {} circuit",
                witness.kind(),
                self.cfg.statement.circuit
            )));
        }
        Ok(())
    }

    fn circuit(&self, witness: Option<Witness>) -> StatementCircuit {
        StatementCircuit {
            params: self.params.clone(),
            witness,
        }
    }

    /// Runs halo2's MockProver on `witness` against `public` (which need not
    /// be the witness's own public inputs): `Ok(())` iff every constraint holds.
    pub fn mock_check(&self, witness: &Witness, public: &PublicInputs) -> Result<(), Halo2Error> {
        self.check_kind(witness)?;
        let k = self.stats()?.k;
        let instance: Vec<Fr> = public.0.iter().map(fr_from_ark).collect();
        let prover = MockProver::run(k, &self.circuit(Some(witness.clone())), vec![instance])?;
        prover.verify().map_err(|e| {
            Halo2Error::Witness(format!(
                "{} constraint failures, first: {}",
                e.len(),
                e.first().map(|f| format!("{f}")).unwrap_or_default()
            ))
        })
    }

    /// SRS loading and key generation.
    pub fn keygen(&self, srs: &Srs) -> Result<Keys, Halo2Error> {
        let k = self.stats()?.k;
        let params = srs.load(k)?;
        let c = self.circuit(None);
        // Selector compression on (halo2-axiom's `keygen_vk` turns it off).
        let vk = keygen_vk_custom(&params, &c, true)?;
        let pk = keygen_pk(&params, vk, &c)?;
        Ok(Keys::new(params, pk, srs))
    }

    /// Where [`Halo2Circuit::load_or_keygen`] keeps the proving key.
    pub fn key_path(&self, dir: &Path, srs: &Srs) -> Result<PathBuf, Halo2Error> {
        Ok(dir.join(format!("{}.pk", self.cfg.cache_key(srs)?)))
    }

    /// Keys from the cache directory `dir` (keyed by every parameter and the
    /// SRS label), or fresh ones written there. Returns the keys and whether
    /// they came from the cache.
    pub fn load_or_keygen(&self, dir: &Path, srs: &Srs) -> Result<(Keys, bool), Halo2Error> {
        if self.key_path(dir, srs)?.exists() {
            return Ok((self.read_keys(dir, srs)?, true));
        }
        let keys = self.keygen(srs)?;
        self.write_keys(dir, srs, &keys)?;
        Ok((keys, false))
    }

    /// Reads the proving key that [`Halo2Circuit::write_keys`] wrote into
    /// `dir` for `srs`, and loads the SRS.
    pub fn read_keys(&self, dir: &Path, srs: &Srs) -> Result<Keys, Halo2Error> {
        let path = self.key_path(dir, srs)?;
        let k = self.stats()?.k;
        let params = srs.load(k)?;
        let f = File::open(&path).map_err(|e| Halo2Error::io(&path, e))?;
        let pk = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ProvingKey::<G1Affine>::read::<_, StatementCircuit>(
                &mut BufReader::new(f),
                SerdeFormat::RawBytes,
                self.params.clone(),
            )
        }))
        .map_err(|_| Halo2Error::decode(path.display().to_string(), "corrupt proving key"))?
        .map_err(|e| Halo2Error::decode(path.display().to_string(), e.to_string()))?;
        Ok(Keys::new(params, pk, srs))
    }

    /// The keys as one byte string, for serving as a static file or storing
    /// in a browser (`zkbench-wasm`): the KZG parameters (`ParamsKZG::write`)
    /// and the proving key (`SerdeFormat::RawBytes`), each after its length
    /// as a little-endian `u64`. [`Halo2Circuit::keys_from_bytes`] reads it
    /// back.
    pub fn keys_to_bytes(&self, keys: &Keys) -> Result<Vec<u8>, Halo2Error> {
        let what = "keys";
        let mut params = Vec::new();
        keys.params
            .write(&mut params)
            .map_err(|e| Halo2Error::decode(what, e.to_string()))?;
        let mut pk = Vec::new();
        keys.pk
            .write(&mut pk, SerdeFormat::RawBytes)
            .map_err(|e| Halo2Error::decode(what, e.to_string()))?;
        let mut out = Vec::with_capacity(16 + params.len() + pk.len());
        for part in [&params, &pk] {
            out.extend_from_slice(&(part.len() as u64).to_le_bytes());
            out.extend_from_slice(part);
        }
        Ok(out)
    }

    /// Decodes [`Halo2Circuit::keys_to_bytes`]' output for this circuit
    /// (`srs` gives the label and the test-setup flag; its parameters are not
    /// loaded); an error (never a panic) for damaged or foreign bytes.
    pub fn keys_from_bytes(&self, data: &[u8], srs: &Srs) -> Result<Keys, Halo2Error> {
        let what = "keys";
        let mut rest = data;
        let mut part = || -> Result<&[u8], Halo2Error> {
            let (len, tail) = rest
                .split_first_chunk::<8>()
                .ok_or_else(|| Halo2Error::decode(what, "truncated length"))?;
            let len = usize::try_from(u64::from_le_bytes(*len))
                .map_err(|_| Halo2Error::decode(what, "length out of range"))?;
            if tail.len() < len {
                return Err(Halo2Error::decode(what, "truncated"));
            }
            let (p, t) = tail.split_at(len);
            rest = t;
            Ok(p)
        };
        let mut params_bytes = part()?;
        let mut pk_bytes = part()?;
        if !rest.is_empty() {
            return Err(Halo2Error::decode(what, "trailing bytes"));
        }
        let k = self.stats()?.k;
        // halo2curves unwraps short reads inside point decoding: a panic there is
        // turned into an error.
        let params = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ParamsKZG::<Bn256>::read(&mut params_bytes)
        }))
        .map_err(|_| Halo2Error::decode(what, "corrupt parameters"))?
        .map_err(|e| Halo2Error::decode(what, e.to_string()))?;
        if params.k() != k {
            return Err(Halo2Error::decode(
                what,
                format!(
                    "parameters have k = {}, the circuit needs k = {k}",
                    params.k()
                ),
            ));
        }
        let pk = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ProvingKey::<G1Affine>::read::<_, StatementCircuit>(
                &mut pk_bytes,
                SerdeFormat::RawBytes,
                self.params.clone(),
            )
        }))
        .map_err(|_| Halo2Error::decode(what, "corrupt proving key"))?
        .map_err(|e| Halo2Error::decode(what, e.to_string()))?;
        Ok(Keys::new(params, pk, srs))
    }

    /// Writes the proving key into the cache directory `dir` (atomically:
    /// a temporary file renamed into place); returns its path.
    pub fn write_keys(&self, dir: &Path, srs: &Srs, keys: &Keys) -> Result<PathBuf, Halo2Error> {
        let path = self.key_path(dir, srs)?;
        std::fs::create_dir_all(dir).map_err(|e| Halo2Error::io(dir, e))?;
        let tmp = path.with_extension("pk.tmp");
        let f = File::create(&tmp).map_err(|e| Halo2Error::io(&tmp, e))?;
        let mut w = BufWriter::new(f);
        keys.pk
            .write(&mut w, SerdeFormat::RawBytes)
            .and_then(|_| w.flush())
            .map_err(|e| Halo2Error::io(&tmp, e))?;
        drop(w);
        std::fs::rename(&tmp, &path).map_err(|e| Halo2Error::io(&path, e))?;
        Ok(path)
    }

    /// Proves `witness`: native witness generation (timed as `witness`),
    /// then `create_proof` (timed as `prove`).
    pub fn prove<R: RngCore>(
        &self,
        keys: &Keys,
        witness: &Witness,
        rng: &mut R,
    ) -> Result<(ProofOutput, PhaseTimings), Halo2Error> {
        let t0 = Instant::now();
        let public = self.public_inputs(witness)?;
        let t1 = Instant::now();
        let proof = self.prove_with_public(keys, witness, &public, rng)?;
        let t2 = Instant::now();
        Ok((
            ProofOutput { proof, public },
            PhaseTimings {
                witness: Some(t1 - t0),
                prove: Some(t2 - t1),
                ..Default::default()
            },
        ))
    }
}

impl Halo2Circuit {
    /// `create_proof` for `witness` whose public inputs `public` were
    /// computed already ([`Halo2Circuit::public_inputs`]).
    pub fn prove_with_public<R: RngCore>(
        &self,
        keys: &Keys,
        witness: &Witness,
        public: &PublicInputs,
        rng: &mut R,
    ) -> Result<Vec<u8>, Halo2Error> {
        self.check_kind(witness)?;
        let instance: Vec<Fr> = public.0.iter().map(fr_from_ark).collect();
        prove_raw_with(
            keys,
            self.circuit(Some(witness.clone())),
            &instance,
            rng,
            self.transcript,
        )
    }
}

/// Runs `f` on a worker of a rayon pool no larger than the machine and with
/// at most one thread per `zkbench_msm::ROWS_PER_THREAD` of the circuit's
/// `rows` (with the `parallel` feature; `zkbench_msm::on_at_most`): `create_proof` opens
/// hundreds of small parallel regions at k = 8, and from a thread outside the
/// pool every one of them is a job injected into the pool and a sleep until
/// it is done (a futex wait and a wake-up), where from a worker it is a
/// fork-join in the pool; in a pool larger than the machine the idle workers
/// of every region spin on the cores the busy ones need (2.6x the CPU time
/// of one thread at 16 threads on 2 cores). One injection per proof.
fn in_pool<T: Send>(rows: usize, f: impl FnOnce() -> T + Send) -> T {
    #[cfg(feature = "parallel")]
    {
        zkbench_msm::on_at_most(zkbench_msm::threads_for_rows(rows), f)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = rows;
        f()
    }
}

/// `create_proof` with SHPLONK and the given transcript.
fn prove_raw_with<R: RngCore>(
    keys: &Keys,
    circuit: StatementCircuit,
    instance: &[Fr],
    rng: &mut R,
    transcript: Transcript,
) -> Result<Vec<u8>, Halo2Error> {
    /// One `create_proof` call per transcript type: halo2 makes the
    /// transcript and its challenge encoding type parameters.
    fn run<E, T, R>(
        keys: &Keys,
        circuit: StatementCircuit,
        instance: &[Fr],
        rng: &mut R,
    ) -> Result<Vec<u8>, Halo2Error>
    where
        E: halo2_axiom::transcript::EncodedChallenge<G1Affine>,
        T: TranscriptWriterBuffer<Vec<u8>, G1Affine, E>,
        R: RngCore,
    {
        // the proof's randomness, drawn from `rng`, in an RNG that can move
        // to the thread pool (`rng` need not be `Send`)
        let mut seed = <ChaCha20Rng as SeedableRng>::Seed::default();
        rng.fill_bytes(&mut seed);
        let mut rng = ChaCha20Rng::from_seed(seed);
        let rows = 1usize << keys.commit_params().k();
        in_pool(rows, move || {
            let mut t = T::init(vec![]);
            create_proof::<FastKzg, FastShplonk<'_>, E, _, T, _>(
                keys.commit_params(),
                &keys.pk,
                &[circuit],
                &[&[instance]],
                &mut rng,
                &mut t,
            )?;
            Ok(t.finalize())
        })
    }
    match transcript {
        Transcript::Blake2b => {
            run::<Challenge255<G1Affine>, Blake2bWrite<Vec<u8>, G1Affine, Challenge255<G1Affine>>, R>(
                keys, circuit, instance, rng,
            )
        }
        #[cfg(feature = "evm")]
        Transcript::Keccak => run::<evm::Challenge, evm::Writer, R>(keys, circuit, instance, rng),
        #[cfg(not(feature = "evm"))]
        Transcript::Keccak => Err(evm_feature_missing()),
    }
}

/// The Keccak transcript types of snark-verifier.
#[cfg(feature = "evm")]
mod evm {
    use super::G1Affine;
    use snark_verifier::{loader::native::NativeLoader, system::halo2::transcript::evm};

    pub type Challenge = evm::ChallengeEvm<G1Affine>;
    pub type Writer = evm::EvmTranscript<G1Affine, NativeLoader, Vec<u8>, Vec<u8>>;
    pub type Reader<'a> = evm::EvmTranscript<G1Affine, NativeLoader, super::Tracked<'a>, Vec<u8>>;
}

#[cfg(not(feature = "evm"))]
fn evm_feature_missing() -> Halo2Error {
    Halo2Error::Config(
        "the Keccak (EVM) transcript needs zkbench-halo2's `evm` feature, which this build lacks"
            .into(),
    )
}

/// Verifies `proof` for `public` under `vk` with `transcript`. A wrong
/// number of public inputs is an error; an invalid or malformed proof
/// (including a valid one with trailing bytes, or a point or scalar with a
/// second encoding) is `Ok(false)`. Never panics on malformed proof bytes (a
/// panic inside halo2 is caught and reported as `Ok(false)`).
pub fn verify_with(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    public: &PublicInputs,
    proof: &[u8],
    transcript: Transcript,
) -> Result<bool, Halo2Error> {
    if !canonical_encoding(proof, transcript) {
        return Ok(false);
    }
    let instance: Vec<Fr> = public.0.iter().map(fr_from_ark).collect();
    let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        verify_exact(params, vk, &instance, proof, transcript)
    }));
    Ok(res.unwrap_or(false))
}

/// Whether `proof` is a canonical encoding for `transcript`: every element
/// has one encoding, so no two byte strings are the same proof.
fn canonical_encoding(proof: &[u8], transcript: Transcript) -> bool {
    match transcript {
        Transcript::Blake2b => canonical_transcript(proof),
        // EvmTranscript reads points as (x, y) with x, y < q on the curve and
        // scalars below r (non-canonical encodings are read errors), so every
        // element has one encoding; the length check is all that is left
        Transcript::Keccak => proof.len().is_multiple_of(32),
    }
}

/// Whether `proof` verifies for `instance` under `vk` with `transcript` and
/// the transcript reads all of it. May panic on malformed bytes (inside
/// halo2): [`verify_with`] catches that.
fn verify_exact(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instance: &[Fr],
    proof: &[u8],
    transcript: Transcript,
) -> bool {
    let read = std::cell::Cell::new(0);
    let reader = Tracked {
        data: proof,
        read: &read,
    };
    let ok = match transcript {
        Transcript::Blake2b => verify_transcript::<
            Challenge255<G1Affine>,
            Blake2bRead<Tracked<'_>, G1Affine, Challenge255<G1Affine>>,
        >(params, vk, instance, reader),
        #[cfg(feature = "evm")]
        Transcript::Keccak => {
            verify_transcript::<evm::Challenge, evm::Reader<'_>>(params, vk, instance, reader)
        }
        #[cfg(not(feature = "evm"))]
        Transcript::Keccak => false,
    };
    // A proof is exactly its transcript: trailing bytes are rejected, so
    // that no two byte strings are the same valid proof.
    ok && read.get() == proof.len()
}

/// One `verify_proof` call per transcript type, reading through a
/// [`Tracked`] reader so that the bytes left unread can be counted.
fn verify_transcript<'a, E, T>(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instance: &[Fr],
    proof: Tracked<'a>,
) -> bool
where
    E: halo2_axiom::transcript::EncodedChallenge<G1Affine>,
    T: TranscriptReadBuffer<Tracked<'a>, G1Affine, E>,
{
    let strategy = SingleStrategy::new(params);
    let mut transcript = T::init(proof);
    verify_proof::<
        KZGCommitmentScheme<Bn256>,
        VerifierSHPLONK<'_, Bn256>,
        E,
        T,
        SingleStrategy<'_, Bn256>,
    >(
        params.verifier_params(),
        vk,
        strategy,
        &[&[instance]],
        &mut transcript,
    )
    .is_ok()
}

/// A reader over proof bytes that counts what the transcript consumed
/// (halo2's transcripts do not give their reader back).
struct Tracked<'a> {
    data: &'a [u8],
    read: &'a std::cell::Cell<usize>,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let pos = self.read.get();
        let n = buf.len().min(self.data.len() - pos);
        buf[..n].copy_from_slice(&self.data[pos..pos + n]);
        self.read.set(pos + n);
        Ok(n)
    }
}

/// Whether `proof` is a sequence of 32-byte elements none of which is a
/// second encoding of a point. Every element of this transcript (compressed
/// G1 points, scalars) is 32 bytes; a scalar below r never has bit 255 set,
/// and halo2curves' compressed-point decoding *ignores* bit 255 (the
/// identity flag) for a non-identity point, so flipping it would give a
/// different byte string that verifies as the same proof (found by
/// `zkbench audit --fuzz`). Bit 255 is therefore only accepted in the
/// canonical identity encoding.
fn canonical_transcript(proof: &[u8]) -> bool {
    proof.len().is_multiple_of(32)
        && proof
            .chunks_exact(32)
            .all(|c| c[31] & 0x80 == 0 || (c[31] == 0x80 && c[..31].iter().all(|&b| b == 0)))
}

/// Checks the public-input count, then [`verify_with`] with the circuit's
/// transcript.
pub fn verify_for(
    circuit: &Halo2Circuit,
    keys: &Keys,
    public: &PublicInputs,
    proof: &[u8],
) -> Result<bool, Halo2Error> {
    let expected = PublicInputs::count(circuit.cfg.statement.circuit, &circuit.shape);
    if public.0.len() != expected {
        return Err(Halo2Error::Witness(format!(
            "{} public inputs given, the circuit expects {expected}",
            public.0.len()
        )));
    }
    verify_with(&keys.params, keys.vk(), public, proof, circuit.transcript)
}

/// Everything a proof directory holds besides the proof bytes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArtifactMeta {
    /// `"halo2-kzg"`.
    pub system: String,
    /// Format version.
    pub version: u32,
    /// The configuration.
    pub config: Halo2Config,
    /// The SRS.
    pub srs: Srs,
    /// `true` for the unsafe test SRS.
    pub test_setup: bool,
    /// A warning in words when `test_setup`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Public inputs as decimal strings, in circuit order.
    pub public_inputs: Vec<String>,
    /// Proof size in bytes.
    pub proof_size: usize,
    /// The proof's transcript (absent: Blake2b, as before it was recorded).
    #[serde(default, skip_serializing_if = "Transcript::is_default")]
    pub transcript: Transcript,
    /// Circuit statistics.
    pub stats: CircuitStats,
}

/// Writes `proof.bin`, `public.json` (decimal public inputs), `meta.json`
/// and `vk.bin` into `dir`.
pub fn write_artifacts(
    dir: &Path,
    circuit: &Halo2Circuit,
    keys: &Keys,
    srs: &Srs,
    out: &ProofOutput,
) -> Result<(), Halo2Error> {
    std::fs::create_dir_all(dir).map_err(|e| Halo2Error::io(dir, e))?;
    let public: Vec<String> = out
        .public
        .0
        .iter()
        .map(|x| fr_to_decimal(&fr_from_ark(x)))
        .collect();
    let meta = ArtifactMeta {
        system: "halo2-kzg".into(),
        version: FORMAT_VERSION,
        config: circuit.cfg.clone(),
        srs: srs.clone(),
        test_setup: keys.test_setup,
        warning: keys.test_setup.then(|| {
            "UNSAFE TEST SRS: tau is derivable from the seed; proofs under it prove nothing".into()
        }),
        public_inputs: public.clone(),
        proof_size: out.proof.len(),
        transcript: circuit.transcript,
        stats: circuit.stats_with_keys(keys)?,
    };
    let write = |name: &str, bytes: &[u8]| -> Result<(), Halo2Error> {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(|e| Halo2Error::io(&p, e))
    };
    write("proof.bin", &out.proof)?;
    write(
        "public.json",
        serde_json::to_string_pretty(&public)
            .expect("json")
            .as_bytes(),
    )?;
    write(
        "meta.json",
        serde_json::to_string_pretty(&meta)
            .expect("json")
            .as_bytes(),
    )?;
    let mut vk = vec![];
    keys.vk()
        .write(&mut vk, SerdeFormat::RawBytes)
        .map_err(|e| Halo2Error::io(dir.join("vk.bin"), e))?;
    write("vk.bin", &vk)?;
    Ok(())
}

/// Reads `meta.json`, `public.json` and `proof.bin` from `dir`.
pub fn read_artifacts(dir: &Path) -> Result<(ArtifactMeta, ProofOutput), Halo2Error> {
    let read = |name: &str| -> Result<Vec<u8>, Halo2Error> {
        let p = dir.join(name);
        let mut v = vec![];
        File::open(&p)
            .and_then(|mut f| f.read_to_end(&mut v))
            .map_err(|e| Halo2Error::io(&p, e))?;
        Ok(v)
    };
    let meta: ArtifactMeta = serde_json::from_slice(&read("meta.json")?).map_err(|e| {
        Halo2Error::decode(dir.join("meta.json").display().to_string(), e.to_string())
    })?;
    let public: Vec<String> = serde_json::from_slice(&read("public.json")?).map_err(|e| {
        Halo2Error::decode(dir.join("public.json").display().to_string(), e.to_string())
    })?;
    let public = public
        .iter()
        .map(|s| zkbench_hash::field::parse_fr(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            Halo2Error::decode(dir.join("public.json").display().to_string(), e.to_string())
        })?;
    let proof = read("proof.bin")?;
    Ok((
        meta,
        ProofOutput {
            proof,
            public: PublicInputs(public),
        },
    ))
}

/// A proof directory read back: `meta.json`, the proof, and the circuit and
/// keys it was made with.
pub struct ProofDir {
    /// The directory's `meta.json`.
    pub meta: ArtifactMeta,
    /// The circuit of `meta.config`, with the proof's transcript.
    pub circuit: Halo2Circuit,
    /// Its keys under the recorded SRS.
    pub keys: Keys,
    /// The proof and its public inputs.
    pub out: ProofOutput,
}

impl ProofDir {
    /// Reads `dir` (`meta.json`, `public.json`, `proof.bin`), rebuilds the
    /// circuit from `meta.json` and loads or generates its keys (cache
    /// `key_dir`) under the recorded SRS.
    pub fn open(dir: &Path, key_dir: &Path) -> Result<Self, Halo2Error> {
        let (meta, out) = read_artifacts(dir)?;
        let circuit = Halo2Circuit::new(&meta.config)?.with_transcript(meta.transcript);
        let (keys, _) = circuit.load_or_keygen(key_dir, &meta.srs)?;
        Ok(Self {
            meta,
            circuit,
            keys,
            out,
        })
    }

    /// Verifies the proof ([`verify_for`]).
    pub fn verify(&self) -> Result<bool, Halo2Error> {
        verify_for(&self.circuit, &self.keys, &self.out.public, &self.out.proof)
    }
}

/// Re-checks a proof directory: [`ProofDir::open`], then
/// [`ProofDir::verify`].
pub fn verify_dir(dir: &Path, key_dir: &Path) -> Result<(bool, ArtifactMeta), Halo2Error> {
    let d = ProofDir::open(dir, key_dir)?;
    let ok = d.verify()?;
    Ok((ok, d.meta))
}

/// Keys with where they came from and how long that took.
pub struct TimedKeys {
    /// The keys.
    pub keys: Keys,
    /// `true` when they were read from the key cache, `false` when generated.
    pub cached: bool,
    /// Time to load or generate them.
    pub setup: std::time::Duration,
}

/// A random witness drawn from `ChaCha20Rng::seed_from_u64(seed)`, proved
/// and verified: the proof, its timings (`witness`, `prove`, `verify`; plus
/// `setup`) and whether it verifies.
fn prove_random(
    circuit: &Halo2Circuit,
    keys: &Keys,
    setup: std::time::Duration,
    seed: u64,
) -> Result<(ProofOutput, PhaseTimings, bool), Halo2Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let witness = circuit.random_witness(&mut rng);
    let (out, mut timings) = circuit.prove(keys, &witness, &mut rng)?;
    let t1 = Instant::now();
    let ok = verify_for(circuit, keys, &out.public, &out.proof)?;
    timings.verify = Some(t1.elapsed());
    timings.setup = Some(setup);
    Ok((out, timings, ok))
}

/// `zkbench prove --system halo2-kzg`: the circuit of a statement with the
/// transcript's chip layout, a transcript and an SRS; keys from a cache, a proof
/// of a random witness, checked and written as a proof directory
/// ([`write_artifacts`]).
pub struct DirProver {
    circuit: Halo2Circuit,
    srs: Srs,
}

/// What [`DirProver::prove_into`] made.
pub struct DirProof {
    /// The proof and its public inputs.
    pub out: ProofOutput,
    /// `setup`, `witness`, `prove` and `verify`.
    pub timings: PhaseTimings,
    /// Whether the fresh proof verifies; when it does not, nothing was written.
    pub verified: bool,
}

impl DirProver {
    /// The circuit of `statement` (the transcript's chip layout,
    /// [`Transcript::chip_layout`]) proving with `transcript`, with keys
    /// under `srs`.
    pub fn new(
        statement: StatementConfig,
        transcript: Transcript,
        srs: Srs,
    ) -> Result<Self, Halo2Error> {
        let cfg = Halo2Config::for_transcript(statement, transcript);
        let circuit = Halo2Circuit::new(&cfg)?.with_transcript(transcript);
        Ok(Self { circuit, srs })
    }

    /// The circuit.
    pub fn circuit(&self) -> &Halo2Circuit {
        &self.circuit
    }

    /// The SRS.
    pub fn srs(&self) -> &Srs {
        &self.srs
    }

    /// Keys from the cache directory `key_dir`, or generated and written
    /// there ([`Halo2Circuit::load_or_keygen`]); timed.
    pub fn keys(&self, key_dir: &Path) -> Result<TimedKeys, Halo2Error> {
        let t0 = Instant::now();
        let (keys, cached) = self.circuit.load_or_keygen(key_dir, &self.srs)?;
        Ok(TimedKeys {
            keys,
            cached,
            setup: t0.elapsed(),
        })
    }

    /// Proves a random witness drawn from `ChaCha20Rng::seed_from_u64(seed)`,
    /// verifies the proof and, when it verifies, writes the proof directory
    /// `out` ([`write_artifacts`]).
    pub fn prove_into(
        &self,
        keys: &TimedKeys,
        seed: u64,
        out: &Path,
    ) -> Result<DirProof, Halo2Error> {
        let (proof, timings, verified) = prove_random(&self.circuit, &keys.keys, keys.setup, seed)?;
        if verified {
            write_artifacts(out, &self.circuit, &keys.keys, &self.srs, &proof)?;
        }
        Ok(DirProof {
            out: proof,
            timings,
            verified,
        })
    }
}

/// One full run: keys (cached in `key_dir`), a random witness from `seed`,
/// proof, verification; with timings.
pub fn run_once(
    cfg: &Halo2Config,
    srs: &Srs,
    key_dir: Option<&Path>,
    seed: u64,
) -> Result<(Halo2Circuit, Keys, ProofOutput, PhaseTimings, bool), Halo2Error> {
    let circuit = Halo2Circuit::new(cfg)?;
    let t0 = Instant::now();
    let keys = match key_dir {
        Some(d) => circuit.load_or_keygen(d, srs)?.0,
        None => circuit.keygen(srs)?,
    };
    let (out, timings, ok) = prove_random(&circuit, &keys, t0.elapsed(), seed)?;
    Ok((circuit, keys, out, timings, ok))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A proof of 2^k rows runs on a pool worker with at most one thread
    /// per `zkbench_msm::ROWS_PER_THREAD` rows (and no more than the
    /// machine's CPUs).
    #[cfg(feature = "parallel")]
    #[test]
    fn prover_pool_follows_the_rows() {
        let big = rayon::ThreadPoolBuilder::new()
            .num_threads(16)
            .build()
            .unwrap();
        let cores = std::thread::available_parallelism().map_or(16, |n| n.get());
        big.install(|| {
            assert_eq!(in_pool(32, rayon::current_num_threads), 1);
            assert_eq!(in_pool(256, rayon::current_num_threads), cores.min(8));
            assert!(in_pool(256, || rayon::current_thread_index().is_some()));
        });
    }

    /// The prover's commitments through zkbench's MSM (`commit::FastKzg`)
    /// are halo2-axiom's: with the same keys, witness and randomness, the
    /// two provers write the same transcript up to the vanishing argument's
    /// random polynomial, which halo2-axiom draws from `thread_rng` (every
    /// advice column's and the permutation product's commitment), and both
    /// proofs verify.
    #[test]
    fn fast_commitments_are_halo2s() {
        let circuit = Halo2Circuit::new(&Halo2Config::zkos_like()).unwrap();
        let keys = circuit.keygen(&Srs::TestSetup { seed: 1 }).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let witness = circuit.random_witness(&mut rng);
        let public = circuit.public_inputs(&witness).unwrap();
        let instance: Vec<Fr> = public.0.iter().map(fr_from_ark).collect();
        let ours = prove_raw_with(
            &keys,
            circuit.circuit(Some(witness.clone())),
            &instance,
            &mut ChaCha20Rng::seed_from_u64(9),
            Transcript::Blake2b,
        )
        .unwrap();
        // halo2-axiom's own KZG prover, the same seed drawn the same way
        let mut seed = <ChaCha20Rng as SeedableRng>::Seed::default();
        ChaCha20Rng::seed_from_u64(9).fill_bytes(&mut seed);
        let mut t = Blake2bWrite::<Vec<u8>, G1Affine, Challenge255<G1Affine>>::init(vec![]);
        create_proof::<
            KZGCommitmentScheme<Bn256>,
            halo2_axiom::poly::kzg::multiopen::ProverSHPLONK<'_, Bn256>,
            _,
            _,
            _,
            _,
        >(
            &keys.params,
            &keys.pk,
            &[circuit.circuit(Some(witness))],
            &[&[&instance]],
            ChaCha20Rng::from_seed(seed),
            &mut t,
        )
        .unwrap();
        let theirs = t.finalize();
        let same = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
        let commitments = keys.vk().cs().num_advice_columns() + 1;
        assert!(same >= 32 * commitments, "first {same} bytes equal");
        assert!(verify_for(&circuit, &keys, &public, &ours).unwrap());
        assert!(verify_for(&circuit, &keys, &public, &theirs).unwrap());
    }
}
