//! `zkbench serve` and `zkbench submit` end to end: the real binary serves a
//! SQLite file, a results file is submitted twice (new, then already
//! stored), a bad one is refused with the server's reason, a server with a
//! submit token takes only `zkbench submit --token-file`, and a database
//! that cannot be opened is a clear error with a non-zero exit.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    time::Duration,
};

fn zkbench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zkbench"))
}

/// `zkbench serve` on a SQLite file in `dir` with `extra` arguments: the
/// child and the URL it printed.
fn serve(dir: &std::path::Path, extra: &[&str]) -> (std::process::Child, String) {
    let db = format!("sqlite://{}", dir.join("r.db").display());
    let mut server = zkbench()
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = server.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let line = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("serve prints its URL");
    assert!(line.contains("listening on http://127.0.0.1:"), "{line}");
    let url = line[line.find("http://").unwrap()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    (server, url)
}

#[test]
fn serve_then_submit() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, url) = serve(dir.path(), &[]);
    let results = dir.path().join("results.json");
    zkbench_server::sample::document(5, 4, 3)
        .write(&results)
        .unwrap();
    let file = results.to_str().unwrap();
    let submit = |f: &str| {
        zkbench()
            .args(["submit", f, "--to", &url])
            .output()
            .unwrap()
    };
    let first = submit(file);
    let out = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        out.contains("(new)") && out.contains("/api/results/"),
        "{out}"
    );
    let again = submit(file);
    assert!(String::from_utf8_lossy(&again.stdout).contains("already stored"));

    // A file the server refuses: a negative time (valid for the local reader).
    let mut bad: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    bad["records"][0]["samples_s"][0] = serde_json::json!(-1.0);
    let bad_path = dir.path().join("bad.json");
    std::fs::write(&bad_path, bad.to_string()).unwrap();
    let refused = submit(bad_path.to_str().unwrap());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{err}");
    assert!(
        err.contains("HTTP 400") && err.contains("samples_s"),
        "{err}"
    );

    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn submit_token_file() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "t0k-e2e\n").unwrap();
    let (mut server, url) = serve(
        dir.path(),
        &[
            "--submit-token-file",
            token.to_str().unwrap(),
            "--rate-limit",
            "100",
        ],
    );
    let results = dir.path().join("results.json");
    zkbench_server::sample::document(6, 2, 3)
        .write(&results)
        .unwrap();
    let file = results.to_str().unwrap();
    let without = zkbench()
        .args(["submit", file, "--to", &url])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&without.stderr);
    assert_eq!(without.status.code(), Some(1), "{err}");
    assert!(
        err.contains("HTTP 401") && err.contains("Bearer") && !err.contains("t0k-e2e"),
        "{err}"
    );
    let with = zkbench()
        .args([
            "submit",
            file,
            "--to",
            &url,
            "--token-file",
            token.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        with.status.success() && String::from_utf8_lossy(&with.stdout).contains("(new)"),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    server.kill().unwrap();
    server.wait().unwrap();
    let bad = zkbench()
        .args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "lots"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--rate-limit") && err.contains("or off"),
        "{err}"
    );
}

#[test]
fn serve_with_an_unusable_database_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/no/such/dir/x.db", dir.path().display());
    let out = zkbench()
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot open database"), "{err}");
}
