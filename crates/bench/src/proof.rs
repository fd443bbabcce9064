//! Proof-system backends (Groth16 now; Halo2-KZG, PLONK and FRI later).
//!
//! Each proof case is measured phase by phase:
//!
//! | phase | what is timed |
//! |---|---|
//! | `setup` | circuit-specific key generation (one sample: it is the most expensive phase) |
//! | `prove_cold` | one proof in a fresh state: proving key read from disk, constraint matrices rebuilt, witness, proof |
//! | `witness` | witness generation (synthesis computing values only) |
//! | `prove` | the prover proper (QAP witness map + MSMs) from a ready witness, warm |
//! | `verify` | verification with the prepared verifying key |
//! | `msm` | one G1 multi-scalar multiplication with as many points as the circuit has constraints (the unit the prover cost is usually compared with) |

use std::path::PathBuf;

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_std::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{api::Circuit, keys, CircuitKind, SpendConfig};
use zkbench_hash::HashFamily;

use crate::{
    backends::Backend,
    case::{Case, CaseKind, Circuit as CaseCircuit},
    measure::{self, PhaseSamples},
    results::{Record, Status},
    suite::Profile,
    sys::Environment,
};

/// Seed of the deterministic **test** setup used by benchmarks (toxic waste known).
pub const BENCH_SETUP_SEED: u64 = 0x7a6b_6265_6e63_68;

/// Groth16 on BN254 (arkworks), circuit-specific test setup.
pub struct Groth16Backend;

/// The Groth16 configuration of a case.
pub fn groth16_config(case: &Case) -> Result<SpendConfig, String> {
    let family: HashFamily = case.hash.parse().map_err(|e| format!("{e}"))?;
    let arity = case.arity.ok_or("proof case without arity")?;
    let circuit = match case.circuit.unwrap_or(CaseCircuit::Spend) {
        CaseCircuit::Spend => CircuitKind::Spend,
        CaseCircuit::Membership => CircuitKind::Membership,
        CaseCircuit::BatchRoot => CircuitKind::BatchRoot,
    };
    let leaves = if circuit == CircuitKind::BatchRoot {
        let d = case.depth.ok_or("batch-root case without depth")?;
        (arity as u64).checked_pow(d).ok_or("batch too large")?
    } else {
        case.leaves.ok_or("spend/membership case without leaves")?
    };
    Ok(SpendConfig {
        family,
        alpha: case.alpha,
        arity,
        leaves,
        circuit,
    })
}

fn record(case: &Case, phase: &str, s: PhaseSamples, env: &Environment) -> Record {
    let mut r = Record::new(case, phase, rayon::current_num_threads(), env);
    r.set_samples(s.wall, s.cpu);
    r.peak_rss_bytes = s.peak_rss;
    r.test_setup = true;
    r
}

impl Groth16Backend {
    fn measure(
        &self,
        case: &Case,
        profile: &Profile,
        env: &Environment,
    ) -> Result<Vec<Record>, (String, Vec<Record>)> {
        let mut out = Vec::new();
        macro_rules! tri {
            ($e:expr, $what:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => return Err((format!("{}: {e}", $what), out)),
                }
            };
        }
        let cfg = tri!(groth16_config(case), "configuration");
        let circuit = tri!(Circuit::new(&cfg), "circuit");
        let counts = tri!(circuit.num_constraints(), "constraint synthesis");
        let common = |r: &mut Record| {
            r.metrics
                .insert("constraints".into(), counts.constraints as f64);
            r.metrics
                .insert("public_inputs".into(), counts.public_inputs as f64);
            r.metrics
                .insert("witness_variables".into(), counts.witness_variables as f64);
            r.metrics
                .insert("height".into(), circuit.shape().height as f64);
        };

        let (keys, s) = tri!(measure::once(|| circuit.setup(BENCH_SETUP_SEED)), "setup");
        let mut r = record(case, "setup", s, env);
        common(&mut r);
        r.metrics.insert("pk_bytes".into(), keys.pk_size() as f64);
        r.metrics.insert("vk_bytes".into(), keys.vk_size() as f64);
        out.push(r);

        // Cold proof: key from disk (the CLI's cache layout), matrices rebuilt, witness, prove.
        let dir: PathBuf =
            std::env::temp_dir().join(format!("zkbench-keys-{}", std::process::id()));
        tri!(
            std::fs::create_dir_all(&dir),
            "creating a temporary key directory"
        );
        let key_path = tri!(circuit.key_path(&dir, BENCH_SETUP_SEED), "key path");
        tri!(
            keys::write_proving_key(&key_path, &keys.pk, keys.test_setup),
            "writing the proving key"
        );
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let witness = circuit.random_witness(&mut rng);
        let cold = measure::once(|| -> Result<_, zkbench_groth16::Groth16Error> {
            let (k, cached) = circuit.load_or_setup(&dir, BENCH_SETUP_SEED)?;
            debug_assert!(cached);
            let a = circuit.witness(&witness)?;
            circuit.prove_assignment(&k, &a, &mut rng)
        });
        let _ = std::fs::remove_dir_all(&dir);
        let (_, s) = tri!(cold, "cold prove");
        let mut r = record(case, "prove_cold", s, env);
        common(&mut r);
        out.push(r);

        let mut assignment = None;
        let s = tri!(
            measure::sample(profile, || {
                assignment = Some(circuit.witness(&witness)?);
                Ok::<_, zkbench_groth16::Groth16Error>(())
            }),
            "witness"
        );
        let assignment = assignment.expect("sampled at least once");
        let mut r = record(case, "witness", s, env);
        common(&mut r);
        out.push(r);

        let mut proof = None;
        let s = tri!(
            measure::sample(profile, || {
                proof = Some(circuit.prove_assignment(&keys, &assignment, &mut rng)?);
                Ok::<_, zkbench_groth16::Groth16Error>(())
            }),
            "prove"
        );
        let proof = proof.expect("sampled at least once");
        let mut prove_rec = record(case, "prove", s, env);
        common(&mut prove_rec);
        prove_rec.metrics.insert(
            "proof_bytes".into(),
            zkbench_groth16::api::proof_size(&proof) as f64,
        );

        let public = assignment.public_inputs();
        let s = tri!(
            measure::sample(profile, || {
                match zkbench_groth16::api::verify(&keys.pvk, &public, &proof) {
                    Ok(true) => Ok(()),
                    Ok(false) => Err("the proof did not verify".to_string()),
                    Err(e) => Err(e.to_string()),
                }
            }),
            "verify"
        );
        let mut r = record(case, "verify", s, env);
        common(&mut r);
        r.metrics.insert(
            "proof_bytes".into(),
            zkbench_groth16::api::proof_size(&proof) as f64,
        );

        // One G1 MSM with as many bases as constraints (bases from the proving key's H query).
        let n = counts.constraints.max(1);
        let bases: Vec<_> = keys
            .pk
            .h_query
            .iter()
            .chain(keys.pk.l_query.iter())
            .cycle()
            .take(n)
            .copied()
            .collect();
        let scalars: Vec<ark_bn254::Fr> = (0..n).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
        let s = tri!(
            measure::sample(profile, || {
                let p = ark_bn254::G1Projective::msm(&bases, &scalars)
                    .map_err(|_| "msm length mismatch".to_string())?;
                let _ = std::hint::black_box(p.into_affine());
                Ok::<_, String>(())
            }),
            "msm"
        );
        let mut msm = record(case, "msm", s, env);
        msm.metrics.insert("msm_size".into(), n as f64);
        msm.test_setup = false;
        if let (Some(p), Some(m)) = (prove_rec.median(), msm.median()) {
            prove_rec.metrics.insert("prove_over_msm".into(), p / m);
        }
        out.push(prove_rec);
        out.push(r);
        out.push(msm);
        Ok(out)
    }
}

impl Backend for Groth16Backend {
    fn name(&self) -> &'static str {
        "groth16"
    }

    fn description(&self) -> &'static str {
        "Groth16 on BN254 (ark-groth16 0.5); circuit-specific TEST setup with known toxic waste"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Proof && case.system == "groth16"
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        match self.measure(case, profile, env) {
            Ok(r) => r,
            Err((reason, mut done)) => {
                done.push(Record::failed(case, "all", Status::Error, reason, env));
                done
            }
        }
    }
}
