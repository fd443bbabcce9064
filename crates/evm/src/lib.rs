//! # zkbench-evm
//!
//! On-chain verification of zkbench proofs:
//!
//! * [`groth16`]: zkbench's own Solidity `Groth16Verifier` (snarkjs's ABI,
//!   lean assembly over the BN254 precompiles) generated per verifying key;
//! * [`calldata`]: the `verifyProof` calldata (ABI bytes and snarkjs's
//!   `soliditycalldata` text);
//! * [`solc`]: compilation with the pinned solc-js from npm (`scripts/solc`),
//!   cached by source hash;
//! * [`chain`]: an in-process EVM (revm) measuring deploy gas, runtime
//!   bytecode size, execution and transaction gas;
//! * [`halo2`]: the Halo2-KZG (SHPLONK, Keccak transcript) verifier, generated
//!   by snark-verifier and hardened (scalars below r, exact calldata length);
//! * [`yul`]: size and gas passes over the Halo2 verifier's straight-line Yul;
//! * [`snarkjs`]: snarkjs's own exported verifier, the peer it is compared with;
//! * [`measure_verifier`]: all of it for one compiled verifier and one calldata.
#![deny(missing_docs)]

pub mod calldata;
pub mod chain;
pub mod error;
pub mod groth16;
pub mod halo2;
pub mod node;
pub mod snarkjs;
pub mod solc;
pub mod yul;

use std::path::Path;

pub use calldata::Groth16Calldata;
pub use chain::{CallOutcome, CallStatus, Chain, Deployed, Receipt, EIP170_LIMIT};
pub use error::EvmError;
pub use groth16::{precompile_floor_gas, solidity_verifier};
pub use halo2::{halo2_calldata, halo2_verifier, Halo2Dir, HALO2_CONTRACT};
pub use revm::primitives::{Address, Log, U256};
pub use solc::{Compiled, Solc};

/// The contract name of zkbench's Groth16 verifier (snarkjs's, too).
pub const GROTH16_CONTRACT: &str = "Groth16Verifier";

/// Gas and size of one verifier on one proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierGas {
    /// Gas of the creation transaction.
    pub gas_deploy: u64,
    /// Runtime bytecode size (EIP-170 limit: [`EIP170_LIMIT`]).
    pub bytecode_bytes: usize,
    /// Execution gas of `verifyProof` (transaction gas minus 21,000 and calldata).
    pub gas_verify: u64,
    /// Transaction gas: 21,000 + EIP-2028 calldata + execution.
    pub gas_tx: u64,
    /// Calldata size in bytes (selector included).
    pub calldata_bytes: usize,
    /// Whether the call returned `true`.
    pub accepted: bool,
}

/// Deploys `compiled` on a fresh [`Chain`] and sends one call with `calldata`.
pub fn measure_verifier(compiled: &Compiled, calldata: &[u8]) -> Result<VerifierGas, EvmError> {
    let mut chain = Chain::new();
    let d = chain.deploy(&compiled.creation)?;
    let out = chain.call(d.address, calldata)?;
    Ok(VerifierGas {
        gas_deploy: d.gas_deploy,
        bytecode_bytes: d.bytecode_bytes,
        gas_verify: out.gas_exec,
        gas_tx: out.gas_tx,
        calldata_bytes: calldata.len(),
        accepted: out.returned_true(),
    })
}

/// zkbench's verifier source for the Groth16 proof directory `dir`
/// (`verification_key.json`, as `zkbench prove` or snarkjs write it).
pub fn groth16_verifier_for_dir(dir: &Path) -> Result<String, EvmError> {
    let a = zkbench_groth16::artifacts::read_artifacts(dir)?;
    solidity_verifier(&a.vk)
}

/// The `verifyProof` calldata of the proof in the Groth16 proof directory `dir`.
pub fn groth16_calldata_for_dir(dir: &Path) -> Result<Groth16Calldata, EvmError> {
    let a = zkbench_groth16::artifacts::read_artifacts(dir)?;
    Ok(Groth16Calldata::new(&a.proof, &a.public))
}
