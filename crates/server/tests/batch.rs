//! Group commit: submissions queued together are stored in one transaction
//! and each acknowledged with its own id; a submission that fails (its own
//! rows, or the rows submissions share) does not fail the others of its
//! batch; the leaderboard summaries written in batches equal those computed
//! from the documents; a full queue is answered 503 with `Retry-After`.
//! SQLite and PostgreSQL (the 503: SQLite).

use crate::common;

use std::{collections::HashSet, time::Duration};

use crate::common::{sqlite_url, TestServer};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use sqlx::{AnyConnection, Connection, Executor};
use zkbench_server::{
    canonical::{content_id, into_canonical_text},
    db::{NewSubmission, Prepared},
    sample::document_json,
    summary::Filters,
    writer::{SubmitError, Writer},
    Db, ServerConfig,
};

fn prepared(v: &Value) -> Prepared {
    let file = serde_json::from_value(v.clone()).unwrap();
    let canonical = into_canonical_text(v.clone());
    let id = content_id(&canonical);
    Prepared::new(&NewSubmission {
        id: &id,
        suite: v["suite"].as_str().unwrap(),
        cpu_model: v["env"]["cpu_model"].as_str().unwrap(),
        records: v["records"].as_array().unwrap().len() as i64,
        document: &canonical,
        file: &file,
    })
    .unwrap()
}

/// Every filter's board from the summaries equals the board from the documents.
async fn assert_board_matches(db: &Db, label: &str) {
    for phase in [None, Some("prove"), Some("verify")] {
        let f = Filters {
            phase: phase.map(String::from),
            ..Filters::default()
        };
        let want = common::board_from_stored(db, &f).await;
        assert_eq!(db.board(&f).await.unwrap(), want, "{label}: {f:?}");
    }
}

/// 24 submissions queued at once are acknowledged, each with its own id,
/// in fewer batches than submissions; two batches of documents that share
/// groups (several entries per group and batch, ties, one document twice)
/// keep the summaries equal to the documents'.
async fn batches_are_stored(url: &str, label: &str) {
    let db = Db::connect(url).await.unwrap();
    let writer = Writer::spawn(db.clone(), 64);
    let docs: Vec<Value> = (0..24).map(|s| document_json(500 + s, 60, 3)).collect();
    let tasks: Vec<_> = docs
        .iter()
        .map(|d| {
            let (w, p) = (writer.clone(), prepared(d));
            tokio::spawn(async move { (p.id().to_string(), w.submit(p).await) })
        })
        .collect();
    let mut ids = HashSet::new();
    for t in tasks {
        let (id, r) = t.await.unwrap();
        assert!(r.unwrap(), "{label}: {id} not stored as new");
        assert!(ids.insert(id), "{label}: duplicate id");
    }
    assert_eq!(ids.len(), 24);
    assert!(
        writer.batches() < 24,
        "{label}: {} batches",
        writer.batches()
    );
    for (d, id) in docs
        .iter()
        .zip(docs.iter().map(|d| prepared(d).id().to_string()))
    {
        let got: Value = serde_json::from_str(&db.get(&id).await.unwrap().unwrap()).unwrap();
        assert_eq!(&got, d, "{label}");
    }
    assert_board_matches(&db, label).await;
    // a second batch into the same groups, with a document of the first and one twice
    let more: Vec<Prepared> = [600, 601, 602, 500, 600]
        .iter()
        .map(|&s| prepared(&document_json(s, 60, 3)))
        .collect();
    let r: Vec<bool> = db
        .insert_batch(&more)
        .await
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(r.iter().filter(|&&x| x).count(), 3, "{label}: {r:?}");
    assert!(!r[3], "{label}: stored twice");
    assert_eq!(db.count().await.unwrap(), 27, "{label}");
    assert_eq!(db.generation().await.unwrap(), 27, "{label}");
    assert_board_matches(&db, label).await;
    db.close().await;
}

#[tokio::test]
async fn queued_submissions_are_stored_in_batches_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    batches_are_stored(&sqlite_url(dir.path(), "b.db"), "SQLite").await;
}

#[tokio::test]
async fn queued_submissions_are_stored_in_batches_postgres() {
    let Some(pg) = common::postgres("queued_submissions_are_stored_in_batches_postgres") else {
        return;
    };
    batches_are_stored(&pg.url(), "PostgreSQL").await;
}

/// Triggers that refuse a submission whose suite is `poison` (its own row)
/// and any group of system `poisoned` (a row submissions share).
async fn add_poison(url: &str, postgres: bool) {
    let mut c = AnyConnection::connect(url).await.unwrap();
    let statements: &[&str] = if postgres {
        &[
            "CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
             RAISE EXCEPTION 'poisoned row'; END $$",
            "CREATE TRIGGER poison_sub BEFORE INSERT ON submissions FOR EACH ROW \
             WHEN (NEW.suite = 'poison') EXECUTE FUNCTION poison()",
            "CREATE TRIGGER poison_group BEFORE INSERT ON leaderboard_groups FOR EACH ROW \
             WHEN (NEW.system = 'poisoned') EXECUTE FUNCTION poison()",
        ]
    } else {
        &[
            "CREATE TRIGGER poison_sub BEFORE INSERT ON submissions WHEN NEW.suite = 'poison' \
             BEGIN SELECT RAISE(ABORT, 'poisoned row'); END",
            "CREATE TRIGGER poison_group BEFORE INSERT ON leaderboard_groups \
             WHEN NEW.system = 'poisoned' BEGIN SELECT RAISE(ABORT, 'poisoned row'); END",
        ]
    };
    for s in statements {
        c.execute(*s).await.unwrap();
    }
    c.close().await.unwrap();
}

/// A batch with a submission its database refuses on its own row, and one
/// refused on a shared row (the batch is written again one by one): the
/// others are stored and acknowledged, the two refused get their error and
/// leave nothing behind.
async fn failure_is_isolated(url: &str, postgres: bool, label: &str) {
    let db = Db::connect(url).await.unwrap();
    add_poison(url, postgres).await;
    let mut docs: Vec<Value> = (0..6).map(|s| document_json(700 + s, 8, 3)).collect();
    docs[1]["suite"] = "poison".into();
    docs[4]["records"][0]["case"]["system"] = "poisoned".into();
    let batch: Vec<Prepared> = docs.iter().map(prepared).collect();
    let results = db.insert_batch(&batch).await;
    let mut stored = 0;
    for (k, (p, r)) in batch.iter().zip(results).enumerate() {
        let there = db.get(p.id()).await.unwrap().is_some();
        match (k, r) {
            (1 | 4, Err(e)) => {
                assert!(e.to_string().contains("poisoned row"), "{label}: {e}");
                assert!(!e.is_unavailable(), "{label}");
                assert!(!there, "{label}: refused submission {k} stored");
            }
            (1 | 4, r) => panic!("{label}: submission {k}: {r:?}"),
            (_, r) => {
                assert!(r.unwrap(), "{label}: submission {k}");
                assert!(there, "{label}: submission {k} acknowledged, not stored");
                stored += 1;
            }
        }
    }
    // through the writer, the refusal is the submitter's error
    let writer = Writer::spawn(db.clone(), 4);
    match writer.submit(prepared(&docs[1])).await {
        Err(SubmitError::Db(e)) => assert!(e.to_string().contains("poisoned row"), "{label}"),
        r => panic!("{label}: {r:?}"),
    }
    assert_eq!(stored, 4);
    assert_eq!(db.count().await.unwrap(), 4, "{label}");
    assert_eq!(db.generation().await.unwrap(), 4, "{label}");
    assert_board_matches(&db, label).await;
    db.close().await;
}

#[tokio::test]
async fn a_failing_submission_does_not_fail_its_batch_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    failure_is_isolated(&sqlite_url(dir.path(), "p.db"), false, "SQLite").await;
}

#[tokio::test]
async fn a_failing_submission_does_not_fail_its_batch_postgres() {
    let Some(pg) = common::postgres("a_failing_submission_does_not_fail_its_batch_postgres") else {
        return;
    };
    failure_is_isolated(&pg.url(), true, "PostgreSQL").await;
}

/// A queue of one: while the writer waits on a database another connection
/// holds locked, one submission waits in the queue and the others are
/// answered 503 with `Retry-After` at once (not stored); once the lock goes,
/// the two taken are stored (201).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_is_a_503() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(dir.path(), "q.db");
    let server = TestServer::start_config(&ServerConfig {
        addr: "127.0.0.1:0".into(),
        db_url: url.clone(),
        web_dir: dir.path().join("web"),
        rate_limit: None,
        write_queue: 1,
        ..ServerConfig::default()
    })
    .await;
    let mut lock = AnyConnection::connect(&format!("{url}?mode=rw"))
        .await
        .unwrap();
    lock.execute("BEGIN IMMEDIATE").await.unwrap();
    let post = |seed: u64| {
        let url = server.url.clone();
        tokio::spawn(async move {
            let r = Client::new()
                .post(format!("{url}/api/results"))
                .json(&document_json(seed, 2, 2))
                .send()
                .await
                .unwrap();
            let retry = r.headers().get("retry-after").cloned();
            let status = r.status();
            let body: Value = r.json().await.unwrap();
            (status, retry, body)
        })
    };
    // the first is taken by the writer, which then waits on the lock
    let first = post(1);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let second = post(2);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rest: Vec<_> = (3..8).map(post).collect();
    let mut busy = 0;
    for t in rest {
        let (status, retry, body) = t.await.unwrap();
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(retry.unwrap(), "1");
        let msg = body["error"].as_str().unwrap();
        assert!(
            msg.contains("server busy") && msg.contains("not stored"),
            "{msg}"
        );
        busy += 1;
    }
    assert_eq!(busy, 5);
    lock.execute("ROLLBACK").await.unwrap();
    for t in [first, second] {
        let (status, _, body) = t.await.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (_, list) = common::get_json(&Client::new(), &format!("{}/api/results", server.url)).await;
    assert_eq!(list["total"], 2);
    server.stop().await;
}
