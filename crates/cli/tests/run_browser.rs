//! `zkbench run --browser`: the choice reaches the suite's external runners
//! (`ZKBENCH_BROWSER`, read by web/scripts/browser.mjs), and an unknown
//! browser is refused with the accepted names.

use std::process::Command;

fn zkbench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zkbench"))
}

/// A suite whose one external runner prints a record naming the browser it
/// was given (as `case.system`).
fn suite(dir: &std::path::Path) -> std::path::PathBuf {
    let record = r#"{"case":{"kind":"proof","system":"%s","hash":"-","threads":0},"phase":"prove","status":"ok","samples_s":[0.5],"threads":1,"metrics":{}}"#;
    let toml = format!(
        r#"name = "browser-choice"
description = "echoes ZKBENCH_BROWSER"
default_profile = "smoke"

[profiles.smoke]
warmup = 0
min_samples = 1
max_samples = 1
target_seconds = 0.0
case_timeout_seconds = 60

[[external]]
name = "echo"
command = ["sh", "-c", '''printf '{record}\n' "${{ZKBENCH_BROWSER:-unset}}"''']
"#
    );
    let p = dir.join("suite.toml");
    std::fs::write(&p, toml).unwrap();
    p
}

fn systems(dir: &std::path::Path, browser: Option<&str>) -> Vec<String> {
    let out = dir.join("results.json");
    let mut cmd = zkbench();
    cmd.arg("run")
        .arg(suite(dir))
        .args(["--quiet", "--out"])
        .arg(&out)
        .arg("--report")
        .arg(dir.join("report.html"))
        .env_remove("ZKBENCH_BROWSER");
    if let Some(b) = browser {
        cmd.args(["--browser", b]);
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    v["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["case"]["system"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_browser_reaches_the_external_runner() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(systems(dir.path(), Some("firefox")), ["firefox"]);
    assert_eq!(systems(dir.path(), Some("chromium")), ["chromium"]);
    assert_eq!(systems(dir.path(), None), ["unset"]);
}

#[test]
fn an_unknown_browser_is_refused_with_the_accepted_names() {
    let o = zkbench()
        .args(["run", "browser", "--browser", "safari"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("invalid value 'safari'")
            && err.contains("chromium")
            && err.contains("firefox"),
        "{err}"
    );
}
