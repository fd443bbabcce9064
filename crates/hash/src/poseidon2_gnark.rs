//! gnark's Poseidon2: the hash that gnark's `std/permutation/poseidon2` gadget
//! proves, as a family of its own (`poseidon2-gnark`), so that zkbench can prove
//! *exactly* the statement of the gnark peer (`peers/gnark`).
//!
//! gnark-crypto (`ecc/bn254/fr/poseidon2`, `GetDefaultParameters`) uses the
//! Poseidon2 round function of eprint 2023/323 with the HorizenLabs matrices for
//! `t = 2` (`M_E = circ(2, 1)`, `M_I = [[2, 1], [1, 3]]`, initial linear layer),
//! `α = 5`, but its own round numbers and constants:
//!
//! * `R_F = 6`, `R_P = 50` (HorizenLabs' instance: 8 and 56; the Poseidon2 paper's
//!   security margin gives 8 and 56 for `t = 2` at 128 bits, so gnark's choice is
//!   gnark's own, with a smaller margin — which is why a gnark Merkle proof has
//!   fewer constraints per level than [`poseidon2`](crate::poseidon2)'s);
//! * round keys from a Keccak-256 chain
//!   ([`Poseidon2Bn254::gnark_keccak`]), not Grain.
//!
//! Hashing, as gnark defines it:
//!
//! * Merkle nodes (arity 2 only): gnark's `Compress(l, r) = P(l, r)[1] + r`
//!   (feed-forward and truncation on word 1, not word 0 as in this crate's
//!   `poseidon2` compression mode);
//! * variable-length hash ([`FieldHasher`]): gnark's `NewMerkleDamgardHasher`,
//!   `h_0 = 0`, `h_{i+1} = Compress(h_i, x_i)` (an empty input hashes to 0).
//!
//! Known answers: `testdata/poseidon2_gnark.json`, generated from gnark-crypto
//! v0.22.0 by `scripts/gen-testdata/poseidon2-gnark/main.go` (permutation,
//! every round key, `Compress`, the Merkle–Damgård hash and binary Merkle roots).

use std::sync::{Arc, OnceLock};

use ark_ff::AdditiveGroup;

use crate::error::check_node_arity;
use crate::poseidon2::{Poseidon2Bn254, StaticPermutation};
use crate::{params, FieldHasher, Fr, HashError, NodeHasher, Params, Permutation};

/// Family name used in the registry.
pub const FAMILY: &str = "poseidon2-gnark";

/// The one permutation width (gnark's default instance is `t = 2`).
pub const WIDTH: usize = 2;

/// gnark's full rounds `R_F` for `t = 2`.
pub const ROUNDS_FULL: usize = 6;

/// gnark's partial rounds `R_P` for `t = 2`.
pub const ROUNDS_PARTIAL: usize = 50;

/// The S-box exponent.
pub const ALPHA: u64 = 5;

/// gnark-crypto's default BN254 instance (`t = 2, R_F = 6, R_P = 50`), cached.
pub fn instance() -> &'static Poseidon2Bn254 {
    static INSTANCE: OnceLock<Poseidon2Bn254> = OnceLock::new();
    INSTANCE
        .get_or_init(|| Poseidon2Bn254::gnark_keccak(FAMILY, WIDTH, ROUNDS_FULL, ROUNDS_PARTIAL))
}

/// gnark's `Compress(left, right) = P(left, right)[1] + right`.
pub fn compress(left: Fr, right: Fr) -> Fr {
    let mut state = [left, right];
    instance().permute_in_place(&mut state);
    state[1] + right
}

/// Widths with a permutation (just [`WIDTH`]).
pub fn supported_widths() -> Vec<usize> {
    vec![WIDTH]
}

/// The permutation of width `width` (only [`WIDTH`]).
pub fn permutation(width: usize) -> Result<Arc<dyn Permutation>, HashError> {
    crate::error::check_width(FAMILY, width, &[WIDTH])?;
    Ok(Arc::new(StaticPermutation(instance())))
}

/// The Merkle node hasher: gnark's `Compress`, arity 2 only.
pub fn node_hasher(arity: usize) -> Result<Arc<dyn NodeHasher>, HashError> {
    check_node_arity(FAMILY, arity)?;
    if arity != 2 {
        return Err(HashError::unsupported_arity(FAMILY, arity, vec![2]));
    }
    Ok(Arc::new(GnarkCompression))
}

/// gnark's 2-to-1 `Compress` as a Merkle node hasher.
#[derive(Clone, Copy, Debug, Default)]
pub struct GnarkCompression;

impl NodeHasher for GnarkCompression {
    fn family(&self) -> &'static str {
        FAMILY
    }

    fn arity(&self) -> usize {
        2
    }

    fn params(&self) -> Params {
        let mut p = instance().params();
        p.extend(params! {
            "arity" => 2,
            "mode" => "gnark Compress: P(l, r)[1] + r",
            "permutations_per_node" => 1,
        });
        p
    }

    fn hash_node(&self, children: &[Fr]) -> Fr {
        assert_eq!(
            children.len(),
            2,
            "node hasher called with wrong child count"
        );
        compress(children[0], children[1])
    }
}

/// gnark's `NewMerkleDamgardHasher` over field elements: `h ← Compress(h, x_i)`
/// from `h = 0`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GnarkMerkleDamgard;

impl FieldHasher for GnarkMerkleDamgard {
    fn family(&self) -> &'static str {
        FAMILY
    }

    fn params(&self) -> Params {
        let mut p = instance().params();
        p.extend(params! {
            "mode" => "gnark Merkle-Damgard: h = 0; h = Compress(h, x_i) for each input",
        });
        p
    }

    fn hash(&self, inputs: &[Fr]) -> Result<Fr, HashError> {
        Ok(inputs.iter().fold(Fr::ZERO, |h, x| compress(h, *x)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_arity_two() {
        assert!(node_hasher(2).is_ok());
        for arity in [3, 4, 8] {
            assert!(matches!(
                node_hasher(arity),
                Err(HashError::UnsupportedArity { .. })
            ));
        }
        assert!(permutation(3).is_err());
    }

    #[test]
    fn instance_shape() {
        let i = instance();
        assert_eq!((i.width(), i.alpha()), (2, 5));
        assert_eq!((i.rounds_full(), i.rounds_partial()), (6, 50));
        assert_eq!(i.family(), FAMILY);
        assert_eq!(i.external_round_constants().len(), 6);
    }
}
