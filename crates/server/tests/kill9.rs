//! kill -9 of the real server binary in the middle of a load: after a
//! restart on the same database, every submission that had received its 201
//! is there, unchanged. SQLite and PostgreSQL.

use crate::common;

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use reqwest::{Client, StatusCode};
use serde_json::Value;
use zkbench_server::sample::document_json;

/// Starts `zkbench-server` and returns it with the URL it printed.
fn spawn_server(db_url: &str, log: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zkbench-server"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--db",
            db_url,
            "--web",
            "/nonexistent",
        ])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("spawn zkbench-server");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(i) = line.find("http://") {
                let url: String = line[i..].split_whitespace().next().unwrap().to_string();
                let _ = tx.send(url);
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(url) => (child, url),
        Err(_) => {
            let _ = child.kill();
            panic!(
                "server printed no URL; its log:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
    }
}

async fn kill9(db_url: &str, label: &str, dir: &std::path::Path) {
    let (mut child, url) = spawn_server(db_url, &dir.join("server1.log"));
    let acked: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for c in 0..16u64 {
        let (acked, stop, url) = (acked.clone(), stop.clone(), url.clone());
        tasks.push(tokio::spawn(async move {
            let client = Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .unwrap();
            let mut k = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let doc = document_json(1_000_000 + c * 100_000 + k, 3, 3);
                k += 1;
                match client
                    .post(format!("{url}/api/results"))
                    .json(&doc)
                    .send()
                    .await
                {
                    Ok(resp) if resp.status() == StatusCode::CREATED => {
                        if let Ok(v) = resp.json::<Value>().await {
                            acked
                                .lock()
                                .unwrap()
                                .push((v["id"].as_str().unwrap().to_string(), doc));
                        }
                    }
                    Ok(resp) => panic!("{}", resp.status()),
                    Err(_) => break, // the server is gone
                }
            }
        }));
    }
    // Kill it in the middle of the load: after 150 acknowledged submissions (or 15 s).
    let t0 = Instant::now();
    while acked.lock().unwrap().len() < 150 && t0.elapsed() < Duration::from_secs(15) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
    let status = child.wait().unwrap();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.unwrap();
    }
    let acked = std::mem::take(&mut *acked.lock().unwrap());
    assert!(
        !acked.is_empty(),
        "{label}: nothing was acknowledged before the kill"
    );

    let (mut child, url) = spawn_server(db_url, &dir.join("server2.log"));
    let client = Client::new();
    let mut present = 0;
    for (id, doc) in &acked {
        let resp = client
            .get(format!("{url}/api/results/{id}"))
            .send()
            .await
            .unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::OK,
            "{label}: acknowledged {id} lost"
        );
        assert_eq!(
            &resp.json::<Value>().await.unwrap(),
            doc,
            "{label}: {id} changed"
        );
        present += 1;
    }
    let (_, list) = common::get_json(&client, &format!("{url}/api/results")).await;
    let stored = list["submissions"].as_array().unwrap().len();
    assert!(stored >= acked.len());
    common::say(&format!(
        "kill -9 ({label}): server killed ({status}) after {} acknowledged submissions; \
         after restart {present}/{} present and unchanged ({stored} rows in all: extra ones were committed while the kill cut their response)",
        acked.len(),
        acked.len()
    ));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill9_loses_no_acknowledged_submission_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    kill9(
        &common::sqlite_url(dir.path(), "k.db"),
        "sqlite",
        dir.path(),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill9_loses_no_acknowledged_submission_postgres() {
    let Some(pg) = common::postgres("kill9_loses_no_acknowledged_submission_postgres") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    kill9(&pg.url(), "postgres", dir.path()).await;
    drop(pg);
}
