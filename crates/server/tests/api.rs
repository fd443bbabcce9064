//! The API contract (docs/server-api.md), run the same against SQLite and a
//! throwaway PostgreSQL cluster.

use crate::common;

use crate::common::{get_json, sqlite_url, TestServer};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use zkbench_server::sample::document_json;

fn doc(seed: u64) -> Value {
    document_json(seed, 8, 5)
}

async fn post(
    c: &Client,
    url: &str,
    body: impl Into<reqwest::Body>,
    ct: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = c.post(format!("{url}/api/results")).body(body);
    if let Some(ct) = ct {
        req = req.header("content-type", ct);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status();
    let text = resp.text().await.expect("body");
    let v = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("status {status}: body is not JSON ({e}): {text}"));
    (status, v)
}

async fn post_json(c: &Client, url: &str, v: &Value) -> (StatusCode, Value) {
    post(
        c,
        url,
        serde_json::to_vec(v).unwrap(),
        Some("application/json"),
    )
    .await
}

/// `v` with its top-level keys in reverse order, pretty-printed: same content.
fn reordered_pretty(v: &Value) -> String {
    let m = v.as_object().unwrap();
    let mut out = serde_json::Map::new();
    for (k, x) in m.iter().rev() {
        out.insert(k.clone(), x.clone());
    }
    serde_json::to_string_pretty(&Value::Object(out)).unwrap()
}

fn with(mut v: Value, f: impl FnOnce(&mut Value)) -> Vec<u8> {
    f(&mut v);
    serde_json::to_vec(&v).unwrap()
}

/// A named bad input: body, content type, expected status, text the error must contain.
struct Bad {
    name: &'static str,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    status: StatusCode,
    mentions: &'static str,
}

fn bad_inputs() -> Vec<Bad> {
    let d = doc(900);
    let json = Some("application/json");
    let bad = |name, body, mentions| Bad {
        name,
        body,
        content_type: json,
        status: StatusCode::BAD_REQUEST,
        mentions,
    };
    let deep = "[".repeat(5000) + &"]".repeat(5000);
    let mut v = vec![
        bad("invalid JSON", b"{\"schema\": ".to_vec(), "invalid JSON"),
        bad("empty body", vec![], "invalid JSON"),
        bad(
            "trailing garbage",
            [serde_json::to_vec(&d).unwrap(), b"xyz".to_vec()].concat(),
            "invalid JSON",
        ),
        bad(
            "array instead of object",
            b"[1, 2, 3]".to_vec(),
            "JSON object",
        ),
        bad(
            "wrong schema name",
            with(d.clone(), |v| v["schema"] = json!("other-results")),
            "schema",
        ),
        bad(
            "schema missing",
            with(d.clone(), |v| {
                v.as_object_mut().unwrap().remove("schema");
            }),
            "schema",
        ),
        bad(
            "unknown schema version",
            with(d.clone(), |v| v["schema_version"] = json!(2)),
            "schema_version",
        ),
        bad(
            "schema version as string",
            with(d.clone(), |v| v["schema_version"] = json!("1")),
            "schema_version",
        ),
        bad(
            "missing suite",
            with(d.clone(), |v| {
                v.as_object_mut().unwrap().remove("suite");
            }),
            "suite",
        ),
        bad(
            "missing records",
            with(d.clone(), |v| {
                v.as_object_mut().unwrap().remove("records");
            }),
            "records",
        ),
        bad(
            "missing env",
            with(d.clone(), |v| {
                v.as_object_mut().unwrap().remove("env");
            }),
            "env",
        ),
        bad(
            "record without phase",
            with(d.clone(), |v| {
                v["records"][0].as_object_mut().unwrap().remove("phase");
            }),
            "phase",
        ),
        bad(
            "record without case",
            with(d.clone(), |v| {
                v["records"][1].as_object_mut().unwrap().remove("case");
            }),
            "case",
        ),
        bad(
            "records not an array",
            with(d.clone(), |v| v["records"] = json!({"a": 1})),
            "records",
        ),
        bad(
            "samples as a string",
            with(d.clone(), |v| v["records"][0]["samples_s"] = json!("fast")),
            "samples_s",
        ),
        bad(
            "negative sample time",
            with(d.clone(), |v| v["records"][2]["samples_s"][1] = json!(-0.5)),
            "records[2].samples_s[1]",
        ),
        bad(
            "negative cpu time",
            with(d.clone(), |v| v["records"][0]["cpu_s"][0] = json!(-1)),
            "records[0].cpu_s[0]",
        ),
        bad(
            "negative duration",
            with(d.clone(), |v| v["duration_s"] = json!(-3.0)),
            "duration_s",
        ),
        bad(
            "absurd sample time (1e300 s)",
            with(d.clone(), |v| {
                v["records"][0]["samples_s"][0] = json!(1e300)
            }),
            "records[0].samples_s[0]",
        ),
        bad(
            "negative summary median",
            with(d.clone(), |v| {
                v["records"][0]["summary"]["median"] = json!(-1.0)
            }),
            "summary.median",
        ),
        bad(
            "non-finite number (1e999)",
            br#"{"schema":"zkbench-results","schema_version":1,"duration_s":1e999}"#.to_vec(),
            "invalid JSON",
        ),
        bad(
            "NaN literal",
            br#"{"schema":"zkbench-results","schema_version":1,"duration_s":NaN}"#.to_vec(),
            "invalid JSON",
        ),
        bad(
            "unknown phase",
            with(d.clone(), |v| v["records"][3]["phase"] = json!("teleport")),
            "records[3].phase",
        ),
        bad(
            "unknown status",
            with(d.clone(), |v| v["records"][0]["status"] = json!("great")),
            "status",
        ),
        bad(
            "negative metric",
            with(d.clone(), |v| {
                v["records"][0]["metrics"]["proof_bytes"] = json!(-128)
            }),
            "records[0].metrics.proof_bytes",
        ),
        bad(
            "absurd metric",
            with(d.clone(), |v| {
                v["records"][0]["metrics"]["constraints"] = json!(1e300)
            }),
            "records[0].metrics.constraints",
        ),
        bad(
            "absurd peak memory",
            with(d.clone(), |v| {
                v["records"][0]["peak_rss_bytes"] = json!(u64::MAX)
            }),
            "peak_rss_bytes",
        ),
        bad(
            "absurd memory size",
            with(d.clone(), |v| v["env"]["memory_bytes"] = json!(1u64 << 60)),
            "env.memory_bytes",
        ),
        bad(
            "absurd arity",
            with(d.clone(), |v| {
                v["records"][0]["case"]["arity"] = json!(1_000_000)
            }),
            "case.arity",
        ),
        bad(
            "arity one",
            with(d.clone(), |v| v["records"][0]["case"]["arity"] = json!(1)),
            "case.arity",
        ),
        bad(
            "absurd thread count",
            with(d.clone(), |v| {
                v["records"][0]["threads"] = json!(10_000_000)
            }),
            "threads",
        ),
        bad(
            "negative thread count",
            with(d.clone(), |v| v["records"][0]["threads"] = json!(-2)),
            "threads",
        ),
        bad(
            "absurd logical CPUs",
            with(d.clone(), |v| v["env"]["logical_cpus"] = json!(1u64 << 40)),
            "logical_cpus",
        ),
        bad(
            "overlong string",
            with(d.clone(), |v| {
                v["env"]["cpu_model"] = json!("x".repeat(100_000))
            }),
            "env.cpu_model",
        ),
        bad("nesting 5000 deep", deep.into_bytes(), "nested deeper"),
        bad(
            "deep nesting inside a valid document",
            with(d.clone(), |v| {
                let mut x = json!(1);
                for _ in 0..40 {
                    x = json!([x]);
                }
                v["extra"] = x;
            }),
            "nested deeper",
        ),
    ];
    for (name, ct) in [
        ("text/plain content type", Some("text/plain")),
        (
            "form content type",
            Some("application/x-www-form-urlencoded"),
        ),
        ("no content type", None),
    ] {
        v.push(Bad {
            name,
            body: serde_json::to_vec(&d).unwrap(),
            content_type: ct,
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            mentions: "application/json",
        });
    }
    let mut big = br#"{"schema":"zkbench-results","schema_version":1,"pad":""#.to_vec();
    big.resize(17 << 20, b'x');
    big.extend_from_slice(b"\"}");
    v.push(Bad {
        name: "body over 16 MiB",
        body: big,
        content_type: json,
        status: StatusCode::PAYLOAD_TOO_LARGE,
        mentions: "16 MiB",
    });
    v
}

fn assert_isolation_headers(resp: &reqwest::Response, what: &str) {
    let h = resp.headers();
    assert_eq!(
        h.get("cross-origin-opener-policy")
            .map(|v| v.to_str().unwrap()),
        Some("same-origin"),
        "{what}"
    );
    assert_eq!(
        h.get("cross-origin-embedder-policy")
            .map(|v| v.to_str().unwrap()),
        Some("require-corp"),
        "{what}"
    );
}

/// The whole contract against a server at `url` with an empty database.
async fn contract(url: &str) {
    let c = Client::new();

    // 201 with the id, then 200 with the same id for the same content.
    let d1 = doc(1);
    let (s, v) = post_json(&c, url, &d1).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id1 = v["id"].as_str().expect("id").to_string();
    assert_eq!(id1.len(), 64);
    let (s, v) = post_json(&c, url, &d1).await;
    assert_eq!((s, v["id"].as_str()), (StatusCode::OK, Some(id1.as_str())));
    let (s, v) = post(
        &c,
        url,
        reordered_pretty(&d1),
        Some("application/json; charset=utf-8"),
    )
    .await;
    assert_eq!(
        (s, v["id"].as_str()),
        (StatusCode::OK, Some(id1.as_str())),
        "key order and whitespace do not matter"
    );

    // Stored document is JSON-equal to what was posted; unknown fields are kept.
    let (s, got) = get_json(&c, &format!("{url}/api/results/{id1}")).await;
    assert_eq!((s, &got), (StatusCode::OK, &d1));
    let mut d2 = doc(2);
    d2["env"]["user_agent"] = json!("Mozilla/5.0 (test) <b>");
    d2["note"] = json!({"from": "a future writer", "n": [1, 2.5, null, true]});
    d2["records"][0]["error"] = Value::Null;
    let (s, v) = post_json(&c, url, &d2).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id2 = v["id"].as_str().unwrap().to_string();
    let (_, got) = get_json(&c, &format!("{url}/api/results/{id2}")).await;
    assert_eq!(got, d2);

    // Listing, with and without paging.
    let (s, list) = get_json(&c, &format!("{url}/api/results")).await;
    assert_eq!(s, StatusCode::OK);
    let subs = list["submissions"].as_array().unwrap();
    assert_eq!(subs.len(), 2);
    assert_eq!(subs[0]["id"], json!(id1));
    assert_eq!(subs[0]["suite"], json!("sample"));
    assert_eq!(subs[0]["cpu_model"], d1["env"]["cpu_model"]);
    assert_eq!(subs[0]["records"], json!(8));
    assert!(subs[0]["received_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(subs[1]["id"], json!(id2));
    let (_, page) = get_json(&c, &format!("{url}/api/results?limit=1&offset=1")).await;
    assert_eq!(page["submissions"].as_array().unwrap().len(), 1);
    assert_eq!(page["submissions"][0]["id"], json!(id2));
    let (s, e) = get_json(&c, &format!("{url}/api/results?limit=-1")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("limit"));

    // Unknown ids.
    let (s, e) = get_json(&c, &format!("{url}/api/results/{}", "0".repeat(64))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"].is_string());
    let (s, _) = get_json(&c, &format!("{url}/api/results/..%2F..%2Fetc")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = get_json(&c, &format!("{url}/api/results/%ZZ%FF")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Every bad input: the right 4xx with a JSON error naming the problem; nothing stored.
    for b in bad_inputs() {
        let (s, v) = post(&c, url, b.body, b.content_type).await;
        let msg = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: no error field in {v}", b.name));
        assert_eq!(s, b.status, "{}: {msg}", b.name);
        assert!(
            msg.contains(b.mentions),
            "{}: error {msg:?} does not mention {:?}",
            b.name,
            b.mentions
        );
    }
    let (s, list) = get_json(&c, &format!("{url}/api/results")).await;
    assert_eq!(s, StatusCode::OK, "still serving after the bad inputs");
    assert_eq!(list["submissions"].as_array().unwrap().len(), 2);

    // Leaderboard: escaped user strings, filters, chart, links.
    let mut evil = doc(3);
    evil["env"]["cpu_model"] = json!("<script>alert(1)</script> & Co");
    for r in evil["records"].as_array_mut().unwrap() {
        r["env"]["cpu_model"] = json!("<script>alert(1)</script> & Co");
        r["env"]["os"] = json!("\"><img src=x onerror=alert(2)>");
    }
    let (s, v) = post_json(&c, url, &evil).await;
    assert_eq!(s, StatusCode::CREATED);
    let evil_id = v["id"].as_str().unwrap().to_string();
    let resp = c.get(format!("{url}/leaderboard")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_isolation_headers(&resp, "/leaderboard");
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = resp.text().await.unwrap();
    assert!(!html.contains("<script>alert(1)"), "unescaped cpu model");
    assert!(!html.contains("<img src=x"), "unescaped os");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"));
    assert!(html.contains("<svg"));
    assert!(html.contains(&format!("/api/results/{evil_id}")));
    assert!(html.contains("groth16/poseidon2/spend/arity2/2^36/threads-all · prove"));
    let html = c
        .get(format!(
            "{url}/leaderboard?system=groth16&hash=poseidon&arity=2&phase=verify"
        ))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("groth16/poseidon/spend/arity2/2^36/threads-all · verify"));
    assert!(!html.contains("poseidon2/spend/arity2/2^36/threads-all · "));
    let html = c
        .get(format!("{url}/leaderboard?hash=%3Cnope%3E"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("No measured results match"));
    assert!(!html.contains("<nope>"));

    // Cross-origin isolation headers everywhere; the page tells how to build the browser bundle.
    for path in ["/", "/api/results", "/api/nothing", "/missing.js"] {
        let resp = c.get(format!("{url}{path}")).send().await.unwrap();
        assert_isolation_headers(&resp, path);
        if path == "/" {
            let body = resp.text().await.unwrap();
            assert!(
                body.contains("bash scripts/build-web.sh")
                    && body.contains("href=\"/leaderboard\"")
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_contract_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(
        &sqlite_url(dir.path(), "api.db"),
        &dir.path().join("no-web"),
    )
    .await;
    contract(&server.url).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_contract_postgres() {
    let Some(pg) = common::postgres("api_contract_postgres") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&pg.url(), &dir.path().join("no-web")).await;
    contract(&server.url).await;
    server.stop().await;
    drop(pg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_the_browser_page_when_built() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("dist");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>zkbench in the browser</title>",
    )
    .unwrap();
    std::fs::write(web.join("assets/app.js"), "console.log(1)").unwrap();
    let server = TestServer::start(&sqlite_url(dir.path(), "web.db"), &web).await;
    let c = Client::new();
    let resp = c.get(format!("{}/", server.url)).send().await.unwrap();
    assert_isolation_headers(&resp, "/ (built)");
    assert!(resp
        .text()
        .await
        .unwrap()
        .contains("zkbench in the browser"));
    let resp = c
        .get(format!("{}/assets/app.js", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_isolation_headers(&resp, "/assets/app.js");
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));

    // a key file with a precompressed sibling: gzip to a client that accepts it, plain otherwise
    std::fs::create_dir_all(web.join("keys")).unwrap();
    std::fs::write(web.join("keys/k.bin"), b"plain key bytes").unwrap();
    std::fs::write(web.join("keys/k.bin.gz"), b"pretend gzip").unwrap();
    let url = format!("{}/keys/k.bin", server.url);
    let resp = c
        .get(&url)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-encoding"], "gzip");
    assert_isolation_headers(&resp, "/keys/k.bin (gzip)");
    assert_eq!(&resp.bytes().await.unwrap()[..], b"pretend gzip");
    let resp = c.get(&url).send().await.unwrap();
    assert!(resp.headers().get("content-encoding").is_none());
    assert_eq!(&resp.bytes().await.unwrap()[..], b"plain key bytes");
    server.stop().await;
}

#[tokio::test]
async fn unusable_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    for url in [
        format!("sqlite://{}/missing-dir/x.db", dir.path().display()),
        "mysql://localhost/x".to_string(),
        "postgres://nobody@127.0.0.1:1/none".to_string(),
    ] {
        let config = zkbench_server::ServerConfig {
            addr: "127.0.0.1:0".into(),
            db_url: url.clone(),
            ..Default::default()
        };
        let err = match zkbench_server::Server::bind(&config).await {
            Ok(_) => panic!("{url}: opened"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains("database"), "{url}: {err}");
    }
}
