//! The JavaScript API (wasm-bindgen). Every fallible call throws an `Error`
//! whose message is the [`crate::WasmError`]'s; nothing here panics on bad
//! input. Seeds are `u32` (plain JavaScript numbers); timings are taken in
//! JavaScript around each call (`performance.now()`), so the page times the
//! same phases as the native harness.

use wasm_bindgen::prelude::*;

use crate::{engines, hashes, session, ProveConfig, Session, WasmError};

fn js(e: WasmError) -> JsError {
    JsError::new(&e.to_string())
}

/// A configured circuit with its keys, witness and last proof
/// ([`Session`]).
#[wasm_bindgen]
pub struct Prover {
    inner: Session,
    /// A key file being read or streamed into this module's memory
    /// ([`Prover::key_buffer_resize`], [`Prover::key_buffer_append`]), then
    /// decoded where it lies ([`Prover::load_key_buffer`]).
    key_buffer: Vec<u8>,
}

#[wasm_bindgen]
impl Prover {
    /// `config_json`: `{"system", "hash", "alpha"?, "arity", "leaves",
    /// "circuit"}` ([`ProveConfig`]); throws for a bad configuration.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Prover, JsError> {
        let cfg: ProveConfig = serde_json::from_str(config_json)
            .map_err(|e| js(WasmError::Config(format!("configuration JSON: {e}"))))?;
        Ok(Prover {
            inner: Session::new(&cfg).map_err(js)?,
            key_buffer: Vec::new(),
        })
    }

    /// `case.system`: `groth16` or `halo2-kzg`.
    pub fn system(&self) -> String {
        self.inner.system().to_string()
    }

    /// Circuit, key and last-proof metrics as a JSON object (see
    /// `Session::metrics`).
    #[wasm_bindgen(js_name = metricsJson)]
    pub fn metrics_json(&self) -> Result<String, JsError> {
        let m = self.inner.metrics().map_err(js)?;
        serde_json::to_string(&m).map_err(|e| js(e.into()))
    }

    /// Test setup from `seed` (toxic waste known).
    pub fn setup(&mut self, seed: u32) -> Result<(), JsError> {
        self.inner.setup(seed.into()).map_err(js)
    }

    /// The keys as bytes (the static key file).
    #[wasm_bindgen(js_name = keysToBytes)]
    pub fn keys_to_bytes(&self) -> Result<Vec<u8>, JsError> {
        self.inner.keys_to_bytes().map_err(js)
    }

    /// A first visit's smaller key file (Groth16: compact fixed-base tables
    /// of at most `rows` points per base, 1 to 64; a slower proof from a
    /// fraction of the bytes), read by `loadKeys` like the full one.
    #[wasm_bindgen(js_name = keysToBytesCompact)]
    pub fn keys_to_bytes_compact(&self, rows: u32) -> Result<Vec<u8>, JsError> {
        if !(1..=64).contains(&rows) {
            return Err(JsError::new(&format!(
                "rows {rows}: accepted are 1 to 64 points per base"
            )));
        }
        self.inner.compact_keys_to_bytes(rows as usize).map_err(js)
    }

    /// Keys from a key file's bytes, made with `seed`.
    #[wasm_bindgen(js_name = loadKeys)]
    pub fn load_keys(&mut self, bytes: &[u8], seed: u32) -> Result<(), JsError> {
        self.inner.load_keys(bytes, seed.into()).map_err(js)
    }

    /// Makes the key buffer `len` bytes (zeros) and returns its address in
    /// this module's memory, for a reader that writes a key file there
    /// itself (`new Uint8Array(wasmMemory().buffer, address, len)`, then an
    /// OPFS `read` into it). The view is good until this module allocates
    /// again: fill it at once, then [`Prover::load_key_buffer`].
    #[wasm_bindgen(js_name = keyBufferResize)]
    pub fn key_buffer_resize(&mut self, len: u32) -> u32 {
        self.key_buffer.clear();
        self.key_buffer.resize(len as usize, 0);
        self.key_buffer.as_ptr() as usize as u32
    }

    /// Appends bytes of a key file to the key buffer (`zkbench-prover`'s
    /// `loadKeys` hands the whole file at once; a stream may hand it chunk by
    /// chunk).
    #[wasm_bindgen(js_name = keyBufferAppend)]
    pub fn key_buffer_append(&mut self, chunk: &[u8]) {
        self.key_buffer.extend_from_slice(chunk);
    }

    /// Keys from the key buffer's bytes, made with `seed`, decoded where
    /// they lie: Groth16's fixed-base tables stay in the buffer (nothing
    /// copied). The buffer is empty afterwards, whatever the result.
    #[wasm_bindgen(js_name = loadKeyBuffer)]
    pub fn load_key_buffer(&mut self, seed: u32) -> Result<(), JsError> {
        let bytes = std::mem::take(&mut self.key_buffer);
        self.inner.load_keys_owned(bytes, seed.into()).map_err(js)
    }

    /// Starts a first proof of the prepared witness that reads its
    /// Groth16 key file while it downloads: the prover runs on the thread
    /// pool and works on the bytes as they arrive (`streamKeysPush`, chunk
    /// by chunk, e.g. from a `fetch` body's reader), and `streamKeysEnd`
    /// waits for the proof. `seed`: seeded randomness (tests), else the
    /// browser's. In a module without threads the proof runs in
    /// `streamKeysEnd`. Until then the prover holds a pool thread waiting
    /// for chunks: the thread that hands them over must not start another
    /// proof meanwhile (on a one-thread pool it would wait for itself).
    #[wasm_bindgen(js_name = streamKeysBegin)]
    pub fn stream_keys_begin(&mut self, seed: Option<u32>) -> Result<(), JsError> {
        self.inner
            .stream_keys_begin(seed.map(u64::from))
            .map_err(js)
    }

    /// The next bytes of the key file of `streamKeysBegin`.
    #[wasm_bindgen(js_name = streamKeysPush)]
    pub fn stream_keys_push(&self, chunk: &[u8]) -> Result<(), JsError> {
        self.inner.stream_keys_push(chunk).map_err(js)
    }

    /// The end of the key file: waits for the proof and returns its bytes;
    /// the keys decoded on the way are this prover's keys from then on.
    /// Throws (no proof) for a damaged, cut or foreign key file.
    #[wasm_bindgen(js_name = streamKeysEnd)]
    pub fn stream_keys_end(&mut self) -> Result<Vec<u8>, JsError> {
        self.inner.stream_keys_end().map_err(js)
    }

    /// A random witness from `seed`, prepared for the prover.
    pub fn witness(&mut self, seed: u32) -> Result<(), JsError> {
        self.inner.witness(seed.into()).map_err(js)
    }

    /// The witness from `inputs_json` (a JSON object of decimal strings; see
    /// [`crate::inputs`]), prepared for the prover.
    #[wasm_bindgen(js_name = witnessFromInputs)]
    pub fn witness_from_inputs(&mut self, inputs_json: &str) -> Result<(), JsError> {
        let v = serde_json::from_str(inputs_json)
            .map_err(|e| js(WasmError::Config(format!("inputs JSON: {e}"))))?;
        self.inner.witness_from_inputs(&v).map_err(js)
    }

    /// `{root, inputs}` for a membership proof of leaf `index` in a tree
    /// holding `leaves_json` (a JSON array; the other leaves zero).
    #[wasm_bindgen(js_name = membershipInputs)]
    pub fn membership_inputs(&self, leaves_json: &str, index: u32) -> Result<String, JsError> {
        let leaves: Vec<serde_json::Value> = serde_json::from_str(leaves_json)
            .map_err(|e| js(WasmError::Config(format!("leaves JSON: {e}"))))?;
        let v = self
            .inner
            .membership_inputs(&leaves, index.into())
            .map_err(js)?;
        serde_json::to_string(&v).map_err(|e| js(e.into()))
    }

    /// Proves; returns the proof's bytes.
    pub fn prove(&mut self) -> Result<Vec<u8>, JsError> {
        self.inner.prove().map_err(js)
    }

    /// Proves with seeded randomness ([`crate::Session::prove_seeded`]).
    #[wasm_bindgen(js_name = proveSeeded)]
    pub fn prove_seeded(&mut self, seed: u32) -> Result<Vec<u8>, JsError> {
        self.inner.prove_seeded(u64::from(seed)).map_err(js)
    }

    /// Verifies the last proof.
    pub fn verify(&self) -> Result<bool, JsError> {
        self.inner.verify().map_err(js)
    }

    /// Verifies proof bytes for public inputs given as a JSON array of
    /// decimal strings.
    #[wasm_bindgen(js_name = verifyBytes)]
    pub fn verify_bytes(&self, proof: &[u8], public_json: &str) -> Result<bool, JsError> {
        let values: Vec<String> = serde_json::from_str(public_json).map_err(|e| js(e.into()))?;
        let public = session::public_from_decimals(&values).map_err(js)?;
        self.inner.verify_bytes(proof, &public).map_err(js)
    }

    /// The witness's public inputs as a JSON array of decimal strings.
    #[wasm_bindgen(js_name = publicInputsJson)]
    pub fn public_inputs_json(&self) -> Result<String, JsError> {
        let p = self.inner.public_inputs().map_err(js)?;
        let v: Vec<String> = p.0.iter().map(session::fr_to_decimal).collect();
        serde_json::to_string(&v).map_err(|e| js(e.into()))
    }

    /// `{proof, public, verification_key}` of the last proof in snarkjs JSON
    /// (Groth16 only).
    #[wasm_bindgen(js_name = snarkjsJson)]
    pub fn snarkjs_json(&self) -> Result<String, JsError> {
        let v = self.inner.snarkjs_json().map_err(js)?;
        serde_json::to_string(&v).map_err(|e| js(e.into()))
    }

    /// The verification key in snarkjs JSON (`verification_key.json`;
    /// Groth16 only): what snarkjs's `groth16.verify` takes.
    #[wasm_bindgen(js_name = snarkjsVerificationKeyJson)]
    pub fn snarkjs_verification_key_json(&self) -> Result<String, JsError> {
        let v = self.inner.snarkjs_verification_key().map_err(js)?;
        serde_json::to_string(&v).map_err(|e| js(e.into()))
    }
}

/// Runs the prover's paths once on a small test-setup circuit, so that
/// the first real proof does not run in V8's baseline tier (see
/// `session::warm_up`); call it once after loading the module.
#[wasm_bindgen(js_name = warmUp)]
pub fn warm_up() -> Result<(), JsError> {
    crate::session::warm_up().map_err(js)
}

/// Verifies a Groth16 proof in snarkjs JSON (three JSON strings) with
/// zkbench's verifier ([`session::verify_snarkjs`]).
#[wasm_bindgen(js_name = verifySnarkjs)]
pub fn verify_snarkjs(vk_json: &str, proof_json: &str, public_json: &str) -> Result<bool, JsError> {
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).map_err(|e| js(e.into()));
    session::verify_snarkjs(&parse(vk_json)?, &parse(proof_json)?, &parse(public_json)?).map_err(js)
}

/// Permutation throughput of `family` (`alpha` 0: the family's default) as
/// JSON ([`hashes::HashThroughput`]).
#[wasm_bindgen(js_name = hashThroughput)]
pub fn hash_throughput(family: &str, alpha: u32, samples: u32) -> Result<String, JsError> {
    let alpha = (alpha != 0).then_some(u64::from(alpha));
    let t = hashes::hash_throughput(family, alpha, None, samples as usize).map_err(js)?;
    serde_json::to_string(&t).map_err(|e| js(e.into()))
}

/// The hash families as a JSON array of names.
#[wasm_bindgen(js_name = hashFamilies)]
pub fn hash_families() -> String {
    serde_json::to_string(&hashes::families()).unwrap_or_else(|_| "[]".into())
}

/// Threads the provers use ([`crate::threads`]).
#[wasm_bindgen]
pub fn threads() -> u32 {
    crate::threads() as u32
}

/// This module's `WebAssembly.Memory` (for views of [`Prover::key_buffer_resize`]'s
/// buffer).
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Bytes of WebAssembly memory now (the peak: it never shrinks); 0 natively.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    crate::wasm_memory_bytes().unwrap_or(0) as f64
}

/// What this module was built with, as JSON: `version`, `rustc`, `parallel`,
/// `simd128`, `relaxed_simd`, `atomics`, `wide_arithmetic`, `msm_kernel` (the vector kernel of
/// the MSM's bucket additions in this module: `fma`, `simd128` or `none`) and `msm_simd`: whether
/// that kernel runs now (`zkbench_msm::VectorKernel`; see [`set_msm_simd`]).
#[wasm_bindgen(js_name = buildInfo)]
pub fn build_info() -> String {
    serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "rustc": env!("ZKBENCH_WASM_RUSTC"),
        "parallel": cfg!(feature = "parallel"),
        "simd128": cfg!(target_feature = "simd128"),
        "atomics": cfg!(target_feature = "atomics"),
        "wide_arithmetic": cfg!(target_feature = "wide-arithmetic"),
        "relaxed_simd": cfg!(target_feature = "relaxed-simd"),
        "msm_kernel": zkbench_msm::VectorKernel::built().name(),
        "msm_simd": zkbench_msm::VectorKernel::running(),
    })
    .to_string()
}

/// Turns the MSM's vector kernel on or off (the scalar 29-bit-limb path
/// then does the bucket additions; same results): the page's `?simd=0|1`,
/// for before/after measurements with one module. The fused multiply-add
/// kernel (`relaxed-simd` builds) is on by default where the engine fuses;
/// the SIMD128 one (`simd128` builds without `relaxed-simd`) is off by
/// default (slower than the scalar path in V8). No effect in a module
/// without `simd128`.
#[wasm_bindgen(js_name = setMsmSimd)]
pub fn set_msm_simd(on: bool) {
    zkbench_msm::VectorKernel::set_on(on);
}

#[cfg(all(target_arch = "wasm32", feature = "parallel"))]
pub use wasm_bindgen_rayon::init_thread_pool;

// Number-only exports for WebAssembly engines without wasm-bindgen's glue
// (the `wasm-engines` suite: wasmtime, Node instantiating the module itself);
// see [`crate::engines`].

/// Resizes the exchange buffer to `len` bytes; returns its address in linear
/// memory ([`engines::buffer_resize`]).
#[wasm_bindgen(js_name = engineBufferResize)]
pub fn engine_buffer_resize(len: u32) -> u32 {
    engines::buffer_resize(len)
}

/// Address of the exchange buffer ([`engines::buffer_ptr`]).
#[wasm_bindgen(js_name = engineBufferPtr)]
pub fn engine_buffer_ptr() -> u32 {
    engines::buffer_ptr()
}

/// `n` chained MiMC hashes, the last left in the buffer as 32 little-endian
/// bytes ([`engines::mimc_to_buffer`]); returns 32.
#[wasm_bindgen(js_name = engineMimc)]
pub fn engine_mimc(n: u32) -> u32 {
    engines::mimc_to_buffer(n)
}

/// Loads a Groth16 verification input (snarkjs JSON) from the buffer's first
/// `len` bytes ([`engines::groth16_load`]).
#[wasm_bindgen(js_name = engineGroth16Load)]
pub fn engine_groth16_load(len: u32) -> i32 {
    engines::groth16_load(len)
}

/// Verifies the loaded proof `times` times ([`engines::verify_loaded`]).
#[wasm_bindgen(js_name = engineGroth16Verify)]
pub fn engine_groth16_verify(times: u32) -> i32 {
    engines::verify_loaded(times)
}
