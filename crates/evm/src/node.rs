//! Running the project's Node.js helper scripts (`scripts/solc`, `scripts/snarkjs`).

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use crate::EvmError;

/// The project's `scripts/` directory: `$ZKBENCH_SCRIPTS`, else the one next
/// to this crate's sources, else the first `scripts/` above the current directory.
pub fn scripts_dir() -> Result<PathBuf, EvmError> {
    if let Some(p) = std::env::var_os("ZKBENCH_SCRIPTS") {
        return Ok(PathBuf::from(p));
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts");
    if built.join("solc").is_dir() {
        return Ok(built);
    }
    let cwd = std::env::current_dir().map_err(|e| EvmError::io(".", e))?;
    cwd.ancestors()
        .map(|d| d.join("scripts"))
        .find(|d| d.join("solc").is_dir())
        .ok_or_else(|| EvmError::ToolMissing {
            what: "the project's scripts/ directory".into(),
            why:
                "not found next to the sources or above the current directory; set ZKBENCH_SCRIPTS"
                    .into(),
        })
}

/// Whether `node` runs at all (tests use it to decide to skip).
pub fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Checks that `dir/node_modules/<package>` is installed.
pub fn require_package(dir: &Path, package: &str) -> Result<(), EvmError> {
    if !node_available() {
        return Err(EvmError::ToolMissing {
            what: "node".into(),
            why: "`node --version` did not run".into(),
        });
    }
    if !dir.join("node_modules").join(package).is_dir() {
        return Err(EvmError::ToolMissing {
            what: format!("npm package {package}"),
            why: format!("{} has no node_modules/{package}", dir.display()),
        });
    }
    Ok(())
}

/// Runs `node <script> <args>` in the script's directory with `stdin`, returning stdout.
pub fn run_node(script: &Path, args: &[&str], stdin: &[u8]) -> Result<Vec<u8>, EvmError> {
    let dir = script.parent().unwrap_or(Path::new("."));
    let mut child = Command::new("node")
        .arg(script)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| EvmError::ToolMissing {
            what: "node".into(),
            why: e.to_string(),
        })?;
    if let Some(mut input) = child.stdin.take() {
        // A script that exits without reading stdin closes the pipe; its exit status says why.
        let _ = input.write_all(stdin);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| EvmError::io(script, e))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(EvmError::Script {
            script: script.display().to_string(),
            message: format!("{} ({})", err.trim(), out.status),
        });
    }
    Ok(out.stdout)
}

/// zkbench's cache directory for `what`: `$ZKBENCH_CACHE/<what>`, else
/// `$XDG_CACHE_HOME/zkbench/<what>`, else `~/.cache/zkbench/<what>`.
pub fn cache_dir(what: &str) -> PathBuf {
    if let Some(p) = std::env::var_os("ZKBENCH_CACHE") {
        return PathBuf::from(p).join(what);
    }
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".zkbench-cache"))
        .join("zkbench")
        .join(what)
}
