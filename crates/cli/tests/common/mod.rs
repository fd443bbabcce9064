//! What the browser tests share: where the repository is and which Chromium
//! the page's runner (web/scripts/browser.mjs, through launch.mjs) would use.

use std::{path::PathBuf, process::Command};

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Chromium on this machine: `$CHROMIUM`, else `chromium`,
/// `chromium-browser` or `google-chrome` on PATH.
pub fn chromium() -> Option<String> {
    let names = std::env::var("CHROMIUM")
        .ok()
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
    names.into_iter().find(|n| {
        Command::new("sh")
            .args(["-c", &format!("command -v \"{n}\"")])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}
