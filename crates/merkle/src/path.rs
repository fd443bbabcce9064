//! Merkle membership paths for A-ary trees and their verification.
//!
//! A [`MerklePath`] for a leaf of an A-ary tree of height `h` holds, for
//! every level from the leaves up, the `A − 1` siblings of the current node
//! (left to right, the current node left out) and the node's position among
//! its `A` siblings: the base-A digits of the leaf index, least significant
//! first. At each level the parent is
//! `hash_node([s_0, …, s_{p−1}, current, s_p, …, s_{A−2}])` with `p` the digit.
//!
//! For A = 2 this is Tornado Cash's `pathElements` / `pathIndices`
//! (tornado-core `circuits/merkleTree.circom`, `fixed-merkle-tree`).
//!
//! Verification never panics: a path of the wrong shape (siblings and
//! positions of different lengths, a level without exactly `A − 1` siblings,
//! a digit `≥ A`, an arity the hasher does not have, a `leaf_index` that the
//! digits do not encode) gives a [`MerkleError`] from
//! [`MerklePath::compute_root`] and `false` from [`MerklePath::verify`].

use serde::{Deserialize, Serialize};
use zkbench_hash::{Fr, NodeHasher};

use crate::MerkleError;

/// A membership path of a leaf in an A-ary Merkle tree (bottom-up).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MerklePath {
    /// Index of the leaf (its base-A digits are `positions`).
    pub leaf_index: u64,
    /// Arity `A` of the tree.
    pub arity: usize,
    /// For each level from the leaves up, the `A − 1` siblings in left-to-right order.
    #[serde(with = "crate::serde_fr::vec_vec")]
    pub siblings: Vec<Vec<Fr>>,
    /// For each level from the leaves up, the node's position `0..A` among its siblings.
    pub positions: Vec<u8>,
}

impl MerklePath {
    /// The path of leaf `index` in an `arity`-ary tree of `height` levels
    /// whose node at `(level, index)` is `node(level, index)`.
    pub(crate) fn collect(
        index: u64,
        arity: usize,
        height: u32,
        node: impl Fn(u32, u64) -> Fr,
    ) -> Self {
        let a = arity as u64;
        let mut siblings = Vec::with_capacity(height as usize);
        let mut positions = Vec::with_capacity(height as usize);
        let mut idx = index;
        for level in 0..height {
            let pos = idx % a;
            let base = idx - pos;
            siblings.push(
                (0..a)
                    .filter(|&p| p != pos)
                    .map(|p| node(level, base + p))
                    .collect(),
            );
            positions.push(pos as u8);
            idx /= a;
        }
        Self {
            leaf_index: index,
            arity,
            siblings,
            positions,
        }
    }

    /// Number of levels (the tree's height).
    pub fn height(&self) -> usize {
        self.positions.len()
    }

    /// The leaf index encoded by `positions` (`None` if it does not fit in `u64`).
    pub fn index_from_positions(&self) -> Option<u64> {
        let mut index: u64 = 0;
        for &d in self.positions.iter().rev() {
            index = index
                .checked_mul(self.arity as u64)?
                .checked_add(d as u64)?;
        }
        Some(index)
    }

    /// Checks the path's shape against itself and a hasher of arity `hasher_arity`.
    pub fn check_shape(&self, hasher_arity: usize) -> Result<(), MerkleError> {
        if !(2..=16).contains(&self.arity) {
            return Err(MerkleError::UnsupportedArity { arity: self.arity });
        }
        if hasher_arity != self.arity {
            return Err(MerkleError::ArityMismatch {
                expected: self.arity,
                got: hasher_arity,
            });
        }
        if self.siblings.len() != self.positions.len() {
            return Err(MerkleError::Length {
                what: "path: number of sibling levels vs. position digits".into(),
                got: self.siblings.len(),
                expected: self.positions.len(),
            });
        }
        for (level, (sib, &digit)) in self.siblings.iter().zip(&self.positions).enumerate() {
            if sib.len() != self.arity - 1 {
                return Err(MerkleError::Length {
                    what: format!("path: siblings at level {level}"),
                    got: sib.len(),
                    expected: self.arity - 1,
                });
            }
            if digit as usize >= self.arity {
                return Err(MerkleError::PositionOutOfRange {
                    level,
                    digit,
                    arity: self.arity,
                });
            }
        }
        match self.index_from_positions() {
            Some(i) if i == self.leaf_index => Ok(()),
            other => Err(MerkleError::LeafIndexMismatch {
                leaf_index: self.leaf_index,
                encoded: other.map_or_else(|| "an index beyond u64".into(), |i| i.to_string()),
            }),
        }
    }

    /// Recomputes the root from `leaf`, or says why the path is malformed.
    pub fn compute_root(&self, leaf: &Fr, hasher: &dyn NodeHasher) -> Result<Fr, MerkleError> {
        self.check_shape(hasher.arity())?;
        let mut children = vec![Fr::from(0u64); self.arity];
        let mut current = *leaf;
        for (sib, &digit) in self.siblings.iter().zip(&self.positions) {
            let p = digit as usize;
            children[..p].copy_from_slice(&sib[..p]);
            children[p] = current;
            children[p + 1..].copy_from_slice(&sib[p..]);
            current = hasher.hash_node(&children);
        }
        Ok(current)
    }

    /// Whether `leaf` at this path hashes to `root`; `false` for malformed paths.
    pub fn verify(&self, leaf: &Fr, root: &Fr, hasher: &dyn NodeHasher) -> bool {
        matches!(self.compute_root(leaf, hasher), Ok(r) if r == *root)
    }

    /// JSON text of the path (field elements as decimal strings).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a MerklePath always serialises")
    }

    /// Parses a path from JSON (shape is checked later, by `compute_root`/`verify`).
    pub fn from_json(text: &str) -> Result<Self, MerkleError> {
        Ok(serde_json::from_str(text)?)
    }

    /// Concatenates `self` (lower levels) and `upper` (a path of the subtree root
    /// `self` leads to) into one path of height `self.height() + upper.height()`,
    /// as for the era/slot trees of Guo et al. (Theorem 2).
    pub fn concat(&self, upper: &MerklePath) -> Result<MerklePath, MerkleError> {
        if upper.arity != self.arity {
            return Err(MerkleError::ArityMismatch {
                expected: self.arity,
                got: upper.arity,
            });
        }
        let shift = (self.arity as u64)
            .checked_pow(self.height() as u32)
            .and_then(|s| s.checked_mul(upper.leaf_index))
            .and_then(|s| s.checked_add(self.leaf_index))
            .ok_or_else(|| MerkleError::InvalidShape {
                reason: "concatenated path index does not fit in u64".into(),
            })?;
        let mut siblings = self.siblings.clone();
        siblings.extend(upper.siblings.iter().cloned());
        let mut positions = self.positions.clone();
        positions.extend_from_slice(&upper.positions);
        Ok(MerklePath {
            leaf_index: shift,
            arity: self.arity,
            siblings,
            positions,
        })
    }
}
