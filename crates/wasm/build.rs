//! Linker arguments of the threaded WebAssembly module: when the crate is compiled with the
//! `atomics` target feature (scripts/build-web.sh's threaded build), its memory is shared and
//! imported, and the thread-local-storage symbols wasm-bindgen's thread support needs are
//! exported. Recent rustc no longer passes these itself.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
