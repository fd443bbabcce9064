//! Facts recorded at build time by `build.rs`.

/// `rustc --version` of the compiler that built this crate.
pub const RUSTC: &str = env!("ZKBENCH_RUSTC");
/// Git commit (short) of the source tree, `-dirty` if it had uncommitted changes.
pub const GIT_COMMIT: &str = env!("ZKBENCH_GIT_COMMIT");
/// Cargo profile (`release`, `debug`).
pub const PROFILE: &str = env!("ZKBENCH_PROFILE");
const VERSIONS: &str = env!("ZKBENCH_CRATE_VERSIONS");

/// `(crate, version)` pairs of the proof-system crates linked in.
pub static CRATE_VERSIONS: std::sync::LazyLock<Vec<(&'static str, &'static str)>> =
    std::sync::LazyLock::new(|| {
        VERSIONS
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .collect()
    });
