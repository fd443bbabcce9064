//! On-chain verification cases (`kind = "evm"`, suite `evm`): a Solidity
//! verifier's gas and bytecode size, measured in an embedded EVM (revm) with
//! zkbench-evm.
//!
//! Each case proves its statement with zkbench's Groth16 (test setup), then
//! deploys one verifier for that key and calls `verifyProof` with the proof:
//!
//! | `system` | verifier |
//! |---|---|
//! | `zkbench` | zkbench's own template (`zkbench verifier`) |
//! | `snarkjs` | snarkjs's exported verifier for the same key (`scripts/snarkjs/export-verifier.mjs`) |
//! | `gnark` | gnark v0.16's exported verifier (contract `Verifier`) for gnark's own proof of binary Poseidon2 membership (`go run ./peers/gnark --evm-out DIR`; needs Go) |
//! | `zkbench-halo2` | the Halo2-KZG verifier (`zkbench verifier --system halo2-kzg`: snark-verifier's Yul, hardened) for a Keccak-transcript Halo2 proof of the statement |
//!
//! gnark's verifier takes `verifyProof(bytes proof, uint256[N] input)` and
//! reverts on an invalid proof instead of returning false; so does the Halo2
//! verifier (its fallback takes `instances ‖ proof`).
//!
//! One record per case, phase `verify`: `samples_s` is the wall time of the
//! call in revm; metrics `gas_verify` (execution), `gas_tx` (21,000 +
//! EIP-2028 calldata + execution), `gas_deploy`, `bytecode_bytes` (runtime,
//! EIP-170 limit 24,576), `calldata_bytes`, `public_inputs`, and for the
//! Groth16 verifiers `gas_floor` (precompile floor 181,000 + 6,150·ℓ); the
//! Halo2 record adds `proof_bytes`. The same call with a changed
//! public input must return false, or the case fails.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_core::CaseStatement;
use zkbench_evm::{CallOutcome, CallStatus, Chain, Compiled, Groth16Calldata, Solc};
use zkbench_groth16::Circuit;

use crate::{
    backend::Backend,
    case::{Case, CaseKind},
    measure,
    proof::BENCH_SETUP_SEED,
    results::{Record, Status},
    suite::Profile,
    sys::Environment,
};

/// The backend's name (not a proof system).
pub const BACKEND_NAME: &str = "evm";

/// The verifiers this backend measures (`system` of `evm` cases).
pub const VERIFIERS: &[&str] = &["zkbench", "snarkjs", "gnark", "zkbench-halo2"];

/// Solidity Groth16 verifiers in revm.
pub struct EvmVerifiers;

impl Backend for EvmVerifiers {
    fn name(&self) -> &'static str {
        BACKEND_NAME
    }

    fn description(&self) -> &'static str {
        "on-chain verification (evm cases): gas and bytecode of the zkbench, snarkjs and gnark Solidity Groth16 verifiers and of zkbench's Halo2-KZG verifier in revm"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Evm && VERIFIERS.contains(&case.system.as_str())
    }

    fn run(&self, case: &Case, profile: &Profile, env: &Environment) -> Vec<Record> {
        let measured = match case.system.as_str() {
            "gnark" => measure_gnark(case, profile, env),
            "zkbench-halo2" => measure_halo2(case, profile, env),
            _ => measure_case(case, profile, env),
        };
        match measured {
            Ok(r) => vec![r],
            Err(e) => vec![Record::failed(case, "verify", Status::Error, e, env)],
        }
    }
}

fn compile(case: &Case, vk: &zkbench_groth16::VerifyingKey) -> Result<Compiled, String> {
    let solc = Solc::locate().map_err(|e| e.to_string())?;
    let src = match case.system.as_str() {
        "zkbench" => zkbench_evm::solidity_verifier(vk).map_err(|e| e.to_string())?,
        "snarkjs" => {
            let dir = std::env::temp_dir().join(format!("zkbench-evm-vk-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let path = dir.join("verification_key.json");
            let json = zkbench_groth16::snarkjs::vk_to_json(vk);
            std::fs::write(&path, zkbench_groth16::snarkjs::to_snarkjs_string(&json))
                .map_err(|e| e.to_string())?;
            let src = zkbench_evm::snarkjs::snarkjs_verifier_source(&path);
            let _ = std::fs::remove_dir_all(&dir);
            src.map_err(|e| e.to_string())?
        }
        other => return Err(format!("no Solidity verifier named {other:?}")),
    };
    solc.compile(&src, zkbench_evm::GROTH16_CONTRACT)
        .map_err(|e| e.to_string())
}

fn measure_case(case: &Case, profile: &Profile, env: &Environment) -> Result<Record, String> {
    let cfg = case.statement_config()?;
    let circuit = Circuit::new(&cfg).map_err(|e| format!("circuit: {e}"))?;
    let keys = circuit
        .setup(BENCH_SETUP_SEED)
        .map_err(|e| format!("setup: {e}"))?;
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let witness = circuit.random_witness(&mut rng);
    let (proof, public, _) = circuit
        .prove(&keys, &witness, &mut rng)
        .map_err(|e| format!("prove: {e}"))?;
    let compiled = compile(case, keys.vk())?;

    let calldata = Groth16Calldata::new(&proof, &public);
    let mut bad = calldata.clone();
    bad.public[0][31] ^= 1;
    measure_calls(
        case,
        profile,
        env,
        &compiled,
        &calldata.abi_encode(),
        &bad.abi_encode(),
        public.0.len(),
        Some(zkbench_evm::precompile_floor_gas(public.0.len())),
        |o| o.returned_true(),
    )
}

/// The Halo2-KZG verifier for a Keccak-transcript proof of the case's
/// statement (keys under the unsafe test SRS of the bench seed).
fn measure_halo2(case: &Case, profile: &Profile, env: &Environment) -> Result<Record, String> {
    use zkbench_halo2::{Halo2Circuit, Halo2Config, Srs, Transcript};
    let cfg = Halo2Config::for_transcript(case.statement_config()?, Transcript::Keccak);
    let circuit = Halo2Circuit::new(&cfg)
        .map_err(|e| format!("circuit: {e}"))?
        .with_transcript(Transcript::Keccak);
    let keys = circuit
        .keygen(&Srs::TestSetup {
            seed: BENCH_SETUP_SEED,
        })
        .map_err(|e| format!("setup: {e}"))?;
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let witness = circuit.random_witness(&mut rng);
    let (out, _) = circuit
        .prove(&keys, &witness, &mut rng)
        .map_err(|e| format!("prove: {e}"))?;
    let n = circuit.num_public_inputs();
    let src = zkbench_evm::halo2_verifier(&keys, n).map_err(|e| e.to_string())?;
    let solc = Solc::locate().map_err(|e| e.to_string())?;
    let compiled = zkbench_evm::halo2::compile_halo2(&solc, &src).map_err(|e| e.to_string())?;
    let data = zkbench_evm::halo2_calldata(&out.public, &out.proof);
    let mut bad = data.clone();
    bad[31] ^= 1;
    let mut r = measure_calls(
        case,
        profile,
        env,
        &compiled,
        &data,
        &bad,
        n,
        None,
        zkbench_evm::halo2::accepted,
    )?;
    r.metrics
        .insert("proof_bytes".into(), out.proof.len() as f64);
    r.metrics.insert("fold".into(), cfg.layout.fold as f64);
    Ok(r)
}

/// Deploys `compiled`, samples calls with `data` (which `accepted` must
/// judge valid) and checks that `bad` (a changed public input) is rejected.
#[allow(clippy::too_many_arguments)]
fn measure_calls(
    case: &Case,
    profile: &Profile,
    env: &Environment,
    compiled: &Compiled,
    data: &[u8],
    bad: &[u8],
    l: usize,
    floor: Option<u64>,
    accepted: impl Fn(&CallOutcome) -> bool,
) -> Result<Record, String> {
    if compiled.runtime.len() > zkbench_evm::EIP170_LIMIT {
        return Err(format!(
            "the {} verifier's runtime bytecode is {} B, over the EIP-170 limit of {} B: it cannot be deployed",
            case.system,
            compiled.runtime.len(),
            zkbench_evm::EIP170_LIMIT
        ));
    }
    let mut chain = Chain::new();
    let deployed = chain
        .deploy(&compiled.creation)
        .map_err(|e| e.to_string())?;
    let mut last = None;
    let s = measure::sample(profile, || {
        last = Some(chain.call(deployed.address, data)?);
        Ok::<_, zkbench_evm::EvmError>(())
    })
    .map_err(|e| e.to_string())?;
    let out = last.ok_or("no call was made")?;
    if !accepted(&out) {
        return Err(format!(
            "the {} verifier did not accept a valid proof: {:?}",
            case.system, out.status
        ));
    }
    let rejected = chain
        .call(deployed.address, bad)
        .map_err(|e| e.to_string())?;
    if accepted(&rejected) {
        return Err(format!(
            "the {} verifier accepted a changed public input",
            case.system
        ));
    }

    let mut r = Record::new(case, "verify", 1, env);
    r.set_samples(s.wall, s.cpu);
    r.peak_rss_bytes = s.peak_rss;
    r.test_setup = true;
    for (k, v) in [
        ("gas_verify", out.gas_exec as f64),
        ("gas_tx", out.gas_tx as f64),
        ("gas_calldata", out.gas_calldata as f64),
        ("gas_deploy", deployed.gas_deploy as f64),
        ("bytecode_bytes", deployed.bytecode_bytes as f64),
        ("calldata_bytes", data.len() as f64),
        ("public_inputs", l as f64),
    ] {
        r.metrics.insert(k.into(), v);
    }
    if let Some(f) = floor {
        r.metrics.insert("gas_floor".into(), f as f64);
    }
    Ok(r)
}

/// gnark's verifier for gnark's own proof: the peer (`peers/gnark`) proves
/// binary membership of depth log2(leaves) with gnark's Poseidon2 (zkbench's
/// `poseidon2-gnark` family) and exports its verifier.
fn measure_gnark(case: &Case, profile: &Profile, env: &Environment) -> Result<Record, String> {
    let depth = gnark_depth(case)?;
    let (source, proof_hex, public_json) = run_gnark_peer(depth)?;
    let proof = hex_decode(proof_hex.trim())?;
    let public = gnark_public_words(&public_json)?;
    let solc = Solc::locate().map_err(|e| e.to_string())?;
    let compiled = solc
        .compile(&source, "Verifier")
        .map_err(|e| e.to_string())?;
    let mut bad = public.clone();
    bad[0][31] ^= 1;
    measure_calls(
        case,
        profile,
        env,
        &compiled,
        &zkbench_evm::calldata::gnark_calldata(&proof, &public),
        &zkbench_evm::calldata::gnark_calldata(&proof, &bad),
        public.len(),
        Some(zkbench_evm::precompile_floor_gas(public.len())),
        // gnark's verifyProof returns nothing and reverts on an invalid proof
        |o| matches!(&o.status, CallStatus::Returned(d) if d.is_empty()),
    )
}

/// The tree depth of a case the gnark peer can prove (binary
/// `poseidon2-gnark` membership in a tree of 2^depth leaves); an error for
/// any other case.
fn gnark_depth(case: &Case) -> Result<u32, String> {
    let cfg = case.statement_config()?;
    if case.hash != "poseidon2-gnark"
        || cfg.arity != 2
        || cfg.circuit != zkbench_core::statement::CircuitKind::Membership
        || !cfg.leaves.is_power_of_two()
    {
        return Err(
            "the gnark peer proves binary poseidon2-gnark membership in a tree of 2^d leaves only"
                .into(),
        );
    }
    Ok(cfg.leaves.trailing_zeros())
}

/// Runs the gnark peer (`go run ./peers/gnark`) at `depth` into a temporary
/// directory and returns what it wrote there: the verifier's Solidity
/// source, the proof as hex and the public inputs as JSON. The directory is
/// removed afterwards.
fn run_gnark_peer(depth: u32) -> Result<(String, String, String), String> {
    let root = zkbench_evm::node::scripts_dir()
        .map_err(|e| e.to_string())?
        .join("..");
    let dir = std::env::temp_dir().join(format!("zkbench-gnark-evm-{}", std::process::id()));
    let out = std::process::Command::new("go")
        .arg("-C")
        .arg(root.join("peers/gnark"))
        .args(["run", ".", "--depth", &depth.to_string(), "--evm-out"])
        .arg(&dir)
        .output()
        .map_err(|e| format!("cannot run go (the gnark peer needs Go): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gnark peer failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let read = |f: &str| {
        std::fs::read_to_string(dir.join(f)).map_err(|e| format!("gnark peer output {f}: {e}"))
    };
    let files = (|| {
        Ok::<_, String>((
            read("Verifier.sol")?,
            read("proof.hex")?,
            read("public.json")?,
        ))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    files
}

/// The gnark peer's `public.json` (decimal field elements) as calldata words.
fn gnark_public_words(public_json: &str) -> Result<Vec<zkbench_evm::calldata::Word>, String> {
    let public: Vec<String> =
        serde_json::from_str(public_json).map_err(|e| format!("gnark public.json: {e}"))?;
    public
        .iter()
        .map(|d| {
            d.parse::<zkbench_hash::Fr>()
                .map(|x| zkbench_evm::calldata::fr_word(&x))
                .map_err(|_| format!("gnark public input {d:?} is not a field element"))
        })
        .collect()
}

fn hex_decode(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("gnark proof.hex is not hex".into());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}
