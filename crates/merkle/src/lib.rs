//! # zkbench-merkle
//!
//! A-ary Merkle trees (A = `hasher.arity()` in 2..=16) over any
//! [`NodeHasher`] of `zkbench-hash`:
//!
//! | module | tree | reference |
//! |---|---|---|
//! | [`sparse`] | [`SparseMerkleTree`]: any capacity (default 2^36 leaves), storage proportional to inserted leaves, batched/parallel updates | — |
//! | [`incremental`] | [`IncrementalMerkleTree`]: append-only, filled subtrees, 30-root history | tornado-core `contracts/MerkleTreeWithHistory.sol` |
//! | [`era_slot`] | [`EraSlotTree`]: fully populated slot trees whose roots are appended to an incremental era tree | Guo et al. (§4, Fig. 8, Theorem 2) |
//! | [`path`] | [`MerklePath`]: siblings + base-A positions, `compute_root`/`verify` | tornado-core `circuits/merkleTree.circom` (A = 2) |
//!
//! ## Conventions shared by every tree
//! * Level 0 holds the leaves; level `h` (the height) holds the root.
//! * A parent is `hash_node([c_0, …, c_{A−1}])` of its children left to right;
//!   the child at position `p` of parent `j` has index `A·j + p`.
//! * An empty subtree of level `l` has the value `zeros[l]`, with
//!   `zeros[0]` = the empty-leaf value and `zeros[l+1] = hash_node([zeros[l]; A])`
//!   ([`zero_hashes`]); Tornado Cash's `zeros(i)` is this list for A = 2 and
//!   the empty leaf `keccak256("tornado") mod r` ([`tornado_zero_value`]).
//! * So the sparse, incremental and era/slot trees with equal arity, height and
//!   empty leaf have equal roots for equal leaves (tested).
#![deny(missing_docs)]

pub use zkbench_hash::{Fr, NodeHasher};

pub mod era_slot;
pub mod error;
pub mod incremental;
pub mod path;
pub mod serde_fr;
pub mod sparse;

pub use era_slot::{EraSlotPath, EraSlotTree};
pub use error::MerkleError;
pub use incremental::{tornado_zero_value, IncrementalMerkleTree, ROOT_HISTORY_SIZE};
pub use path::MerklePath;
pub use sparse::{SparseMerkleTree, DEFAULT_CAPACITY};

#[cfg(test)]
#[path = "../tests/common/mod.rs"]
pub(crate) mod toy;

/// The smallest height `h` with `arity^h ≥ leaves` (0 for `leaves ≤ 1`).
///
/// # Panics
/// Panics if `arity < 2` (programmer error).
pub fn height_for(leaves: u128, arity: usize) -> u32 {
    assert!(arity >= 2, "arity must be at least 2");
    let mut h = 0u32;
    let mut reach: u128 = 1;
    while reach < leaves {
        reach = reach.saturating_mul(arity as u128);
        h += 1;
    }
    h
}

/// Number of leaf positions `arity^height` of a tree, if it fits in `u128`.
pub fn leaf_positions(arity: usize, height: u32) -> Option<u128> {
    (arity as u128).checked_pow(height)
}

/// Checks that `arity` is in 2..=16 and that `arity^height` positions can be
/// indexed by `u64` (i.e. `arity^height ≤ 2^64`).
pub fn check_shape(arity: usize, height: u32) -> Result<(), MerkleError> {
    if !(2..=16).contains(&arity) {
        return Err(MerkleError::UnsupportedArity { arity });
    }
    match leaf_positions(arity, height) {
        Some(n) if n <= 1u128 << 64 => Ok(()),
        _ => Err(MerkleError::InvalidShape {
            reason: format!(
                "{arity}^{height} leaf positions do not fit in u64 indices (at most 2^64)"
            ),
        }),
    }
}

/// Empty-subtree values `zeros[0..=height]`: `zeros[0] = empty_leaf`,
/// `zeros[l+1] = hash_node([zeros[l]; A])`.
pub fn zero_hashes(hasher: &dyn NodeHasher, empty_leaf: Fr, height: u32) -> Vec<Fr> {
    let arity = hasher.arity();
    let mut zeros = Vec::with_capacity(height as usize + 1);
    zeros.push(empty_leaf);
    let mut children = vec![empty_leaf; arity];
    for _ in 0..height {
        let z = hasher.hash_node(&children);
        zeros.push(z);
        children.fill(z);
    }
    zeros
}

/// Root of the complete tree over `leaves` (whose number must be `A^h`),
/// with every level kept: `layers[0] = leaves`, `layers[h] = [root]`.
pub fn dense_layers(hasher: &dyn NodeHasher, leaves: &[Fr]) -> Result<Vec<Vec<Fr>>, MerkleError> {
    let arity = hasher.arity();
    if !(2..=16).contains(&arity) {
        return Err(MerkleError::UnsupportedArity { arity });
    }
    let h = height_for(leaves.len() as u128, arity);
    let full = leaf_positions(arity, h).unwrap_or(u128::MAX);
    if leaves.is_empty() || full != leaves.len() as u128 {
        return Err(MerkleError::Length {
            what: format!("dense tree leaves (a power of the arity {arity})"),
            got: leaves.len(),
            expected: full.min(usize::MAX as u128) as usize,
        });
    }
    let mut layers = vec![leaves.to_vec()];
    while layers.last().map_or(0, Vec::len) > 1 {
        let below = layers.last().expect("non-empty");
        let next = hash_chunks(hasher, below);
        layers.push(next);
    }
    Ok(layers)
}

/// Hashes consecutive groups of `A` nodes into their parents (in parallel with
/// the `parallel` feature).
fn hash_chunks(hasher: &dyn NodeHasher, below: &[Fr]) -> Vec<Fr> {
    let arity = hasher.arity();
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        if below.len() >= 64 * arity {
            return below
                .par_chunks(arity)
                .map(|c| hasher.hash_node(c))
                .collect();
        }
    }
    below.chunks(arity).map(|c| hasher.hash_node(c)).collect()
}
