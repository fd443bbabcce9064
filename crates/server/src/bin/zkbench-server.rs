//! `zkbench-server [--addr HOST:PORT] [--db URL] [--web DIR]`: the results
//! server on its own, the same as `zkbench serve` without the prover crates
//! (the tests' kill -9 run uses it).

use std::process::ExitCode;

use zkbench_server::{serve_blocking, ServerConfig};

fn main() -> ExitCode {
    let mut config = ServerConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let r = match a.as_str() {
            "--addr" => value("--addr").map(|v| config.addr = v),
            "--db" => value("--db").map(|v| config.db_url = v),
            "--web" => value("--web").map(|v| config.web_dir = v.into()),
            "-h" | "--help" => {
                println!("usage: zkbench-server [--addr HOST:PORT] [--db sqlite://PATH|postgres://USER@HOST:PORT/DB] [--web DIR]");
                return ExitCode::SUCCESS;
            }
            other => Err(format!(
                "unknown argument {other:?}; accepted: --addr HOST:PORT, --db URL, --web DIR"
            )),
        };
        if let Err(e) = r {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    match serve_blocking(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
