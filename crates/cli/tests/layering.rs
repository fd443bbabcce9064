//! The workspace's layering: every crate depends only on crates on lower
//! floors. The floors are written once, in ARCHITECTURE.md's "Floors" table;
//! this test reads that table and `cargo metadata` and fails on a crate that
//! depends on one on its own floor or above, or that the table leaves out.

use std::collections::BTreeMap;
use std::process::Command;

/// `crate name -> floor` from ARCHITECTURE.md's table (rows `| floor | crates | ... |`
/// after the heading `## Floors`; crate names without the `zkbench-` prefix,
/// `cli` for the `zkbench` binary crate).
fn floors() -> BTreeMap<String, usize> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ARCHITECTURE.md");
    let text = std::fs::read_to_string(root).expect("ARCHITECTURE.md");
    let section = text
        .split("## Floors")
        .nth(1)
        .expect("ARCHITECTURE.md has a '## Floors' section");
    let mut out = BTreeMap::new();
    for line in section.lines().take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(floor) = cells.get(1).and_then(|c| c.parse::<usize>().ok()) else {
            continue;
        };
        for name in cells[2].split(',').map(|c| c.trim().trim_matches('`')) {
            let package = if name == "cli" {
                "zkbench".to_string()
            } else {
                format!("zkbench-{name}")
            };
            assert!(out.insert(package, floor).is_none(), "{name} listed twice");
        }
    }
    assert!(!out.is_empty(), "no floors read from ARCHITECTURE.md");
    out
}

/// `package -> its normal and build dependencies inside the workspace`.
fn workspace_deps() -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let members: Vec<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(String::from))
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str().map(String::from))
                .filter(|d| members.contains(d))
                .collect();
            (p["name"].as_str().unwrap_or_default().to_string(), deps)
        })
        .collect()
}

#[test]
fn every_crate_depends_only_on_lower_floors() {
    let floors = floors();
    let mut wrong = Vec::new();
    for (package, deps) in workspace_deps() {
        let Some(&floor) = floors.get(&package) else {
            wrong.push(format!("{package} is not in ARCHITECTURE.md's floor table"));
            continue;
        };
        for d in deps {
            match floors.get(&d) {
                Some(&f) if f < floor => {}
                Some(&f) => wrong.push(format!(
                    "{package} (floor {floor}) depends on {d} (floor {f}): a crate may depend only on lower floors"
                )),
                None => wrong.push(format!("{d} is not in ARCHITECTURE.md's floor table")),
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn the_server_is_free_of_the_crypto_stack() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "-p",
            "zkbench-server",
            "--edges",
            "normal",
            "--prefix",
            "none",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let ark: Vec<&str> = tree.lines().filter(|l| l.starts_with("ark-")).collect();
    assert!(ark.is_empty(), "zkbench-server pulls in {ark:?}");
}
