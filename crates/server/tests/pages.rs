//! The device page, the comparison page and cursor paging of the listing,
//! on SQLite and PostgreSQL alike; the rate limit on `POST` (429 with
//! `Retry-After`) and the optional submit token (401 unless
//! `Authorization: Bearer` carries it).

use crate::common;

use crate::common::{get_json, sqlite_url, TestServer};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use zkbench_server::{sample, RateLimit, ServerConfig, SubmitToken};

async fn post(c: &Client, url: &str, doc: &Value) -> (StatusCode, Value) {
    let resp = c
        .post(format!("{url}/api/results"))
        .json(doc)
        .send()
        .await
        .expect("request");
    let status = resp.status();
    (status, resp.json().await.expect("JSON"))
}

async fn page(c: &Client, url: &str) -> (StatusCode, String) {
    let resp = c.get(url).send().await.expect("request");
    let status = resp.status();
    (status, resp.text().await.expect("text"))
}

/// `sample::document(seed, 8, 3)` with record 0 twice as slow and record 1
/// twice as fast, as JSON.
fn slower_and_faster(seed: u64) -> Value {
    let mut f = sample::document(seed, 8, 3);
    for (i, k) in [(0usize, 2.0), (1, 0.5)] {
        let r = &mut f.records[i];
        let wall: Vec<f64> = r.samples_s.iter().map(|x| x * k).collect();
        let cpu = wall.iter().map(|w| w * 1.9).collect();
        r.set_samples(wall, cpu);
    }
    serde_json::to_value(f).unwrap()
}

/// Paging: `limit` + `after` walk every submission once, with `total` and `next`.
async fn paging(c: &Client, url: &str, ids: &[String], label: &str) {
    let (s, all) = get_json(c, &format!("{url}/api/results")).await;
    assert_eq!(s, StatusCode::OK, "{label}");
    assert_eq!(all["total"], json!(ids.len()), "{label}");
    assert_eq!(all["next"], Value::Null, "{label}: no next without limit");
    let listed: Vec<&str> = all["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed.len(), ids.len(), "{label}");
    let mut walked = Vec::new();
    let mut next = String::new();
    for _ in 0..10 {
        let q = if next.is_empty() {
            "limit=2".to_string()
        } else {
            format!("limit=2&after={next}")
        };
        let (s, p) = get_json(c, &format!("{url}/api/results?{q}")).await;
        assert_eq!(s, StatusCode::OK, "{label}: {q}");
        assert_eq!(p["total"], json!(ids.len()));
        let subs = p["submissions"].as_array().unwrap();
        assert!(subs.len() <= 2);
        walked.extend(subs.iter().map(|s| s["id"].as_str().unwrap().to_string()));
        match p["next"].as_str() {
            Some(n) => {
                assert_eq!(Some(n), subs.last().and_then(|s| s["id"].as_str()));
                next = n.to_string();
            }
            None => break,
        }
    }
    assert_eq!(walked, listed, "{label}: pages in order, each once");
    for (q, names) in [
        ("limit=abc", "limit"),
        ("limit=-1", "limit"),
        ("limit=10001", "limit"),
        ("after=xyz", "after"),
        (&*format!("after={}", "0".repeat(64)), "after"),
        (&*format!("after={}&offset=1", ids[0]), "offset"),
        ("offset=ten", "offset"),
    ] {
        let (s, e) = get_json(c, &format!("{url}/api/results?{q}")).await;
        let msg = e["error"].as_str().unwrap_or_default();
        assert_eq!(s, StatusCode::BAD_REQUEST, "{label}: {q}: {e}");
        assert!(
            msg.contains(names) && msg.contains("accepted"),
            "{label}: {q}: {msg}"
        );
    }
}

/// The device page: chart, runs, links, escaping, filters, 404.
async fn device(c: &Client, url: &str, label: &str) {
    let class = "Sample CPU A (8 cores) · 8 CPUs · x86_64";
    let href = zkbench_server::leaderboard::device_href(class);
    let (s, board) = page(c, &format!("{url}/leaderboard")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        board.contains(&href.replace('&', "&amp;")),
        "{label}: the leaderboard links the device page"
    );
    let (s, h) = page(c, &format!("{url}{href}")).await;
    assert_eq!(s, StatusCode::OK, "{label}: {h}");
    assert!(h.contains("<h1>Sample CPU A (8 cores) · 8 CPUs · x86_64</h1>"));
    assert!(
        h.contains("<svg") && h.contains("<polyline"),
        "{label}: chart"
    );
    assert!(h.contains("time received (UTC)") && h.contains("median time per run (log scale)"));
    assert!(
        h.contains("/compare?a="),
        "{label}: compare with the run before"
    );
    assert!(h.contains(" · prove</td>") && !h.contains(" · verify</td>"));
    let (_, h) = page(c, &format!("{url}{href}?phase=verify")).await;
    assert!(h.contains(" · verify</td>") && !h.contains(" · prove</td>"));

    let evil = "<script>alert(1)</script> & Co · 2 CPUs · x86_64";
    let (s, h) = page(
        c,
        &format!("{url}{}", zkbench_server::leaderboard::device_href(evil)),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{label}");
    assert!(
        !h.contains("<script>alert(1)")
            && h.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co")
    );

    let (s, h) = page(c, &format!("{url}/leaderboard/device/No%20such%20CPU")).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{label}");
    assert!(h.contains("No device class named") && h.contains("No such CPU"));
    assert!(
        h.contains(&href.replace('&', "&amp;")),
        "{label}: lists the classes"
    );
    let (s, _) = page(c, &format!("{url}/leaderboard/device/%FF%FE")).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{label}: not UTF-8");
}

/// The comparison page: the `zkbench compare` table, regressions marked; 400/404.
async fn compare(c: &Client, url: &str, base: &str, new: &str, label: &str) {
    let (s, h) = page(c, &format!("{url}/compare?a={base}&b={new}")).await;
    assert_eq!(s, StatusCode::OK, "{label}: {h}");
    assert!(h.contains("<tr class=\"regression\">") && h.contains("REGRESSION"));
    assert!(h.contains("<tr class=\"improvement\">") && h.contains(">faster<"));
    assert!(
        h.contains(">2.000<") && h.contains(">0.500<"),
        "{label}: ratios"
    );
    assert!(h.contains("1 regression(s), 1 improvement(s), 6 unchanged, 0 missing"));
    let (_, h) = page(c, &format!("{url}/compare?a={base}&b={new}&threshold=1.5")).await;
    assert!(
        !h.contains("<tr class=\"regression\">"),
        "{label}: threshold"
    );
    let missing = "0".repeat(64);
    for (q, status, says) in [
        (format!("b={new}"), StatusCode::BAD_REQUEST, "parameter a"),
        (format!("a={base}"), StatusCode::BAD_REQUEST, "parameter b"),
        (
            format!("a=nothex&b={new}"),
            StatusCode::BAD_REQUEST,
            "not a submission id",
        ),
        (
            format!("a={base}&b={new}&threshold=-1"),
            StatusCode::BAD_REQUEST,
            "threshold",
        ),
        (
            format!("a={missing}&b={new}"),
            StatusCode::NOT_FOUND,
            "names no stored submission",
        ),
    ] {
        let (s, h) = page(c, &format!("{url}/compare?{q}")).await;
        assert_eq!(s, status, "{label}: {q}");
        assert!(
            h.contains(says) && h.contains("accepted"),
            "{label}: {q}: {h}"
        );
    }
}

async fn pages(url: &str, label: &str) {
    let c = Client::new();
    let mut ids = Vec::new();
    for seed in [0u64, 3, 6, 1, 2] {
        let (s, v) = post(&c, url, &sample::document_json(seed, 8, 3)).await;
        assert_eq!(s, StatusCode::CREATED, "{label}: {v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = post(&c, url, &slower_and_faster(0)).await;
    assert_eq!(s, StatusCode::CREATED, "{label}: {v}");
    let new = v["id"].as_str().unwrap().to_string();
    ids.push(new.clone());
    let mut evil = sample::document_json(9, 4, 3);
    for r in evil["records"].as_array_mut().unwrap() {
        r["env"]["cpu_model"] = json!("<script>alert(1)</script> & Co");
        r["env"]["logical_cpus"] = json!(2);
    }
    let (s, v) = post(&c, url, &evil).await;
    assert_eq!(s, StatusCode::CREATED, "{label}: {v}");
    ids.push(v["id"].as_str().unwrap().to_string());
    paging(&c, url, &ids, label).await;
    device(&c, url, label).await;
    compare(&c, url, &ids[0], &new, label).await;
}

#[tokio::test]
async fn device_compare_and_paging_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&sqlite_url(dir.path(), "p.db"), dir.path()).await;
    pages(&server.url, "SQLite").await;
    server.stop().await;
}

#[tokio::test]
async fn device_compare_and_paging_postgres() {
    let Some(pg) = common::postgres("device_compare_and_paging_postgres") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&pg.url(), dir.path()).await;
    pages(&server.url, "PostgreSQL").await;
    server.stop().await;
}

/// A server on SQLite with a rate limit and a submit token.
async fn guarded(dir: &std::path::Path, limit: u32, token: Option<&str>) -> TestServer {
    let config = ServerConfig {
        addr: "127.0.0.1:0".into(),
        db_url: sqlite_url(dir, "g.db"),
        web_dir: dir.join("web"),
        rate_limit: RateLimit::per_minute(limit),
        submit_token: token.map(|t| SubmitToken::new(t).unwrap()),
        ..ServerConfig::default()
    };
    TestServer::start_config(&config).await
}

#[tokio::test]
async fn rate_limit_answers_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let server = guarded(dir.path(), 3, None).await;
    let url = server.url.clone();
    let c = Client::new();
    for seed in 0..3 {
        let (s, v) = post(&c, &url, &sample::document_json(seed, 2, 2)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let resp = c
        .post(format!("{url}/api/results"))
        .json(&sample::document_json(3, 2, 2))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (1..=20).contains(&wait),
        "3 a minute: one more within 20 s, got {wait}"
    );
    let e: Value = resp.json().await.unwrap();
    assert!(e["error"].as_str().unwrap().contains("at most 3 a minute"));
    // reads are not limited
    let (s, list) = get_json(&c, &format!("{url}/api/results")).await;
    assert_eq!((s, list["total"].clone()), (StatusCode::OK, json!(3)));
    server.stop().await;
}

#[tokio::test]
async fn submit_token_is_required_when_set() {
    let dir = tempfile::tempdir().unwrap();
    let server = guarded(dir.path(), 1000, Some("tok-3f9a")).await;
    let url = server.url.clone();
    let c = Client::new();
    let doc = sample::document_json(5, 2, 2);
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("Basic tok-3f9a"),
        Some("Bearer "),
    ] {
        let mut req = c.post(format!("{url}/api/results")).json(&doc);
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{auth:?}");
        assert_eq!(
            resp.headers()["www-authenticate"],
            "Bearer realm=\"zkbench\""
        );
        let e: Value = resp.json().await.unwrap();
        let msg = e["error"].as_str().unwrap();
        assert!(
            msg.contains("Authorization: Bearer") && !msg.contains("tok-3f9a"),
            "{msg}"
        );
    }
    let resp = c
        .post(format!("{url}/api/results"))
        .header("authorization", "Bearer tok-3f9a")
        .json(&doc)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::CREATED);
    // reading needs no token
    let (s, list) = get_json(&c, &format!("{url}/api/results")).await;
    assert_eq!((s, list["total"].clone()), (StatusCode::OK, json!(1)));
    server.stop().await;
}
