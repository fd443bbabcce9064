//! # zkbench-bench
//!
//! The benchmark harness behind `zkbench run`, `zkbench report` and
//! `zkbench compare`:
//!
//! - [`suite`]: declarative TOML suites (`suites/*.toml`) and their grids;
//! - [`runner`]: each case in its own child process, with timeouts, a time
//!   budget and progress; failures are recorded as data;
//! - [`measure`] / [`sys`]: phases timed separately (wall + CPU), warm-up and
//!   repetitions by time budget, peak RSS per phase, environment capture;
//! - [`results`]: the versioned results schema (`docs/results-schema.md`) and CSV;
//! - [`report`]: self-contained HTML report and Markdown summary;
//! - [`compare`]: ratios between two runs with a noise threshold.
#![deny(missing_docs)]

pub mod backends;
pub mod build_info;
pub mod case;
pub mod compare;
pub mod measure;
pub mod proof;
pub mod report;
pub mod results;
pub mod runner;
pub mod stats;
pub mod suite;
pub mod sys;
