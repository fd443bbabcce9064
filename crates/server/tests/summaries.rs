//! The leaderboard's summaries against the documents themselves (written with
//! each submission, and filled by the migration of a database written by the
//! old schema), every text field with U+0000, a lone surrogate or 1 MB of
//! text (the same answer on both databases, never a 5xx), `ETag` / 304, and a
//! database outage (a fast 503, then recovery). SQLite and PostgreSQL.

use crate::common;

use std::time::{Duration, Instant};

use crate::common::{sqlite_url, TestServer};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use zkbench_server::{
    canonical::{content_id, into_canonical_text},
    db::NewSubmission,
    sample::document_json,
    summary::Filters,
    Db,
};

/// Documents that exercise the summaries: three device classes, two records
/// of one submission in one group (60 records cycle through 48 cases),
/// equal medians in different submissions, failed records, one `case_id`
/// shared by two systems, and U+0000 and backslashes in device strings.
fn documents() -> Vec<Value> {
    let mut docs: Vec<Value> = [0u64, 1, 2, 3, 4, 5, 291, 7]
        .iter()
        .map(|&s| document_json(s, 60, 3))
        .collect();
    docs[1]["records"][2]["status"] = json!("error");
    docs[1]["records"][2]["error"] = json!("out of luck");
    let shared = docs[2]["records"][2]["case_id"].clone();
    docs[5]["records"][5]["case_id"] = shared;
    docs[5]["records"][5]["case"]["system"] = json!("plonk");
    docs[5]["records"][5]["phase"] = docs[2]["records"][2]["phase"].clone();
    for r in docs[4]["records"].as_array_mut().unwrap() {
        r["env"]["cpu_model"] = json!("Odd\u{0}CPU \\0 <b>");
        r["env"]["os"] = json!("Linux\u{0}\\");
    }
    docs
}

fn filters() -> Vec<Filters> {
    let f = |system: Option<&str>, hash: Option<&str>, arity, phase: Option<&str>| Filters {
        system: system.map(String::from),
        hash: hash.map(String::from),
        arity,
        phase: phase.map(String::from),
    };
    vec![
        f(None, None, None, Some("prove")),
        f(None, None, None, None),
        f(Some("groth16"), Some("poseidon2"), Some(4), None),
        f(Some("plonk"), None, None, None),
        f(None, Some("griffin"), None, Some("verify")),
        f(Some("nope"), None, None, None),
    ]
}

/// The board from the summary tables equals the board from the documents,
/// for every filter.
async fn assert_board_matches(db: &Db, label: &str) {
    for f in filters() {
        let want = common::board_from_stored(db, &f).await;
        let got = db.board(&f).await.unwrap();
        assert_eq!(got, want, "{label}: {f:?}");
    }
    let all = db.board(&filters()[1]).await.unwrap();
    assert!(
        all.rows.iter().any(|r| r.n >= 2 && r.recent.len() >= 2),
        "{label}"
    );
}

async fn insert(db: &Db, v: &Value) -> bool {
    let file = serde_json::from_value(v.clone()).unwrap();
    let canonical = into_canonical_text(v.clone());
    let id = content_id(&canonical);
    let s = NewSubmission {
        id: &id,
        suite: v["suite"].as_str().unwrap(),
        cpu_model: v["env"]["cpu_model"].as_str().unwrap(),
        records: v["records"].as_array().unwrap().len() as i64,
        document: &canonical,
        file: &file,
    };
    db.insert(&s).await.unwrap()
}

async fn summaries_match(url: &str, label: &str) {
    let db = Db::connect(url).await.unwrap();
    for v in documents() {
        assert!(insert(&db, &v).await, "{label}");
    }
    assert!(!insert(&db, &documents()[0]).await, "{label}: stored twice");
    assert_board_matches(&db, label).await;
    db.close().await;
}

#[tokio::test]
async fn summaries_match_the_documents_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    summaries_match(&sqlite_url(dir.path(), "s.db"), "SQLite").await;
}

#[tokio::test]
async fn summaries_match_the_documents_postgres() {
    let Some(pg) = common::postgres("summaries_match_the_documents_postgres") else {
        return;
    };
    summaries_match(&pg.url(), "PostgreSQL").await;
}

/// A database as the server before summaries wrote it: migration 0001 only,
/// rows inserted with its statement.
async fn old_schema_database(url: &str) {
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let first = "0001_submissions.sql";
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    std::fs::copy(src.join(first), dir.path().join(first)).unwrap();
    let old = sqlx::migrate::Migrator::new(dir.path()).await.unwrap();
    let url = zkbench_server::db::normalize_url(url).unwrap().0;
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    old.run(&pool).await.unwrap();
    for (k, v) in documents().into_iter().enumerate() {
        let canonical = into_canonical_text(v.clone());
        sqlx::query(
            "INSERT INTO submissions (id, received_at, suite, cpu_model, record_count, document) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(content_id(&canonical))
        .bind(format!("2026-11-0{}T00:00:00.000000Z", 9 - k))
        .bind("sample")
        .bind("old rows hold no U+0000 on PostgreSQL")
        .bind(60i64)
        .bind(&canonical)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
}

async fn migration_fills(url: &str, label: &str) {
    old_schema_database(url).await;
    let db = Db::connect(url).await.unwrap();
    assert_eq!(db.count().await.unwrap(), 8, "{label}");
    assert_eq!(db.generation().await.unwrap(), 8, "{label}");
    assert_board_matches(&db, &format!("{label}, migrated")).await;
    assert!(insert(&db, &document_json(11, 60, 3)).await);
    assert_board_matches(&db, &format!("{label}, migrated then one more")).await;
    db.close().await;
    // A second start finds nothing left to fill and changes nothing.
    let db = Db::connect(url).await.unwrap();
    assert_board_matches(&db, &format!("{label}, reopened")).await;
    db.close().await;
}

#[tokio::test]
async fn migration_fills_summaries_of_an_old_database_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    migration_fills(&sqlite_url(dir.path(), "old.db"), "SQLite").await;
}

#[tokio::test]
async fn migration_fills_summaries_of_an_old_database_postgres() {
    let Some(pg) = common::postgres("migration_fills_summaries_of_an_old_database_postgres") else {
        return;
    };
    migration_fills(&pg.url(), "PostgreSQL").await;
}

/// Every string leaf of `v` as a path of keys and indices.
fn string_paths(v: &Value, at: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::String(_) => out.push(at.clone()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(json!(i));
                string_paths(x, at, out);
                at.pop();
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                at.push(json!(k));
                string_paths(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn leaf<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, p| match p {
        Value::String(k) => &mut v[k.as_str()],
        p => &mut v[p.as_u64().unwrap() as usize],
    })
}

/// Posts the document with each string leaf in turn replaced by each of
/// three raw JSON strings; returns (field, variant, status) in order.
async fn odd_strings(url: &str) -> Vec<(String, usize, u16)> {
    let c = Client::new();
    let base = document_json(3, 2, 2);
    let mut paths = Vec::new();
    string_paths(&base, &mut Vec::new(), &mut paths);
    let big = "a".repeat(1 << 20);
    let variants = [
        "\"x\\u0000y\"".to_string(),
        "\"\\ud800\"".into(),
        format!("\"{big}\""),
    ];
    let mut out = Vec::new();
    for path in &paths {
        for (k, raw) in variants.iter().enumerate() {
            let mut v = base.clone();
            *leaf(&mut v, path) = json!("@@leaf@@");
            let body = serde_json::to_string(&v)
                .unwrap()
                .replace("\"@@leaf@@\"", raw);
            let resp = c
                .post(format!("{url}/api/results"))
                .header("content-type", "application/json")
                .body(body.clone())
                .send()
                .await
                .unwrap();
            let status = resp.status();
            let answer: Value = resp.json().await.unwrap();
            let field = format!("{path:?}");
            assert!(
                status.is_client_error() || status.is_success(),
                "{field} {k}: {status}"
            );
            if status == StatusCode::CREATED {
                let stored: Value = c
                    .get(format!(
                        "{url}/api/results/{}",
                        answer["id"].as_str().unwrap()
                    ))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                let posted: Value = serde_json::from_str(&body).unwrap();
                assert_eq!(stored, posted, "{field} {k}");
            } else {
                assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()));
            }
            out.push((field, k, status.as_u16()));
        }
    }
    // The listing gives suite and cpu_model back exactly.
    let list: Value = c
        .get(format!("{url}/api/results"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let subs = list["submissions"].as_array().unwrap();
    assert!(subs.iter().any(|s| s["suite"] == "x\u{0}y"));
    assert!(subs.iter().any(|s| s["cpu_model"] == "x\u{0}y"));
    let page = c
        .get(format!("{url}/leaderboard?phase="))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    // The device page of a class holding U+0000 (a record's cpu_model), and
    // the comparison of two stored odd documents: never a 5xx, the same
    // answer on both databases (the statuses join the compared list).
    let ids: Vec<&str> = subs.iter().map(|s| s["id"].as_str().unwrap()).collect();
    let class = zkbench_server::leaderboard::device_href("x\u{0}y · 8 CPUs · x86_64");
    for path in [
        format!("{class}?phase="),
        format!("/compare?a={}&b={}", ids[0], ids[ids.len() - 1]),
    ] {
        let status = c.get(format!("{url}{path}")).send().await.unwrap().status();
        assert!(
            status == StatusCode::OK || status == StatusCode::NOT_FOUND,
            "{path}: {status}"
        );
        out.push((path, 0, status.as_u16()));
    }
    out
}

#[tokio::test]
async fn nul_surrogates_and_long_strings_in_every_field() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    let server = TestServer::start(&sqlite_url(dir.path(), "nul.db"), &web).await;
    let sqlite = odd_strings(&server.url).await;
    server.stop().await;
    let stored = |f: &str| {
        sqlite
            .iter()
            .any(|(p, k, s)| p.ends_with(f) && *k == 0 && *s == 201)
    };
    assert!(stored("String(\"suite\")]") && stored("String(\"cpu_model\")]"));
    assert!(sqlite.iter().all(|(_, k, s)| *k == 0 || *s == 400));
    let db = Db::connect(&sqlite_url(dir.path(), "nul.db"))
        .await
        .unwrap();
    assert_board_matches(&db, "SQLite, odd strings").await;
    db.close().await;
    let Some(pg) = common::postgres("nul_surrogates_and_long_strings_in_every_field") else {
        return;
    };
    let server = TestServer::start(&pg.url(), &web).await;
    let postgres = odd_strings(&server.url).await;
    server.stop().await;
    assert_eq!(postgres, sqlite, "PostgreSQL answers as SQLite");
    let db = Db::connect(&pg.url()).await.unwrap();
    assert_board_matches(&db, "PostgreSQL, odd strings").await;
    db.close().await;
}

async fn get(c: &Client, url: &str, tag: Option<&str>) -> reqwest::Response {
    let mut r = c.get(url);
    if let Some(t) = tag {
        r = r.header("if-none-match", t);
    }
    r.send().await.unwrap()
}

fn header(r: &reqwest::Response, name: &str) -> String {
    r.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("{} has no {name}", r.url()))
        .to_string()
}

#[tokio::test]
async fn etags_answer_304_until_a_new_submission() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start(&sqlite_url(dir.path(), "tag.db"), &dir.path().join("web")).await;
    let (c, url) = (Client::new(), server.url.clone());
    let post = |seed: u64| {
        c.post(format!("{url}/api/results"))
            .json(&document_json(seed, 4, 2))
            .send()
    };
    let first: Value = post(1).await.unwrap().json().await.unwrap();
    let doc_url = format!("{url}/api/results/{}", first["id"].as_str().unwrap());
    let pages = [
        format!("{url}/leaderboard"),
        format!("{url}/leaderboard?phase="),
        format!("{url}/api/results"),
        doc_url.clone(),
    ];
    let mut tags = Vec::new();
    for p in &pages {
        let r = get(&c, p, None).await;
        assert_eq!(r.status(), StatusCode::OK, "{p}");
        let tag = header(&r, "etag");
        assert!(header(&r, "cache-control").starts_with("public"), "{p}");
        let again = get(&c, p, Some(&tag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{p}");
        assert_eq!(header(&again, "etag"), tag);
        assert!(again.bytes().await.unwrap().is_empty());
        let weak = get(&c, p, Some(&format!("\"other\", W/{tag}"))).await;
        assert_eq!(weak.status(), StatusCode::NOT_MODIFIED, "{p}");
        tags.push(tag);
    }
    assert_ne!(tags[0], tags[1], "filters have their own tags");
    assert_eq!(tags[3], format!("\"{}\"", first["id"].as_str().unwrap()));
    assert_eq!(post(2).await.unwrap().status(), StatusCode::CREATED);
    for (p, tag) in pages.iter().zip(&tags) {
        let r = get(&c, p, Some(tag)).await;
        let unchanged = *p == doc_url;
        let want = if unchanged {
            StatusCode::NOT_MODIFIED
        } else {
            StatusCode::OK
        };
        assert_eq!(r.status(), want, "{p} after a new submission");
    }
    server.stop().await;
}

/// With PostgreSQL stopped every route answers 503 with `Retry-After` within
/// about 2 s; the first request after it is back gets its normal answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_outage_is_a_fast_503_then_recovers() {
    let Some(pg) = common::postgres("database_outage_is_a_fast_503_then_recovers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&pg.url(), &dir.path().join("web")).await;
    let (c, url) = (Client::new(), server.url.clone());
    let post = |seed: u64| {
        c.post(format!("{url}/api/results"))
            .json(&document_json(seed, 4, 2))
            .send()
    };
    let first: Value = post(1).await.unwrap().json().await.unwrap();
    let id = first["id"].as_str().unwrap().to_string();
    pg.stop().unwrap();
    let t = Instant::now();
    let r = post(2).await.unwrap();
    let took = t.elapsed();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "POST");
    assert_eq!(header(&r, "retry-after"), "2");
    let e: Value = r.json().await.unwrap();
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("database unavailable"),
        "{e}"
    );
    assert!(took < Duration::from_millis(2500), "POST took {took:?}");
    common::say(&format!(
        "database down: POST /api/results answered 503 in {took:.2?}"
    ));
    for p in [
        "/leaderboard",
        "/api/results",
        &format!("/api/results/{id}"),
    ] {
        let t = Instant::now();
        let r = get(&c, &format!("{url}{p}"), None).await;
        let took = t.elapsed();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "{p}");
        assert!(r.headers().contains_key("retry-after"), "{p}");
        assert!(took < Duration::from_millis(2500), "{p} took {took:?}");
    }
    pg.restart().unwrap();
    assert_eq!(post(2).await.unwrap().status(), StatusCode::CREATED);
    let r = get(&c, &format!("{url}/leaderboard"), None).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains("2 submissions"));
    server.stop().await;
}

/// The device page's chart reads only its charted cases: the database's
/// choice (the cases with the most positive medians in the latest runs,
/// ties by case then phase) and its count of drawable cases equal what the
/// documents' own entries give.
async fn device_chart_matches_the_documents(url: &str, label: &str) {
    use std::collections::BTreeMap;
    let db = Db::connect(url).await.unwrap();
    // five runs of one class (seeds 0, 3, ...), 30 records each: more cases than the chart draws
    let docs: Vec<_> = (0..5)
        .map(|k| zkbench_server::sample::document(3 * k, 30, 3))
        .collect();
    let (first, _) = zkbench_server::summary::entries(&docs[0]);
    let class = first[0].key.class.clone();
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    for d in &docs {
        assert!(
            insert(&db, &serde_json::to_value(d).unwrap()).await,
            "{label}"
        );
        for e in zkbench_server::summary::entries(d).0 {
            if e.key.class == class && e.median > 0.0 {
                *counts.entry((e.key.case_id, e.key.phase)).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<_> = counts.iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    ranked.truncate(zkbench_server::db::SERIES);
    assert!(
        counts.len() > zkbench_server::db::SERIES,
        "{label}: {counts:?}"
    );
    let d = db
        .device(&class, &Filters::default())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.series_total, counts.len(), "{label}");
    let charted: std::collections::BTreeSet<_> = d
        .points
        .iter()
        .map(|p| (p.case_id.clone(), p.phase.clone()))
        .collect();
    let want: std::collections::BTreeSet<_> = ranked.iter().map(|(k, _)| (*k).clone()).collect();
    assert_eq!(charted, want, "{label}");
    assert_eq!(
        d.points.len(),
        ranked.iter().map(|(_, n)| **n).sum::<usize>(),
        "{label}"
    );
    db.close().await;
}

#[tokio::test]
async fn device_chart_matches_the_documents_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    device_chart_matches_the_documents(&sqlite_url(dir.path(), "d.db"), "SQLite").await;
}

#[tokio::test]
async fn device_chart_matches_the_documents_postgres() {
    let Some(pg) = common::postgres("device_chart_matches_the_documents_postgres") else {
        return;
    };
    device_chart_matches_the_documents(&pg.url(), "PostgreSQL").await;
}
