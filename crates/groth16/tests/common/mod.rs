//! Shared by the tests that run the real snarkjs (pinned in
//! `scripts/snarkjs/package.json`): where it is, and installing it.

use std::{path::PathBuf, process::Command};

/// `scripts/snarkjs`, where the pinned snarkjs is installed.
pub fn snarkjs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/snarkjs")
}

fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Returns false (and prints why) if node/npm are not installed; runs
/// `npm ci` in [`snarkjs_dir`] when snarkjs is not installed there yet.
pub fn ensure_snarkjs() -> bool {
    if !have("node") || !have("npm") {
        eprintln!("SKIPPED: node and npm are not installed, cannot run snarkjs");
        return false;
    }
    let dir = snarkjs_dir();
    if !dir.join("node_modules/snarkjs/build/cli.cjs").exists() {
        let st = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .expect("running npm ci");
        assert!(
            st.success(),
            "`npm ci` failed in {}; run it by hand",
            dir.display()
        );
    }
    true
}
