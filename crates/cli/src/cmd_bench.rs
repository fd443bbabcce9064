//! `zkbench run | hashes | list | report | compare`.

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::Context;
use clap::Args;
use zkbench_bench::{
    backends, compare as cmp, report,
    results::ResultsFile,
    runner::{self, RunOptions},
    suite::{Suite, BUILTIN},
};
use zkbench_hash::HashFamily;

/// Arguments of `zkbench run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Built-in suite name (`zkbench list`) or path to a suite TOML file.
    #[arg(default_value = "default")]
    pub suite: String,
    /// Repetition profile: quick or full (or one the suite defines).
    #[arg(long)]
    pub profile: Option<String>,
    /// Only run cases whose id contains this text (repeatable; all must match).
    #[arg(long)]
    pub filter: Vec<String>,
    /// Thread counts to run every case at, e.g. `1,2` (0 = all cores).
    #[arg(long, value_delimiter = ',')]
    pub threads: Option<Vec<usize>>,
    /// Results JSON output path.
    #[arg(long, default_value = "results.json")]
    pub out: PathBuf,
    /// Also write the results as CSV to this path.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// HTML report output path.
    #[arg(long, default_value = "report.html")]
    pub report: PathBuf,
    /// Print the results JSON on stdout instead of the Markdown summary.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// After the run, send the results file to this results server (`zkbench serve`).
    #[arg(long, value_name = "URL")]
    pub submit: Option<String>,
    /// Browser of the `browser` suite's page records (its runner web/scripts/browser.mjs):
    /// the system's Chromium (default) or Firefox ESR, headless; `env.user_agent` names it.
    #[arg(long, value_enum)]
    pub browser: Option<Browser>,
}

/// A browser the `browser` suite drives headless (web/scripts/launch.mjs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Browser {
    /// Debian's `chromium`, over the DevTools protocol.
    Chromium,
    /// Debian's `firefox-esr`, over WebDriver BiDi.
    Firefox,
}

impl Browser {
    /// The name the browser runner takes (`ZKBENCH_BROWSER`, `--browser`).
    pub fn name(self) -> &'static str {
        match self {
            Browser::Chromium => "chromium",
            Browser::Firefox => "firefox",
        }
    }
}

/// Arguments of `zkbench hashes`.
#[derive(Args, Debug)]
pub struct HashesArgs {
    /// Only families whose name contains this text.
    #[arg(long)]
    pub filter: Vec<String>,
    /// Repetition profile.
    #[arg(long)]
    pub profile: Option<String>,
    /// Results JSON output path.
    #[arg(long, default_value = "hashes.json")]
    pub out: PathBuf,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `zkbench list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Also list the cases of this suite.
    #[arg(long)]
    pub cases: Option<String>,
}

/// Arguments of `zkbench report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Results files (merged into one report).
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// HTML output path.
    #[arg(long, default_value = "report.html")]
    pub out: PathBuf,
}

/// Arguments of `zkbench compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Baseline results file.
    pub base: PathBuf,
    /// New results file.
    pub new: PathBuf,
    /// Relative noise threshold (0.10 = 10 %); slower by more than this is a regression.
    #[arg(long, default_value_t = cmp::DEFAULT_THRESHOLD)]
    pub threshold: f64,
}

fn run_and_write(
    suite: &Suite,
    opts: &RunOptions,
    out: &Path,
    html: Option<&PathBuf>,
    csv: Option<&PathBuf>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe().context("cannot locate the zkbench executable")?;
    let results = runner::run_suite(suite, opts, &exe)?;
    let ctx = zkbench_bench::report_context();
    results
        .write(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    if let Some(c) = csv {
        std::fs::write(c, results.to_csv())
            .with_context(|| format!("cannot write {}", c.display()))?;
    }
    if let Some(h) = html {
        std::fs::write(h, report::html_report(std::slice::from_ref(&results), &ctx))
            .with_context(|| format!("cannot write {}", h.display()))?;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        print!(
            "{}",
            report::markdown_summary(std::slice::from_ref(&results), &ctx)
        );
        println!(
            "\n{} records in {:.0} s → {}{}{}",
            results.records.len(),
            results.duration_s,
            out.display(),
            html.map(|h| format!(", {}", h.display()))
                .unwrap_or_default(),
            csv.map(|c| format!(", {}", c.display()))
                .unwrap_or_default()
        );
    }
    if zkbench_bench::build_info::PROFILE != "release" {
        eprintln!("warning: this zkbench is a debug build; timings are not representative (use --release)");
    }
    Ok(ExitCode::SUCCESS)
}

/// `zkbench run`.
pub fn run(a: RunArgs) -> anyhow::Result<ExitCode> {
    let suite = Suite::load(&a.suite)?;
    if let Some(b) = a.browser {
        // read by the suite's external runners (web/scripts/browser.mjs); set before the run
        // starts any thread
        std::env::set_var("ZKBENCH_BROWSER", b.name());
    }
    if let Some(t) = &a.threads {
        if t.is_empty() {
            anyhow::bail!("--threads needs at least one count, e.g. --threads 1,2");
        }
    }
    let opts = RunOptions {
        profile: a.profile,
        filter: a.filter,
        threads: a.threads,
        quiet: a.quiet || a.json || !std::io::stderr().is_terminal(),
    };
    // the output folders exist before a long run, not after it
    for p in [Some(&a.out), Some(&a.report), a.csv.as_ref()]
        .into_iter()
        .flatten()
    {
        ensure_parent(p)?;
    }
    let code = run_and_write(
        &suite,
        &opts,
        &a.out,
        Some(&a.report),
        a.csv.as_ref(),
        a.json,
    )?;
    if let Some(url) = &a.submit {
        crate::cmd_serve::submit_file(&a.out, url, None)?;
    }
    Ok(code)
}

/// Creates the folder `path` will be written into, so that a run never
/// ends in "cannot write" after its measurements.
fn ensure_parent(path: &std::path::Path) -> anyhow::Result<()> {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => std::fs::create_dir_all(d)
            .with_context(|| format!("cannot create {} for {}", d.display(), path.display())),
        _ => Ok(()),
    }
}

/// `zkbench hashes`.
pub fn hashes(a: HashesArgs) -> anyhow::Result<ExitCode> {
    let suite = Suite::load("hashes")?;
    let opts = RunOptions {
        profile: a.profile,
        filter: a.filter,
        threads: None,
        quiet: a.json || !std::io::stderr().is_terminal(),
    };
    run_and_write(&suite, &opts, &a.out, None, None, a.json)
}

/// `zkbench list`.
pub fn list(a: ListArgs) -> anyhow::Result<ExitCode> {
    println!("Suites (zkbench run <suite>):");
    for (name, _) in BUILTIN {
        let s = Suite::load(name)?;
        // a suite of external runners only (`wasm-engines`) has no sweep cases
        let runners = match s.externals.len() {
            0 => String::new(),
            1 => " + 1 external runner".to_string(),
            n => format!(" + {n} external runners"),
        };
        println!(
            "  {name:<16} {:>4} cases{runners}  {}",
            s.cases(None).len(),
            s.description
        );
    }
    println!("\nBackends:");
    for b in backends::all() {
        println!("  {:<16} {}", b.name(), b.description());
    }
    println!("\nHash families (zkbench hash <family>):");
    for f in HashFamily::ALL {
        let widths: Vec<String> = f
            .alphas()
            .iter()
            .map(|&al| {
                format!(
                    "alpha {al}: widths {:?}",
                    f.widths(Some(al)).unwrap_or_default()
                )
            })
            .collect();
        println!("  {:<16} {}", f.name(), widths.join("; "));
    }
    println!("\nSecurity (claimed levels, estimates and attacks, with sources; zkbench recommend --min-security):");
    for l in zkbench_results::security::text_lines() {
        println!("{l}");
    }
    if let Some(name) = a.cases {
        let s = Suite::load(&name)?;
        println!("\nCases of {}:", s.name);
        for c in s.cases(None) {
            println!("  {}", c.id());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `zkbench report`.
pub fn report(a: ReportArgs) -> anyhow::Result<ExitCode> {
    let files = a
        .results
        .iter()
        .map(|p| ResultsFile::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    std::fs::write(
        &a.out,
        report::html_report(&files, &zkbench_bench::report_context()),
    )
    .with_context(|| format!("cannot write {}", a.out.display()))?;
    print!(
        "{}",
        report::markdown_summary(&files, &zkbench_bench::report_context())
    );
    println!("\nreport → {}", a.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `zkbench compare`.
pub fn compare(a: CompareArgs) -> anyhow::Result<ExitCode> {
    if !(a.threshold.is_finite() && a.threshold >= 0.0) {
        anyhow::bail!(
            "--threshold must be a non-negative number such as 0.1 (10 %), got {}",
            a.threshold
        );
    }
    let base = ResultsFile::read(&a.base)?;
    let new = ResultsFile::read(&a.new)?;
    if base.env.cpu_model != new.env.cpu_model {
        eprintln!(
            "note: different machines ({} vs {}); ratios compare machines as well as code",
            base.env.cpu_model, new.env.cpu_model
        );
    }
    let c = cmp::compare(&base, &new, a.threshold);
    print!("{}", c.to_markdown());
    Ok(if c.has_regression() {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
