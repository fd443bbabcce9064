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

/// The records of a measurement; on failure, the phases measured so far plus
/// one error record carrying the reason.
fn records_or_failure(
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
        records_or_failure(case, env, self.measure(case, profile, env))
    }
}

/// Halo2 (halo2-axiom) with KZG on BN254, SHPLONK; Poseidon2/Poseidon chips.
pub struct Halo2KzgBackend;

/// Seed of the deterministic **unsafe test SRS** used by benchmarks.
pub const BENCH_SRS_SEED: u64 = 0x6861_6c6f_32;

/// The Halo2 configuration of a case (default chip layout).
pub fn halo2_config(case: &Case) -> Result<zkbench_halo2::api::Halo2Config, String> {
    let g = groth16_config(case)?;
    let circuit = match g.circuit {
        CircuitKind::Spend => zkbench_halo2::statement::CircuitKind::Spend,
        CircuitKind::Membership => zkbench_halo2::statement::CircuitKind::Membership,
        CircuitKind::BatchRoot => zkbench_halo2::statement::CircuitKind::BatchRoot,
    };
    Ok(zkbench_halo2::api::Halo2Config {
        family: g.family,
        alpha: g.alpha,
        arity: g.arity,
        leaves: g.leaves,
        circuit,
        layout: Default::default(),
    })
}

impl Halo2KzgBackend {
    fn measure(
        &self,
        case: &Case,
        profile: &Profile,
        env: &Environment,
    ) -> Result<Vec<Record>, (String, Vec<Record>)> {
        use zkbench_halo2::api::{self as h2, Halo2Circuit, Srs};
        let mut out = Vec::new();
        macro_rules! tri {
            ($e:expr, $what:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => return Err((format!("{}: {e}", $what), out)),
                }
            };
        }
        let cfg = tri!(halo2_config(case), "configuration");
        let circuit = tri!(Halo2Circuit::new(&cfg), "circuit");
        let stats = tri!(circuit.stats(), "circuit statistics");
        let common = |r: &mut Record| {
            r.metrics.insert("k".into(), stats.k as f64);
            r.metrics.insert("rows".into(), stats.rows as f64);
            r.metrics
                .insert("advice_columns".into(), stats.advice_columns as f64);
            r.metrics
                .insert("fixed_columns".into(), stats.fixed_columns as f64);
            r.metrics
                .insert("max_degree".into(), stats.max_degree as f64);
            r.metrics
                .insert("public_inputs".into(), stats.public_inputs as f64);
            r.metrics
                .insert("height".into(), circuit.shape().height as f64);
        };
        let srs = Srs::TestSetup {
            seed: BENCH_SRS_SEED,
        };
        let (keys, s) = tri!(
            measure::once(|| circuit.keygen(&srs)),
            "SRS + key generation"
        );
        let mut r = record(case, "setup", s, env);
        common(&mut r);
        r.metrics.insert("vk_bytes".into(), keys.vk_size() as f64);
        out.push(r);

        let dir: PathBuf =
            std::env::temp_dir().join(format!("zkbench-h2keys-{}", std::process::id()));
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let witness = circuit.random_witness(&mut rng);
        // Populate the on-disk cache, then time a cold proof that loads it.
        tri!(circuit.load_or_keygen(&dir, &srs), "writing the key cache");
        let cold = measure::once(|| -> Result<_, zkbench_halo2::Halo2Error> {
            let (k, _) = circuit.load_or_keygen(&dir, &srs)?;
            circuit.prove(&k, &witness, &mut rng)
        });
        let _ = std::fs::remove_dir_all(&dir);
        let (_, s) = tri!(cold, "cold prove");
        let mut r = record(case, "prove_cold", s, env);
        common(&mut r);
        out.push(r);

        let mut public = None;
        let s = tri!(
            measure::sample(profile, || {
                public = Some(circuit.public_inputs(&witness)?);
                Ok::<_, zkbench_halo2::Halo2Error>(())
            }),
            "witness"
        );
        let mut r = record(case, "witness", s, env);
        common(&mut r);
        out.push(r);

        let mut proof = None;
        let s = tri!(
            measure::sample(profile, || {
                proof = Some(circuit.prove(&keys, &witness, &mut rng)?.0);
                Ok::<_, zkbench_halo2::Halo2Error>(())
            }),
            "prove"
        );
        let proof = proof.expect("sampled at least once");
        let mut r = record(case, "prove", s, env);
        common(&mut r);
        r.metrics
            .insert("proof_bytes".into(), proof.proof.len() as f64);
        out.push(r);

        let s = tri!(
            measure::sample(profile, || {
                match h2::verify_for(&circuit, &keys, &proof.public, &proof.proof) {
                    Ok(true) => Ok(()),
                    Ok(false) => Err("the proof did not verify".to_string()),
                    Err(e) => Err(e.to_string()),
                }
            }),
            "verify"
        );
        let mut r = record(case, "verify", s, env);
        common(&mut r);
        r.metrics
            .insert("proof_bytes".into(), proof.proof.len() as f64);
        out.push(r);
        Ok(out)
    }
}

impl Backend for Halo2KzgBackend {
    fn name(&self) -> &'static str {
        "halo2-kzg"
    }

    fn description(&self) -> &'static str {
        "Halo2 (halo2-axiom 0.5) with KZG/SHPLONK on BN254, Poseidon2 and Poseidon chips; UNSAFE test SRS"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Proof && case.system == "halo2-kzg"
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        records_or_failure(case, env, self.measure(case, profile, env))
    }
}
