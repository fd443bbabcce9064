//! `zkbench verifier` and `zkbench calldata`: on-chain verification (crates/evm).

use std::{path::PathBuf, process::ExitCode};

use anyhow::{bail, Context};
use clap::Args;

/// Arguments of `zkbench verifier`.
#[derive(Args, Debug)]
pub struct VerifierArgs {
    /// Proof system: groth16 (halo2-kzg has no EVM verifier yet, see docs/evm.md).
    #[arg(long, default_value = "groth16")]
    pub system: String,
    /// Proof directory written by `zkbench prove` (or snarkjs): verification_key.json is read.
    #[arg(long)]
    pub dir: PathBuf,
    /// Output Solidity file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Arguments of `zkbench calldata`.
#[derive(Args, Debug)]
pub struct CalldataArgs {
    /// Proof system: groth16.
    #[arg(long, default_value = "groth16")]
    pub system: String,
    /// Proof directory written by `zkbench prove` (or snarkjs): proof.json and public.json are read.
    #[arg(long)]
    pub dir: PathBuf,
    /// Print the raw transaction calldata (selector + ABI encoding) as 0x-hex instead of
    /// snarkjs's `zkey export soliditycalldata` text.
    #[arg(long)]
    pub hex: bool,
}

fn check_system(system: &str) -> anyhow::Result<()> {
    match system {
        "groth16" => Ok(()),
        "halo2-kzg" => bail!(
            "halo2-kzg has no EVM verifier yet (it needs a Keccak transcript; see docs/evm.md); available: groth16"
        ),
        other => bail!("unknown proof system {other:?} for on-chain verification; available: groth16"),
    }
}

/// `zkbench verifier`.
pub fn verifier(a: VerifierArgs) -> anyhow::Result<ExitCode> {
    check_system(&a.system)?;
    let src = zkbench_evm::groth16_verifier_for_dir(&a.dir)
        .with_context(|| format!("cannot read the verification key in {}", a.dir.display()))?;
    match &a.out {
        Some(path) => {
            std::fs::write(path, &src)
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!(
                "wrote {} (contract {}, verifyProof with snarkjs's ABI)",
                path.display(),
                zkbench_evm::GROTH16_CONTRACT
            );
        }
        None => print!("{src}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `zkbench calldata`.
pub fn calldata(a: CalldataArgs) -> anyhow::Result<ExitCode> {
    check_system(&a.system)?;
    let c = zkbench_evm::groth16_calldata_for_dir(&a.dir)
        .with_context(|| format!("cannot read the proof in {}", a.dir.display()))?;
    if a.hex {
        println!("0x{}", hex_encode(&c.abi_encode()));
    } else {
        println!("{}", c.snarkjs_text());
    }
    Ok(ExitCode::SUCCESS)
}

fn hex_encode(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
