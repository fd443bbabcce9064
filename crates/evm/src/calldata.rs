//! Calldata of `verifyProof(uint[2], uint[2][2], uint[2], uint[N])`: the ABI
//! encoding a transaction carries, and the text `snarkjs zkey export
//! soliditycalldata` prints.

use ark_bn254::{Bn254, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_groth16::Proof;
use sha3::{Digest, Keccak256};
use zkbench_groth16::PublicInputs;

use crate::groth16::word;

/// One 256-bit ABI word, big-endian.
pub type Word = [u8; 32];

/// The arguments of `verifyProof`, as 32-byte words in ABI order
/// (`_pB` in EIP-197 order: imaginary part first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groth16Calldata {
    /// `_pA`: A's `x, y`.
    pub a: [Word; 2],
    /// `_pB`: B's `[x.c1, x.c0], [y.c1, y.c0]`.
    pub b: [[Word; 2]; 2],
    /// `_pC`: C's `x, y`.
    pub c: [Word; 2],
    /// `_pubSignals`.
    pub public: Vec<Word>,
}

fn g1_words(p: &G1Affine) -> [Word; 2] {
    match p.xy() {
        Some((x, y)) => [word(&x), word(&y)],
        None => [[0; 32]; 2],
    }
}

fn g2_words(p: &G2Affine) -> [[Word; 2]; 2] {
    match p.xy() {
        Some((x, y)) => [[word(&x.c1), word(&x.c0)], [word(&y.c1), word(&y.c0)]],
        None => [[[0; 32]; 2]; 2],
    }
}

/// The ABI word of a scalar-field element.
pub fn fr_word(x: &zkbench_hash::Fr) -> Word {
    word(x)
}

/// The 4-byte selector of `verifyProof` with `n` public inputs.
pub fn selector(n: usize) -> [u8; 4] {
    let sig = format!("verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[{n}])");
    let h = Keccak256::digest(sig.as_bytes());
    [h[0], h[1], h[2], h[3]]
}

fn hex_word(w: &Word) -> String {
    format!("\"0x{}\"", hex::encode(w))
}

impl Groth16Calldata {
    /// The arguments for `proof` and its public inputs.
    pub fn new(proof: &Proof<Bn254>, public: &PublicInputs) -> Self {
        Self {
            a: g1_words(&proof.a),
            b: g2_words(&proof.b),
            c: g1_words(&proof.c),
            public: public.0.iter().map(word).collect(),
        }
    }

    /// Every word in ABI order (without the selector).
    pub fn words(&self) -> Vec<Word> {
        let mut v = vec![self.a[0], self.a[1]];
        v.extend(self.b.iter().flatten().copied());
        v.extend(self.c);
        v.extend(self.public.iter().copied());
        v
    }

    /// The transaction's calldata: selector then the ABI-encoded arguments
    /// (static arrays: no offsets, `32 · (8 + N)` bytes).
    pub fn abi_encode(&self) -> Vec<u8> {
        let mut out = selector(self.public.len()).to_vec();
        for w in self.words() {
            out.extend_from_slice(&w);
        }
        out
    }

    /// The text `snarkjs zkey export soliditycalldata` prints for the same
    /// proof: `["0x..", "0x.."],[["0x..", "0x.."],["0x..", "0x.."]],["0x..", "0x.."],["0x..",...]`.
    pub fn snarkjs_text(&self) -> String {
        let pair = |p: &[Word; 2]| format!("[{}, {}]", hex_word(&p[0]), hex_word(&p[1]));
        let public: Vec<String> = self.public.iter().map(hex_word).collect();
        format!(
            "{},[{},{}],{},[{}]",
            pair(&self.a),
            pair(&self.b[0]),
            pair(&self.b[1]),
            pair(&self.c),
            public.join(",")
        )
    }
}

/// Transaction calldata gas under EIP-2028: 16 per non-zero byte, 4 per zero byte.
pub fn calldata_gas(data: &[u8]) -> u64 {
    data.iter().map(|&b| if b == 0 { 4 } else { 16 }).sum()
}

/// Calldata of gnark's exported verifier (gnark v0.16, no commitments):
/// `verifyProof(bytes proof, uint256[N] input)`, with `proof` the 256 bytes
/// of gnark's `MarshalSolidity` (A, B, C in EIP-197 order). The verifier
/// returns nothing and reverts on an invalid proof.
pub fn gnark_calldata(proof: &[u8], public: &[Word]) -> Vec<u8> {
    let n = public.len();
    let sig = format!("verifyProof(bytes,uint256[{n}])");
    let h = Keccak256::digest(sig.as_bytes());
    let mut out = h[..4].to_vec();
    let word_of = |v: usize| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&(v as u64).to_be_bytes());
        w
    };
    // head: offset of `proof` (after the offset word and the N inline inputs), the inputs
    out.extend_from_slice(&word_of(32 * (1 + n)));
    for w in public {
        out.extend_from_slice(w);
    }
    // tail: length, then the bytes padded to whole words
    out.extend_from_slice(&word_of(proof.len()));
    out.extend_from_slice(proof);
    out.resize(out.len() + (32 - proof.len() % 32) % 32, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_the_solidity_ones() {
        // keccak256("verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[1])")[..4],
        // the selector of snarkjs's verifier with one public input.
        assert_eq!(hex::encode(selector(1)), "43753b4d");
        assert_ne!(selector(1), selector(3));
    }

    #[test]
    fn calldata_gas_is_eip2028() {
        assert_eq!(calldata_gas(&[0, 0, 1, 255]), 4 + 4 + 16 + 16);
        assert_eq!(calldata_gas(&[]), 0);
    }

    #[test]
    fn gnark_calldata_layout() {
        let proof = vec![7u8; 256];
        let public = vec![[1u8; 32]];
        let d = gnark_calldata(&proof, &public);
        assert_eq!(d.len(), 4 + 32 + 32 + 32 + 256);
        assert_eq!(d[4 + 31], 64); // offset of `proof`: after the offset word and 1 input
        assert_eq!(&d[36..68], &[1u8; 32]);
        assert_eq!(d[68 + 30..68 + 32], [1, 0]); // length 256
        assert_eq!(&d[100..], &proof[..]);
    }
}
