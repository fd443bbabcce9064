//! # zkbench-server
//!
//! The results server behind `zkbench serve`: it collects results documents
//! (`docs/results-schema.md`, schema `zkbench-results` version 1) over HTTP,
//! stores them in SQLite (the default, a file next to you) or PostgreSQL, and
//! shows a leaderboard that compares devices. The API contract is in
//! `docs/server-api.md`.
//!
//! | module | what |
//! |---|---|
//! | [`app`] | the axum router: `POST/GET /api/results`, `GET /api/results/{id}`, `/leaderboard`, static files, limits |
//! | [`guard`] | what a `POST` must pass first: the per-client rate limit and the optional submit token |
//! | [`pages`] | the device page (one device class's runs over time) and the comparison page of two stored runs |
//! | [`validate`] | checks a posted body and says which field is wrong and what is accepted |
//! | [`canonical`] | canonical JSON (sorted keys, compact) and the content id (its SHA-256) |
//! | [`db`] | the `submissions` table (documents zstd-compressed) and the leaderboard summaries, written in batches; embedded migrations, SQLite and PostgreSQL |
//! | [`writer`] | group commit: the one task that stores queued submissions, a batch per transaction, and answers each after the commit |
//! | [`summary`] | what the leaderboard needs from a submission, written with it: entries, groups, exact median of medians |
//! | [`leaderboard`] | the HTML leaderboard from the summaries: best and median per device class, filters, SVG charts |
//! | [`pgtemp`] | a throwaway PostgreSQL cluster (initdb + pg_ctl) for tests and the load generator |
//! | [`sample`] | valid results documents of any size, for tests and the load generator |
//!
//! ## One code path for SQLite and PostgreSQL
//!
//! The database is reached through sqlx's `Any` driver rather than an enum over
//! a `SqlitePool` and a `PgPool`. The server's statements (insert with its
//! summaries, list, get, leaderboard) use columns of `TEXT`, `BIGINT` and
//! `DOUBLE PRECISION`, which both databases, and the `Any` driver's value types, share; so
//! every query is written once, in SQL both accept (`$1` placeholders,
//! `ON CONFLICT (id) DO NOTHING`), and the embedded migrations are the same
//! files for both. What differs is set once per connection
//! ([`db::Db::connect`]): for SQLite, WAL mode, `synchronous = FULL` (a commit
//! is on disk before the 201 goes out) and a busy timeout, plus an in-process
//! writer lock so that writers other than the server's one writer task
//! ([`writer`]) queue fairly instead of spinning on `SQLITE_BUSY`;
//! PostgreSQL keeps its defaults (`synchronous_commit = on`).
//! An enum would have doubled every query for no gain at this size.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod canonical;
pub mod db;
pub mod guard;
pub mod leaderboard;
pub mod pages;
pub mod pgtemp;
pub mod sample;
pub mod summary;
pub mod validate;
pub mod writer;

use std::{future::Future, net::SocketAddr, path::PathBuf, time::Duration};

pub use app::{router, AppState, MAX_BODY_BYTES};
pub use db::{Db, DbError};
pub use guard::{RateLimit, SubmitToken};
pub use validate::ValidationError;

/// Default listen address of `zkbench serve`.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// Default database of `zkbench serve`: a SQLite file in the working directory.
pub const DEFAULT_DB: &str = "sqlite://zkbench.db";

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// `HOST:PORT` to listen on (port 0: any free port).
    pub addr: String,
    /// Database URL: `sqlite://PATH`, a bare file path, or `postgres://USER@HOST:PORT/DB`.
    pub db_url: String,
    /// Folder of the browser page (`web/dist`); served when it exists.
    pub web_dir: PathBuf,
    /// Limit on the handling of one request (body upload included).
    pub request_timeout: Duration,
    /// Submissions a client address may post per minute; `None`: no limit.
    pub rate_limit: Option<RateLimit>,
    /// When set, a submission must carry `Authorization: Bearer <token>`.
    pub submit_token: Option<SubmitToken>,
    /// Submissions that may wait for the writer; one more is answered 503
    /// ([`writer::WRITE_QUEUE`] by default).
    pub write_queue: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            addr: DEFAULT_ADDR.into(),
            db_url: DEFAULT_DB.into(),
            web_dir: PathBuf::from("web/dist"),
            request_timeout: Duration::from_secs(30),
            rate_limit: Some(RateLimit::default()),
            submit_token: None,
            write_queue: writer::WRITE_QUEUE,
        }
    }
}

/// Why a server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The listen address is malformed or taken.
    #[error("cannot listen on {addr}: {cause}; accepted: HOST:PORT such as 127.0.0.1:8080")]
    Bind {
        /// The address asked for.
        addr: String,
        /// Cause.
        cause: std::io::Error,
    },
    /// The server stopped with an I/O error.
    #[error("server error: {0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// A server whose database is open and migrated and whose socket is bound.
pub struct Server {
    listener: tokio::net::TcpListener,
    app: axum::Router,
    addr: SocketAddr,
    db: Db,
}

impl Server {
    /// Opens and migrates the database, then binds the address.
    pub async fn bind(config: &ServerConfig) -> Result<Self, ServeError> {
        let db = Db::connect(&config.db_url).await?;
        let listener = tokio::net::TcpListener::bind(&config.addr)
            .await
            .map_err(|cause| ServeError::Bind {
                addr: config.addr.clone(),
                cause,
            })?;
        let addr = listener.local_addr()?;
        let app = router(AppState::new(db.clone(), config.web_dir.clone()), config);
        Ok(Self {
            listener,
            app,
            addr,
            db,
        })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The database handle.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Serves until `shutdown` resolves, then finishes the requests in flight.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        // the peer's address is the rate limit's key
        let app = self.app.into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(self.listener, app)
            .with_graceful_shutdown(shutdown)
            .await?;
        self.db.close().await;
        Ok(())
    }

    /// Serves until Ctrl-C or SIGTERM.
    pub async fn run(self) -> Result<(), ServeError> {
        self.run_until(shutdown_signal()).await
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}

/// Structured logs on stderr; `RUST_LOG` overrides the default level (`info`).
/// Calling it twice is harmless.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

/// What `zkbench serve` does: logs, a runtime, the server; prints the URL it
/// listens on (stdout, one line) and serves until Ctrl-C or SIGTERM.
pub fn serve_blocking(config: ServerConfig) -> Result<(), ServeError> {
    init_tracing();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let server = Server::bind(&config).await?;
        let url = server.url();
        println!(
            "zkbench serve: listening on {url} (database: {}; leaderboard: {url}/leaderboard)",
            db::redact(&config.db_url)
        );
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        tracing::info!(
            %url,
            db = %db::redact(&config.db_url),
            rate_limit_per_minute = config.rate_limit.map_or(0, RateLimit::get),
            token = config.submit_token.is_some(),
            "listening"
        );
        server.run().await
    })
}
