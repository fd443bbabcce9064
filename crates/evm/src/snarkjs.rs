//! snarkjs's own Solidity verifier (the peer in `zkbench run evm`), rendered
//! by `scripts/snarkjs/export-verifier.mjs` from a `verification_key.json`
//! with snarkjs's template, exactly as `snarkjs zkey export solidityverifier`.

use std::path::Path;

use crate::node::{require_package, run_node, scripts_dir};
use crate::EvmError;

/// The contract name snarkjs's template declares.
pub const SNARKJS_CONTRACT: &str = "Groth16Verifier";

/// snarkjs's verifier source for the key in `vk_json` (needs `scripts/snarkjs/node_modules`).
pub fn snarkjs_verifier_source(vk_json: &Path) -> Result<String, EvmError> {
    let dir = scripts_dir()?.join("snarkjs");
    require_package(&dir, "snarkjs")?;
    require_package(&dir, "ejs")?;
    let abs = std::path::absolute(vk_json).map_err(|e| EvmError::io(vk_json, e))?;
    let arg = abs.to_string_lossy();
    let out = run_node(&dir.join("export-verifier.mjs"), &[arg.as_ref()], b"")?;
    String::from_utf8(out).map_err(|e| EvmError::decode("snarkjs verifier source", e))
}

/// The version of the installed snarkjs (npm package version).
pub fn snarkjs_version() -> Option<String> {
    let p = scripts_dir()
        .ok()?
        .join("snarkjs/node_modules/snarkjs/package.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()?;
    v["version"].as_str().map(String::from)
}
