//! `zkbench recommend`: the configuration to ship for a budget, from results
//! files, a results server, or a short measuring run of its own (`--quick`).

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use anyhow::Context;
use clap::Args;
use zkbench_bench::{
    runner::{self, RunOptions},
    suite::{Profile, Suite},
};
use zkbench_recommend::{
    model::target_of, recommend, Budget, Candidate, Objective, Recommendation, Target,
};
use zkbench_results::{case::parse_leaves, Circuit, Environment, Record, ResultsFile, Status};

/// The `--quick` suite: Groth16 spends of several circuit sizes, Halo2-KZG
/// with the EVM transcript, the BabyBear STARK, on 1 and 2 threads, and the verifiers' gas.
const QUICK_SUITE: &str = include_str!("recommend-quick.toml");

/// Arguments of `zkbench recommend`.
#[derive(Args, Debug)]
pub struct RecommendArgs {
    /// Budget: warm prove time, milliseconds (on --target with --threads).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_prove_ms: Option<f64>,
    /// Where the prover runs: native or browser.
    #[arg(long, default_value = "native", value_name = "native|browser")]
    pub target: Target,
    /// Thread count of the prover (default: every thread count measured).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Budget: proof size, bytes.
    #[arg(long, value_name = "N")]
    pub max_proof_bytes: Option<u64>,
    /// Budget: gas of the verifying transaction (21,000 + calldata + execution).
    #[arg(long, value_name = "N")]
    pub max_verify_gas: Option<u64>,
    /// Budget: tree capacity, 2^K or a number.
    #[arg(long, value_name = "2^K", value_parser = parse_leaves)]
    pub min_leaves: Option<u64>,
    /// Budget: security level, bits (the weakest of hash, curve and FRI; `zkbench list`).
    #[arg(long, value_name = "BITS")]
    pub min_security: Option<u32>,
    /// The statement: spend or membership (default: both).
    #[arg(long, value_name = "spend|membership")]
    pub circuit: Option<Circuit>,
    /// What to minimise among the configurations meeting every budget.
    #[arg(long, default_value = "prove", value_name = "prove|gas|size")]
    pub optimize: Objective,
    /// Print the recommendation as JSON.
    #[arg(long)]
    pub json: bool,
    /// Results files to read (this device's runs or other devices').
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["server", "quick"])]
    pub results: Vec<PathBuf>,
    /// A results server (`zkbench serve`) to read submissions from.
    #[arg(
        long,
        value_name = "URL",
        requires = "device_class",
        conflicts_with = "quick"
    )]
    pub server: Option<String>,
    /// With --server: only submissions whose device class (CPU · N CPUs · arch) contains this text.
    #[arg(long, value_name = "TEXT", requires = "server")]
    pub device_class: Option<String>,
    /// Measure first: a short suite of its own (under 3 minutes on 2 cores), then recommend.
    #[arg(long)]
    pub quick: bool,
    /// Then measure the top recommendation directly (native: one case, at least
    /// 15 samples or 3 s; browser: `zkbench run browser` of its statement) and
    /// print predicted against measured.
    #[arg(long)]
    pub check: bool,
    /// Where --quick writes its results.
    #[arg(long, value_name = "FILE", default_value = "recommend-quick.json")]
    pub out: PathBuf,
}

impl RecommendArgs {
    fn budget(&self) -> Budget {
        Budget {
            max_prove_ms: self.max_prove_ms,
            target: self.target,
            threads: self.threads,
            max_proof_bytes: self.max_proof_bytes,
            max_verify_gas: self.max_verify_gas,
            min_leaves: self.min_leaves,
            min_security: self.min_security,
            circuit: self.circuit,
            optimize: self.optimize,
        }
    }
}

/// `zkbench recommend`.
pub fn run(a: RecommendArgs) -> anyhow::Result<ExitCode> {
    let budget = a.budget();
    // bad budgets fail before any measuring or download
    budget.check().map_err(anyhow::Error::msg)?;
    let files = if !a.results.is_empty() {
        a.results
            .iter()
            .map(|p| ResultsFile::read(p))
            .collect::<Result<Vec<_>, _>>()?
    } else if let (Some(url), Some(class)) = (&a.server, &a.device_class) {
        from_server(url, class)?
    } else {
        if !a.quick {
            eprintln!("no --results or --server: measuring with --quick first");
        }
        vec![quick(&a.out, a.json)?]
    };
    let r = recommend(&files, &budget).map_err(anyhow::Error::msg)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", r.text());
    }
    if a.check {
        check(&r, a.json)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the `--quick` suite and writes its results to `out`.
fn quick(out: &Path, json: bool) -> anyhow::Result<ResultsFile> {
    let suite = Suite::from_toml("recommend-quick", QUICK_SUITE)?;
    let opts = RunOptions {
        profile: None,
        filter: vec![],
        threads: None,
        quiet: json || !std::io::stderr().is_terminal(),
    };
    let exe = std::env::current_exe().context("cannot locate the zkbench executable")?;
    let results = runner::run_suite(&suite, &opts, &exe)?;
    results
        .write(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "measured {} records in {:.0} s → {}",
        results.records.len(),
        results.duration_s,
        out.display()
    );
    if zkbench_bench::build_info::PROFILE != "release" {
        eprintln!("warning: this zkbench is a debug build; its prove times are not representative (use --release)");
    }
    Ok(results)
}

/// The profile of `--check`: enough samples for a stable median, a few seconds.
fn check_profile() -> Profile {
    Profile {
        warmup: 2,
        min_samples: 15,
        max_samples: 40,
        target_seconds: 3.0,
        case_timeout_seconds: 120.0,
        max_log_size: Default::default(),
    }
}

/// `--check`: measures the top recommendation directly and prints predicted
/// against measured (to stderr with `--json`, whose stdout stays one document).
fn check(r: &Recommendation, json: bool) -> anyhow::Result<()> {
    let Some(top) = r.ranked.first() else {
        anyhow::bail!("--check: no configuration meets the budget, so there is nothing to measure");
    };
    let predicted = top
        .prove
        .ms()
        .context("the top recommendation has no prove time")?;
    let exe = std::env::current_exe().context("cannot locate the zkbench executable")?;
    eprintln!(
        "checking: measuring {} ({}, {} threads) directly ...",
        top.case.id(),
        top.target,
        top.threads
    );
    let (measured, samples) = match top.target {
        Target::Native => check_native(&exe, top)?,
        Target::Browser => check_browser(&exe, top)?,
    };
    let ratio = measured / predicted;
    let line = format!(
        "Check: {} · {} {} threads: predicted {predicted:.1} ms ({}), measured now {measured:.1} ms \
         (median of {samples} samples): measured / predicted = {ratio:.3} ({} 15%)",
        top.statement,
        top.target,
        top.threads,
        top.prove.source(),
        if (ratio - 1.0).abs() <= 0.15 { "within" } else { "NOT within" }
    );
    if json {
        eprintln!("{line}");
    } else {
        println!("\n{line}");
    }
    Ok(())
}

/// The warm prove time (ms, median) and sample count of the first successful
/// `prove` record in `recs`, or an error naming `case` and what went wrong.
fn prove_ms(recs: &[Record], case: &str) -> anyhow::Result<(f64, usize)> {
    let prove = recs
        .iter()
        .find(|x| x.phase == "prove" && x.status == Status::Ok)
        .with_context(|| {
            format!(
                "--check: {case} gave no prove time: {}",
                recs.iter()
                    .filter_map(|x| x.error.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })?;
    let median = prove.median().context("no samples")? * 1e3;
    Ok((median, prove.samples_s.len()))
}

/// A native configuration: its one case in a child process.
fn check_native(exe: &Path, top: &Candidate) -> anyhow::Result<(f64, usize)> {
    let env = zkbench_bench::sys::detect_environment();
    let recs = runner::run_case_child(exe, &top.case, &check_profile(), &env);
    prove_ms(&recs, &top.case.id())
}

/// A browser configuration: `zkbench run browser --threads N --filter STATEMENT`
/// (the page in headless Chromium, as its measurement was made), its page records read back.
fn check_browser(exe: &Path, top: &Candidate) -> anyhow::Result<(f64, usize)> {
    let dir = tempfile::tempdir().context("cannot create a temporary directory")?;
    let out = dir.path().join("check.json");
    let status = std::process::Command::new(exe)
        .args(["run", "browser", "--quiet", "--threads"])
        .arg(top.threads.to_string())
        .args(["--filter", &top.statement, "--out"])
        .arg(&out)
        .arg("--report")
        .arg(dir.path().join("check.html"))
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot start `zkbench run browser`")?;
    let file = ResultsFile::read(&out).with_context(|| {
        format!("--check: `zkbench run browser` ({status}) wrote no results; is the page built (bash scripts/build-web.sh)?")
    })?;
    let recs: Vec<Record> = file
        .records
        .into_iter()
        .filter(|x| target_of(x) == Target::Browser && x.threads == top.threads)
        .collect();
    prove_ms(&recs, &format!("{} in the browser", top.statement))
}

/// The server's device class of an environment, as its leaderboard writes it.
fn device_class(e: &Environment) -> String {
    format!(
        "{} · {} CPUs · {}",
        e.cpu_model.trim(),
        e.logical_cpus,
        e.arch
    )
}

/// Every submission on the server at `url` whose device class contains `class`.
fn from_server(url: &str, class: &str) -> anyhow::Result<Vec<ResultsFile>> {
    let base = server_base(url)?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let list = get_json(&agent, base, "/api/results")?;
    let (files, classes) = matching_submissions(&agent, base, &list, class)?;
    if files.is_empty() {
        anyhow::bail!(
            "no submission of device class {class:?} on {base}; device classes there: {}",
            if classes.is_empty() {
                "none (no submissions)".to_string()
            } else {
                classes.into_iter().collect::<Vec<_>>().join("; ")
            }
        );
    }
    eprintln!(
        "{} submissions of device class {class:?} from {base}",
        files.len()
    );
    Ok(files)
}

/// The server's base URL from `url` (a trailing `/` or `/api/results`
/// dropped); an error unless it is an http(s) URL.
fn server_base(url: &str) -> anyhow::Result<&str> {
    let base = url
        .trim()
        .trim_end_matches('/')
        .trim_end_matches("/api/results");
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        anyhow::bail!(
            "invalid server URL {url:?}; accepted: http://HOST:PORT or https://HOST[:PORT]"
        );
    }
    Ok(base)
}

/// GETs `base` + `path` and parses the answer as JSON; an answer other than
/// HTTP 200 is an error carrying the server's `error` message.
fn get_json(agent: &ureq::Agent, base: &str, path: &str) -> anyhow::Result<serde_json::Value> {
    let u = format!("{base}{path}");
    let mut resp = agent
        .get(&u)
        .call()
        .with_context(|| format!("cannot reach the results server at {u}"))?;
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{u} answered HTTP {status} with something that is not JSON"))?;
    if status != 200 {
        anyhow::bail!(
            "{u} answered HTTP {status}: {}",
            v["error"].as_str().unwrap_or(text.trim())
        );
    }
    Ok(v)
}

/// Downloads the submissions of the server's `list` whose device class
/// contains `class`: a first filter on the CPU model of the list, then the
/// full device class of each downloaded file. Also returns the device classes
/// (or CPU models) of the submissions that did not match.
fn matching_submissions(
    agent: &ureq::Agent,
    base: &str,
    list: &serde_json::Value,
    class: &str,
) -> anyhow::Result<(Vec<ResultsFile>, std::collections::BTreeSet<String>)> {
    let want = class.to_lowercase();
    let cpu_part = want.split('·').next().unwrap_or("").trim().to_string();
    let mut files = vec![];
    let mut classes = std::collections::BTreeSet::new();
    for s in list["submissions"].as_array().into_iter().flatten() {
        let cpu = s["cpu_model"].as_str().unwrap_or("").to_lowercase();
        let Some(id) = s["id"].as_str() else { continue };
        if !cpu.contains(&cpu_part) {
            classes.insert(s["cpu_model"].as_str().unwrap_or("").to_string());
            continue;
        }
        let doc = get_json(agent, base, &format!("/api/results/{id}"))?;
        let f = ResultsFile::parse(&format!("{base}/api/results/{id}"), &doc.to_string())?;
        let dc = device_class(&f.env);
        if dc.to_lowercase().contains(&want) {
            files.push(f);
        } else {
            classes.insert(dc);
        }
    }
    Ok((files, classes))
}
