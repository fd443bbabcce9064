//! Helpers shared by the server's integration tests.
#![allow(dead_code)]

use std::{io::Write as _, path::Path, time::Duration};

use zkbench_server::{
    pgtemp::{PgError, TempPostgres},
    Server, ServerConfig,
};

/// An in-process server on a free port.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    handle: tokio::task::JoinHandle<Result<(), zkbench_server::ServeError>>,
}

impl TestServer {
    /// Starts a server on `db_url`, serving the browser page from `web_dir`.
    pub async fn start(db_url: &str, web_dir: &Path) -> Self {
        let config = ServerConfig {
            addr: "127.0.0.1:0".into(),
            db_url: db_url.into(),
            web_dir: web_dir.to_path_buf(),
            request_timeout: Duration::from_secs(60),
            rate_limit: None,
            submit_token: None,
            write_queue: zkbench_server::writer::WRITE_QUEUE,
        };
        Self::start_config(&config).await
    }

    /// Starts a server with `config`.
    pub async fn start_config(config: &ServerConfig) -> Self {
        let server = Server::bind(config).await.expect("server starts");
        let url = server.url();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(server.run_until(async move {
            let _ = rx.await;
        }));
        Self {
            url,
            shutdown: Some(tx),
            handle,
        }
    }

    /// Stops it and waits.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.handle.await.expect("server task").expect("server ran");
    }
}

/// One line on the real stderr (not captured by the test harness), so that a
/// skipped database is visible in `cargo test` output.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A throwaway PostgreSQL cluster, or `None` after saying in one line why
/// PostgreSQL cannot be had on this machine. A cluster that is installed but
/// fails to start fails the test.
pub fn postgres(test: &str) -> Option<TempPostgres> {
    match TempPostgres::start() {
        Ok(pg) => Some(pg),
        Err(PgError::Unavailable(why)) => {
            say(&format!(
                "{test}: NOT RUN against PostgreSQL: PostgreSQL is not available and could not be installed ({why})"
            ));
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

/// `sqlite://DIR/name.db`.
pub fn sqlite_url(dir: &Path, name: &str) -> String {
    format!("sqlite://{}", dir.join(name).display())
}

/// GET `url`: its status and JSON body.
pub async fn get_json(c: &reqwest::Client, url: &str) -> (reqwest::StatusCode, serde_json::Value) {
    let resp = c.get(url).send().await.expect("request");
    let status = resp.status();
    (status, resp.json().await.expect("JSON body"))
}

/// The leaderboard computed from the stored documents themselves (what the
/// summaries must equal), with filters `f`.
pub async fn board_from_stored(
    db: &zkbench_server::Db,
    f: &zkbench_server::summary::Filters,
) -> zkbench_server::summary::Board {
    let stored = db.all_documents().await.expect("documents");
    let docs: Vec<zkbench_server::summary::StoredDoc<'_>> = stored
        .iter()
        .map(|(i, d)| zkbench_server::summary::StoredDoc {
            id: &i.id,
            received_at: &i.received_at,
            document: d,
        })
        .collect();
    zkbench_server::summary::board_from_documents(&docs, f)
}
