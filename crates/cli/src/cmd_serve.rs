//! `zkbench serve` (the results server, crates/server) and `zkbench submit`
//! (send a results file to one); `zkbench run --submit URL` uses [`submit_file`].

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::Context;
use clap::Args;
use zkbench_core::ResultsFile;
use zkbench_server::{RateLimit, ServerConfig, SubmitToken, DEFAULT_ADDR, DEFAULT_DB};

/// Arguments of `zkbench serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT (port 0: any free port).
    #[arg(long, default_value = DEFAULT_ADDR)]
    pub addr: String,
    /// Database: sqlite://PATH (created when missing) or postgres://USER@HOST:PORT/DB.
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: String,
    /// Folder of the built browser page (`bash scripts/build-web.sh` writes it).
    #[arg(long, default_value = "web/dist")]
    pub web: PathBuf,
    /// Submissions a client address may post per minute, or `off`.
    #[arg(long, default_value_t = RateLimit::DEFAULT_PER_MINUTE.to_string())]
    pub rate_limit: String,
    /// File holding a shared token: then a submission needs `Authorization: Bearer TOKEN`.
    #[arg(long)]
    pub submit_token_file: Option<PathBuf>,
}

/// Arguments of `zkbench submit`.
#[derive(Args, Debug)]
pub struct SubmitArgs {
    /// Results file written by `zkbench run --out`.
    pub results: PathBuf,
    /// Server URL, e.g. http://127.0.0.1:8080 (or its /api/results endpoint).
    #[arg(long)]
    pub to: String,
    /// File holding the server's submit token (sent as `Authorization: Bearer TOKEN`).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
}

/// `zkbench serve`.
pub fn serve(a: ServeArgs) -> anyhow::Result<ExitCode> {
    if !a.web.join("index.html").is_file() {
        eprintln!(
            "zkbench serve: the browser page is not built ({} is missing); build it with \
             `bash scripts/build-web.sh` (the API and the leaderboard work without it)",
            a.web.join("index.html").display()
        );
    }
    let rate_limit = RateLimit::parse_flag(&a.rate_limit).map_err(anyhow::Error::msg)?;
    let submit_token = a
        .submit_token_file
        .as_deref()
        .map(SubmitToken::read)
        .transpose()?;
    zkbench_server::serve_blocking(ServerConfig {
        addr: a.addr,
        db_url: a.db,
        web_dir: a.web,
        rate_limit,
        submit_token,
        ..ServerConfig::default()
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `zkbench submit`.
pub fn submit(a: SubmitArgs) -> anyhow::Result<ExitCode> {
    let token = a.token_file.as_deref().map(read_token).transpose()?;
    submit_file(&a.results, &a.to, token.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// The endpoint for a server URL: `…/api/results`, added when missing.
fn endpoint(url: &str) -> anyhow::Result<String> {
    let url = url.trim().trim_end_matches('/');
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        anyhow::bail!(
            "invalid server URL {url:?}; accepted: http://HOST:PORT or https://HOST[:PORT]"
        );
    }
    Ok(if url.ends_with("/api/results") {
        url.to_string()
    } else {
        format!("{url}/api/results")
    })
}

/// The token in `path` (surrounding whitespace removed), checked as the
/// server checks its own.
fn read_token(path: &std::path::Path) -> anyhow::Result<String> {
    SubmitToken::read(path)?;
    Ok(std::fs::read_to_string(path)?.trim().to_string())
}

/// Checks `path` is a results file and posts it to the server at `url`
/// (with `Authorization: Bearer token` when given); prints the submission's
/// id and where to see it.
pub fn submit_file(
    path: &std::path::Path,
    url: &str,
    token: Option<&str>,
) -> anyhow::Result<String> {
    let endpoint = endpoint(url)?;
    // Read and check locally first: the server would refuse a file this zkbench cannot read.
    ResultsFile::read(path)?;
    let body = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into();
    let mut req = agent
        .post(&endpoint)
        .header("Content-Type", "application/json");
    if let Some(t) = token {
        req = req.header("Authorization", format!("Bearer {t}"));
    }
    let mut resp = req
        .send(&body[..])
        .with_context(|| format!("cannot reach the results server at {endpoint}"))?;
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    match (status, json["id"].as_str()) {
        (200 | 201, Some(id)) => {
            let base = endpoint.trim_end_matches("/api/results");
            println!(
                "submitted {} → {base}/api/results/{id} ({}); leaderboard: {base}/leaderboard",
                path.display(),
                if status == 201 {
                    "new"
                } else {
                    "already stored"
                }
            );
            Ok(id.to_string())
        }
        _ => anyhow::bail!(
            "the results server at {endpoint} refused {} (HTTP {status}): {}",
            path.display(),
            json["error"].as_str().unwrap_or(text.trim())
        ),
    }
}
