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
    let mut m = Malformer {
        sys,
        proof,
        valid: sys.proof_to_bytes(proof),
        other_proof,
        structured: Vec::new(),
    };
    let mut report = FuzzReport {
        system: sys.name().into(),
        ..Default::default()
    };
    let original = public;
    for i in 0..n {
        let mut public = original.clone();
        let (kind, bytes) = m.next(i, &mut public, rng);
        if bytes == m.valid && public == *original {
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

/// Makes the malformed inputs of [`fuzz_verifier`] from a valid proof.
struct Malformer<'a, P: ProofSystem> {
    sys: &'a P,
    proof: &'a P::Proof,
    /// The valid proof's bytes.
    valid: Vec<u8>,
    other_proof: Option<&'a [u8]>,
    /// The backend's structured cases not tried yet (tried last first).
    structured: Vec<(String, Vec<u8>)>,
}

impl<P: ProofSystem> Malformer<'_, P> {
    /// Attempt `i`'s kind and proof bytes: the next structured case while
    /// any are left, else by `i mod 10`; the public-input kinds change
    /// `public` instead of the proof.
    fn next(
        &mut self,
        i: u64,
        public: &mut PublicInputs,
        rng: &mut dyn RngCore,
    ) -> (String, Vec<u8>) {
        if let Some(s) = self.structured.pop() {
            return s;
        }
        let valid = &self.valid;
        match i % 10 {
            0 => ("bit-flip".into(), bit_flips(valid, rng)),
            1 => (
                "truncated".into(),
                valid[..rng.gen_range(0..valid.len())].to_vec(),
            ),
            2 => ("extended".into(), extended(valid, rng)),
            3 => ("random-bytes".into(), random_bytes(valid.len(), rng)),
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
            7 if self.other_proof.is_some() => (
                "proof-of-another-circuit".into(),
                self.other_proof.expect("checked").to_vec(),
            ),
            8 => {
                self.structured = self.sys.malformed_proofs(self.proof, rng);
                match self.structured.pop() {
                    Some(s) => s,
                    None => ("random-bytes".into(), random_bytes(valid.len(), rng)),
                }
            }
            _ => ("byte-replaced".into(), byte_replaced(valid, rng)),
        }
    }
}

/// `valid` with 1 to 4 bits flipped.
fn bit_flips(valid: &[u8], rng: &mut dyn RngCore) -> Vec<u8> {
    let mut b = valid.to_vec();
    let count = rng.gen_range(1..=4);
    let bits = rand::seq::index::sample(rng, b.len() * 8, count);
    for bit in bits {
        b[bit / 8] ^= 1 << (bit % 8);
    }
    b
}

/// `valid` with 1 to 64 random bytes appended.
fn extended(valid: &[u8], rng: &mut dyn RngCore) -> Vec<u8> {
    let mut b = valid.to_vec();
    let extra = rng.gen_range(1..=64);
    b.extend((0..extra).map(|_| rng.gen::<u8>()));
    b
}

/// `len` random bytes.
fn random_bytes(len: usize, rng: &mut dyn RngCore) -> Vec<u8> {
    let mut b = vec![0u8; len];
    rng.fill_bytes(&mut b);
    b
}

/// `valid` with a byte replaced by a different random one.
fn byte_replaced(valid: &[u8], rng: &mut dyn RngCore) -> Vec<u8> {
    let mut b = valid.to_vec();
    let k = rng.gen_range(0..b.len());
    let old = b[k];
    while b[k] == old {
        b[k] = rng.gen();
    }
    b
}

enum Outcome {
    Decode,
    Verify,
    Accepted,
}

fn hex_prefix(b: &[u8]) -> String {
    b.iter().take(16).map(|x| format!("{x:02x}")).collect()
}
