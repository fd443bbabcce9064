//! The orchestrator: runs every case of a suite in its own child process
//! (clean peak-memory counters, a crash or OOM kills only that case), enforces
//! timeouts and the suite's time budget, shows progress, and collects records.
//!
//! The child is the same `zkbench` executable invoked as
//! `zkbench __run-case '<case json>' '<profile json>'`; it prints one
//! [`Record`] per line on stdout (see [`run_case_here`]).

use std::{
    io::{BufRead, BufReader, Read},
    path::Path,
    process::{Child, Command, ExitStatus, Stdio},
    thread::JoinHandle,
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{
    backends,
    case::Case,
    results::{Record, ResultsFile, Status},
    suite::{External, Profile, Suite},
    sys::Environment,
};

/// Options of `zkbench run`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Profile name (suite default when `None`).
    pub profile: Option<String>,
    /// Only cases whose id contains every one of these substrings.
    pub filter: Vec<String>,
    /// Thread counts overriding the suite's.
    pub threads: Option<Vec<usize>>,
    /// Draw no progress bar.
    pub quiet: bool,
}

/// Errors of the runner itself (a failing case is data, not an error).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Suite problem.
    #[error(transparent)]
    Suite(#[from] crate::suite::SuiteError),
    /// The filter matched nothing.
    #[error("the filter {filter:?} matches none of the suite's {total} cases (ids look like {example:?}; `zkbench list --cases SUITE` shows them)")]
    EmptySelection {
        /// Filter given.
        filter: Vec<String>,
        /// Cases in the suite.
        total: usize,
        /// One case id.
        example: String,
    },
}

/// The cases of `suite` selected by `opts`.
pub fn select_cases(suite: &Suite, opts: &RunOptions) -> Result<Vec<Case>, RunError> {
    let all = suite.cases(opts.threads.as_deref());
    let total = all.len();
    let example = all.first().map(|c| c.id()).unwrap_or_default();
    let profile = suite.profile(opts.profile.as_deref())?;
    let cases: Vec<Case> = all
        .into_iter()
        .filter(|c| opts.filter.iter().all(|f| c.id().contains(f.as_str())))
        .filter(|c| profile.admits(c))
        .collect();
    if cases.is_empty() && (total > 0 || !opts.filter.is_empty()) && suite.externals.is_empty() {
        return Err(RunError::EmptySelection {
            filter: opts.filter.clone(),
            total,
            example,
        });
    }
    Ok(cases)
}

/// Runs a suite, each case in a child process of `exe`.
pub fn run_suite(suite: &Suite, opts: &RunOptions, exe: &Path) -> Result<ResultsFile, RunError> {
    let profile = suite.profile(opts.profile.as_deref())?;
    let profile_name = opts
        .profile
        .clone()
        .unwrap_or_else(|| suite.default_profile.clone());
    let cases = select_cases(suite, opts)?;
    let env = crate::sys::detect_environment();
    let mut results = ResultsFile::new(&suite.name, &profile_name, env.clone());
    let started = Instant::now();

    let bar = progress_bar((cases.len() + suite.externals.len()) as u64, opts.quiet);
    for case in &cases {
        bar.set_message(case.id());
        let records = suite_case_records(suite, started, exe, case, &profile, &env);
        results.records.extend(records);
        bar.inc(1);
    }
    for ext in &suite.externals {
        bar.set_message(format!("external {}", ext.name));
        for &t in &external_threads(ext, opts) {
            results
                .records
                .extend(run_external_at(ext, t, &profile, &env));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    results.duration_s = started.elapsed().as_secs_f64();
    Ok(results)
}

/// The suite's progress bar over `len` steps, drawn on stderr unless `quiet`.
fn progress_bar(len: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len),
        if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} ETA {eta} {wide_msg}",
        )
        .expect("valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The records of one case of `suite` (whose run began at `started`): run in
/// a child process of `exe`, or one skipped record when the suite's time
/// budget is exhausted or no backend proves the case's system.
fn suite_case_records(
    suite: &Suite,
    started: Instant,
    exe: &Path,
    case: &Case,
    profile: &Profile,
    env: &Environment,
) -> Vec<Record> {
    let over_budget = suite
        .time_budget_seconds
        .is_some_and(|b| started.elapsed().as_secs_f64() > b);
    if over_budget {
        vec![Record::failed(
            case,
            "all",
            Status::Skipped,
            format!(
                "suite time budget of {} s exhausted",
                suite.time_budget_seconds.unwrap_or_default()
            ),
            env,
        )]
    } else if backends::for_case(case).is_none() {
        vec![Record::failed(
            case,
            "all",
            Status::Skipped,
            format!("no backend for system {:?}", case.system),
            env,
        )]
    } else {
        run_case_child(exe, case, profile, env)
    }
}

/// Runs one case in a child process and parses its records.
pub fn run_case_child(
    exe: &Path,
    case: &Case,
    profile: &Profile,
    env: &Environment,
) -> Vec<Record> {
    let case_json = serde_json::to_string(case).expect("case serialises");
    let profile_json = serde_json::to_string(profile).expect("profile serialises");
    let mut cmd = Command::new(exe);
    cmd.arg("__run-case").arg(&case_json).arg(&profile_json);
    if case.threads > 0 {
        cmd.env("RAYON_NUM_THREADS", case.threads.to_string());
    }
    // threads mean cores: the child runs on the first `threads` CPUs
    crate::sys::with_cpus(case.threads, || {
        run_record_command(cmd, profile.case_timeout_seconds, env, |reason, status| {
            vec![Record::failed(case, "all", status, reason, env)]
        })
    })
    .0
}

/// Runs `cmd` (a process printing record lines) with a timeout: its records, plus
/// `on_failure`'s when it cannot start, times out or fails.
fn run_record_command(
    mut cmd: Command,
    timeout_s: f64,
    env: &Environment,
    on_failure: impl Fn(String, Status) -> Vec<Record>,
) -> Vec<Record> {
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return on_failure(
                format!("cannot start {:?}: {e}", cmd.get_program()),
                Status::Error,
            )
        }
    };
    let (out_reader, err_reader) = spawn_readers(&mut child);
    let status = match wait_until(&mut child, timeout_s) {
        Ok(status) => status,
        Err(e) => return on_failure(format!("waiting for case process: {e}"), Status::Error),
    };
    let lines = out_reader.join().unwrap_or_default();
    let err_text = err_reader.join().unwrap_or_default();
    let tail = stderr_tail(&err_text);
    let (records, bad_lines) = parse_record_lines(&lines, env);
    let finished = Finished {
        status,
        records,
        bad_lines,
        err_text,
        tail,
    };
    finished.into_records(timeout_s, &on_failure)
}

/// Starts the threads that collect the child's stdout lines and its stderr text.
fn spawn_readers(child: &mut Child) -> (JoinHandle<Vec<String>>, JoinHandle<String>) {
    let stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<_>>()
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    (out_reader, err_reader)
}

/// Waits for the child for at most `timeout_s` seconds; `None` when it had to be killed.
fn wait_until(child: &mut Child, timeout_s: f64) -> std::io::Result<Option<ExitStatus>> {
    let deadline = Instant::now() + Duration::from_secs_f64(timeout_s);
    loop {
        match child.try_wait() {
            Ok(Some(st)) => return Ok(Some(st)),
            Ok(None) if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(None);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e),
        }
    }
}

/// The last six lines of the child's stderr, joined with ` | `.
fn stderr_tail(err_text: &str) -> String {
    err_text
        .lines()
        .rev()
        .take(6)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The records of the child's JSON lines, and how many of those lines did not parse.
fn parse_record_lines(lines: &[String], env: &Environment) -> (Vec<Record>, usize) {
    let mut records = Vec::new();
    let mut bad_lines = 0;
    for line in lines.iter().filter(|l| l.trim_start().starts_with('{')) {
        match parse_record_line(line, env) {
            Ok(r) => records.push(r),
            Err(_) => bad_lines += 1,
        }
    }
    (records, bad_lines)
}

/// What a finished (or killed) record-printing child left.
struct Finished {
    /// Its exit status; `None` when it timed out and was killed.
    status: Option<ExitStatus>,
    /// The records it printed.
    records: Vec<Record>,
    /// How many of its record lines were malformed.
    bad_lines: usize,
    /// Its whole stderr.
    err_text: String,
    /// The last lines of its stderr.
    tail: String,
}

impl Finished {
    /// The records printed, followed by a failure record when the child did not succeed cleanly.
    fn into_records(
        self,
        timeout_s: f64,
        on_failure: &impl Fn(String, Status) -> Vec<Record>,
    ) -> Vec<Record> {
        let Finished {
            status,
            records,
            bad_lines,
            err_text,
            tail,
        } = self;
        match status {
            None => {
                let mut out = records;
                out.extend(on_failure(
                    format!("timed out after {timeout_s} s"),
                    Status::Timeout,
                ));
                out
            }
            Some(st) if st.success() && bad_lines == 0 && !records.is_empty() => records,
            Some(st) if st.success() => {
                let mut out = records;
                out.extend(on_failure(
                    format!(
                        "process printed {bad_lines} malformed record line(s) and {} valid one(s)",
                        out.len()
                    ),
                    Status::Error,
                ));
                out
            }
            Some(st) => {
                let oom = err_text.contains("memory allocation") || signal_of(&st) == Some(9);
                let (status, what) = if oom {
                    (
                        Status::OutOfMemory,
                        "out of memory (killed or allocation failed)".to_string(),
                    )
                } else {
                    (Status::Error, format!("case process failed ({st})"))
                };
                let mut out = records;
                out.extend(on_failure(format!("{what}: {tail}"), status));
                out
            }
        }
    }
}

#[cfg(unix)]
fn signal_of(st: &std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(st)
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

/// Parses one record line; fills `env` when the producer (an external runner) left it out.
pub fn parse_record_line(line: &str, env: &Environment) -> Result<Record, String> {
    let mut v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let obj = v.as_object_mut().ok_or("record is not a JSON object")?;
    if !obj.contains_key("env") {
        obj.insert(
            "env".into(),
            serde_json::to_value(env).expect("env serialises"),
        );
    }
    let mut r: Record = serde_json::from_value(v).map_err(|e| e.to_string())?;
    if r.summary.is_none() && !r.samples_s.is_empty() {
        let (w, c) = (
            std::mem::take(&mut r.samples_s),
            std::mem::take(&mut r.cpu_s),
        );
        r.set_samples(w, c);
    }
    if r.case_id.is_empty() {
        r.case_id = r.case.id();
    }
    Ok(r)
}

/// Runs an external peer with the environment variables `vars`: its command
/// prints one record per line (see `docs/external-runners.md`).
pub fn run_external(
    ext: &External,
    vars: &[(&str, &str)],
    profile: &Profile,
    env: &Environment,
) -> Vec<Record> {
    let fake_case = Case::new(crate::case::CaseKind::Proof, &ext.name, "-");
    let Some((prog, args)) = ext.command.split_first() else {
        return vec![Record::failed(
            &fake_case,
            "all",
            Status::Error,
            "external runner has an empty command",
            env,
        )];
    };
    let mut cmd = Command::new(prog);
    cmd.envs(vars.iter().copied());
    cmd.args(args).env(
        "ZKBENCH_PROFILE",
        serde_json::to_string(profile).expect("profile serialises"),
    );
    // runners that need zkbench itself (test .ptau files, native trees, `zkbench serve` for
    // the browser suite) use the binary running this suite unless told otherwise
    if std::env::var_os("ZKBENCH_BIN").is_none() {
        if let Ok(exe) = std::env::current_exe() {
            cmd.env("ZKBENCH_BIN", exe);
        }
    }
    run_record_command(cmd, profile.case_timeout_seconds, env, |reason, status| {
        vec![Record::failed(&fake_case, "all", status, reason, env)]
    })
}

/// The thread counts an external runner runs at: `--threads`, else its own
/// list up to this machine's CPUs, else once with the machine's default (0).
fn external_threads(ext: &External, opts: &RunOptions) -> Vec<usize> {
    crate::suite::thread_counts(&ext.threads, opts.threads.as_deref())
}

/// [`run_external`] at `threads` (0: the machine's default): pinned to that
/// many cores, told the count through `GOMAXPROCS`, `RAYON_NUM_THREADS` and
/// `ZKBENCH_THREADS`; records that name no thread count get it.
pub fn run_external_at(
    ext: &External,
    threads: usize,
    profile: &Profile,
    env: &Environment,
) -> Vec<Record> {
    if threads == 0 {
        return run_external(ext, &[], profile, env);
    }
    let n = threads.to_string();
    let vars = ["GOMAXPROCS", "RAYON_NUM_THREADS", "ZKBENCH_THREADS"].map(|v| (v, n.as_str()));
    let (mut records, pinned) =
        crate::sys::with_cpus(threads, || run_external(ext, &vars, profile, env));
    let cpus = pinned.unwrap_or_else(|| crate::sys::allowed_cpus().len());
    for r in &mut records {
        if r.case.threads == 0 {
            // the id gets the count; a prefix the runner put before the case's id stays
            // (`browser/` on the page's records)
            let prefix = r
                .case_id
                .strip_suffix(&r.case.id())
                .unwrap_or_default()
                .to_string();
            r.case.threads = threads;
            r.case_id = format!("{prefix}{}", r.case.id());
        }
        if r.threads == 0 {
            r.threads = threads;
        }
        add_cpu_metrics(r, cpus);
    }
    records
}

/// The child side: measures `case` in this process and prints its records, one JSON line each.
pub fn run_case_here(case_json: &str, profile_json: &str) -> Result<(), String> {
    let case: Case = serde_json::from_str(case_json).map_err(|e| format!("bad case JSON: {e}"))?;
    let profile: Profile =
        serde_json::from_str(profile_json).map_err(|e| format!("bad profile JSON: {e}"))?;
    if case.threads > 0 {
        // Ignore the error if a pool already exists (e.g. in tests); RAYON_NUM_THREADS is set too.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(case.threads)
            .build_global();
    }
    let env = crate::sys::detect_environment();
    let backend =
        backends::for_case(&case).ok_or_else(|| format!("no backend for {}", case.id()))?;
    let mut records = backend.run(&case, &profile, &env);
    let cpus = crate::sys::allowed_cpus().len();
    for r in &mut records {
        if r.threads == 0 {
            r.threads = rayon::current_num_threads();
        }
        add_cpu_metrics(r, cpus);
        println!("{}", serde_json::to_string(r).expect("record serialises"));
    }
    Ok(())
}

/// `metrics.cpu_s_per_op` (median CPU time of one sample, all threads: a
/// sample is one operation of the phase) and `metrics.cpus` (the CPUs the
/// process could run on), so that work overhead across thread counts can be
/// read from any record.
pub fn add_cpu_metrics(r: &mut Record, cpus: usize) {
    if let Some(s) = zkbench_core::stats::Summary::of(&r.cpu_s) {
        r.metrics.entry("cpu_s_per_op".into()).or_insert(s.median);
    }
    r.metrics.entry("cpus".into()).or_insert(cpus as f64);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record line as an external runner (docs/external-runners.md) prints it.
    #[test]
    fn external_record_lines_are_completed() {
        let env = Environment {
            cpu_model: "x".into(),
            ..Default::default()
        };
        let line = r#"{"case":{"kind":"proof","system":"gnark-groth16","hash":"poseidon2-gnark","arity":2,"leaves":4294967296,"circuit":"membership","threads":0},"phase":"prove","status":"ok","samples_s":[0.41,0.40,0.42],"threads":2,"metrics":{"constraints":6049}}"#;
        let r = parse_record_line(line, &env).unwrap();
        assert_eq!(
            r.case_id,
            "gnark-groth16/poseidon2-gnark/membership/arity2/2^32/threads-all"
        );
        assert_eq!(r.median(), Some(0.41));
        assert_eq!(r.env.cpu_model, "x");
        assert!(parse_record_line("{\"phase\": \"prove\"}", &env).is_err());
        assert!(parse_record_line("[1,2]", &env).is_err());
    }

    #[test]
    fn failing_and_hanging_commands_become_records() {
        let env = Environment::default();
        let profile = Profile {
            case_timeout_seconds: 1.0,
            ..Profile::quick()
        };
        let ext = |cmd: &[&str]| External {
            name: "peer".into(),
            command: cmd.iter().map(|s| s.to_string()).collect(),
            threads: vec![],
        };
        let r = run_external(
            &ext(&["sh", "-c", "echo boom >&2; exit 3"]),
            &[],
            &profile,
            &env,
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].status, Status::Error);
        assert!(
            r[0].error.as_deref().unwrap().contains("boom"),
            "{:?}",
            r[0].error
        );
        let r = run_external(&ext(&["sleep", "5"]), &[], &profile, &env);
        assert_eq!(r[0].status, Status::Timeout);
        let r = run_external(&ext(&["/nonexistent/program"]), &[], &profile, &env);
        assert_eq!(r[0].status, Status::Error);
        let r = run_external(&ext(&[]), &[], &profile, &env);
        assert!(r[0].error.as_deref().unwrap().contains("empty command"));
    }

    /// An external runner at a thread count gets the count in its environment, runs pinned
    /// to that many CPUs (where the machine has more), and its records name the count.
    #[test]
    fn external_runners_run_at_a_thread_count() {
        let env = Environment::default();
        let script = r#"echo "{\"case\":{\"kind\":\"proof\",\"system\":\"peer\",\"hash\":\"poseidon2-gnark\",\"threads\":0},\"phase\":\"prove\",\"status\":\"ok\",\"samples_s\":[0.1],\"cpu_s\":[0.2],\"threads\":0,\"metrics\":{\"gomaxprocs\":$GOMAXPROCS,\"zkbench_threads\":$ZKBENCH_THREADS,\"nproc\":$(nproc)}}""#;
        // a second record as the browser page writes one: its id starts with `browser/`
        let script = format!(
            "{script}; echo '{}'",
            r#"{"case_id":"browser/snarkjs/poseidon/threads-all","case":{"kind":"proof","system":"snarkjs","hash":"poseidon","threads":0},"phase":"prove","status":"ok","samples_s":[0.5],"threads":0}"#
        );
        let ext = External {
            name: "peer".into(),
            command: vec!["sh".into(), "-c".into(), script],
            threads: vec![1],
        };
        let r = run_external_at(&ext, 1, &Profile::quick(), &env);
        assert_eq!(r.len(), 2, "{r:?}");
        assert_eq!(r[1].case_id, "browser/snarkjs/poseidon/threads1");
        let r = &r[0];
        assert_eq!(r.status, Status::Ok, "{:?}", r.error);
        assert_eq!((r.case.threads, r.threads), (1, 1));
        assert!(r.case_id.ends_with("threads1"), "{}", r.case_id);
        assert_eq!(r.metrics["gomaxprocs"], 1.0);
        assert_eq!(r.metrics["zkbench_threads"], 1.0);
        assert_eq!(r.metrics["cpu_s_per_op"], 0.2);
        if crate::sys::allowed_cpus().len() > 1 {
            assert_eq!(r.metrics["nproc"], 1.0, "pinned to one CPU");
            assert_eq!(r.metrics["cpus"], 1.0);
        }
        // the suite's counts above this machine's CPUs are left out; --threads is obeyed
        let many = crate::sys::allowed_cpus().len() + 1;
        assert_eq!(crate::suite::thread_counts(&[1, many], None), vec![1]);
        assert_eq!(crate::suite::thread_counts(&[many], None), vec![many]);
        assert_eq!(crate::suite::thread_counts(&[1], Some(&[many])), vec![many]);
        assert_eq!(crate::suite::thread_counts(&[], None), vec![0]);
    }
}
