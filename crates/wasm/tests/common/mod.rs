//! Shared by the tests that run the WebAssembly module in Node.

use std::{path::PathBuf, process::Command};

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The wasm-bindgen nodejs build (`ZKBENCH_WASM_NODE`, default
/// `target/wasm-node`), or `None` with the reason printed, for `what` to skip.
pub fn wasm_node(what: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("ZKBENCH_WASM_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/wasm-node"));
    let node_ok = Command::new("node").arg("--version").output().is_ok();
    if !node_ok || !dir.join("zkbench_wasm.js").exists() {
        eprintln!(
            "\n!!! SKIPPED: {what} needs node and the WebAssembly build {} \
             (run `bash scripts/build-web.sh`); node found: {node_ok}\n",
            dir.display()
        );
        return None;
    }
    Some(dir)
}
