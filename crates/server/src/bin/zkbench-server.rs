//! `zkbench-server [--addr HOST:PORT] [--db URL] [--web DIR] [--rate-limit N|off]
//! [--submit-token-file FILE]`: the results server on its own, the same as
//! `zkbench serve` without the prover crates (the tests' kill -9 run uses it).

use std::process::ExitCode;

use zkbench_server::{serve_blocking, RateLimit, ServerConfig, SubmitToken};

const USAGE: &str = "usage: zkbench-server [--addr HOST:PORT] \
    [--db sqlite://PATH|postgres://USER@HOST:PORT/DB] [--web DIR] \
    [--rate-limit N|off (submissions a minute per client address; default 600)] \
    [--submit-token-file FILE (then POST needs Authorization: Bearer TOKEN)]";

/// The configuration the arguments ask for, or what is wrong with them.
fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<ServerConfig>, String> {
    let mut config = ServerConfig::default();
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--addr" => config.addr = value("--addr")?,
            "--db" => config.db_url = value("--db")?,
            "--web" => config.web_dir = value("--web")?.into(),
            "--rate-limit" => config.rate_limit = RateLimit::parse_flag(&value("--rate-limit")?)?,
            "--submit-token-file" => {
                let path = value("--submit-token-file")?;
                config.submit_token =
                    Some(SubmitToken::read(path.as_ref()).map_err(|e| e.to_string())?);
            }
            "-h" | "--help" => return Ok(None),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; accepted: --addr HOST:PORT, --db URL, --web DIR, \
                     --rate-limit N|off, --submit-token-file FILE"
                ))
            }
        }
    }
    Ok(Some(config))
}

fn main() -> ExitCode {
    let config = match parse(std::env::args().skip(1)) {
        Ok(Some(c)) => c,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match serve_blocking(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
