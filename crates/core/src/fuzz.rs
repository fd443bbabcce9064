//! Malformed-proof fuzzing of a backend's verifier, through the
//! [`ProofSystem`] trait: every input must be rejected (an error from
//! `proof_from_bytes` or `verify`, or `Ok(false)`), never accepted and never
//! a panic.
//!
//! Each attempt takes a valid proof and its public inputs and makes one of:
//! bit flips (1-4 bits), a truncation, an extension with random bytes,
//! random bytes of the proof's length, all-zero bytes (identity / infinity
//! encodings), a changed public input, a public input from another statement,
//! a proof of another circuit, or one of the backend's structured cases
//! ([`ProofSystem::malformed_proofs`]: points off the curve, outside the
//! subgroup, the identity ...).

use std::{
    collections::BTreeMap,
    panic::{catch_unwind, AssertUnwindSafe},
};

use ark_ff::UniformRand;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use zkbench_statement::{Fr, PublicInputs};

use crate::ProofSystem;

/// Outcome of a fuzzing run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FuzzReport {
    /// Proof system.
    pub system: String,
    /// Malformed inputs tried.
    pub tried: u64,
    /// Rejected by `proof_from_bytes`.
    pub rejected_decode: u64,
    /// Decoded, then rejected by `verify` (`Ok(false)` or an error).
    pub rejected_verify: u64,
    /// Accepted: every entry is a soundness bug (description of the input).
    pub accepted: Vec<String>,
    /// Panics (caught): every one is a bug.
    pub panics: u64,
    /// Attempts per kind of malformation.
    pub by_kind: BTreeMap<String, u64>,
}

impl FuzzReport {
    /// No malformed input accepted, no panic.
    pub fn is_clean(&self) -> bool {
        self.accepted.is_empty() && self.panics == 0
    }

    /// Adds `other`'s counts to this report.
    pub fn merge(&mut self, other: FuzzReport) {
        self.tried += other.tried;
        self.rejected_decode += other.rejected_decode;
        self.rejected_verify += other.rejected_verify;
        self.accepted.extend(other.accepted);
        self.panics += other.panics;
        for (k, v) in other.by_kind {
            *self.by_kind.entry(k).or_default() += v;
        }
    }
}

/// Feeds `n` malformed variants of (`proof`, `public`) to `sys`'s verifier.
/// `other_proof` (a valid proof of another circuit) is used for swaps.
#[allow(clippy::too_many_arguments)]
pub fn fuzz_verifier<P: ProofSystem>(
    sys: &P,
    circuit: &P::Circuit,
    keys: &P::Keys,
    public: &PublicInputs,
    proof: &P::Proof,
    other_proof: Option<&[u8]>,
    n: u64,
    rng: &mut dyn RngCore,
) -> FuzzReport {
    let valid = sys.proof_to_bytes(proof);
    let mut report = FuzzReport {
        system: sys.name().into(),
        ..Default::default()
    };
    let mut structured: Vec<(String, Vec<u8>)> = Vec::new();
    let original = public;
    for i in 0..n {
        let mut public = original.clone();
        let (kind, bytes): (String, Vec<u8>) = if !structured.is_empty() {
            structured.pop().expect("non-empty")
        } else {
            match i % 10 {
                0 => {
                    let mut b = valid.clone();
                    let count = rng.gen_range(1..=4);
                    let bits = rand::seq::index::sample(rng, b.len() * 8, count);
                    for bit in bits {
                        b[bit / 8] ^= 1 << (bit % 8);
                    }
                    ("bit-flip".into(), b)
                }
                1 => (
                    "truncated".into(),
                    valid[..rng.gen_range(0..valid.len())].to_vec(),
                ),
                2 => {
                    let mut b = valid.clone();
                    let extra = rng.gen_range(1..=64);
                    b.extend((0..extra).map(|_| rng.gen::<u8>()));
                    ("extended".into(), b)
                }
                3 => {
                    let mut b = vec![0u8; valid.len()];
                    rng.fill_bytes(&mut b);
                    ("random-bytes".into(), b)
                }
                4 => ("zero-bytes".into(), vec![0u8; valid.len()]),
                5 if !public.0.is_empty() => {
                    let k = rng.gen_range(0..public.0.len());
                    public.0[k] += Fr::from(1u64);
                    ("public-input-plus-one".into(), valid.clone())
                }
                6 if !public.0.is_empty() => {
                    let k = rng.gen_range(0..public.0.len());
                    public.0[k] = Fr::rand(rng);
                    ("public-input-random".into(), valid.clone())
                }
                7 if other_proof.is_some() => (
                    "proof-of-another-circuit".into(),
                    other_proof.expect("checked").to_vec(),
                ),
                8 => {
                    structured = sys.malformed_proofs(proof, rng);
                    match structured.pop() {
                        Some(s) => s,
                        None => ("random-bytes".into(), {
                            let mut b = vec![0u8; valid.len()];
                            rng.fill_bytes(&mut b);
                            b
                        }),
                    }
                }
                _ => {
                    // a byte in the proof replaced by a random one
                    let mut b = valid.clone();
                    let k = rng.gen_range(0..b.len());
                    let old = b[k];
                    while b[k] == old {
                        b[k] = rng.gen();
                    }
                    ("byte-replaced".into(), b)
                }
            }
        };
        if bytes == valid && public == *original {
            continue; // not malformed (e.g. a random byte equal to the original)
        }
        *report.by_kind.entry(kind.clone()).or_default() += 1;
        report.tried += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| match sys.proof_from_bytes(&bytes) {
            Err(_) => Outcome::Decode,
            Ok(p) => match sys.verify(circuit, keys, &public, &p) {
                Ok(true) => Outcome::Accepted,
                _ => Outcome::Verify,
            },
        }));
        match outcome {
            Ok(Outcome::Decode) => report.rejected_decode += 1,
            Ok(Outcome::Verify) => report.rejected_verify += 1,
            Ok(Outcome::Accepted) => report.accepted.push(format!(
                "{kind}: {} bytes {}",
                bytes.len(),
                hex_prefix(&bytes)
            )),
            Err(_) => report.panics += 1,
        }
    }
    report
}

enum Outcome {
    Decode,
    Verify,
    Accepted,
}

fn hex_prefix(b: &[u8]) -> String {
    b.iter().take(16).map(|x| format!("{x:02x}")).collect()
}
