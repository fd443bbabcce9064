//! The Ewasm post's two workloads, for WebAssembly engines outside the browser
//! (the `wasm-engines` suite): a MiMC hash (Tornado Cash's
//! `hashLeftRight`, circomlib MiMCSponge, 220 rounds, `x^5`) and a Groth16
//! verification (zkbench's verifier, `zkbench_groth16::verify`).
//!
//! The exports in [`crate::bindings`] that wrap these take and return only
//! numbers, so that a host with no wasm-bindgen glue — wasmtime
//! (`peers/wasmtime-runner`), or Node instantiating the module itself
//! (`peers/wasm-engines/run.mjs`) — calls exactly the same functions of
//! exactly the same module as the page does. Bytes go in and out through one
//! buffer owned by the module ([`buffer_resize`], [`buffer_ptr`]): the host
//! writes its input there and reads the hash's output from there. Natively
//! the same functions are timed by `zkbench __wasm-engine-native`.

use std::cell::RefCell;

use ark_ff::{BigInteger, PrimeField};
use ark_groth16::{PreparedVerifyingKey, Proof};
use zkbench_groth16::Bn254;
use zkbench_hash::{mimc_sponge, Fr};
use zkbench_statement::PublicInputs;
use zkbench_systems::SystemId;

use crate::WasmError;

/// A parsed Groth16 verification input: prepared verifying key, public
/// inputs and proof.
pub struct VerifyInput {
    pvk: PreparedVerifyingKey<Bn254>,
    public: PublicInputs,
    proof: Proof<Bn254>,
}

impl VerifyInput {
    /// Parses `{"verification_key", "proof", "public"}` in snarkjs's JSON
    /// (what `zkbench prove` writes as three files) and prepares the key.
    pub fn from_json(bytes: &[u8]) -> Result<Self, WasmError> {
        use zkbench_groth16::snarkjs;
        let doc: serde_json::Value = serde_json::from_slice(bytes)?;
        let field = |name: &str| {
            doc.get(name).ok_or_else(|| {
                WasmError::Config(format!("verification input: no \"{name}\" field"))
            })
        };
        let err = |e: zkbench_groth16::Groth16Error| WasmError::Backend {
            system: SystemId::Groth16.to_string(),
            message: e.to_string(),
        };
        let vk = snarkjs::vk_from_json(field("verification_key")?).map_err(err)?;
        let proof = snarkjs::proof_from_json(field("proof")?).map_err(err)?;
        let public = snarkjs::public_from_json(field("public")?).map_err(err)?;
        Ok(Self {
            pvk: ark_groth16::prepare_verifying_key(&vk),
            public,
            proof,
        })
    }

    /// Number of public inputs.
    pub fn public_inputs(&self) -> usize {
        self.public.0.len()
    }

    /// Verifies the proof once (`zkbench_groth16::verify`, the harness's
    /// verify phase).
    pub fn verify(&self) -> Result<bool, WasmError> {
        zkbench_groth16::verify(&self.pvk, &self.public, &self.proof).map_err(|e| {
            WasmError::Backend {
                system: SystemId::Groth16.to_string(),
                message: e.to_string(),
            }
        })
    }
}

/// `n` chained MiMC hashes: `h_0 = 1`, `h_{i+1} = hashLeftRight(h_i, i + 2)`;
/// returns `h_n`. One hash is one Tornado Cash Merkle node.
pub fn mimc_chain(n: u32) -> Fr {
    let mut h = Fr::from(1u64);
    for i in 0..n {
        h = mimc_sponge::hash_left_right(h, Fr::from(u64::from(i) + 2));
    }
    h
}

/// A field element as 32 little-endian bytes (the buffer's output format).
pub fn fr_to_le_bytes(x: &Fr) -> Vec<u8> {
    x.into_bigint().to_bytes_le()
}

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static LOADED: RefCell<Option<VerifyInput>> = const { RefCell::new(None) };
}

/// Resizes the module's exchange buffer to `len` bytes (zero-filled) and
/// returns its address in linear memory (meaningful on wasm32 only).
pub fn buffer_resize(len: u32) -> u32 {
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len as usize, 0);
        buffer_addr(&b)
    })
}

/// Address of the exchange buffer (meaningful on wasm32 only).
pub fn buffer_ptr() -> u32 {
    BUFFER.with(|b| buffer_addr(&b.borrow()))
}

fn buffer_addr(b: &[u8]) -> u32 {
    // linear-memory offsets are 32-bit on wasm32; natively the value is
    // unused (its low 32 bits)
    b.as_ptr() as usize as u32
}

fn buffer_set(bytes: &[u8]) -> u32 {
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.extend_from_slice(bytes);
        bytes.len() as u32
    })
}

/// Runs [`mimc_chain`]`(n)` and leaves `h_n` in the buffer (32 bytes, little
/// endian); returns 32.
pub fn mimc_to_buffer(n: u32) -> u32 {
    buffer_set(&fr_to_le_bytes(&mimc_chain(n)))
}

/// Parses the buffer's first `len` bytes as a [`VerifyInput`] and keeps it
/// for [`verify_loaded`]. Returns the number of public inputs, or on error
/// minus the length of the message it leaves in the buffer.
pub fn groth16_load(len: u32) -> i32 {
    let parsed = BUFFER.with(|b| {
        let b = b.borrow();
        match b.get(..len as usize) {
            Some(bytes) => VerifyInput::from_json(bytes),
            None => Err(WasmError::Config(format!(
                "{len} bytes asked for, the buffer holds {}",
                b.len()
            ))),
        }
    });
    match parsed {
        Ok(input) => {
            let n = input.public_inputs() as i32;
            LOADED.with(|l| *l.borrow_mut() = Some(input));
            n
        }
        Err(e) => -(buffer_set(e.to_string().as_bytes()) as i32),
    }
}

/// Verifies the loaded proof `times` times: 1 when every verification
/// accepted, 0 when one rejected, -1 when nothing is loaded, -2 on a
/// verifier error.
pub fn verify_loaded(times: u32) -> i32 {
    LOADED.with(|l| {
        let l = l.borrow();
        let Some(input) = l.as_ref() else {
            return -1;
        };
        let mut all = true;
        for _ in 0..times {
            match input.verify() {
                Ok(ok) => all &= ok,
                Err(_) => return -2,
            }
        }
        i32::from(all)
    })
}

pub use crate::sampling::{sample, thread_cpu_s, Sampled, Sampling, BATCH_S};
