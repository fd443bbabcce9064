//! The machine and build a measurement was taken on (recorded in every
//! results record).

use serde::{Deserialize, Serialize};

/// The machine and build a result was measured on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// CPU model name.
    pub cpu_model: String,
    /// Logical CPUs available to this process.
    pub logical_cpus: usize,
    /// Total memory in bytes.
    pub memory_bytes: Option<u64>,
    /// Operating system and kernel.
    pub os: String,
    /// Architecture (`x86_64`, `aarch64`, `wasm32`...).
    pub arch: String,
    /// `rustc --version` of the compiler that built zkbench.
    pub rustc: String,
    /// zkbench version.
    pub zkbench_version: String,
    /// Versions of the proof-system crates linked in.
    pub crate_versions: std::collections::BTreeMap<String, String>,
    /// Git commit zkbench was built from (with `-dirty` when the tree had changes).
    pub git_commit: String,
    /// Build profile (`release` or `debug`); debug timings are not comparable.
    pub build_profile: String,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// Host name.
    pub hostname: String,
    /// Browser runs (`zkbench-wasm` in a page): the browser's user agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// Browser runs: whether the page was cross-origin isolated (COOP/COEP),
    /// which WebAssembly threads need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_origin_isolated: Option<bool>,
    /// Native runs: the vector kernel of the MSM's batched additions on this
    /// CPU (`avx512-ifma`, `avx2-fma`, or `none`: ark-ff's scalar
    /// arithmetic), which decides much of a Groth16 prover's speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msm_kernel: Option<String>,
    /// Browser runs: which `zkbench-wasm` module ran and the MSM's arithmetic
    /// in it (e.g. `threads (wasm-bindgen-rayon, atomics, simd128,
    /// wide-arithmetic), MSM scalar (…)`), as the page reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wasm_build: Option<String>,
}
