//! Storage: the `submissions` table in SQLite or PostgreSQL, through sqlx's
//! `Any` driver (why one driver: see the crate docs), with the embedded
//! migrations of `crates/server/migrations`, and the leaderboard summaries
//! written with each submission (`summaries`), a device class's runs among them.
//! Submissions are stored in batches, one transaction each ([`batch`],
//! [`Db::insert_batch`]); the server's single writer ([`crate::writer`])
//! makes the batches.

pub mod batch;
mod groups;
mod runs;
mod summaries;

pub use batch::Prepared;
pub use runs::{Device, Point, Run, RUNS, SERIES};

use std::{sync::Arc, time::Duration};

use sqlx::{
    any::{install_default_drivers, AnyPoolOptions},
    AnyConnection, AnyPool, Connection, Executor, Row,
};
use zkbench_results::results::ResultsFile;

use crate::summary::{decode, Board, Filters};

/// How long a request waits for a database connection before it is answered
/// 503: a database that is down (or a server out of connections) is reported
/// within about this time instead of after a long queue.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_millis(1500);
/// Longest wait for a connection while all of the pool's connections are in
/// use (a busy server rather than a database out of reach).
pub const BUSY_LIMIT: Duration = Duration::from_secs(15);

/// The embedded migrations (`crates/server/migrations`), the same for both databases.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Which database a [`Db`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file (WAL, `synchronous = FULL`, busy timeout, one writer at a time).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// Database errors.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The URL names no supported database.
    #[error("unsupported database URL {0:?}; accepted: sqlite://PATH (or a file path) or postgres://USER@HOST:PORT/DB")]
    UnsupportedUrl(String),
    /// The database could not be opened.
    #[error("cannot open database {url}: {cause}")]
    Open {
        /// URL (password removed).
        url: String,
        /// Cause (in the message; not chained, so it is not printed twice).
        cause: sqlx::Error,
    },
    /// The migrations could not be applied.
    #[error("cannot migrate database {url}: {cause}")]
    Migrate {
        /// URL (password removed).
        url: String,
        /// Cause.
        cause: sqlx::migrate::MigrateError,
    },
    /// A query failed.
    #[error("database error: {0}")]
    Query(sqlx::Error),
    /// A document could not be compressed, or a stored one decompressed.
    #[error("stored document: {0}")]
    Compress(std::io::Error),
    /// The error of a whole batch, shared by each of its submissions.
    #[error(transparent)]
    Shared(Arc<DbError>),
}

impl DbError {
    /// Whether the database is out of reach (down, refusing connections,
    /// shutting down, or no connection free within [`ACQUIRE_TIMEOUT`]) rather
    /// than refusing a statement: the request may succeed when retried.
    pub fn is_unavailable(&self) -> bool {
        let e = match self {
            Self::Open { cause, .. } | Self::Query(cause) => cause,
            Self::Shared(e) => return e.is_unavailable(),
            Self::UnsupportedUrl(_) | Self::Migrate { .. } | Self::Compress(_) => return false,
        };
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            // SQLSTATE class 08 (connection exception) and 57P0x (shutdown, cannot connect now)
            sqlx::Error::Database(d) => d
                .code()
                .is_some_and(|c| c.starts_with("08") || c.starts_with("57P0")),
            _ => false,
        }
    }
}

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> Self {
        Self::Query(e)
    }
}

/// One stored submission, without its document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubmissionInfo {
    /// Content id.
    pub id: String,
    /// When it was first received (RFC 3339, UTC, microseconds).
    pub received_at: String,
    /// Suite name.
    pub suite: String,
    /// `env.cpu_model` of the document.
    pub cpu_model: String,
    /// Number of records.
    pub records: i64,
}

/// One page of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListPage {
    /// The page's submissions, in the order received.
    pub rows: Vec<SubmissionInfo>,
    /// The last id of this page when more follow (the next page's `after`).
    pub next: Option<String>,
}

/// A submission to store.
#[derive(Clone, Debug)]
pub struct NewSubmission<'a> {
    /// Content id ([`crate::canonical::content_id`] of `document`).
    pub id: &'a str,
    /// Suite name.
    pub suite: &'a str,
    /// `env.cpu_model`.
    pub cpu_model: &'a str,
    /// Number of records.
    pub records: i64,
    /// Canonical JSON text.
    pub document: &'a str,
    /// The document read as a results file (its leaderboard summaries are
    /// written with it).
    pub file: &'a ResultsFile,
}

/// A connection pool to the results database.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// The pool's size limit.
    max_connections: u32,
    /// SQLite allows one writer at a time; inserts queue here (fairly) rather
    /// than in SQLite's busy handler.
    write_lock: Arc<tokio::sync::Mutex<()>>,
}

/// `url` with any password replaced by `***`, for messages and logs.
pub fn redact(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((auth, host)) = rest.split_once('@') {
            if let Some((user, _)) = auth.split_once(':') {
                return format!("{scheme}://{user}:***@{host}");
            }
        }
    }
    url.to_string()
}

/// Turns what the user typed into a URL sqlx accepts, and names the backend.
/// SQLite files are created when missing (`mode=rwc` unless a mode is given).
pub fn normalize_url(url: &str) -> Result<(String, Backend), DbError> {
    let url = url.trim();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok((url.to_string(), Backend::Postgres));
    }
    let sqlite = if let Some(rest) = url.strip_prefix("sqlite://") {
        rest
    } else if let Some(rest) = url.strip_prefix("sqlite:") {
        rest
    } else if !url.is_empty() && !url.contains("://") {
        url
    } else {
        return Err(DbError::UnsupportedUrl(url.to_string()));
    };
    if sqlite.is_empty() || sqlite.starts_with(":memory:") {
        // Every pooled connection would get its own empty in-memory database.
        return Err(DbError::UnsupportedUrl(url.to_string()));
    }
    let mut out = format!("sqlite://{sqlite}");
    if !sqlite.contains("mode=") {
        out.push(if sqlite.contains('?') { '&' } else { '?' });
        out.push_str("mode=rwc");
    }
    Ok((out, Backend::Sqlite))
}

/// WAL (readers do not block the writer), a commit is on disk before it
/// returns (`synchronous = FULL`), and waits instead of failing when locked.
async fn sqlite_pragmas(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    conn.execute("PRAGMA busy_timeout = 15000").await?;
    conn.execute("PRAGMA journal_mode = WAL").await?;
    conn.execute("PRAGMA synchronous = FULL").await?;
    Ok(())
}

impl Db {
    /// Opens the database named by `url` and applies the migrations.
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        install_default_drivers();
        let (sqlx_url, backend) = normalize_url(url)?;
        let shown = redact(url);
        let open = |cause| DbError::Open {
            url: shown.clone(),
            cause,
        };
        // One direct connection first: it fails at once (the pool would retry a
        // refused connection until its acquire timeout) and runs the migrations.
        let mut conn = AnyConnection::connect(&sqlx_url).await.map_err(open)?;
        if backend == Backend::Sqlite {
            sqlite_pragmas(&mut conn).await.map_err(open)?;
        }
        MIGRATOR
            .run(&mut conn)
            .await
            .map_err(|cause| DbError::Migrate {
                url: shown.clone(),
                cause,
            })?;
        let _ = conn.close().await;
        let max_connections = match backend {
            Backend::Sqlite => 8,
            Backend::Postgres => 16,
        };
        let pool = AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        sqlite_pragmas(conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(&sqlx_url)
            .await
            .map_err(open)?;
        let filled = summaries::backfill(&pool).await.map_err(open)?;
        if filled > 0 {
            tracing::info!(
                filled,
                "leaderboard summaries filled for stored submissions"
            );
        }
        Ok(Self {
            pool,
            backend,
            max_connections,
            write_lock: Arc::new(tokio::sync::Mutex::new(())),
        })
    }

    /// A connection from the pool. A wait past [`ACQUIRE_TIMEOUT`] is an
    /// error (the database is out of reach: it could not be connected to)
    /// unless every connection of the pool is open and in use: then the
    /// server is busy, not the database down, and the wait goes on, up to
    /// [`BUSY_LIMIT`].
    async fn acquire(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Any>, DbError> {
        let start = std::time::Instant::now();
        loop {
            match self.pool.acquire().await {
                Err(sqlx::Error::PoolTimedOut)
                    if self.pool.size() >= self.max_connections && start.elapsed() < BUSY_LIMIT => {
                }
                r => return Ok(r?),
            }
        }
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pool (waits for connections in use).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Stores a submission unless one with the same id exists, and in the
    /// same transaction its leaderboard summaries. Returns `true` when a row
    /// was inserted; either way the document is committed when this returns
    /// `Ok`. `suite` and `cpu_model` holding U+0000 (which PostgreSQL text
    /// cannot hold) are stored escaped and flagged, on both databases alike.
    pub async fn insert(&self, s: &NewSubmission<'_>) -> Result<bool, DbError> {
        let p = Prepared::new(s)?;
        let mut r = self.insert_batch(std::slice::from_ref(&p)).await;
        r.pop().unwrap_or(Ok(false))
    }

    /// Stores `subs` in one transaction (one commit for all of them), each
    /// as [`Db::insert`] would, and returns each one's result in order. A
    /// submission that fails is undone alone (its savepoint) and the others
    /// are stored; should the batch's shared rows fail, the submissions are
    /// written again one transaction each, so only the one at fault fails.
    /// When the database is out of reach every submission gets that error.
    pub async fn insert_batch(&self, subs: &[Prepared]) -> Vec<Result<bool, DbError>> {
        // SQLite allows one writer: other writers of this process (tests,
        // the load generator's fill) queue here rather than in SQLite's busy handler
        let _guard = match self.backend {
            Backend::Sqlite => Some(self.write_lock.lock().await),
            Backend::Postgres => None,
        };
        let all: Vec<&Prepared> = subs.iter().collect();
        let e = match self.write_batch(&all).await {
            Ok(r) => return r,
            Err(e) => e,
        };
        if subs.len() == 1 || e.is_unavailable() {
            let e = Arc::new(e);
            return subs
                .iter()
                .map(|_| Err(DbError::Shared(e.clone())))
                .collect();
        }
        tracing::warn!(error = %e, submissions = subs.len(), "batch failed; writing its submissions one by one");
        let mut out = Vec::with_capacity(subs.len());
        for s in subs {
            out.push(match self.write_batch(&[s]).await {
                Ok(mut r) => r.pop().unwrap_or(Ok(false)),
                Err(e) => Err(e),
            });
        }
        out
    }

    async fn write_batch(&self, subs: &[&Prepared]) -> Result<Vec<Result<bool, DbError>>, DbError> {
        let mut conn = self.acquire().await?;
        batch::write(&mut conn, subs).await
    }

    /// The leaderboard from the summary tables (no document is read).
    pub async fn board(&self, f: &Filters) -> Result<Board, DbError> {
        Ok(summaries::board(&mut *self.acquire().await?, f).await?)
    }

    /// The number of stored submissions, read from one row: it grows with
    /// every new submission, so it versions the leaderboard and the listing.
    pub async fn generation(&self) -> Result<i64, DbError> {
        Ok(summaries::generation(&mut *self.acquire().await?).await?)
    }

    /// A page of the listing: at most `limit` submissions (`None`: all) in
    /// the order received, after submission `after` or after skipping
    /// `offset`. `None` when `after` names no stored submission.
    pub async fn list_page(
        &self,
        limit: Option<i64>,
        offset: i64,
        after: Option<&str>,
    ) -> Result<Option<ListPage>, DbError> {
        let mut conn = self.acquire().await?;
        // one row more than asked tells whether a next page exists
        let ask = limit.map_or(i64::MAX, |l| l.saturating_add(1));
        let rows = match after {
            None => {
                sqlx::query(
                    "SELECT id, received_at, suite, cpu_model, record_count, text_escaped \
                     FROM submissions ORDER BY received_at, id LIMIT $1 OFFSET $2",
                )
                .bind(ask)
                .bind(offset)
                .fetch_all(&mut *conn)
                .await?
            }
            Some(after) => {
                let Some(at) = sqlx::query("SELECT received_at FROM submissions WHERE id = $1")
                    .bind(after)
                    .fetch_optional(&mut *conn)
                    .await?
                else {
                    return Ok(None);
                };
                let at: String = at.try_get(0)?;
                sqlx::query(
                    "SELECT id, received_at, suite, cpu_model, record_count, text_escaped \
                     FROM submissions WHERE (received_at, id) > ($1, $2) \
                     ORDER BY received_at, id LIMIT $3",
                )
                .bind(at)
                .bind(after)
                .bind(ask)
                .fetch_all(&mut *conn)
                .await?
            }
        };
        let mut rows = rows
            .iter()
            .map(|r| info(r, 5))
            .collect::<Result<Vec<_>, _>>()?;
        let next = match limit {
            Some(l) if rows.len() as i64 > l => {
                rows.truncate(l as usize);
                rows.last().map(|r| r.id.clone())
            }
            _ => None,
        };
        Ok(Some(ListPage { rows, next }))
    }

    /// The device page of device class `class` with filters `f`; `None`
    /// when the class has no run.
    pub async fn device(&self, class: &str, f: &Filters) -> Result<Option<Device>, DbError> {
        Ok(runs::device(&mut *self.acquire().await?, class, f).await?)
    }

    /// Device classes with measured runs, in order, at most `limit`.
    pub async fn classes(&self, limit: i64) -> Result<Vec<String>, DbError> {
        Ok(runs::classes(&mut *self.acquire().await?, limit).await?)
    }

    /// Submissions in the order received; `limit` `None` means all.
    pub async fn list(
        &self,
        limit: Option<i64>,
        offset: i64,
    ) -> Result<Vec<SubmissionInfo>, DbError> {
        let rows = sqlx::query(
            "SELECT id, received_at, suite, cpu_model, record_count, text_escaped \
             FROM submissions ORDER BY received_at, id LIMIT $1 OFFSET $2",
        )
        .bind(limit.unwrap_or(i64::MAX))
        .bind(offset)
        .fetch_all(&mut *self.acquire().await?)
        .await?;
        rows.iter().map(|r| info(r, 5)).collect()
    }

    /// The canonical document of submission `id`.
    pub async fn get(&self, id: &str) -> Result<Option<String>, DbError> {
        let row = sqlx::query("SELECT document, document_zstd FROM submissions WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *self.acquire().await?)
            .await?;
        Ok(match row {
            Some(r) => Some(stored_document(&r, 0)?),
            None => None,
        })
    }

    /// Every submission with its document, in the order received (for the leaderboard).
    pub async fn all_documents(&self) -> Result<Vec<(SubmissionInfo, String)>, DbError> {
        let rows = sqlx::query(
            "SELECT id, received_at, suite, cpu_model, record_count, text_escaped, document, \
             document_zstd FROM submissions ORDER BY received_at, id",
        )
        .fetch_all(&mut *self.acquire().await?)
        .await?;
        rows.iter()
            .map(|r| Ok((info(r, 5)?, stored_document(r, 6)?)))
            .collect()
    }

    /// Number of stored submissions.
    pub async fn count(&self) -> Result<i64, DbError> {
        Ok(sqlx::query("SELECT COUNT(*) FROM submissions")
            .fetch_one(&mut *self.acquire().await?)
            .await?
            .try_get(0)?)
    }
}

/// The document text from the columns `document` (at `i`) and `document_zstd` (at `i + 1`).
fn stored_document(r: &sqlx::any::AnyRow, i: usize) -> Result<String, DbError> {
    batch::document_text(r.try_get(i)?, r.try_get(i + 1)?).map_err(DbError::Compress)
}

/// A [`SubmissionInfo`] from the columns `id, received_at, suite, cpu_model,
/// record_count` and the `text_escaped` flag at index `flag`.
fn info(r: &sqlx::any::AnyRow, flag: usize) -> Result<SubmissionInfo, DbError> {
    let escaped = r.try_get::<i64, _>(flag)? != 0;
    let text = |i: usize| -> Result<String, DbError> {
        let v: String = r.try_get(i)?;
        Ok(if escaped { decode(&v) } else { v })
    };
    Ok(SubmissionInfo {
        id: r.try_get(0)?,
        received_at: r.try_get(1)?,
        suite: text(2)?,
        cpu_model: text(3)?,
        records: r.try_get(4)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            normalize_url("zkbench.db").unwrap(),
            ("sqlite://zkbench.db?mode=rwc".into(), Backend::Sqlite)
        );
        assert_eq!(
            normalize_url("sqlite:///tmp/x.db").unwrap().0,
            "sqlite:///tmp/x.db?mode=rwc"
        );
        assert_eq!(
            normalize_url("sqlite://x.db?mode=ro").unwrap().0,
            "sqlite://x.db?mode=ro"
        );
        assert_eq!(
            normalize_url("postgres://u@h:5432/d").unwrap().1,
            Backend::Postgres
        );
        assert!(normalize_url("mysql://h/d").is_err());
        assert!(normalize_url("sqlite::memory:").is_err());
        assert_eq!(redact("postgres://u:secret@h/d"), "postgres://u:***@h/d");
    }
}
