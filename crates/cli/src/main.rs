//! The `zkbench` command-line tool: hashes, Merkle trees, proofs and the
//! benchmark suite. Run `zkbench --help`.

mod cmd_audit;
mod cmd_bench;
mod cmd_engines;
mod cmd_evm;
mod cmd_hash;
mod cmd_merkle;
mod cmd_pool;
mod cmd_prove;
mod cmd_ptau;
mod cmd_recommend;
mod cmd_serve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// zkbench: ZK-friendly hashes, Merkle membership provers, and a benchmark
/// suite that compares them on your machine.
#[derive(Parser, Debug)]
#[command(name = "zkbench", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write a Solidity verifier (contract Groth16Verifier, snarkjs's ABI) for a proof directory's key.
    Verifier(cmd_evm::VerifierArgs),
    /// Print the calldata of verifyProof for a proof directory (snarkjs's soliditycalldata format).
    Calldata(cmd_evm::CalldataArgs),
    /// Hash field elements (or apply a raw permutation) with one of the hash families.
    Hash(cmd_hash::HashArgs),
    /// Build n-ary Merkle trees, print roots and membership paths, verify paths.
    #[command(subcommand)]
    Merkle(cmd_merkle::MerkleCmd),
    /// Prove a note spend, membership or batch root; writes snarkjs-compatible artifacts.
    Prove(cmd_prove::ProveArgs),
    /// Verify a proof directory written by `zkbench prove` (exit 1 if invalid).
    Verify(cmd_prove::VerifyArgs),
    /// Native hash throughput table (the `hashes` suite).
    Hashes(cmd_bench::HashesArgs),
    /// Run a benchmark suite (default: `default`) and write results and a report.
    Run(cmd_bench::RunArgs),
    /// List the suites, backends and hash families (and a suite's cases).
    List(cmd_bench::ListArgs),
    /// Render results files into a self-contained HTML report and a Markdown summary.
    Report(cmd_bench::ReportArgs),
    /// Compare two results files; exits non-zero on a regression beyond the threshold.
    Compare(cmd_bench::CompareArgs),
    /// The configuration to ship for a budget (prove time, gas, proof size, leaves, security), ranked, with the Pareto front.
    Recommend(cmd_recommend::RecommendArgs),
    /// Soundness: mutation-test every circuit, fuzz every verifier with malformed proofs.
    Audit(cmd_audit::AuditArgs),
    /// Run the results server: API, leaderboard and browser page (SQLite or PostgreSQL).
    Serve(cmd_serve::ServeArgs),
    /// Send a results file to a results server.
    Submit(cmd_serve::SubmitArgs),
    /// The private pool with a sequencer: `simulate` runs deposits, sequencer batches and withdrawals on the embedded EVM.
    #[command(subcommand)]
    Pool(cmd_pool::PoolCmd),
    /// Powers of tau (.ptau): `new` writes a TEST setup in seconds, `import` reads a real ceremony file.
    #[command(subcommand)]
    Ptau(cmd_ptau::PtauCmd),
    /// Internal: the `wasm-engines` suite's native column (peers/wasm-engines/run.mjs).
    #[command(name = "__wasm-engine-native", hide = true)]
    WasmEngineNative(cmd_engines::EngineNativeArgs),
    /// Internal: measure one case in this process (used by `run`).
    #[command(name = "__run-case", hide = true)]
    RunCase {
        /// Case as JSON.
        case: String,
        /// Profile as JSON.
        profile: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Verifier(a) => cmd_evm::verifier(a),
        Command::Calldata(a) => cmd_evm::calldata(a),
        Command::Hash(a) => cmd_hash::run(a),
        Command::Merkle(c) => cmd_merkle::run(c),
        Command::Prove(a) => cmd_prove::prove(a),
        Command::Verify(a) => cmd_prove::verify(a),
        Command::Hashes(a) => cmd_bench::hashes(a),
        Command::Run(a) => cmd_bench::run(a),
        Command::List(a) => cmd_bench::list(a),
        Command::Report(a) => cmd_bench::report(a),
        Command::Compare(a) => cmd_bench::compare(a),
        Command::Recommend(a) => cmd_recommend::run(a),
        Command::Audit(a) => cmd_audit::run(a),
        Command::Serve(a) => cmd_serve::serve(a),
        Command::Submit(a) => cmd_serve::submit(a),
        Command::Pool(c) => cmd_pool::run(c),
        Command::Ptau(c) => cmd_ptau::run(c),
        Command::WasmEngineNative(a) => cmd_engines::run(a),
        Command::RunCase { case, profile } => zkbench_bench::runner::run_case_here(&case, &profile)
            .map_err(anyhow::Error::msg)
            .map(|_| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes joined by ": ", a cause left out where the text
/// before it already ends with it (error types that print their source in
/// their own message, as `"{path}: {source}"` does, would otherwise say it
/// twice).
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text = format!("{text}: {part}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cause_printed_by_its_error_is_not_repeated() {
        #[derive(Debug, thiserror::Error)]
        #[error("{path}: {source}")]
        struct Io {
            path: String,
            source: std::io::Error,
        }
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(Io {
            path: "proof.json".into(),
            source: io,
        })
        .context("cannot verify proof");
        assert_eq!(
            super::error_text(&e),
            "cannot verify proof: proof.json: no such file"
        );
        let plain = anyhow::anyhow!("inner").context("outer");
        assert_eq!(super::error_text(&plain), "outer: inner");
    }
}
