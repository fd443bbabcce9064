//! Linker arguments of the threaded WebAssembly module: when the crate is compiled with the
//! `atomics` target feature (scripts/build-web.sh's threaded build), its memory is shared and
//! imported, and the thread-local-storage symbols wasm-bindgen's thread support needs are
//! exported. Recent rustc no longer passes these itself. Also records the compiler's
//! version (`buildInfo().rustc`, the results' `env.rustc`).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=ZKBENCH_WASM_RUSTC={version}");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "wasm32" && features.split(',').any(|f| f == "atomics") {
        for arg in [
            "--shared-memory",
            "--import-memory",
            "--export=__wasm_init_tls",
            "--export=__tls_size",
            "--export=__tls_align",
            "--export=__tls_base",
        ] {
            println!("cargo:rustc-cdylib-link-arg={arg}");
        }
    }
}
