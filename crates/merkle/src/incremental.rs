//! Append-only ("incremental") Merkle tree with root history: Tornado Cash's
//! `MerkleTreeWithHistory`, generalised to arity A.
//!
//! Reference: tornado-core `contracts/MerkleTreeWithHistory.sol` (Solidity
//! 0.7 version, `ROOT_HISTORY_SIZE = 30`, hard-coded `zeros(i)` for
//! `i = 0..=31`, `ZERO_VALUE = keccak256("tornado") % FIELD_SIZE`).
//!
//! * `zeros(i)`: the value of an empty subtree of level `i` (`zeros(0)` = the
//!   zero leaf, `zeros(i+1) = H(zeros(i), …, zeros(i))`).
//! * `filled_subtrees[i]`: the left siblings, at level `i`, of the next
//!   leaf's ancestor. Tornado keeps one (the last left child) for A = 2; here
//!   `filled_subtrees[i][p]` is the child at position `p` of the open node,
//!   so that `insert` hashes `filled[0..d] ‖ current ‖ zeros(i) × (A−1−d)` at
//!   each level, where `d` is the level's base-A digit of the leaf index.
//! * `insert(leaf)` returns the leaf's index, rehashes `levels` nodes, and
//!   pushes the new root into a ring of [`ROOT_HISTORY_SIZE`] roots;
//!   [`IncrementalMerkleTree::is_known_root`] searches the ring (and, as in
//!   tornado, never accepts 0). A full tree (`A^levels` leaves) errors.
//!
//! Differences from tornado-core, on purpose:
//! * the initial root is the true empty root `zeros(levels)`; tornado-core
//!   stores `roots[0] = zeros(levels − 1)` (a quirk of its constructor), which
//!   only matters to `is_known_root` before the first 30 inserts;
//! * levels may be any `1..` with `A^levels ≤ 2^64` (tornado: `1..=31`);
//! * every node computed by `insert` is also kept (no extra hashing), so the
//!   tree can give membership paths like tornado's off-chain
//!   `fixed-merkle-tree` JS library (`path(index)`), at `O(n)` memory.

use std::sync::Arc;

use ark_ff::Zero;
use sha3::{Digest, Keccak256};
use zkbench_hash::{field::fr_from_be_bytes_mod_order, Fr, NodeHasher};

use crate::{check_shape, zero_hashes, MerkleError, MerklePath};

/// Number of recent roots [`IncrementalMerkleTree::is_known_root`] accepts
/// (tornado-core `ROOT_HISTORY_SIZE`).
pub const ROOT_HISTORY_SIZE: usize = 30;

/// Tornado Cash's zero leaf `keccak256("tornado") mod r`
/// (= 21663839004416932945382355908790599225266501822907911457504978515578255421292).
pub fn tornado_zero_value() -> Fr {
    fr_from_be_bytes_mod_order(&Keccak256::digest(b"tornado"))
}

/// Append-only A-ary Merkle tree with a history of recent roots.
#[derive(Clone)]
pub struct IncrementalMerkleTree {
    hasher: Arc<dyn NodeHasher>,
    arity: usize,
    levels: u32,
    zeros: Vec<Fr>,
    filled_subtrees: Vec<Vec<Fr>>,
    roots: [Fr; ROOT_HISTORY_SIZE],
    current_root_index: usize,
    next_index: u64,
    /// `layers[l][j]`: node `j` of level `l` as last computed (leaves at level 0).
    layers: Vec<Vec<Fr>>,
}

impl std::fmt::Debug for IncrementalMerkleTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IncrementalMerkleTree")
            .field("family", &self.hasher.family())
            .field("arity", &self.arity)
            .field("levels", &self.levels)
            .field("next_index", &self.next_index)
            .finish()
    }
}

impl IncrementalMerkleTree {
    /// An empty tree of `levels ≥ 1` levels (`A^levels` leaves) whose empty
    /// leaves are `zero_value`.
    pub fn new(
        hasher: Arc<dyn NodeHasher>,
        levels: u32,
        zero_value: Fr,
    ) -> Result<Self, MerkleError> {
        let arity = hasher.arity();
        check_shape(arity, levels)?;
        if levels == 0 {
            return Err(MerkleError::InvalidShape {
                reason: "levels should be greater than zero".into(),
            });
        }
        let zeros = zero_hashes(hasher.as_ref(), zero_value, levels);
        let filled_subtrees = (0..levels as usize)
            .map(|i| vec![zeros[i]; arity - 1])
            .collect();
        let mut roots = [Fr::from(0u64); ROOT_HISTORY_SIZE];
        roots[0] = zeros[levels as usize];
        Ok(Self {
            hasher,
            arity,
            levels,
            zeros,
            filled_subtrees,
            roots,
            current_root_index: 0,
            next_index: 0,
            layers: vec![Vec::new(); levels as usize + 1],
        })
    }

    /// A tree with Tornado Cash's zero leaf [`tornado_zero_value`]
    /// (tornado-core uses MiMCSponge, A = 2 and 20 levels).
    pub fn tornado(hasher: Arc<dyn NodeHasher>, levels: u32) -> Result<Self, MerkleError> {
        Self::new(hasher, levels, tornado_zero_value())
    }

    /// The node hasher.
    pub fn hasher(&self) -> &Arc<dyn NodeHasher> {
        &self.hasher
    }

    /// Arity `A`.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// Number of levels (height).
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// Number of leaves the tree holds, `A^levels`.
    pub fn capacity(&self) -> u128 {
        (self.arity as u128).pow(self.levels)
    }

    /// Index the next leaf will get (= number of leaves inserted).
    pub fn next_index(&self) -> u64 {
        self.next_index
    }

    /// `zeros(i)`: the empty subtree of level `i`, for `i = 0..=levels`.
    pub fn zeros(&self, i: usize) -> Option<Fr> {
        self.zeros.get(i).copied()
    }

    /// All empty-subtree values `zeros(0..=levels)`.
    pub fn zero_hashes(&self) -> &[Fr] {
        &self.zeros
    }

    /// The filled subtrees: `filled_subtrees()[i][p]` is the child at position
    /// `p` of the open node of level `i + 1` (`A − 1` per level).
    pub fn filled_subtrees(&self) -> &[Vec<Fr>] {
        &self.filled_subtrees
    }

    /// The latest root (tornado-core `getLastRoot`).
    pub fn root(&self) -> Fr {
        self.roots[self.current_root_index]
    }

    /// The root ring buffer and the position of the latest root in it
    /// (unused entries are 0).
    pub fn root_history(&self) -> (&[Fr; ROOT_HISTORY_SIZE], usize) {
        (&self.roots, self.current_root_index)
    }

    /// Whether `root` is one of the last [`ROOT_HISTORY_SIZE`] roots (0 never is).
    pub fn is_known_root(&self, root: &Fr) -> bool {
        !root.is_zero() && self.roots.contains(root)
    }

    /// The leaves inserted so far, in order.
    pub fn leaves(&self) -> &[Fr] {
        &self.layers[0]
    }

    /// Appends `leaf`, returning its index; errors when the tree is full.
    pub fn insert(&mut self, leaf: Fr) -> Result<u64, MerkleError> {
        let index = self.next_index;
        if index as u128 >= self.capacity() {
            return Err(MerkleError::TreeFull {
                capacity: self.capacity(),
            });
        }
        let a = self.arity as u64;
        let mut children = vec![Fr::from(0u64); self.arity];
        let mut current_index = index;
        let mut current = leaf;
        for i in 0..self.levels as usize {
            store(&mut self.layers[i], current_index, current);
            let d = (current_index % a) as usize;
            let filled = &mut self.filled_subtrees[i];
            children[..d].copy_from_slice(&filled[..d]);
            children[d] = current;
            children[d + 1..].fill(self.zeros[i]);
            if d < self.arity - 1 {
                filled[d] = current;
            }
            current = self.hasher.hash_node(&children);
            current_index /= a;
        }
        store(&mut self.layers[self.levels as usize], 0, current);
        self.current_root_index = (self.current_root_index + 1) % ROOT_HISTORY_SIZE;
        self.roots[self.current_root_index] = current;
        self.next_index = index + 1;
        Ok(index)
    }

    /// Appends every leaf in order, returning the index of the first.
    pub fn insert_many(&mut self, leaves: &[Fr]) -> Result<u64, MerkleError> {
        let first = self.next_index;
        if first as u128 + leaves.len() as u128 > self.capacity() {
            return Err(MerkleError::TreeFull {
                capacity: self.capacity(),
            });
        }
        for &l in leaves {
            self.insert(l)?;
        }
        Ok(first)
    }

    /// Node `index` of `level` (0 = leaves): computed value or `zeros(level)`.
    pub fn node(&self, level: u32, index: u64) -> Fr {
        let l = level as usize;
        self.layers
            .get(l)
            .and_then(|v| usize::try_from(index).ok().and_then(|i| v.get(i)))
            .copied()
            .unwrap_or_else(|| self.zeros.get(l).copied().unwrap_or(Fr::from(0u64)))
    }

    /// Membership path of inserted leaf `index` against the current root.
    pub fn path(&self, index: u64) -> Result<MerklePath, MerkleError> {
        if index >= self.next_index {
            return Err(MerkleError::IndexOutOfRange {
                index: index as u128,
                capacity: self.next_index as u128,
            });
        }
        Ok(MerklePath::collect(
            index,
            self.arity,
            self.levels,
            |level, i| self.node(level, i),
        ))
    }
}

/// Writes `value` at `index` of an append-only layer (index is the last or next slot).
fn store(layer: &mut Vec<Fr>, index: u64, value: Fr) {
    let i = index as usize;
    if i < layer.len() {
        layer[i] = value;
    } else {
        debug_assert_eq!(i, layer.len());
        layer.push(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{toy::toy, SparseMerkleTree};
    use zkbench_hash::parse_fr;

    #[test]
    fn tornado_zero_value_matches_contract_constant() {
        // tornado-core contracts/MerkleTreeWithHistory.sol, ZERO_VALUE.
        let expected = parse_fr(
            "21663839004416932945382355908790599225266501822907911457504978515578255421292",
        )
        .unwrap();
        assert_eq!(tornado_zero_value(), expected);
        // ... which is also its hard-coded zeros(0).
        let z0 =
            parse_fr("0x2fe54c60d3acabf3343a35b6eba15db4821b340f76e741e2249685ed4899af6c").unwrap();
        assert_eq!(tornado_zero_value(), z0);
    }

    #[test]
    fn roots_match_sparse_tree() {
        for arity in [2usize, 3, 5, 16] {
            let h = toy(arity);
            let levels = if arity == 16 { 3 } else { 4 };
            let zero = tornado_zero_value();
            let mut inc = IncrementalMerkleTree::new(h.clone(), levels, zero).unwrap();
            let mut sp = SparseMerkleTree::with_height(h.clone(), levels, zero).unwrap();
            assert_eq!(inc.root(), sp.root());
            let n = (arity as u64).pow(levels).min(100);
            for i in 0..n {
                let leaf = Fr::from(1000 + i * 17);
                assert_eq!(inc.insert(leaf).unwrap(), i);
                sp.insert(i, leaf).unwrap();
                assert_eq!(inc.root(), sp.root(), "arity {arity} after {i}");
            }
            for i in (0..n).step_by(7) {
                let p = inc.path(i).unwrap();
                assert_eq!(p, sp.path(i).unwrap());
                assert!(p.verify(&Fr::from(1000 + i * 17), &inc.root(), h.as_ref()));
            }
        }
    }

    #[test]
    fn full_tree_and_history() {
        let h = toy(2);
        let mut t = IncrementalMerkleTree::new(h, 6, Fr::from(0u64)).unwrap();
        let mut roots = vec![t.root()];
        for i in 0..64u64 {
            t.insert(Fr::from(i + 1)).unwrap();
            roots.push(t.root());
        }
        assert!(matches!(
            t.insert(Fr::from(1u64)),
            Err(MerkleError::TreeFull { capacity: 64 })
        ));
        // The last 30 roots are known, older ones are not.
        for (k, r) in roots.iter().rev().enumerate() {
            assert_eq!(
                t.is_known_root(r),
                k < ROOT_HISTORY_SIZE,
                "root {k} from the end"
            );
        }
        assert!(!t.is_known_root(&Fr::from(0u64)));
        assert!(IncrementalMerkleTree::new(toy(2), 0, Fr::from(0u64)).is_err());
        assert!(IncrementalMerkleTree::new(toy(2), 65, Fr::from(0u64)).is_err());
    }
}
