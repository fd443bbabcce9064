//! Group commit: the one task that writes submissions.
//!
//! A `POST` is validated, made canonical, compressed and summarised in its
//! request handler ([`crate::db::Prepared`]; bad input gets its 4xx there,
//! at once), then handed to the writer through a bounded queue
//! ([`Writer::submit`]). The writer takes everything waiting, up to
//! [`MAX_BATCH`] submissions, stores them in ONE transaction
//! ([`crate::db::Db::insert_batch`]: documents and their leaderboard
//! summaries, a savepoint per submission so that one that fails fails
//! alone), commits, and only then answers each waiting request with its
//! result: nothing is acknowledged before its commit, and a batch costs one
//! commit (one fsync on SQLite, one WAL flush on PostgreSQL) however many
//! submissions it holds. While a batch is written the next one gathers, so
//! the more clients post at once, the larger the batches.
//!
//! A full queue is answered at once ([`SubmitError::Full`]: 503 with
//! `Retry-After`) rather than piling requests up. This is the technique
//! called group commit in database logging (DeWitt et al., "Implementation
//! Techniques for Main Memory Database Systems", SIGMOD 1984), here one level
//! up, over whole transactions.

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Arc,
};

use tokio::sync::{mpsc, oneshot};

use crate::db::{Db, DbError, Prepared};

/// Default capacity of the queue of submissions waiting for the writer
/// (`ServerConfig::write_queue`).
pub const WRITE_QUEUE: usize = 256;
/// Most submissions stored in one transaction.
pub const MAX_BATCH: usize = 64;

/// Why a submission was not stored.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The queue is full: the server is writing as fast as it can.
    #[error("{0} submissions are waiting to be written")]
    Full(usize),
    /// The writer has stopped (the server is shutting down).
    #[error("the server is shutting down")]
    Stopped,
    /// The database refused it, or was out of reach.
    #[error(transparent)]
    Db(DbError),
}

struct Job {
    sub: Prepared,
    reply: oneshot::Sender<Result<bool, DbError>>,
}

/// Counts kept by the writer.
#[derive(Debug, Default)]
struct Stats {
    batches: AtomicU64,
    submissions: AtomicU64,
}

/// Handle of the writer task; clones share it. The task ends when the last
/// handle is dropped and the queue is empty.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Job>,
    stats: Arc<Stats>,
}

impl Writer {
    /// Starts the writer of `db` with a queue of `capacity` submissions (at
    /// least 1). Must be called within a tokio runtime.
    pub fn spawn(db: Db, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        let (tx, rx) = mpsc::channel(capacity);
        let stats = Arc::new(Stats::default());
        tokio::spawn(run(db, rx, stats.clone()));
        Self { tx, stats }
    }

    /// Queues `sub` and waits until its batch is committed (or failed):
    /// `Ok(true)` stored, `Ok(false)` already stored. Never waits for room
    /// in the queue: a full queue is [`SubmitError::Full`] at once.
    pub async fn submit(&self, sub: Prepared) -> Result<bool, SubmitError> {
        let (reply, answer) = oneshot::channel();
        self.tx.try_send(Job { sub, reply }).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => SubmitError::Full(self.tx.max_capacity()),
            mpsc::error::TrySendError::Closed(_) => SubmitError::Stopped,
        })?;
        answer
            .await
            .map_err(|_| SubmitError::Stopped)?
            .map_err(SubmitError::Db)
    }

    /// Batches written so far (committed or failed).
    pub fn batches(&self) -> u64 {
        self.stats.batches.load(Ordering::Relaxed)
    }

    /// Submissions handled so far (in those batches).
    pub fn submissions(&self) -> u64 {
        self.stats.submissions.load(Ordering::Relaxed)
    }
}

async fn run(db: Db, mut rx: mpsc::Receiver<Job>, stats: Arc<Stats>) {
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
        let (subs, replies): (Vec<Prepared>, Vec<_>) =
            jobs.drain(..).map(|j| (j.sub, j.reply)).unzip();
        let t = std::time::Instant::now();
        let results = db.insert_batch(&subs).await;
        tracing::debug!(
            submissions = subs.len(),
            ms = t.elapsed().as_secs_f64() * 1e3,
            "batch written"
        );
        stats.batches.fetch_add(1, Ordering::Relaxed);
        stats
            .submissions
            .fetch_add(subs.len() as u64, Ordering::Relaxed);
        for (reply, r) in replies.into_iter().zip(results) {
            // a request that gave up (its client left) has no one to answer
            let _ = reply.send(r);
        }
    }
}
