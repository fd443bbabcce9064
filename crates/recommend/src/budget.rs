//! The budgets of `zkbench recommend`.

use std::{fmt, str::FromStr};

use serde::Serialize;
use zkbench_results::Circuit;

/// Where the prover runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// A native binary.
    #[default]
    Native,
    /// WebAssembly in a browser tab (records whose case id starts with `browser/`).
    Browser,
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "native" => Ok(Self::Native),
            "browser" | "wasm" => Ok(Self::Browser),
            _ => Err(format!("invalid target {s:?}; accepted: native, browser")),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Native => "native",
            Self::Browser => "browser",
        })
    }
}

/// What the ranking minimises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// Prove time.
    #[default]
    Prove,
    /// Verify gas (transaction gas of `verifyProof`).
    Gas,
    /// Proof size.
    Size,
}

impl FromStr for Objective {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "prove" | "time" => Ok(Self::Prove),
            "gas" => Ok(Self::Gas),
            "size" | "bytes" => Ok(Self::Size),
            _ => Err(format!(
                "invalid objective {s:?}; accepted: prove, gas, size"
            )),
        }
    }
}

/// Every budget, as the command line writes them (`None`: no limit).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Budget {
    /// `--max-prove-ms`: warm prove time, milliseconds.
    pub max_prove_ms: Option<f64>,
    /// `--target`.
    pub target: Target,
    /// `--threads`: only this thread count (else every measured one).
    pub threads: Option<usize>,
    /// `--max-proof-bytes`.
    pub max_proof_bytes: Option<u64>,
    /// `--max-verify-gas`: transaction gas of the on-chain verification.
    pub max_verify_gas: Option<u64>,
    /// `--min-leaves`: tree capacity.
    pub min_leaves: Option<u64>,
    /// `--min-security`: bits ([`zkbench_results::security::configuration_bits`]).
    pub min_security: Option<u32>,
    /// `--circuit`: spend or membership (else both).
    pub circuit: Option<Circuit>,
    /// `--optimize`.
    pub optimize: Objective,
}

impl Budget {
    /// Checks the values: positive limits, a spend or membership circuit.
    pub fn check(&self) -> Result<(), String> {
        if let Some(ms) = self.max_prove_ms {
            if !(ms.is_finite() && ms > 0.0) {
                return Err(format!(
                    "--max-prove-ms must be a positive number of milliseconds, got {ms}"
                ));
            }
        }
        if self.threads == Some(0) {
            return Err("--threads must be at least 1 (a thread count the results hold)".into());
        }
        if matches!(self.circuit, Some(Circuit::BatchRoot)) {
            return Err("--circuit accepts spend or membership (batch roots are the sequencer's proof, not a wallet's)".into());
        }
        if let Some(s) = self.min_security {
            if s == 0 || s > 512 {
                return Err(format!(
                    "--min-security takes bits between 1 and 512, got {s}"
                ));
            }
        }
        Ok(())
    }

    /// The budget in one line (`200 ms on 4 threads (browser), ≤ 300000 gas`).
    pub fn describe(&self) -> String {
        let mut parts = vec![];
        if let Some(ms) = self.max_prove_ms {
            parts.push(format!("prove ≤ {ms} ms"));
        }
        parts.push(format!(
            "{}{}",
            self.target,
            self.threads
                .map(|t| format!(", {t} threads"))
                .unwrap_or_default()
        ));
        if let Some(b) = self.max_proof_bytes {
            parts.push(format!("proof ≤ {b} B"));
        }
        if let Some(g) = self.max_verify_gas {
            parts.push(format!("verify ≤ {g} gas"));
        }
        if let Some(l) = self.min_leaves {
            parts.push(format!(
                "≥ {} leaves",
                zkbench_results::case::format_leaves(l)
            ));
        }
        if let Some(s) = self.min_security {
            parts.push(format!("≥ {s} bits"));
        }
        if let Some(c) = self.circuit {
            parts.push(format!("circuit {c}"));
        }
        parts.push(format!("optimise {:?}", self.optimize).to_lowercase());
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_check() {
        assert_eq!("Browser".parse::<Target>(), Ok(Target::Browser));
        assert!("gpu"
            .parse::<Target>()
            .unwrap_err()
            .contains("native, browser"));
        assert_eq!("gas".parse::<Objective>(), Ok(Objective::Gas));
        assert!("speed"
            .parse::<Objective>()
            .unwrap_err()
            .contains("prove, gas, size"));
        let ok = Budget {
            max_prove_ms: Some(200.0),
            threads: Some(4),
            ..Default::default()
        };
        assert!(ok.check().is_ok());
        assert!(ok.describe().contains("prove ≤ 200 ms"));
        for bad in [
            Budget {
                max_prove_ms: Some(-1.0),
                ..Default::default()
            },
            Budget {
                threads: Some(0),
                ..Default::default()
            },
            Budget {
                circuit: Some(Circuit::BatchRoot),
                ..Default::default()
            },
            Budget {
                min_security: Some(0),
                ..Default::default()
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }
}
