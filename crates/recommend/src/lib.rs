//! # zkbench-recommend
//!
//! `zkbench recommend`: measurements turned into a decision. Given budgets
//! (prove time on a target and thread count, proof size, verify gas, tree
//! size, security level) and results files, it lists the configurations
//! that meet every budget, ranked by the chosen objective, the Pareto front
//! of prove time, verify gas and proof size, and for every other
//! configuration the budgets it breaks.
//!
//! - [`budget`]: the budgets and objective, parsed from the command line's values;
//! - [`model`]: the configurations measured in the results, and the cost
//!   model per proof system, target and thread count (prove time against
//!   circuit size, least squares) that predicts the ones not run, each
//!   prediction with the measured points it rests on;
//! - [`recommend()`]: candidates, exclusions, ranking and front, as text or JSON.
//!
//! Security comes from `zkbench-results`' table ([`zkbench_results::security`]),
//! gas and the Pareto front from `zkbench-report` ([`zkbench_report::pareto`]).
//! Pareto optimality as in Deb, *Multi-Objective Optimization using
//! Evolutionary Algorithms* (2001), §2.4: a configuration is on the front
//! when no other is at least as good on all three and better on one.
#![deny(missing_docs)]

pub mod budget;
pub mod model;
mod recommend;
mod render;

pub use budget::{Budget, Objective, Target};
pub use model::{Fit, Prediction, Statement};
pub use recommend::{recommend, Breach, Candidate, Excluded, ProveTime, Recommendation};
