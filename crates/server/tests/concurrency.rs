//! 100 clients posting at once lose nothing, and 100 clients posting the same
//! document at once store it once; the listing then returns every one of the
//! 1,001 submissions without paging. SQLite and PostgreSQL.

use crate::common;

use std::{collections::HashSet, sync::Arc};

use crate::common::{get_json, sqlite_url, TestServer};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use zkbench_server::sample::document_json;

const CLIENTS: u64 = 100;
const PER_CLIENT: u64 = 10;

async fn hundred_clients(url: &str, label: &str) {
    let barrier = Arc::new(tokio::sync::Barrier::new(CLIENTS as usize));
    let mut tasks = Vec::new();
    for c in 0..CLIENTS {
        let (barrier, url) = (barrier.clone(), url.to_string());
        tasks.push(tokio::spawn(async move {
            let client = Client::new();
            barrier.wait().await;
            let mut out = Vec::new();
            for k in 0..PER_CLIENT {
                let seed = 10_000 + c * PER_CLIENT + k;
                let doc = document_json(seed, 2, 3);
                let resp = client
                    .post(format!("{url}/api/results"))
                    .json(&doc)
                    .send()
                    .await
                    .expect("request");
                let status = resp.status();
                let v: Value = resp.json().await.expect("JSON");
                out.push((seed, status, v["id"].as_str().map(String::from), doc));
            }
            out
        }));
    }
    let mut ids = HashSet::new();
    let mut posted = Vec::new();
    for t in tasks {
        for (seed, status, id, doc) in t.await.unwrap() {
            assert_eq!(status, StatusCode::CREATED, "{label}: seed {seed}");
            let id = id.expect("id");
            assert!(ids.insert(id.clone()), "{label}: duplicate id");
            posted.push((id, doc));
        }
    }
    assert_eq!(ids.len() as u64, CLIENTS * PER_CLIENT);

    // The same document from 100 clients at once: one 201, 99 200s, one id.
    let same = document_json(1, 4, 3);
    let barrier = Arc::new(tokio::sync::Barrier::new(CLIENTS as usize));
    let mut tasks = Vec::new();
    for _ in 0..CLIENTS {
        let (barrier, url, same) = (barrier.clone(), url.to_string(), same.clone());
        tasks.push(tokio::spawn(async move {
            let client = Client::new();
            barrier.wait().await;
            let resp = client
                .post(format!("{url}/api/results"))
                .json(&same)
                .send()
                .await
                .unwrap();
            let status = resp.status();
            let v: Value = resp.json().await.unwrap();
            (status, v["id"].as_str().unwrap().to_string())
        }));
    }
    let mut created = 0;
    let mut same_ids = HashSet::new();
    for t in tasks {
        let (status, id) = t.await.unwrap();
        match status {
            StatusCode::CREATED => created += 1,
            StatusCode::OK => {}
            s => panic!("{label}: {s}"),
        }
        same_ids.insert(id);
    }
    assert_eq!(
        (created, same_ids.len()),
        (1, 1),
        "{label}: identical posts"
    );

    // Every submission is listed without paging parameters, and readable.
    let client = Client::new();
    let (_, list) = get_json(&client, &format!("{url}/api/results")).await;
    let listed: HashSet<&str> = list["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed.len() as u64, CLIENTS * PER_CLIENT + 1, "{label}");
    assert!(
        ids.iter().all(|id| listed.contains(id.as_str())),
        "{label}: a submission is missing"
    );
    for (id, doc) in posted.iter().step_by(97) {
        let (_, got) = get_json(&client, &format!("{url}/api/results/{id}")).await;
        assert_eq!(&got, doc, "{label}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundred_concurrent_clients_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(dir.path(), "c.db"), dir.path()).await;
    hundred_clients(&server.url, "sqlite").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundred_concurrent_clients_postgres() {
    let Some(pg) = common::postgres("hundred_concurrent_clients_postgres") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&pg.url(), dir.path()).await;
    hundred_clients(&server.url, "postgres").await;
    server.stop().await;
    drop(pg);
}
