//! `zkbench verifier` and `zkbench calldata`: on-chain verification (crates/evm).

use std::{path::PathBuf, process::ExitCode};

use anyhow::{bail, Context};
use clap::Args;
use zkbench_systems::SystemId;

/// Arguments of `zkbench verifier`.
#[derive(Args, Debug)]
pub struct VerifierArgs {
    /// Proof system: groth16 or halo2-kzg.
    #[arg(long, default_value = SystemId::Groth16.name())]
    pub system: String,
    /// Proof directory written by `zkbench prove` (or snarkjs): groth16 reads
    /// verification_key.json; halo2-kzg reads meta.json and loads the keys from the key cache.
    #[arg(long)]
    pub dir: PathBuf,
    /// Output file: Solidity (groth16) or a Yul object (halo2-kzg) (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// halo2-kzg: key cache directory (default as for `zkbench prove`).
    #[arg(long)]
    pub keys: Option<PathBuf>,
}

/// Arguments of `zkbench calldata`.
#[derive(Args, Debug)]
pub struct CalldataArgs {
    /// Proof system: groth16 or halo2-kzg.
    #[arg(long, default_value = SystemId::Groth16.name())]
    pub system: String,
    /// Proof directory written by `zkbench prove` (or snarkjs): proof.json, public.json and
    /// verification_key.json are read (groth16: the key gives the number of public inputs);
    /// proof.bin, public.json and meta.json (halo2-kzg, keccak transcript).
    #[arg(long)]
    pub dir: PathBuf,
    /// groth16: print the raw transaction calldata (selector + ABI encoding) as 0x-hex instead
    /// of snarkjs's `zkey export soliditycalldata` text. halo2-kzg always prints 0x-hex (the
    /// verifier's fallback takes the public inputs as 32-byte words, then the proof).
    #[arg(long)]
    pub hex: bool,
    /// halo2-kzg: key cache directory (default as for `zkbench prove`).
    #[arg(long)]
    pub keys: Option<PathBuf>,
}

/// The system of `--system`: every [`SystemId`] but the STARKs has an EVM verifier (the
/// Halo2 ones read proofs with the Keccak transcript).
fn check_system(system: &str) -> anyhow::Result<SystemId> {
    match system.parse() {
        Ok(id @ (SystemId::StarkBabyBear | SystemId::StarkBabyBear128)) => bail!(
            "{id} has no EVM verifier (a STARK verifier contract or a Groth16 wrapper would be needed); available: {}, {}",
            SystemId::Groth16,
            SystemId::Halo2Kzg
        ),
        Ok(id) => Ok(id),
        Err(_) => bail!(
            "unknown proof system {system:?} for on-chain verification; available: {}, {}",
            SystemId::Groth16,
            SystemId::Halo2Kzg
        ),
    }
}

fn halo2_dir(
    dir: &std::path::Path,
    keys: Option<&PathBuf>,
) -> anyhow::Result<zkbench_evm::Halo2Dir> {
    let cache = crate::cmd_prove::key_cache_dir(keys);
    zkbench_evm::Halo2Dir::read(dir, &cache).with_context(|| {
        format!(
            "cannot read the Halo2 proof directory {} (keys from {})",
            dir.display(),
            cache.display()
        )
    })
}

/// `zkbench verifier`.
pub fn verifier(a: VerifierArgs) -> anyhow::Result<ExitCode> {
    let system = check_system(&a.system)?;
    let (src, contract, abi) = match system {
        SystemId::Groth16 => (
            zkbench_evm::groth16_verifier_for_dir(&a.dir).map_err(|e| {
                once(format!("cannot read the verification key in {}", a.dir.display()), e)
            })?,
            zkbench_evm::GROTH16_CONTRACT,
            "verifyProof with snarkjs's ABI",
        ),
        SystemId::StarkBabyBear | SystemId::StarkBabyBear128 => {
            bail!("{system} has no EVM verifier")
        }
        SystemId::Halo2Kzg | SystemId::Halo2KzgKeccak => (
            halo2_dir(&a.dir, a.keys.as_ref())?.verifier()?,
            zkbench_evm::HALO2_CONTRACT,
            "a Yul object: call with instances ‖ keccak-transcript proof, reverts when invalid; compile as standard-JSON language Yul, optimizer on, runs 1, details.yul false",
        ),
    };
    match &a.out {
        Some(path) => {
            std::fs::write(path, &src)
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!("wrote {} (contract {contract}, {abi})", path.display());
            if system.is_halo2() && path.extension().is_some_and(|e| e == "sol") {
                eprintln!(
                    "note: the Halo2 verifier is a Yul object, not Solidity source: compile it with `solc --strict-assembly --optimize --optimize-runs 1 --no-optimize-yul` (or standard JSON: language \"Yul\", optimizer on, runs 1, details.yul false); a .yul name says so"
                );
            }
        }
        None => print!("{src}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `zkbench calldata`.
pub fn calldata(a: CalldataArgs) -> anyhow::Result<ExitCode> {
    if check_system(&a.system)?.is_halo2() {
        let c = halo2_dir(&a.dir, a.keys.as_ref())?.calldata()?;
        println!("0x{}", hex_encode(&c));
        return Ok(ExitCode::SUCCESS);
    }
    let c = zkbench_evm::groth16_calldata_for_dir(&a.dir)
        .map_err(|e| once(format!("cannot read the proof in {}", a.dir.display()), e))?;
    if a.hex {
        println!("0x{}", hex_encode(&c.abi_encode()));
    } else {
        println!("{}", c.snarkjs_text());
    }
    Ok(ExitCode::SUCCESS)
}

/// `what: e` as one message: an error whose text already ends with its
/// source's (an OS error) would otherwise print that text twice.
fn once(what: String, e: zkbench_evm::EvmError) -> anyhow::Error {
    anyhow::anyhow!("{what}: {e}")
}

fn hex_encode(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
