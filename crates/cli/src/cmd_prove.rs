//! `zkbench prove` and `zkbench verify`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use anyhow::{bail, Context};
use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_bench::case::format_leaves;
use zkbench_groth16::{
    artifacts::{self, Artifacts, TEST_SETUP_WARNING},
    Circuit, ConstraintCounts, Keys, PhaseTimings, SpendConfig, Witness,
};
use zkbench_hash::field::fr_to_decimal;
use zkbench_systems::{ProofConfig, SystemId};

/// Arguments of `zkbench prove`.
#[derive(Args, Debug)]
pub struct ProveArgs {
    /// Proof system: groth16, halo2-kzg, halo2-kzg-keccak, stark-babybear or stark-babybear-128.
    #[arg(long, default_value = SystemId::Groth16.name())]
    pub system: String,
    /// Hash family of the tree and the note.
    #[arg(long, default_value = "poseidon2")]
    pub hash: String,
    /// S-box exponent (poseidon2: 5 or 7).
    #[arg(long)]
    pub alpha: Option<u64>,
    /// Tree arity 2..=16.
    #[arg(long, default_value_t = 4)]
    pub arity: usize,
    /// Tree capacity (spend, membership) or batch size (batch-root): decimal or 2^K.
    #[arg(long, default_value = "2^36")]
    pub leaves: String,
    /// Circuit: spend, membership or batch-root.
    #[arg(long, default_value = "spend")]
    pub circuit: String,
    /// Output directory for proof.json, public.json, verification_key.json, meta.json.
    #[arg(long, default_value = "proof")]
    pub out: PathBuf,
    /// Seed of the TEST setup (toxic waste derivable from it) and of the random witness.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Proving-key cache directory (default: $XDG_CACHE_HOME/zkbench/keys or ~/.cache/zkbench/keys).
    #[arg(long)]
    pub keys: Option<PathBuf>,
    /// halo2-kzg: KZG parameters file in halo2's params format (default: an UNSAFE test SRS from --seed).
    #[arg(long)]
    pub srs: Option<PathBuf>,
    /// groth16: keys from a powers-of-tau ceremony file (.ptau, phase-2 prepared, e.g. Perpetual
    /// Powers of Tau / Hermez) instead of the TEST setup; phase 2 is drawn from OS randomness here.
    #[arg(long)]
    pub ptau: Option<PathBuf>,
    /// halo2-kzg: Fiat–Shamir transcript, blake2b (default) or keccak (the one the EVM verifier
    /// of `zkbench verifier --system halo2-kzg` reads; `--system halo2-kzg-keccak` is the same).
    #[arg(long)]
    pub transcript: Option<String>,
    /// groth16: also write the key as a snarkjs proving key (`circuit.zkey`) and the witness as
    /// `witness.wtns` in the output directory, so that snarkjs proves with zkbench's key:
    /// `snarkjs groth16 prove circuit.zkey witness.wtns proof.json public.json`.
    #[arg(long)]
    pub zkey: bool,
}

/// Arguments of `zkbench verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Proof system: groth16, halo2-kzg, halo2-kzg-keccak, stark-babybear or stark-babybear-128
    /// (default: the one the directory's meta.json names, else groth16).
    #[arg(long)]
    pub system: Option<String>,
    /// Directory written by `zkbench prove` (or snarkjs: proof.json, public.json, verification_key.json).
    #[arg(long)]
    pub dir: PathBuf,
    /// halo2-kzg: key cache directory used to load the verifying key (default as for `prove`).
    #[arg(long)]
    pub keys: Option<PathBuf>,
}

pub(crate) fn key_cache_dir(explicit: Option<&PathBuf>) -> PathBuf {
    if let Some(p) = explicit {
        return p.clone();
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".zkbench-cache"));
    base.join("zkbench").join("keys")
}

fn ms(d: Option<std::time::Duration>) -> String {
    d.map(|d| format!("{:.1} ms", d.as_secs_f64() * 1e3))
        .unwrap_or_else(|| "-".into())
}

/// `zkbench prove`: the configuration parsed once ([`ProofConfig`]), then
/// the system's own artifact format (groth16: snarkjs JSON; halo2-kzg:
/// proof.bin and meta.json).
pub fn prove(a: ProveArgs) -> anyhow::Result<ExitCode> {
    let config = ProofConfig::parse(&a.system, &a.hash, a.alpha, a.arity, &a.leaves, &a.circuit)?;
    if a.zkey && config.system != SystemId::Groth16 {
        bail!("--zkey applies to groth16 only (a .zkey is snarkjs's Groth16 proving key)");
    }
    match config.system {
        SystemId::Groth16 => prove_groth16(a, config.statement),
        SystemId::Halo2Kzg | SystemId::Halo2KzgKeccak => prove_halo2(a, config),
        SystemId::StarkBabyBear | SystemId::StarkBabyBear128 => prove_stark(a, config),
    }
}

/// `zkbench prove --system stark-babybear` (or `stark-babybear-128`).
fn prove_stark(a: ProveArgs, config: ProofConfig) -> anyhow::Result<ExitCode> {
    if a.srs.is_some() || a.ptau.is_some() || a.transcript.is_some() {
        bail!("--srs, --ptau and --transcript do not apply to {}: a STARK has a transparent setup and one transcript", config.system);
    }
    let zkbench_systems::Prover::Stark(stark) = config.system.prover() else {
        bail!("internal error: {} is not a STARK", config.system);
    };
    let proof = zkbench_stark::dir::prove_into(stark, &config.statement, a.seed, &a.out)?;
    let [w, p, v] = proof.seconds.map(|s| format!("{:.1} ms", s * 1e3));
    println!(
        "{} · {} · witness {w} · prove {p} · verify {v}",
        config.system,
        config.statement.key_label()?
    );
    println!("proof: {} bytes; public inputs:", proof.proof_bytes);
    for (i, x) in proof.public.0.iter().enumerate() {
        println!("  [{i}] {}", fr_to_decimal(x));
    }
    println!(
        "wrote {}/{{proof.bin,public.json,meta.json}}",
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `zkbench prove --system groth16`.
fn prove_groth16(a: ProveArgs, cfg: SpendConfig) -> anyhow::Result<ExitCode> {
    check_groth16_flags(&a)?;
    let circuit = Circuit::new(&cfg)?;
    let counts = circuit.num_constraints()?;
    if a.ptau.is_none() {
        eprintln!("WARNING: {TEST_SETUP_WARNING}");
    }
    print_groth16_header(&cfg, &circuit, &counts);

    let cache = key_cache_dir(a.keys.as_ref());
    let t0 = Instant::now();
    let (keys, cached) = groth16_keys(&a, &circuit, &cache)?;
    let setup = t0.elapsed();
    let mut rng = ChaCha20Rng::seed_from_u64(a.seed ^ 0x5eed);
    let witness = circuit.random_witness(&mut rng);
    let (proof, public, mut timings) = circuit.prove(&keys, &witness, &mut rng)?;
    timings.setup = Some(setup);
    let t1 = Instant::now();
    let ok = zkbench_groth16::verify(&keys.pvk, &public, &proof)?;
    timings.verify = Some(t1.elapsed());
    if !ok {
        bail!("internal error: the fresh proof does not verify");
    }
    let proof_bytes = zkbench_groth16::proof_size(&proof);
    let meta = groth16_meta(&a, &cfg, &counts, &timings, proof_bytes, &keys);
    artifacts::write_artifacts(
        &a.out,
        &Artifacts {
            proof,
            public: public.clone(),
            vk: keys.vk().clone(),
            meta,
        },
    )?;
    print_timings(&timings, cached, &cache, &keys);
    if a.zkey {
        write_zkey_files(&a.out, &circuit, &keys, &witness)?;
    }
    println!("proof: {proof_bytes} bytes (compressed); public inputs:");
    for (i, x) in public.0.iter().enumerate() {
        println!("  [{i}] {}", fr_to_decimal(x));
    }
    println!(
        "wrote {}/{{proof,public,verification_key,meta}}.json (snarkjs format) and *.bin",
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Rejects the halo2-only flags `--transcript` and `--srs`.
fn check_groth16_flags(a: &ProveArgs) -> anyhow::Result<()> {
    if a.transcript.is_some() {
        bail!("--transcript applies to halo2-kzg only (Groth16 proofs have no transcript)");
    }
    if a.srs.is_some() {
        bail!("--srs applies to halo2-kzg only (Groth16 has a circuit-specific setup; use --ptau FILE)");
    }
    Ok(())
}

/// Prints the one-line description of the Groth16 circuit (statement, size, public inputs).
fn print_groth16_header(cfg: &SpendConfig, circuit: &Circuit, counts: &ConstraintCounts) {
    println!(
        "{} · {} circuit · {}{} · arity {} · {} leaves · height {} · {} constraints · {} public inputs",
        SystemId::Groth16,
        cfg.circuit.name(),
        cfg.family,
        cfg.alpha.map(|x| format!(" (alpha {x})")).unwrap_or_default(),
        cfg.arity,
        format_leaves(cfg.leaves),
        circuit.shape().height,
        counts.constraints,
        counts.public_inputs
    );
}

/// The Groth16 keys: from the `--ptau` ceremony file, or the TEST setup of the key cache
/// (with whether they came from the cache).
fn groth16_keys(a: &ProveArgs, circuit: &Circuit, cache: &Path) -> anyhow::Result<(Keys, bool)> {
    Ok(match &a.ptau {
        Some(p) => {
            let keys = circuit
                .setup_from_ptau(p, &mut ChaCha20Rng::from_entropy())
                .with_context(|| format!("keys from {}", p.display()))?;
            if keys.test_setup {
                eprintln!(
                    "WARNING: {} is a TEST SETUP (zkbench ptau new): tau is public.",
                    p.display()
                );
            } else {
                eprintln!("keys from the ceremony file {} (phase 2: one contribution from this machine's OS randomness, discarded)", p.display());
            }
            (keys, false)
        }
        None => circuit
            .load_or_setup(cache, a.seed)
            .with_context(|| format!("key cache {}", cache.display()))?,
    })
}

/// The `meta.json` object, with the ceremony file's setup fields under `--ptau`.
fn groth16_meta(
    a: &ProveArgs,
    cfg: &SpendConfig,
    counts: &ConstraintCounts,
    timings: &PhaseTimings,
    proof_bytes: usize,
    keys: &Keys,
) -> serde_json::Value {
    let mut meta = artifacts::meta_json(
        cfg,
        a.seed,
        Some(counts),
        timings,
        proof_bytes,
        Some(keys.pk_size()),
        keys.vk_size(),
    );
    if let Some(p) = &a.ptau {
        meta["test_setup"] = keys.test_setup.into();
        meta["ptau"] = p.display().to_string().into();
        if !keys.test_setup {
            meta["warning"] = serde_json::Value::Null;
        }
    }
    meta
}

/// `--zkey`: writes the snarkjs proving key `circuit.zkey` and `witness.wtns` into `out`.
fn write_zkey_files(
    out: &Path,
    circuit: &Circuit,
    keys: &Keys,
    witness: &Witness,
) -> anyhow::Result<()> {
    let t = Instant::now();
    let info =
        zkbench_groth16::zkey::write_zkey(&out.join("circuit.zkey"), &keys.pk, &keys.matrices)?;
    let assignment = circuit.witness(witness)?;
    zkbench_groth16::zkey::write_wtns(&out.join("witness.wtns"), &assignment.full)?;
    println!(
        "wrote {0}/circuit.zkey ({1} bytes, {2} variables, {3} public, domain 2^{4}{5}) and {0}/witness.wtns in {6:.1} s; prove with snarkjs:\n  snarkjs groth16 prove {0}/circuit.zkey {0}/witness.wtns proof.json public.json",
        out.display(),
        info.bytes,
        info.vars,
        info.public,
        info.domain_size.trailing_zeros(),
        if keys.test_setup { ", TEST SETUP key" } else { "" },
        t.elapsed().as_secs_f64(),
    );
    Ok(())
}

fn print_timings(t: &PhaseTimings, cached: bool, cache: &Path, keys: &Keys) {
    println!(
        "setup {} ({}, proving key {} bytes)\nwitness {} · prove {} · verify {}",
        ms(t.setup),
        if cached {
            format!("loaded from cache {}", cache.display())
        } else if keys.test_setup {
            format!("TEST setup, cached in {}", cache.display())
        } else {
            "from the ceremony file, not cached".to_string()
        },
        keys.pk_size(),
        ms(t.witness),
        ms(t.prove),
        ms(t.verify)
    );
}

/// `zkbench prove --system halo2-kzg` (or `halo2-kzg-keccak`).
fn prove_halo2(a: ProveArgs, config: ProofConfig) -> anyhow::Result<ExitCode> {
    use zkbench_halo2::{DirProver, Srs, Transcript};
    let transcript: Transcript = match (&a.transcript, config.system) {
        (Some(t), SystemId::Halo2Kzg) => t.parse()?,
        (Some(t), _) if t != "keccak" => {
            bail!(
                "--system {} proves with the keccak transcript, not {t:?}",
                SystemId::Halo2KzgKeccak
            )
        }
        (_, SystemId::Halo2KzgKeccak) => Transcript::Keccak,
        _ => Transcript::Blake2b,
    };
    let srs = match &a.srs {
        Some(p) => Srs::File(p.clone()),
        None => Srs::TestSetup { seed: a.seed },
    };
    let prover = DirProver::new(config.statement, transcript, srs)?;
    let srs = prover.srs();
    if srs.is_test_setup() {
        eprintln!("WARNING: UNSAFE TEST SRS ({}): tau is derivable from the seed; anyone can forge proofs. For testing and benchmarking only; pass --srs FILE for real use.", srs.label());
    }
    println!(
        "{} · {} · {transcript} transcript",
        SystemId::Halo2Kzg,
        prover.circuit().stats()?
    );
    let cache = key_cache_dir(a.keys.as_ref());
    let keys = prover
        .keys(&cache)
        .with_context(|| format!("key cache {}", cache.display()))?;
    let proof = prover.prove_into(&keys, a.seed ^ 0x5eed, &a.out)?;
    if !proof.verified {
        bail!("internal error: the fresh proof does not verify");
    }
    let timings = &proof.timings;
    println!(
        "setup {} ({}) · witness {} · prove {} · verify {}",
        ms(timings.setup),
        if keys.cached {
            format!("keys loaded from cache {}", cache.display())
        } else {
            format!("keygen, cached in {}", cache.display())
        },
        ms(timings.witness),
        ms(timings.prove),
        ms(timings.verify)
    );
    println!("proof: {} bytes; public inputs:", proof.out.proof.len());
    for (i, x) in proof.out.public.0.iter().enumerate() {
        println!("  [{i}] {}", fr_to_decimal(x));
    }
    println!(
        "wrote {}/{{proof.bin,public.json,meta.json}}",
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `zkbench verify`.
/// The system a directory was proved with: `meta.json`'s `system` (written by
/// `zkbench prove` for every system but groth16, whose directories are
/// snarkjs's), else groth16.
fn system_of_dir(dir: &std::path::Path) -> anyhow::Result<SystemId> {
    let Ok(bytes) = std::fs::read(dir.join("meta.json")) else {
        return Ok(SystemId::Groth16);
    };
    let meta: serde_json::Value = serde_json::from_slice(&bytes)
        .with_context(|| format!("{}: not JSON", dir.join("meta.json").display()))?;
    match meta.get("system").and_then(|s| s.as_str()) {
        Some(name) => name
            .parse()
            .with_context(|| format!("{}: field system", dir.join("meta.json").display())),
        None => Ok(SystemId::Groth16),
    }
}

pub fn verify(a: VerifyArgs) -> anyhow::Result<ExitCode> {
    let system: SystemId = match &a.system {
        Some(name) => name.parse()?,
        None => system_of_dir(&a.dir)?,
    };
    if let zkbench_systems::Prover::Stark(_) = system.prover() {
        let t = Instant::now();
        let ok = zkbench_stark::dir::verify_dir(&a.dir)
            .with_context(|| format!("cannot verify {}", a.dir.display()))?;
        let dt = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "{}: the proof in {} {} ({dt:.1} ms)",
            if ok { "OK" } else { "INVALID" },
            a.dir.display(),
            if ok { "is valid" } else { "does not verify" }
        );
        return Ok(if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    if system.is_halo2() {
        let t = Instant::now();
        let cache = key_cache_dir(a.keys.as_ref());
        let (ok, _) = zkbench_halo2::verify_dir(&a.dir, &cache)
            .with_context(|| format!("cannot verify {}", a.dir.display()))?;
        let dt = t.elapsed().as_secs_f64() * 1e3;
        return Ok(if ok {
            println!(
                "OK: the proof in {} is valid ({dt:.1} ms, keys included)",
                a.dir.display()
            );
            ExitCode::SUCCESS
        } else {
            println!("INVALID: the proof in {} does not verify", a.dir.display());
            ExitCode::FAILURE
        });
    }
    let t = Instant::now();
    let ok = artifacts::verify_dir(&a.dir)
        .with_context(|| format!("cannot verify {}", a.dir.display()))?;
    let dt = t.elapsed().as_secs_f64() * 1e3;
    if ok {
        println!("OK: the proof in {} is valid ({dt:.1} ms)", a.dir.display());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("INVALID: the proof in {} does not verify", a.dir.display());
        Ok(ExitCode::FAILURE)
    }
}
