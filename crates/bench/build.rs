//! Records the compiler version, git commit and build profile for result metadata.
use std::process::Command;

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = run(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    let commit =
        run("git", &["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = run("git", &["status", "--porcelain", "--untracked-files=no"])
        .map(|s| !s.is_empty())
        .unwrap_or(false);
    println!("cargo:rustc-env=ZKBENCH_RUSTC={version}");
    println!(
        "cargo:rustc-env=ZKBENCH_GIT_COMMIT={commit}{}",
        if dirty { "-dirty" } else { "" }
    );
    println!(
        "cargo:rustc-env=ZKBENCH_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_default()
    );
    // Versions of the proof-system crates, read from the workspace's Cargo.lock.
    let lock = std::fs::read_to_string("../../Cargo.lock").unwrap_or_default();
    let wanted = [
        "ark-groth16",
        "ark-bn254",
        "ark-r1cs-std",
        "halo2-axiom",
        "rayon",
    ];
    let mut found = Vec::new();
    for pkg in lock.split("[[package]]") {
        let field = |k: &str| {
            pkg.lines().find_map(|l| {
                l.strip_prefix(k).map(|v| {
                    v.trim()
                        .trim_start_matches("= ")
                        .trim_matches('"')
                        .to_string()
                })
            })
        };
        if let (Some(n), Some(v)) = (field("name ="), field("version =")) {
            if wanted.contains(&n.as_str()) {
                found.push(format!("{n}={v}"));
            }
        }
    }
    println!("cargo:rustc-env=ZKBENCH_CRATE_VERSIONS={}", found.join(","));
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/index");
}
