//! The results file: a documented, versioned JSON schema (see `docs/results-schema.md`),
//! one [`Record`] per case × phase, plus CSV export.

use std::{collections::BTreeMap, path::Path};

use serde::{Deserialize, Serialize};

use crate::{case::Case, env::Environment, stats::Summary};

/// Schema identifier written into every results file.
pub const SCHEMA: &str = "zkbench-results";
/// Current schema version. Readers accept this version only.
pub const SCHEMA_VERSION: u32 = 1;

/// Outcome of one case × phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Measured.
    Ok,
    /// The case failed with an error (see `error`).
    Error,
    /// The case exceeded its time limit and was killed.
    Timeout,
    /// The case ran out of memory (killed by the OS or allocation failure).
    OutOfMemory,
    /// Not run (time budget exhausted, backend unavailable, unsupported combination).
    Skipped,
}

/// One measured phase of one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `Case::id()`, the key used to match records across files (computed when absent).
    #[serde(default)]
    pub case_id: String,
    /// The case's parameters.
    pub case: Case,
    /// Phase: `setup`, `witness`, `prove_cold`, `prove`, `verify`, `hash`, `insert`, `path`, ...
    pub phase: String,
    /// Outcome.
    pub status: Status,
    /// Why it failed or was skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Wall-clock time of every measured sample, seconds (warm-up runs excluded).
    #[serde(default)]
    pub samples_s: Vec<f64>,
    /// CPU time (user + system, all threads) of every sample, seconds.
    #[serde(default)]
    pub cpu_s: Vec<f64>,
    /// Summary of `samples_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    /// Peak resident memory during this phase (counter reset before it), bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss_bytes: Option<u64>,
    /// Other measured quantities: `constraints`, `proof_bytes`, `pk_bytes`, `vk_bytes`,
    /// `rows`, `hashes_per_s`, `permutations_per_hash`, ...
    #[serde(default)]
    pub metrics: BTreeMap<String, f64>,
    /// True when keys came from a test-only setup whose toxic waste is known.
    #[serde(default)]
    pub test_setup: bool,
    /// Threads actually used.
    pub threads: usize,
    /// Machine, build and date of the measurement.
    pub env: Environment,
}

impl Record {
    /// A record with no samples yet.
    pub fn new(case: &Case, phase: &str, threads: usize, env: &Environment) -> Self {
        Self {
            case_id: case.id(),
            case: case.clone(),
            phase: phase.into(),
            status: Status::Ok,
            error: None,
            samples_s: vec![],
            cpu_s: vec![],
            summary: None,
            peak_rss_bytes: None,
            metrics: BTreeMap::new(),
            test_setup: false,
            threads,
            env: env.clone(),
        }
    }

    /// A failed/skipped record carrying its reason.
    pub fn failed(
        case: &Case,
        phase: &str,
        status: Status,
        reason: impl Into<String>,
        env: &Environment,
    ) -> Self {
        let mut r = Self::new(case, phase, case.threads, env);
        r.status = status;
        r.error = Some(reason.into());
        r
    }

    /// Sets samples and recomputes the summary.
    pub fn set_samples(&mut self, wall: Vec<f64>, cpu: Vec<f64>) {
        self.summary = Summary::of(&wall);
        self.samples_s = wall;
        self.cpu_s = cpu;
    }

    /// Median wall time, if measured.
    pub fn median(&self) -> Option<f64> {
        self.summary.map(|s| s.median)
    }
}

/// A results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Always [`SCHEMA_VERSION`] for files this version writes.
    pub schema_version: u32,
    /// Suite that produced it.
    pub suite: String,
    /// Profile used.
    pub profile: String,
    /// Environment of the run (each record also carries its own).
    pub env: Environment,
    /// Wall-clock duration of the whole run, seconds.
    pub duration_s: f64,
    /// All records, in run order.
    pub records: Vec<Record>,
}

/// Errors reading a results file.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// I/O.
    #[error("cannot read {path}: {source}")]
    Io {
        /// File.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// Not JSON of this schema.
    #[error("{path} is not a zkbench results file: {message}")]
    Format {
        /// File.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl ResultsFile {
    /// New, empty file.
    pub fn new(suite: &str, profile: &str, env: Environment) -> Self {
        Self {
            schema: SCHEMA.into(),
            schema_version: SCHEMA_VERSION,
            suite: suite.into(),
            profile: profile.into(),
            env,
            duration_s: 0.0,
            records: vec![],
        }
    }

    /// Reads and checks a results file.
    pub fn read(path: &Path) -> Result<Self, ResultsError> {
        let p = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ResultsError::Io {
            path: p.clone(),
            source,
        })?;
        Self::parse(&p, &text)
    }

    /// Parses and checks results JSON.
    pub fn parse(path: &str, text: &str) -> Result<Self, ResultsError> {
        let fmt = |m: String| ResultsError::Format {
            path: path.into(),
            message: m,
        };
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| fmt(e.to_string()))?;
        match (
            v.get("schema").and_then(|s| s.as_str()),
            v.get("schema_version").and_then(|s| s.as_u64()),
        ) {
            (Some(SCHEMA), Some(ver)) if ver == SCHEMA_VERSION as u64 => {}
            (Some(SCHEMA), Some(ver)) => {
                return Err(fmt(format!(
                    "schema version {ver}; this zkbench reads version {SCHEMA_VERSION}"
                )))
            }
            _ => {
                return Err(fmt(format!(
                    "missing \"schema\": \"{SCHEMA}\" / \"schema_version\""
                )))
            }
        }
        serde_json::from_value(v).map_err(|e| fmt(e.to_string()))
    }

    /// Writes pretty JSON.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(
            path,
            serde_json::to_string_pretty(self).expect("results serialise") + "\n",
        )
    }

    /// CSV: one row per record, summary columns and metrics flattened.
    pub fn to_csv(&self) -> String {
        let metric_keys: std::collections::BTreeSet<&String> =
            self.records.iter().flat_map(|r| r.metrics.keys()).collect();
        let mut out = String::from(
            "case_id,system,hash,alpha,width,arity,leaves,depth,circuit,threads,phase,status,n,median_s,min_s,max_s,p95_s,mean_s,peak_rss_bytes,test_setup,cpu_model,git_commit,date",
        );
        for k in &metric_keys {
            out.push(',');
            out.push_str(k);
        }
        out.push('\n');
        let opt = |v: Option<String>| v.unwrap_or_default();
        for r in &self.records {
            let s = r.summary;
            let c = &r.case;
            let cols = [
                r.case_id.clone(),
                c.system.clone(),
                c.hash.to_string(),
                opt(c.alpha.map(|x| x.to_string())),
                opt(c.width.map(|x| x.to_string())),
                opt(c.arity.map(|x| x.to_string())),
                opt(c.leaves.map(|x| x.to_string())),
                opt(c.depth.map(|x| x.to_string())),
                opt(c.circuit.map(|x| x.name().to_string())),
                r.threads.to_string(),
                r.phase.clone(),
                serde_json::to_value(r.status)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string(),
                s.map(|s| s.n.to_string()).unwrap_or_else(|| "0".into()),
                opt(s.map(|s| s.median.to_string())),
                opt(s.map(|s| s.min.to_string())),
                opt(s.map(|s| s.max.to_string())),
                opt(s.map(|s| s.p95.to_string())),
                opt(s.map(|s| s.mean.to_string())),
                opt(r.peak_rss_bytes.map(|x| x.to_string())),
                r.test_setup.to_string(),
                r.env.cpu_model.clone(),
                r.env.git_commit.clone(),
                r.env.date.clone(),
            ];
            out.push_str(
                &cols
                    .iter()
                    .map(|c| csv_field(c))
                    .collect::<Vec<_>>()
                    .join(","),
            );
            for k in &metric_keys {
                out.push(',');
                if let Some(v) = r.metrics.get(*k) {
                    out.push_str(&v.to_string());
                }
            }
            out.push('\n');
        }
        out
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{CaseKind, Circuit};

    pub(crate) fn sample_case() -> Case {
        Case {
            kind: CaseKind::Proof,
            system: "groth16".into(),
            hash: "poseidon".into(),
            alpha: None,
            width: None,
            arity: Some(2),
            leaves: Some(1 << 20),
            depth: None,
            circuit: Some(Circuit::Spend),
            threads: 2,
            size: None,
        }
    }

    #[test]
    fn schema_round_trip_and_checks() {
        let env = Environment {
            cpu_model: "Test CPU, 2 cores".into(),
            ..Default::default()
        };
        let mut f = ResultsFile::new("default", "quick", env.clone());
        let mut r = Record::new(&sample_case(), "prove", 2, &env);
        r.set_samples(vec![0.3, 0.1, 0.2], vec![0.6, 0.2, 0.4]);
        r.metrics.insert("constraints".into(), 1234.0);
        r.test_setup = true;
        f.records.push(r);
        f.records.push(Record::failed(
            &sample_case(),
            "setup",
            Status::Timeout,
            "killed after 10 s",
            &env,
        ));
        let text = serde_json::to_string(&f).unwrap();
        let back = ResultsFile::parse("mem", &text).unwrap();
        assert_eq!(back, f);
        assert_eq!(back.records[0].median(), Some(0.2));
        assert!(text.contains("\"status\":\"timeout\""));

        let bad_version = text.replace("\"schema_version\":1", "\"schema_version\":99");
        assert!(ResultsFile::parse("x", &bad_version)
            .unwrap_err()
            .to_string()
            .contains("version 99"));
        assert!(ResultsFile::parse("x", "{}").is_err());
        assert!(ResultsFile::parse("x", "not json").is_err());

        let csv = f.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].ends_with(",constraints"));
        assert!(lines[1].contains(",prove,ok,3,0.2,0.1,0.3,"));
        assert!(lines[1].contains("\"Test CPU, 2 cores\""));
        assert!(lines[2].contains(",setup,timeout,0,"));
    }
}
