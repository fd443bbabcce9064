//! `zkbench recommend` end to end: results files, a results server, JSON,
//! flag errors; `zkbench list`'s security table. (`--quick` measures for a
//! minute or more and is not run here.)

use std::{
    io::{BufRead, BufReader, Write},
    net::TcpListener,
    process::Output,
};

use assert_cmd::Command;

use crate::common;

fn data(name: &str) -> String {
    common::repo()
        .join("docs/data")
        .join(name)
        .display()
        .to_string()
}

fn zkbench(args: &[&str]) -> Output {
    Command::cargo_bin("zkbench")
        .expect("binary built")
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn recommends_from_checked_in_results() {
    let f = data("scaling-2core.json");
    let two_threads = [
        "recommend",
        "--results",
        &f,
        "--threads",
        "2",
        "--max-prove-ms",
    ];
    let o = zkbench(&[&two_threads[..], &["100", "--min-leaves", "2^30"]].concat());
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains(
            "1. groth16/poseidon2-gnark/membership/arity2/2^32 · 2 threads · 55.5 ms measured"
        ),
        "{out}"
    );
    // the Halo2-KZG spend on 2 threads took 121 ms: excluded, saying which budget
    assert!(out.contains("halo2-kzg/poseidon2-a7/spend/arity7/2^36 · 2 threads · 121.1 ms measured (12 samples): prove 121.1 ms > 100 ms"), "{out}");
    // --check with nothing meeting the budget: a clear error, before measuring anything
    let o = zkbench(&[&two_threads[..], &["1", "--check"]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o)
            .1
            .contains("--check: no configuration meets the budget"),
        "{:?}",
        text(&o)
    );
    let o = zkbench(&[
        "recommend",
        "--results",
        &f,
        "--threads",
        "1",
        "--json",
        "--optimize",
        "size",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["budget"]["optimize"], "size");
    assert_eq!(v["ranked"][0]["proof_bytes"], 128.0);
    assert!(v["excluded"].as_array().unwrap().is_empty());
}

#[test]
fn bad_flags_are_clear_errors() {
    let f = data("scaling-2core.json");
    for (args, says) in [
        (vec!["--target", "gpu"], "native, browser"),
        (vec!["--optimize", "speed"], "prove, gas, size"),
        (vec!["--min-leaves", "3^4"], "2^K"),
        (vec!["--circuit", "batch-root"], "spend or membership"),
        (vec!["--max-prove-ms", "-5"], "positive"),
        (vec!["--threads", "0"], "at least 1"),
        (
            vec!["--server", "http://127.0.0.1:9"],
            "cannot be used with",
        ),
        (vec!["--quick"], "cannot be used with"),
        (vec!["--target", "browser"], "zkbench run browser"),
    ] {
        let mut all = vec!["recommend", "--results", &f];
        all.extend(&args);
        let o = zkbench(&all);
        let (_, err) = text(&o);
        assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}: {err}");
        assert!(
            err.contains(says) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    let o = zkbench(&["recommend", "--server", "http://127.0.0.1:9"]);
    assert!(
        text(&o).1.contains("--device-class <TEXT>"),
        "{:?}",
        text(&o)
    );
    let o = zkbench(&[
        "recommend",
        "--server",
        "http://127.0.0.1:9",
        "--device-class",
        "EPYC",
    ]);
    assert!(
        text(&o).1.contains("cannot reach the results server"),
        "{:?}",
        text(&o)
    );
    let o = zkbench(&["recommend", "--results", "/nonexistent.json"]);
    assert!(text(&o).1.contains("cannot read /nonexistent.json"));
    let o = zkbench(&["recommend", "--server", "ftp://x", "--device-class", "EPYC"]);
    assert!(text(&o).1.contains("accepted: http://"));
}

/// A one-connection-at-a-time server answering the results API with one submission.
fn fake_server(doc: String) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let mut line = String::new();
            let mut r = BufReader::new(&s);
            r.read_line(&mut line).unwrap();
            while r
                .read_line(&mut String::new())
                .map(|n| n > 2)
                .unwrap_or(false)
            {}
            let body = if line.starts_with("GET /api/results/abc ") {
                doc.clone()
            } else {
                r#"{"submissions":[{"id":"abc","cpu_model":"AMD EPYC","records":75}]}"#.into()
            };
            let _ = write!(&s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        }
    });
    format!("http://{addr}")
}

#[test]
fn reads_a_results_server() {
    let url = fake_server(std::fs::read_to_string(data("scaling-2core.json")).unwrap());
    let o = zkbench(&[
        "recommend",
        "--server",
        &url,
        "--device-class",
        "EPYC · 2 CPUs",
        "--threads",
        "2",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("1 submissions of device class"), "{err}");
    assert!(out.contains("Meeting every budget"), "{out}");
    let o = zkbench(&["recommend", "--server", &url, "--device-class", "Xeon"]);
    assert!(
        text(&o).1.contains("device classes there: AMD EPYC"),
        "{:?}",
        text(&o)
    );
}

#[test]
fn list_shows_the_security_table() {
    let (out, _) = text(&zkbench(&["list"]));
    assert!(
        out.contains("bn254") && out.contains("Barbulescu, Duquesne"),
        "{out}"
    );
    assert!(out.contains("griffin") && out.contains("ATTACK"), "{out}");
}

/// `--check` of a browser pick runs `zkbench run browser` for its statement and
/// reads the page's records back: where the page is built (bash
/// scripts/build-web.sh) and Chromium is installed, it prints the check line;
/// elsewhere (CI builds no page) it fails saying why, never panicking.
#[test]
fn checks_a_browser_pick_in_the_page() {
    let root = common::repo();
    let quick = data("recommend-quick-2core.json");
    let browser = data("recommend-browser-4t-2core.json");
    let o = Command::cargo_bin("zkbench")
        .unwrap()
        .current_dir(&root)
        .args(["recommend", "--results", &quick, &browser])
        .args([
            "--target",
            "browser",
            "--threads",
            "4",
            "--max-prove-ms",
            "200",
        ])
        .args(["--max-verify-gas", "300000", "--check"])
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(
        out.contains("1. groth16/griffin/spend/arity7/2^36 · 4 threads"),
        "{out}"
    );
    // what the page's runner needs: the built page, puppeteer-core, Chromium
    let page = root.join("web/dist/index.html").is_file()
        && root.join("web/node_modules/puppeteer-core").is_dir()
        && common::chromium().is_some();
    if page {
        assert!(o.status.success(), "{err}");
        assert!(
            out.contains("Check: groth16/griffin/spend/arity7/2^36 · browser 4 threads: predicted 119.9 ms (measured), measured now"),
            "{out}"
        );
    } else {
        assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
        assert!(
            err.contains("in the browser gave no prove time") && !err.contains("panicked"),
            "{err}"
        );
    }
}
