//! Validation of a posted results document.
//!
//! [`validate`] takes the raw body and returns the parsed document, or a
//! [`ValidationError`] that names the field (`records[3].samples_s[0]`) and
//! says what is accepted. The checks, in order:
//!
//! 1. nesting depth at most [`MAX_DEPTH`] (before parsing, so a deeply nested
//!    body costs no recursion);
//! 2. valid JSON, an object, `schema` = `zkbench-results`, `schema_version` = 1;
//! 3. the shape of `zkbench_results::results::ResultsFile` (required fields and
//!    types, `status` one of `ok|error|timeout|out-of-memory|skipped`);
//! 4. values: times finite, non-negative and at most [`MAX_SECONDS`]; `phase`
//!    one of [`PHASES`]; sizes within the limits below.
//!
//! Unknown fields are kept (the schema lets version-1 writers add fields), so
//! what is stored is exactly what was posted, in canonical form.

use serde_json::Value;
use zkbench_results::{
    results::{ResultsFile, SCHEMA, SCHEMA_VERSION},
    Record,
};

/// Deepest nesting of arrays and objects accepted (a results document needs 5).
pub const MAX_DEPTH: usize = 32;
/// Most records in one document.
pub const MAX_RECORDS: usize = 100_000;
/// Most samples (`samples_s`, `cpu_s`) in one record.
pub const MAX_SAMPLES: usize = 100_000;
/// Longest time accepted for one sample or summary value, seconds (about 11.6 days).
pub const MAX_SECONDS: f64 = 1.0e6;
/// Longest run accepted (`duration_s`), seconds (about 116 days).
pub const MAX_DURATION_S: f64 = 1.0e7;
/// Largest memory figure accepted (`peak_rss_bytes`, `env.memory_bytes`): 1 PiB.
pub const MAX_BYTES: u64 = 1 << 50;
/// Most threads or logical CPUs accepted.
pub const MAX_THREADS: usize = 1 << 16;
/// Largest Merkle arity, permutation width and tree depth accepted.
pub const MAX_SHAPE: u64 = 1 << 10;
/// Longest string accepted anywhere in a document, bytes.
pub const MAX_STRING: usize = 64 * 1024;
/// Most metrics in one record.
pub const MAX_METRICS: usize = 1_000;
/// Largest metric value accepted (counts, sizes and rates are all non-negative).
pub const MAX_METRIC: f64 = 1.0e18;

/// Phases a record may have (`docs/results-schema.md`, plus the harness's
/// reference `msm` and the Merkle phases).
pub const PHASES: &[&str] = &[
    "setup",
    "witness",
    "prove_cold",
    "prove",
    "verify",
    "hash",
    "all",
    "msm",
    "insert",
    "path",
];

/// What is wrong with a posted document. Every message names the field and
/// what is accepted.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ValidationError {
    /// Not parseable JSON.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// Nested too deeply.
    #[error("JSON nested deeper than {MAX_DEPTH} levels; accepted: at most {MAX_DEPTH}")]
    TooDeep,
    /// The top level is not an object.
    #[error("the body must be a JSON object (a zkbench results document), got {0}")]
    NotObject(&'static str),
    /// `schema` missing or not `zkbench-results`.
    #[error("field `schema`: got {0}; accepted: \"{SCHEMA}\"")]
    Schema(String),
    /// `schema_version` missing or unknown.
    #[error("field `schema_version`: got {0}; accepted: {SCHEMA_VERSION}")]
    Version(String),
    /// Missing field or wrong type (from the schema's types).
    #[error("{0}")]
    Shape(String),
    /// A value out of range.
    #[error("field `{field}`: {problem}")]
    Value {
        /// Path of the field, e.g. `records[2].samples_s[0]`.
        field: String,
        /// What is wrong and what is accepted.
        problem: String,
    },
}

/// A document that passed validation.
#[derive(Debug, Clone)]
pub struct Valid {
    /// The document as posted (all fields, unknown ones included).
    pub value: Value,
    /// Its typed reading.
    pub file: ResultsFile,
}

/// Validates a request body (see the module docs for the checks).
pub fn validate(body: &[u8]) -> Result<Valid, ValidationError> {
    check_depth(body)?;
    let value: Value =
        serde_json::from_slice(body).map_err(|e| ValidationError::Json(e.to_string()))?;
    let obj = value
        .as_object()
        .ok_or_else(|| ValidationError::NotObject(kind(&value)))?;
    match obj.get("schema") {
        Some(Value::String(s)) if s == SCHEMA => {}
        Some(v) => return Err(ValidationError::Schema(short(v))),
        None => return Err(ValidationError::Schema("nothing (field missing)".into())),
    }
    match obj.get("schema_version") {
        Some(v) if v.as_u64() == Some(SCHEMA_VERSION as u64) => {}
        Some(v) => return Err(ValidationError::Version(short(v))),
        None => return Err(ValidationError::Version("nothing (field missing)".into())),
    }
    check_strings(&value, &mut String::new())?;
    let file: ResultsFile = serde_path_to_error::deserialize(&value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        ValidationError::Shape(if path == "." {
            inner
        } else {
            format!("field `{path}`: {inner}")
        })
    })?;
    check_values(&file)?;
    Ok(Valid { value, file })
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 80 {
        let mut end = 80;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s
    }
}

/// Rejects bodies nested deeper than [`MAX_DEPTH`] without parsing them.
fn check_depth(body: &[u8]) -> Result<(), ValidationError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in body {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ValidationError::TooDeep);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Rejects any string (key or value) longer than [`MAX_STRING`].
fn check_strings(v: &Value, path: &mut String) -> Result<(), ValidationError> {
    let too_long = |path: &str, n: usize| ValidationError::Value {
        field: if path.is_empty() {
            ".".into()
        } else {
            path.into()
        },
        problem: format!("string of {n} bytes; accepted: at most {MAX_STRING}"),
    };
    match v {
        Value::String(s) if s.len() > MAX_STRING => Err(too_long(path, s.len())),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                check_strings(x, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Object(m) => {
            for (k, x) in m {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                if k.len() > MAX_STRING {
                    return Err(too_long(path, k.len()));
                }
                path.push_str(k);
                check_strings(x, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn bad(field: impl Into<String>, problem: impl Into<String>) -> ValidationError {
    ValidationError::Value {
        field: field.into(),
        problem: problem.into(),
    }
}

fn check_time(field: impl FnOnce() -> String, x: f64, max: f64) -> Result<(), ValidationError> {
    if x.is_finite() && (0.0..=max).contains(&x) {
        Ok(())
    } else {
        Err(bad(
            field(),
            format!("{x} is not a time; accepted: a finite number of seconds from 0 to {max:e}"),
        ))
    }
}

/// `value` (a count or size of `what`, e.g. "records") must not exceed `max`.
fn at_most(
    field: impl FnOnce() -> String,
    value: u64,
    max: u64,
    what: &str,
) -> Result<(), ValidationError> {
    if value <= max {
        Ok(())
    } else {
        Err(bad(
            field(),
            format!("{value}{what}; accepted: at most {max}"),
        ))
    }
}

fn check_values(f: &ResultsFile) -> Result<(), ValidationError> {
    check_time(|| "duration_s".into(), f.duration_s, MAX_DURATION_S)?;
    check_env("env", &f.env)?;
    at_most(
        || "records".into(),
        f.records.len() as u64,
        MAX_RECORDS as u64,
        " records",
    )?;
    for (i, r) in f.records.iter().enumerate() {
        check_record(&format!("records[{i}]"), r)?;
    }
    Ok(())
}

fn check_env(at: &str, e: &zkbench_results::Environment) -> Result<(), ValidationError> {
    at_most(
        || format!("{at}.logical_cpus"),
        e.logical_cpus as u64,
        MAX_THREADS as u64,
        "",
    )?;
    at_most(
        || format!("{at}.memory_bytes"),
        e.memory_bytes.unwrap_or(0),
        MAX_BYTES,
        " bytes",
    )
}

fn check_record(at: &str, r: &Record) -> Result<(), ValidationError> {
    if !PHASES.contains(&r.phase.as_str()) {
        return Err(bad(
            format!("{at}.phase"),
            format!(
                "unknown phase {:?}; accepted: {}",
                r.phase,
                PHASES.join(", ")
            ),
        ));
    }
    check_timings(at, r)?;
    check_metrics(at, r)?;
    check_case(at, r)?;
    check_env(&format!("{at}.env"), &r.env)
}

/// A record's samples (wall and CPU time) and their summary.
fn check_timings(at: &str, r: &Record) -> Result<(), ValidationError> {
    for (name, v) in [("samples_s", &r.samples_s), ("cpu_s", &r.cpu_s)] {
        at_most(
            || format!("{at}.{name}"),
            v.len() as u64,
            MAX_SAMPLES as u64,
            " samples",
        )?;
        for (j, &x) in v.iter().enumerate() {
            check_time(|| format!("{at}.{name}[{j}]"), x, MAX_SECONDS)?;
        }
    }
    if let Some(s) = &r.summary {
        for (name, x) in [
            ("min", s.min),
            ("median", s.median),
            ("mean", s.mean),
            ("p95", s.p95),
            ("max", s.max),
            ("stddev", s.stddev),
        ] {
            check_time(|| format!("{at}.summary.{name}"), x, MAX_SECONDS)?;
        }
        at_most(
            || format!("{at}.summary.n"),
            s.n as u64,
            MAX_SAMPLES as u64,
            " samples",
        )?;
    }
    Ok(())
}

/// A record's peak memory and its metrics (how many, each value).
fn check_metrics(at: &str, r: &Record) -> Result<(), ValidationError> {
    at_most(
        || format!("{at}.peak_rss_bytes"),
        r.peak_rss_bytes.unwrap_or(0),
        MAX_BYTES,
        " bytes",
    )?;
    at_most(
        || format!("{at}.metrics"),
        r.metrics.len() as u64,
        MAX_METRICS as u64,
        " metrics",
    )?;
    for (k, &x) in &r.metrics {
        if !(x.is_finite() && (0.0..=MAX_METRIC).contains(&x)) {
            return Err(bad(
                format!("{at}.metrics.{k}"),
                format!("{x}; accepted: a finite number from 0 to {MAX_METRIC:e}"),
            ));
        }
    }
    Ok(())
}

/// A record's thread counts and the shape of its case.
fn check_case(at: &str, r: &Record) -> Result<(), ValidationError> {
    at_most(
        || format!("{at}.threads"),
        r.threads as u64,
        MAX_THREADS as u64,
        " threads",
    )?;
    at_most(
        || format!("{at}.case.threads"),
        r.case.threads as u64,
        MAX_THREADS as u64,
        " threads",
    )?;
    if let Some(a) = r.case.arity {
        if !(2..=MAX_SHAPE).contains(&(a as u64)) {
            return Err(bad(
                format!("{at}.case.arity"),
                format!("{a}; accepted: 2 to {MAX_SHAPE}"),
            ));
        }
    }
    at_most(
        || format!("{at}.case.width"),
        r.case.width.unwrap_or(0) as u64,
        MAX_SHAPE,
        "",
    )?;
    at_most(
        || format!("{at}.case.depth"),
        r.case.depth.unwrap_or(0).into(),
        MAX_SHAPE,
        "",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_scan_ignores_brackets_in_strings() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(check_depth(deep.as_bytes()), Err(ValidationError::TooDeep));
        let s = format!("{{\"a\": \"{}\\\"\"}}", "[".repeat(100));
        assert!(check_depth(s.as_bytes()).is_ok());
    }
}
