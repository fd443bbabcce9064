//! The HTTP surface (contract: `docs/server-api.md`).
//!
//! | route | what |
//! |---|---|
//! | `POST /api/results` | store a results document: 201 `{"id"}` (new, after its batch's commit, [`crate::writer`]), 200 `{"id"}` (already stored), 400/401/413/415/429 `{"error"}`, 503 + `Retry-After` (writer's queue full, database out of reach) |
//! | `GET /api/results` | `{"submissions": [{"id", "received_at", "suite", "cpu_model", "records"}], "total", "next"}`, optional `limit`, `after` (or `offset`) |
//! | `GET /api/results/{id}` | the stored document |
//! | `GET /leaderboard` | HTML leaderboard, filters `system`, `hash`, `arity`, `phase` |
//! | `GET /leaderboard/device/{class}` | one device class's runs over time ([`crate::pages`]) |
//! | `GET /compare?a={id}&b={id}` | the `zkbench compare` table of two stored runs ([`crate::pages`]) |
//!
//! The GET routes carry `ETag` and `Cache-Control` and answer a matching
//! `If-None-Match` with 304: a stored document never changes (its id is its
//! hash), and the leaderboard and the listing change only with the number of
//! stored submissions (one row read). A database out of reach is a 503 with
//! `Retry-After` within [`crate::db::ACQUIRE_TIMEOUT`], never a long wait.
//! | `GET /` and the rest | the browser page from `web/dist`, or a page saying how to build it |
//!
//! Every response carries `Cross-Origin-Opener-Policy: same-origin` and
//! `Cross-Origin-Embedder-Policy: require-corp` (the browser page needs
//! cross-origin isolation for threads). Bodies are read here, not by an
//! extractor, so that an oversized body is answered with a JSON 413 after it
//! has been drained (a client still sending would otherwise see a reset
//! connection instead of the status).

use std::{collections::HashMap, net::SocketAddr, path::PathBuf, sync::Arc};

use axum::{
    body::{Body, Bytes},
    extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State},
    http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::{any, get},
    Json, Router,
};
use http_body_util::BodyExt;
use serde::Serialize;
use tower_http::{
    catch_panic::CatchPanicLayer,
    services::ServeDir,
    set_header::SetResponseHeaderLayer,
    timeout::TimeoutLayer,
    trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer},
};
use tracing::Level;

use crate::{
    canonical::{content_id, into_canonical_text, is_content_id},
    db::{Db, DbError, NewSubmission, Prepared},
    guard::{Guard, Refusal},
    leaderboard, pages,
    validate::{validate, Valid},
    writer::{SubmitError, Writer, WRITE_QUEUE},
    ServerConfig,
};

/// Largest accepted request body: 16 MiB. Larger bodies get 413.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// An oversized body is read and discarded up to this size before the 413 is
/// sent; a body declared (Content-Length) larger than this gets its 413 at once.
const DRAIN_LIMIT: usize = 64 * 1024 * 1024;

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    pub(crate) db: Db,
    web_dir: PathBuf,
    /// Differs between server starts, so that a new build's pages get new tags.
    boot: u64,
    /// Rate limit and submit token of `POST` (set by [`router`] from its config).
    guard: Arc<Guard>,
    /// The one writer of submissions (group commit, [`crate::writer`]).
    writer: Writer,
}

impl AppState {
    /// State over an open database, serving the browser page from `web_dir`;
    /// starts its writer (a queue of [`WRITE_QUEUE`], [`router`] sets the
    /// config's), so it must be called within a tokio runtime.
    pub fn new(db: Db, web_dir: PathBuf) -> Self {
        let boot = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Self {
            writer: Writer::spawn(db.clone(), WRITE_QUEUE),
            db,
            web_dir,
            boot,
            guard: Arc::new(Guard::new(None, None)),
        }
    }

    /// The `ETag` of page `what` with query `query` at database generation `g`.
    pub(crate) fn etag(&self, what: &str, g: i64, query: Option<&str>) -> String {
        use sha2::Digest as _;
        let q = sha2::Sha256::digest(query.unwrap_or("").as_bytes());
        format!("\"{what}-{g}-{:x}-{}\"", self.boot, hex::encode(&q[..8]))
    }
}

/// The router with its limits (timeout, panics caught, body read by hand with
/// [`MAX_BODY_BYTES`]), request tracing and the cross-origin-isolation headers.
pub fn router(mut state: AppState, config: &ServerConfig) -> Router {
    state.guard = Arc::new(Guard::new(config.rate_limit, config.submit_token.clone()));
    if config.write_queue != WRITE_QUEUE {
        state.writer = Writer::spawn(state.db.clone(), config.write_queue);
    }
    // precompressed siblings (`keys/x.bin.br`, `keys/x.bin.gz`, written by
    // web/scripts/make-keys.mjs) are sent with `Content-Encoding` to clients that accept them
    let web = ServeDir::new(&state.web_dir)
        .precompressed_br()
        .precompressed_gzip();
    Router::new()
        .route("/api/results", get(list_results).post(post_results))
        .route("/api/results/{id}", get(get_result))
        .route("/api", any(api_not_found))
        .route("/api/{*rest}", any(api_not_found))
        .route("/leaderboard", get(leaderboard_page))
        .route("/leaderboard/device/{class}", get(pages::device_page))
        .route("/compare", get(pages::compare_page))
        .route("/", get(index))
        .fallback_service(web)
        .with_state(state)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                tracing::error!("handler panicked");
                error(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
            },
        ))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            HeaderName::from_static("cross-origin-embedder-policy"),
            HeaderValue::from_static("require-corp"),
        ))
}

/// Seconds a client is asked to wait (`Retry-After`) when the database is out of reach.
const RETRY_AFTER_S: u64 = 2;

/// The answer to a failed database call: 503 with `Retry-After` when the
/// database is out of reach (the request may be retried as is), else 500.
/// `what` is logged; `consequence` ends the message.
pub(crate) fn db_failure(e: &DbError, what: &str, consequence: &str) -> Response {
    if e.is_unavailable() {
        tracing::warn!(error = %e, "{what}: database unavailable");
        unavailable(
            format!("database unavailable; {consequence}; retry in {RETRY_AFTER_S} s"),
            RETRY_AFTER_S,
        )
    } else {
        tracing::error!(error = %e, "{what}");
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("database error; {consequence}"),
        )
    }
}

/// `{"error": message}` with `status`.
pub(crate) fn error(status: StatusCode, message: impl Into<String>) -> Response {
    #[derive(Serialize)]
    struct E {
        error: String,
    }
    (
        status,
        Json(E {
            error: message.into(),
        }),
    )
        .into_response()
}

fn too_large() -> Response {
    error(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "request body larger than {} MiB; accepted: at most {MAX_BODY_BYTES} bytes",
            MAX_BODY_BYTES >> 20
        ),
    )
}

/// Reads the whole body, at most [`MAX_BODY_BYTES`]; an oversized one is
/// drained (up to [`DRAIN_LIMIT`]) and answered with 413.
async fn read_body(headers: &HeaderMap, mut body: Body) -> Result<Bytes, Response> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > DRAIN_LIMIT as u64) {
        return Err(too_large());
    }
    let mut buf: Vec<u8> =
        Vec::with_capacity(declared.map_or(0, |n| n.min(MAX_BODY_BYTES as u64) as usize));
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            error(
                StatusCode::BAD_REQUEST,
                format!("cannot read the request body: {e}"),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            total = total.saturating_add(data.len());
            if total > MAX_BODY_BYTES {
                buf = Vec::new();
                if total > DRAIN_LIMIT {
                    break;
                }
            } else {
                buf.extend_from_slice(&data);
            }
        }
    }
    if total > MAX_BODY_BYTES {
        return Err(too_large());
    }
    Ok(Bytes::from(buf))
}

/// `application/json` or `application/*+json`, parameters allowed.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(ct) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let mime = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

#[derive(Serialize)]
struct IdBody {
    id: String,
}

/// The answer to a submission the [`Guard`] turned away.
fn refused(r: Refusal, guard: &Guard) -> Response {
    match r {
        Refusal::Limited(wait) => {
            let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
            let per_minute = guard.limit().map_or(0, crate::RateLimit::get);
            tracing::info!(retry_after_s = secs, "submission over the rate limit");
            let mut resp = error(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many submissions from this address: at most {per_minute} a minute \
                     (zkbench serve --rate-limit); retry in {secs} s"
                ),
            );
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            resp
        }
        Refusal::Unauthorized { sent } => {
            tracing::info!(token_sent = sent, "submission without the submit token");
            let why = if sent {
                "wrong submit token"
            } else {
                "this server takes submissions with its submit token only"
            };
            let mut resp = error(
                StatusCode::UNAUTHORIZED,
                format!(
                    "{why}; accepted: the header Authorization: Bearer TOKEN with the token of \
                     the server's --submit-token-file (zkbench submit --token-file FILE)"
                ),
            );
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"zkbench\""),
            );
            resp
        }
    }
}

async fn post_results(State(st): State<AppState>, req: Request) -> Response {
    let body = match admitted_body(&st.guard, req).await {
        Ok(b) => b,
        Err(resp) => return resp,
    };
    let valid = match validate(&body) {
        Ok(v) => v,
        Err(e) => {
            tracing::info!(error = %e, "rejected submission");
            return error(StatusCode::BAD_REQUEST, e.to_string());
        }
    };
    store_submission(&st.writer, valid).await
}

/// The body of a submission that `guard` lets through (rate limit, submit
/// token), read in full and declared JSON; otherwise the response that
/// refuses it (after reading and dropping the body of a refused client, so
/// that it sees the status, not a reset).
async fn admitted_body(guard: &Guard, req: Request) -> Result<Bytes, Response> {
    let (parts, body) = req.into_parts();
    let headers = parts.headers;
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Err(r) = guard.check(peer, &headers) {
        // read (and drop) the body, so that the client sees the status, not a reset
        let _ = read_body(&headers, body).await;
        return Err(refused(r, guard));
    }
    let body = read_body(&headers, body).await?;
    if !is_json(&headers) {
        let got = headers
            .get(header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .unwrap_or_else(|| "none".into());
        return Err(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("Content-Type {got:?} is not JSON; accepted: application/json"),
        ));
    }
    Ok(body)
}

/// Stores the validated submission `valid` under its content id through
/// `writer`: 201 with the id when new, 200 when already stored, an error
/// response when the database or the writer's queue cannot take it.
async fn store_submission(writer: &Writer, valid: Valid) -> Response {
    let canonical = into_canonical_text(valid.value);
    let id = content_id(&canonical);
    let sub = NewSubmission {
        id: &id,
        suite: &valid.file.suite,
        cpu_model: &valid.file.env.cpu_model,
        records: valid.file.records.len() as i64,
        document: &canonical,
        file: &valid.file,
    };
    let records = sub.records;
    let prepared = match Prepared::new(&sub) {
        Ok(p) => p,
        Err(e) => {
            return db_failure(
                &e,
                "cannot store a submission",
                "the submission was not stored",
            )
        }
    };
    drop((canonical, valid.file));
    match writer.submit(prepared).await {
        Ok(inserted) => {
            tracing::info!(%id, inserted, records, "submission");
            let status = if inserted {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            (status, Json(IdBody { id })).into_response()
        }
        Err(SubmitError::Db(e)) => db_failure(
            &e,
            "cannot store a submission",
            "the submission was not stored",
        ),
        Err(e) => busy(&e),
    }
}

/// Seconds a client is asked to wait (`Retry-After`) when the writer's queue is full.
const BUSY_RETRY_AFTER_S: u64 = 1;

/// 503 with `Retry-After` for a submission the writer could not take.
fn busy(e: &SubmitError) -> Response {
    tracing::warn!(error = %e, "submission refused: writer busy");
    unavailable(
        format!("server busy: {e}; the submission was not stored; retry in {BUSY_RETRY_AFTER_S} s"),
        BUSY_RETRY_AFTER_S,
    )
}

/// 503 `{"error": message}` with `Retry-After: retry_after_s`.
fn unavailable(message: String, retry_after_s: u64) -> Response {
    let mut r = error(StatusCode::SERVICE_UNAVAILABLE, message);
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
    r
}

/// Most rows one page of `GET /api/results` may ask for (`limit`).
pub const MAX_PAGE: u64 = 10_000;

/// Paging of `GET /api/results`: `limit` rows (none: all) after submission
/// `after` (the previous page's `next`), or after skipping `offset`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Paging {
    /// Rows at most; `None`: every row.
    pub limit: Option<u64>,
    /// Rows to skip (the older way to page).
    pub offset: u64,
    /// The last id of the previous page.
    pub after: Option<String>,
}

impl Paging {
    /// From query parameters; `Err` names the parameter and what is accepted.
    pub fn from_query(q: &HashMap<String, String>) -> Result<Self, String> {
        let num = |name: &str, max: u64, what: &str| -> Result<Option<u64>, String> {
            q.get(name)
                .map(|v| {
                    v.trim()
                        .parse::<u64>()
                        .ok()
                        .filter(|n| *n <= max)
                        .ok_or_else(|| format!("{name}={v:?} is not accepted; accepted: {what}"))
                })
                .transpose()
        };
        let limit = num(
            "limit",
            MAX_PAGE,
            &format!("a whole number from 0 to {MAX_PAGE} (without limit: every submission)"),
        )?;
        let offset = num(
            "offset",
            i64::MAX as u64,
            "a whole number, 0 or more (or page with after)",
        )?
        .unwrap_or(0);
        let after = match q.get("after") {
            None => None,
            Some(a) if is_content_id(a.trim()) => Some(a.trim().to_string()),
            Some(a) => {
                return Err(format!(
                    "after={a:?} is not accepted; accepted: the id of a stored submission \
                     (64 lowercase hex digits), such as the previous page's next"
                ))
            }
        };
        if after.is_some() && offset > 0 {
            return Err(
                "after and offset together are not accepted; accepted: one of them \
                        (after: the previous page's next)"
                    .into(),
            );
        }
        Ok(Self {
            limit,
            offset,
            after,
        })
    }
}

#[derive(Serialize)]
struct SubmissionJson {
    id: String,
    received_at: String,
    suite: String,
    cpu_model: String,
    records: i64,
}

#[derive(Serialize)]
struct ListJson {
    submissions: Vec<SubmissionJson>,
    /// Stored submissions in all.
    total: i64,
    /// The `after` of the next page; `null` on the last page or without `limit`.
    next: Option<String>,
}

async fn list_results(
    State(st): State<AppState>,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let p = match Paging::from_query(&q) {
        Ok(p) => p,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let (tag, total) = match st.db.generation().await {
        Ok(g) => (st.etag("list", g, uri.query()), g),
        Err(e) => return db_failure(&e, "cannot list submissions", "nothing was read"),
    };
    if matches(&headers, &tag) {
        return not_modified(&tag, REVALIDATE);
    }
    let clamp = |x: u64| x.min(i64::MAX as u64) as i64;
    let page = match st
        .db
        .list_page(p.limit.map(clamp), clamp(p.offset), p.after.as_deref())
        .await
    {
        Ok(Some(page)) => page,
        Ok(None) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "after={:?} names no stored submission; accepted: the id of a stored \
                     submission, such as the previous page's next",
                    p.after.unwrap_or_default()
                ),
            )
        }
        Err(e) => return db_failure(&e, "cannot list submissions", "nothing was read"),
    };
    let resp = Json(ListJson {
        submissions: page
            .rows
            .into_iter()
            .map(|r| SubmissionJson {
                id: r.id,
                received_at: r.received_at,
                suite: r.suite,
                cpu_model: r.cpu_model,
                records: r.records,
            })
            .collect(),
        total,
        next: page.next,
    })
    .into_response();
    with_validator(resp, &tag, REVALIDATE)
}

async fn get_result(
    State(st): State<AppState>,
    headers: HeaderMap,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Response {
    let id = id.map(|Path(id)| id).unwrap_or_default();
    if !is_content_id(&id) {
        return error(
            StatusCode::NOT_FOUND,
            "no such submission; ids are 64 lowercase hex digits as returned by POST /api/results",
        );
    }
    // The id is the SHA-256 of the document: the same URL never changes.
    let tag = format!("\"{id}\"");
    if matches(&headers, &tag) {
        return not_modified(&tag, IMMUTABLE);
    }
    match st.db.get(&id).await {
        Ok(Some(doc)) => with_validator(
            ([(header::CONTENT_TYPE, "application/json")], doc).into_response(),
            &tag,
            IMMUTABLE,
        ),
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no submission with id {id}")),
        Err(e) => db_failure(&e, "cannot read a submission", "nothing was read"),
    }
}

async fn api_not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such API route; see docs/server-api.md (POST/GET /api/results, GET /api/results/{id})",
    )
}

async fn leaderboard_page(
    State(st): State<AppState>,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Query(params): Query<HashMap<String, String>>,
) -> Response {
    // The version is read before the page, so a page is never older than its tag.
    let tag = match st.db.generation().await {
        Ok(g) => st.etag("leaderboard", g, uri.query()),
        Err(e) => return db_failure(&e, "cannot read the leaderboard", "try again"),
    };
    if matches(&headers, &tag) {
        return not_modified(&tag, REVALIDATE);
    }
    let filters = leaderboard::Filters::from_query(&params);
    match st.db.board(&filters).await {
        Ok(board) => with_validator(
            Html(leaderboard::render(&board, &filters)).into_response(),
            &tag,
            REVALIDATE,
        ),
        Err(e) => db_failure(&e, "cannot read the leaderboard", "try again"),
    }
}

/// `Cache-Control` of pages that change with new submissions: caches keep
/// them but ask (`If-None-Match`) before each use.
pub(crate) const REVALIDATE: &str = "public, no-cache";
/// `Cache-Control` of a stored document (content-addressed: never changes).
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Whether `If-None-Match` names `tag` (or is `*`); weak tags compare equal.
pub(crate) fn matches(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

/// 304 with the validator headers.
pub(crate) fn not_modified(tag: &str, cache: &'static str) -> Response {
    with_validator(StatusCode::NOT_MODIFIED.into_response(), tag, cache)
}

/// `resp` with `ETag: tag` and `Cache-Control: cache`.
pub(crate) fn with_validator(mut resp: Response, tag: &str, cache: &'static str) -> Response {
    if let Ok(v) = HeaderValue::from_str(tag) {
        resp.headers_mut().insert(header::ETAG, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    resp
}

async fn index(State(st): State<AppState>) -> Response {
    let index = st.web_dir.join("index.html");
    match tokio::fs::read(&index).await {
        Ok(bytes) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], bytes).into_response(),
        Err(_) => Html(format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>zkbench</title></head><body>\
             <h1>zkbench results server</h1>\
             <p>The browser benchmark page is not built ({} is missing). Build it with \
             <code>bash scripts/build-web.sh</code>, then reload.</p>\
             <p>See the <a href=\"/leaderboard\">leaderboard</a> and the \
             <a href=\"/api/results\">submissions</a> (JSON).</p></body></html>",
            leaderboard::esc(&index.display().to_string())
        ))
        .into_response(),
    }
}
