//! The proof measurement loop, written once for every [`ProofSystem`]:
//! [`ProofBackend<P>`] adapts a proof system to the harness's [`Backend`].
//!
//! Each proof case is measured phase by phase:
//!
//! | phase | what is timed |
//! |---|---|
//! | `setup` | circuit-specific key generation (one sample: it is the most expensive phase) |
//! | `prove_cold` | a proof in a fresh state: keys read from disk and witness ([`ProofSystem::read_keys_and_witness`]: at once where the backend overlaps them), then the proof ([`COLD_SAMPLES`] such proofs, each reading the keys again) |
//! | `witness` | witness generation ([`ProofSystem::witness`]) |
//! | `prove` | the prover proper from a ready witness, warm keys; Groth16's record carries the median of each part of the prover as `metrics.phase_<name>_s` (`h`, `msm_a`, `msm_b_g1`, `msm_b_g2`, `msm_c`, `msm_h`, `rest`; see `zkbench_groth16::prover::ProveTimings`) |
//! | `verify` | verification |
//! | `msm` | R1CS backends only: one G1 multi-scalar multiplication with as many points as the circuit has constraints (the unit the prover cost is usually compared with) |

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_std::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_core::{
    fuzz::{fuzz_verifier, FuzzReport},
    statement::{PublicInputs, StatementConfig, Witness},
    CaseStatement, Metrics, PhaseParts, ProofSystem,
};

use crate::{
    backend::{AuditOutcome, Backend},
    case::{Case, CaseKind},
    measure::{self, PhaseSamples},
    results::{Record, Status},
    suite::Profile,
    sys::Environment,
};

/// Cold proofs per case: each reads the keys from disk again and proves
/// (the page cache holds the files, as it does for a user's second run); the
/// median of three is steadier than one sample on a shared machine.
pub const COLD_SAMPLES: usize = 3;

/// Seed of the deterministic **test** setup used by benchmarks (toxic waste
/// known): Groth16 keys and the Halo2 KZG SRS.
pub const BENCH_SETUP_SEED: u64 = 0x007a_6b62_656e_6368;

/// A [`ProofSystem`] as a benchmark [`Backend`] for the proof cases whose
/// `system` is its name.
pub struct ProofBackend<P> {
    system: P,
}

impl<P: ProofSystem> ProofBackend<P> {
    /// The backend of `system`.
    pub fn new(system: P) -> Self {
        Self { system }
    }

    /// The proof system.
    pub fn system(&self) -> &P {
        &self.system
    }

    fn measure(
        &self,
        case: &Case,
        profile: &Profile,
        env: &Environment,
    ) -> Result<Vec<Record>, (String, Vec<Record>)> {
        let sys = &self.system;
        let mut out = Vec::new();
        macro_rules! tri {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => return Err((e, out)),
                }
            };
            ($e:expr, $what:expr) => {
                tri!(phase_err($e, $what))
            };
        }
        let cfg = tri!(case.statement_config(), "configuration");
        let circuit = tri!(sys.circuit(&cfg), "circuit");
        let metrics = tri!(sys.circuit_metrics(&circuit), "circuit statistics");
        let (keys, s) = tri!(
            measure::once(|| sys.setup(&circuit, BENCH_SETUP_SEED)),
            "setup"
        );
        let base = RecordBase {
            case,
            env,
            // transparent systems (the STARKs) have no toxic waste
            test_setup: sys.is_test_setup(&keys),
            metrics: &metrics,
        };
        let none = Metrics::new();

        out.push(base.record("setup", s, &sys.key_metrics(&keys)));

        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let (witness, s) = tri!(self.cold_prove(&cfg, &circuit, &keys, &mut rng));
        out.push(base.record("prove_cold", s, &none));

        let (prepared, s) = tri!(self.sample_witness(profile, &circuit, &witness));
        out.push(base.record("witness", s, &none));

        let (proof, parts, s) =
            tri!(self.sample_prove(profile, &circuit, &keys, &prepared, &mut rng));
        let size = proof_size_metrics(&sys.proof_to_bytes(&proof));
        let prove_rec = base.prove_record(s, &size, &parts);

        let public = sys.public_inputs(&circuit, &prepared);
        let s = tri!(self.sample_verify(profile, &circuit, &keys, &public, &proof));
        let verify_rec = base.record("verify", s, &size);

        // R1CS backends: one G1 MSM with as many (random) bases as constraints.
        let msm = match metrics.get("constraints") {
            Some(&n) => Some(tri!(reference_msm(n as usize, profile, &mut rng), "msm")),
            None => None,
        };
        push_prove_records(&mut out, case, env, prove_rec, verify_rec, msm);
        Ok(out)
    }

    /// Cold proofs: writes the keys to a temporary directory (the CLI's cache
    /// layout), draws the witness, then times [`COLD_SAMPLES`] proofs that each
    /// read the keys from disk, prepare the witness and prove.
    fn cold_prove(
        &self,
        cfg: &StatementConfig,
        circuit: &P::Circuit,
        keys: &P::Keys,
        rng: &mut ChaCha20Rng,
    ) -> Result<(Witness, PhaseSamples), String> {
        let sys = &self.system;
        let dir = std::env::temp_dir().join(format!(
            "zkbench-keys-{}-{}",
            sys.name(),
            std::process::id()
        ));
        let written = sys.write_keys(circuit, keys, &dir, BENCH_SETUP_SEED);
        phase_err(written, "writing the proving key")?;
        let witness = zkbench_core::statement::Witness::random(
            &mut *rng,
            cfg.circuit,
            &phase_err(cfg.shape(), "tree shape")?,
        );
        let cold = measure::fresh(COLD_SAMPLES, || -> Result<_, P::Error> {
            let (k, w) = sys.read_keys_and_witness(circuit, &dir, BENCH_SETUP_SEED, &witness)?;
            let proof = sys.prove(circuit, &k, &w, &mut *rng)?;
            // the keys go out with the proof, so that freeing them (tens of
            // MiB of tables, a mapping) is not timed: the proof was ready
            Ok((k, proof))
        });
        let _ = std::fs::remove_dir_all(&dir);
        let s = phase_err(cold, "cold prove")?;
        Ok((witness, s))
    }

    /// Samples witness generation; returns the last prepared witness.
    fn sample_witness(
        &self,
        profile: &Profile,
        circuit: &P::Circuit,
        witness: &Witness,
    ) -> Result<(P::Witness, PhaseSamples), String> {
        let sys = &self.system;
        let mut prepared = None;
        let s = phase_err(
            measure::sample(profile, || {
                prepared = Some(sys.witness(circuit, witness)?);
                Ok::<_, P::Error>(())
            }),
            "witness",
        )?;
        let prepared = prepared.expect("sampled at least once");
        Ok((prepared, s))
    }

    /// Samples the warm prover; returns the last proof and every sample's prover parts.
    fn sample_prove(
        &self,
        profile: &Profile,
        circuit: &P::Circuit,
        keys: &P::Keys,
        prepared: &P::Witness,
        rng: &mut ChaCha20Rng,
    ) -> Result<(P::Proof, Vec<PhaseParts>, PhaseSamples), String> {
        let sys = &self.system;
        let mut proof = None;
        let mut parts: Vec<Vec<(&'static str, f64)>> = Vec::new();
        let s = phase_err(
            measure::sample(profile, || {
                let (p, t) = sys.prove_with_phases(circuit, keys, prepared, &mut *rng)?;
                proof = Some(p);
                parts.push(t);
                Ok::<_, P::Error>(())
            }),
            "prove",
        )?;
        let proof = proof.expect("sampled at least once");
        Ok((proof, parts, s))
    }

    /// Samples verification of `proof` (a rejected proof is an error).
    fn sample_verify(
        &self,
        profile: &Profile,
        circuit: &P::Circuit,
        keys: &P::Keys,
        public: &PublicInputs,
        proof: &P::Proof,
    ) -> Result<PhaseSamples, String> {
        let sys = &self.system;
        phase_err(
            measure::sample(profile, || match sys.verify(circuit, keys, public, proof) {
                Ok(true) => Ok(()),
                Ok(false) => Err("the proof did not verify".to_string()),
                Err(e) => Err(e.to_string()),
            }),
            "verify",
        )
    }
}

/// Prefixes an error with the phase (or step) it came from: `"{what}: {e}"`.
fn phase_err<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e}"))
}

/// What every record of one proof case carries besides its samples.
struct RecordBase<'a> {
    /// The case measured.
    case: &'a Case,
    /// The machine it runs on.
    env: &'a Environment,
    /// Whether the keys come from a test setup (toxic waste known).
    test_setup: bool,
    /// The circuit's metrics.
    metrics: &'a Metrics,
}

impl RecordBase<'_> {
    /// The record of `phase`: samples `s`, the circuit's metrics and `extra`.
    fn record(&self, phase: &str, s: PhaseSamples, extra: &Metrics) -> Record {
        let mut r = Record::new(self.case, phase, rayon::current_num_threads(), self.env);
        r.set_samples(s.wall, s.cpu);
        r.peak_rss_bytes = s.peak_rss;
        r.test_setup = self.test_setup;
        r.metrics.extend(self.metrics.clone());
        r.metrics.extend(extra.clone());
        r
    }

    /// The `prove` record, with the medians of the prover's parts over the measured samples.
    fn prove_record(&self, s: PhaseSamples, size: &Metrics, parts: &[PhaseParts]) -> Record {
        let mut prove_rec = self.record("prove", s, size);
        // the measured samples are the last ones (after the warm-up runs)
        let measured = &parts[parts.len().saturating_sub(prove_rec.samples_s.len())..];
        prove_rec.metrics.extend(phase_medians(measured));
        prove_rec
    }
}

/// The proof's size metrics: its bytes and what carrying them in a transaction costs.
fn proof_size_metrics(proof_bytes: &[u8]) -> Metrics {
    Metrics::from([
        ("proof_bytes".to_string(), proof_bytes.len() as f64),
        // what carrying the proof's bytes in a transaction costs (EIP-2028)
        (
            "proof_calldata_gas".to_string(),
            zkbench_evm::calldata::calldata_gas(proof_bytes) as f64,
        ),
    ])
}

/// Pushes the prove and verify records, and the reference MSM's record (with
/// `prove_over_msm` on the prove record) when one was measured.
fn push_prove_records(
    out: &mut Vec<Record>,
    case: &Case,
    env: &Environment,
    mut prove_rec: Record,
    verify_rec: Record,
    msm: Option<(PhaseSamples, usize)>,
) {
    if let Some((s, n)) = msm {
        let mut msm = Record::new(case, "msm", rayon::current_num_threads(), env);
        msm.set_samples(s.wall, s.cpu);
        msm.peak_rss_bytes = s.peak_rss;
        msm.metrics.insert("msm_size".into(), n as f64);
        if let (Some(p), Some(m)) = (prove_rec.median(), msm.median()) {
            prove_rec.metrics.insert("prove_over_msm".into(), p / m);
        }
        out.push(prove_rec);
        out.push(verify_rec);
        out.push(msm);
    } else {
        out.push(prove_rec);
        out.push(verify_rec);
    }
}

/// `phase_<name>_s`: the median over the samples of each part of the prover
/// ([`ProofSystem::prove_with_phases`]); nothing when the system reports no parts.
pub fn phase_medians(samples: &[Vec<(&'static str, f64)>]) -> Metrics {
    let mut by_name: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for s in samples {
        for &(name, secs) in s {
            by_name.entry(name).or_default().push(secs);
        }
    }
    by_name
        .into_iter()
        .filter_map(|(name, v)| {
            crate::stats::Summary::of(&v).map(|s| (format!("phase_{name}_s"), s.median))
        })
        .collect()
}

/// Samples one BN254 G1 MSM of `n` random points (arkworks' `VariableBaseMSM`).
fn reference_msm(
    n: usize,
    profile: &Profile,
    rng: &mut ChaCha20Rng,
) -> Result<(PhaseSamples, usize), String> {
    let n = n.max(1);
    let bases = ark_bn254::G1Projective::normalize_batch(
        &(0..n)
            .map(|_| ark_bn254::G1Projective::rand(rng))
            .collect::<Vec<_>>(),
    );
    let scalars: Vec<ark_bn254::Fr> = (0..n).map(|_| ark_bn254::Fr::rand(rng)).collect();
    let s = measure::sample(profile, || {
        let p = ark_bn254::G1Projective::msm(&bases, &scalars)
            .map_err(|_| "msm length mismatch".to_string())?;
        let _ = std::hint::black_box(p.into_affine());
        Ok::<_, String>(())
    })?;
    Ok((s, n))
}

/// The records of a measurement; on failure, the phases measured so far plus
/// one error record carrying the reason.
pub fn records_or_failure(
    case: &Case,
    env: &Environment,
    result: Result<Vec<Record>, (String, Vec<Record>)>,
) -> Vec<Record> {
    match result {
        Ok(r) => r,
        Err((reason, mut done)) => {
            done.push(Record::failed(case, "all", Status::Error, reason, env));
            done
        }
    }
}

impl<P: ProofSystem> Backend for ProofBackend<P> {
    fn name(&self) -> &'static str {
        self.system.name()
    }

    fn description(&self) -> &'static str {
        self.system.description()
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Proof && case.system == self.system.name()
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        records_or_failure(case, env, self.measure(case, profile, env))
    }

    fn audit(&self, cfg: &StatementConfig, fuzz: u64, seed: u64) -> Option<AuditOutcome> {
        Some(self.audit_and_fuzz(cfg, fuzz, seed))
    }
}

impl<P: ProofSystem> ProofBackend<P> {
    fn audit_and_fuzz(&self, cfg: &StatementConfig, fuzz: u64, seed: u64) -> AuditOutcome {
        let sys = &self.system;
        let e = |what: &str, err: P::Error| format!("{what}: {err}");
        let circuit = sys.circuit(cfg).map_err(|x| e("circuit", x))?;
        let shape = cfg.shape().map_err(|x| x.to_string())?;
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let witness = Witness::random(&mut rng, cfg.circuit, &shape);
        let report = sys
            .audit(&circuit, &witness, &mut rng)
            .map_err(|x| e("audit", x))?
            .ok_or_else(|| format!("{} has no mutation audit", sys.name()))?;
        if fuzz == 0 {
            return Ok((report, None));
        }
        let keys = sys
            .setup(&circuit, BENCH_SETUP_SEED)
            .map_err(|x| e("setup", x))?;
        let prove = |w: &Witness, rng: &mut ChaCha20Rng| -> Result<_, String> {
            let prepared = sys.witness(&circuit, w).map_err(|x| e("witness", x))?;
            let proof = sys
                .prove(&circuit, &keys, &prepared, rng)
                .map_err(|x| e("prove", x))?;
            Ok((sys.public_inputs(&circuit, &prepared), proof))
        };
        let (public, proof) = prove(&witness, &mut rng)?;
        // a valid proof of another statement of the same circuit, for swaps
        let other = Witness::random(&mut rng, cfg.circuit, &shape);
        let (_, other_proof) = prove(&other, &mut rng)?;
        let other_bytes = sys.proof_to_bytes(&other_proof);
        // chunks of 4096 attempts on the rayon pool, each with its own RNG
        const CHUNK: u64 = 4096;
        let chunks: Vec<(u64, u64)> = (0..fuzz.div_ceil(CHUNK))
            .map(|i| (i, CHUNK.min(fuzz - i * CHUNK)))
            .collect();
        use rayon::prelude::*;
        let f = chunks
            .par_iter()
            .map(|&(i, n)| {
                let mut rng =
                    ChaCha20Rng::seed_from_u64(seed ^ (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                fuzz_verifier(
                    sys,
                    &circuit,
                    &keys,
                    &public,
                    &proof,
                    Some(&other_bytes),
                    n,
                    &mut rng,
                )
            })
            .reduce(FuzzReport::default, |mut a, b| {
                a.merge(b);
                a
            });
        let f = FuzzReport {
            system: sys.name().into(),
            ..f
        };
        Ok((report, Some(f)))
    }
}
