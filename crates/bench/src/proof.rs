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
    statement::{StatementConfig, Witness},
    CaseStatement, Metrics, ProofSystem,
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
            ($e:expr, $what:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => return Err((format!("{}: {e}", $what), out)),
                }
            };
        }
        let cfg = tri!(case.statement_config(), "configuration");
        let circuit = tri!(sys.circuit(&cfg), "circuit");
        let metrics = tri!(sys.circuit_metrics(&circuit), "circuit statistics");
        let (keys, s) = tri!(
            measure::once(|| sys.setup(&circuit, BENCH_SETUP_SEED)),
            "setup"
        );
        // transparent systems (the STARKs) have no toxic waste
        let test_setup = sys.is_test_setup(&keys);
        let record = |phase: &str, s: PhaseSamples, extra: &Metrics| {
            let mut r = Record::new(case, phase, rayon::current_num_threads(), env);
            r.set_samples(s.wall, s.cpu);
            r.peak_rss_bytes = s.peak_rss;
            r.test_setup = test_setup;
            r.metrics.extend(metrics.clone());
            r.metrics.extend(extra.clone());
            r
        };
        let none = Metrics::new();

        out.push(record("setup", s, &sys.key_metrics(&keys)));

        // Cold proof: keys read from disk (the CLI's cache layout), witness, prove.
        let dir = std::env::temp_dir().join(format!(
            "zkbench-keys-{}-{}",
            sys.name(),
            std::process::id()
        ));
        let written = sys.write_keys(&circuit, &keys, &dir, BENCH_SETUP_SEED);
        tri!(written, "writing the proving key");
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let witness = zkbench_core::statement::Witness::random(
            &mut rng,
            cfg.circuit,
            &tri!(cfg.shape(), "tree shape"),
        );
        let cold = measure::fresh(COLD_SAMPLES, || -> Result<_, P::Error> {
            let (k, w) = sys.read_keys_and_witness(&circuit, &dir, BENCH_SETUP_SEED, &witness)?;
            let proof = sys.prove(&circuit, &k, &w, &mut rng)?;
            // the keys go out with the proof, so that freeing them (tens of
            // MiB of tables, a mapping) is not timed: the proof was ready
            Ok((k, proof))
        });
        let _ = std::fs::remove_dir_all(&dir);
        let s = tri!(cold, "cold prove");
        out.push(record("prove_cold", s, &none));

        let mut prepared = None;
        let s = tri!(
            measure::sample(profile, || {
                prepared = Some(sys.witness(&circuit, &witness)?);
                Ok::<_, P::Error>(())
            }),
            "witness"
        );
        let prepared = prepared.expect("sampled at least once");
        out.push(record("witness", s, &none));

        let mut proof = None;
        let mut parts: Vec<Vec<(&'static str, f64)>> = Vec::new();
        let s = tri!(
            measure::sample(profile, || {
                let (p, t) = sys.prove_with_phases(&circuit, &keys, &prepared, &mut rng)?;
                proof = Some(p);
                parts.push(t);
                Ok::<_, P::Error>(())
            }),
            "prove"
        );
        let proof = proof.expect("sampled at least once");
        let proof_bytes = sys.proof_to_bytes(&proof);
        let size = Metrics::from([
            ("proof_bytes".to_string(), proof_bytes.len() as f64),
            // what carrying the proof's bytes in a transaction costs (EIP-2028)
            (
                "proof_calldata_gas".to_string(),
                zkbench_evm::calldata::calldata_gas(&proof_bytes) as f64,
            ),
        ]);
        let mut prove_rec = record("prove", s, &size);
        // the measured samples are the last ones (after the warm-up runs)
        let measured = &parts[parts.len().saturating_sub(prove_rec.samples_s.len())..];
        prove_rec.metrics.extend(phase_medians(measured));

        let public = sys.public_inputs(&circuit, &prepared);
        let s = tri!(
            measure::sample(profile, || {
                match sys.verify(&circuit, &keys, &public, &proof) {
                    Ok(true) => Ok(()),
                    Ok(false) => Err("the proof did not verify".to_string()),
                    Err(e) => Err(e.to_string()),
                }
            }),
            "verify"
        );
        let verify_rec = record("verify", s, &size);

        // R1CS backends: one G1 MSM with as many (random) bases as constraints.
        let msm = match metrics.get("constraints") {
            Some(&n) => Some(tri!(reference_msm(n as usize, profile, &mut rng), "msm")),
            None => None,
        };
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
        Ok(out)
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
