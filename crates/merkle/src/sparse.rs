//! Sparse A-ary Merkle tree of any capacity.
//!
//! A tree for `capacity` leaves has height `h = ⌈log_A capacity⌉`
//! ([`height_for`]); leaf indices are `0..capacity`.
//! Every leaf starts as the configurable empty leaf (default 0), so an empty
//! subtree of level `l` has the precomputed value `zeros[l]`
//! ([`zero_hashes`]). Only nodes that differ from their
//! level's zero value are stored, one `HashMap<u64, Fr>` per level, so memory
//! is `O(inserted leaves × h)` whatever the capacity (2^36 by default).
//!
//! [`SparseMerkleTree::insert`] rehashes the `h` ancestors of one leaf;
//! [`SparseMerkleTree::insert_batch`] writes all leaves first and then
//! rehashes each affected ancestor once, level by level, hashing the nodes of
//! a level in parallel (rayon) when the `parallel` feature is on.

use std::{collections::HashMap, sync::Arc};

use zkbench_hash::{Fr, NodeHasher};

use crate::{check_shape, height_for, zero_hashes, MerkleError, MerklePath};

/// Default leaf capacity of [`SparseMerkleTree::with_defaults`]: 2^36 leaves.
pub const DEFAULT_CAPACITY: u128 = 1 << 36;

/// A sparse A-ary Merkle tree storing only non-empty nodes.
#[derive(Clone)]
pub struct SparseMerkleTree {
    hasher: Arc<dyn NodeHasher>,
    arity: usize,
    height: u32,
    capacity: u128,
    zeros: Vec<Fr>,
    /// `nodes[l]`: the nodes of level `l` that differ from `zeros[l]`.
    nodes: Vec<HashMap<u64, Fr>>,
}

impl std::fmt::Debug for SparseMerkleTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseMerkleTree")
            .field("family", &self.hasher.family())
            .field("arity", &self.arity)
            .field("height", &self.height)
            .field("capacity", &self.capacity)
            .field("stored_nodes", &self.stored_nodes())
            .finish()
    }
}

impl SparseMerkleTree {
    /// A tree of [`DEFAULT_CAPACITY`] (2^36) leaves with empty leaf 0.
    ///
    /// # Panics
    /// Panics if the hasher's arity is outside 2..=16 (the registry never builds one).
    pub fn with_defaults(hasher: Arc<dyn NodeHasher>) -> Self {
        Self::new(hasher, DEFAULT_CAPACITY, Fr::from(0u64))
            .expect("2^36 leaves fit any arity in 2..=16")
    }

    /// A tree holding `capacity ≥ 1` leaves whose empty leaves have the value `empty_leaf`.
    pub fn new(
        hasher: Arc<dyn NodeHasher>,
        capacity: u128,
        empty_leaf: Fr,
    ) -> Result<Self, MerkleError> {
        let arity = hasher.arity();
        if !(2..=16).contains(&arity) {
            return Err(MerkleError::UnsupportedArity { arity });
        }
        if capacity == 0 {
            return Err(MerkleError::InvalidShape {
                reason: "capacity must be at least 1".into(),
            });
        }
        let height = height_for(capacity, arity);
        check_shape(arity, height)?;
        let zeros = zero_hashes(hasher.as_ref(), empty_leaf, height);
        Ok(Self {
            hasher,
            arity,
            height,
            capacity,
            zeros,
            nodes: vec![HashMap::new(); height as usize + 1],
        })
    }

    /// A tree of exactly `arity^height` leaves.
    pub fn with_height(
        hasher: Arc<dyn NodeHasher>,
        height: u32,
        empty_leaf: Fr,
    ) -> Result<Self, MerkleError> {
        let arity = hasher.arity();
        if !(2..=16).contains(&arity) {
            return Err(MerkleError::UnsupportedArity { arity });
        }
        check_shape(arity, height)?;
        Self::new(hasher, (arity as u128).pow(height), empty_leaf)
    }

    /// The node hasher.
    pub fn hasher(&self) -> &Arc<dyn NodeHasher> {
        &self.hasher
    }

    /// Arity `A`.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// Height `h` (number of levels above the leaves).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of leaves (valid indices are `0..capacity`).
    pub fn capacity(&self) -> u128 {
        self.capacity
    }

    /// Value of an empty leaf.
    pub fn empty_leaf(&self) -> Fr {
        self.zeros[0]
    }

    /// Empty-subtree values per level (`zeros[0]` = empty leaf, `zeros[h]` = empty root).
    pub fn zero_hashes(&self) -> &[Fr] {
        &self.zeros
    }

    /// Current root.
    pub fn root(&self) -> Fr {
        self.node(self.height, 0)
    }

    /// Value of node `index` at `level` (0 = leaves), stored or empty.
    pub fn node(&self, level: u32, index: u64) -> Fr {
        let l = level as usize;
        self.nodes
            .get(l)
            .and_then(|m| m.get(&index))
            .copied()
            .unwrap_or_else(|| {
                self.zeros
                    .get(l)
                    .copied()
                    .unwrap_or(self.zeros[self.height as usize])
            })
    }

    /// Value of leaf `index` (the empty leaf if never set).
    pub fn leaf(&self, index: u64) -> Result<Fr, MerkleError> {
        self.check_index(index)?;
        Ok(self.node(0, index))
    }

    /// Number of leaves that differ from the empty leaf.
    pub fn len(&self) -> usize {
        self.nodes[0].len()
    }

    /// Whether every leaf is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes[0].is_empty()
    }

    /// Number of stored (non-empty) nodes over all levels, leaves included;
    /// at most `len() × (height + 1)`.
    pub fn stored_nodes(&self) -> usize {
        self.nodes.iter().map(HashMap::len).sum()
    }

    fn check_index(&self, index: u64) -> Result<(), MerkleError> {
        if (index as u128) < self.capacity {
            Ok(())
        } else {
            Err(MerkleError::IndexOutOfRange {
                index: index as u128,
                capacity: self.capacity,
            })
        }
    }

    fn set(&mut self, level: usize, index: u64, value: Fr) {
        if value == self.zeros[level] {
            self.nodes[level].remove(&index);
        } else {
            self.nodes[level].insert(index, value);
        }
    }

    /// Hashes the children of node `parent` at level `level + 1` from level `level`.
    fn hash_parent(&self, level: usize, parent: u64, children: &mut [Fr]) -> Fr {
        let base = parent * self.arity as u64;
        let map = &self.nodes[level];
        let zero = self.zeros[level];
        for (p, c) in children.iter_mut().enumerate() {
            *c = map.get(&(base + p as u64)).copied().unwrap_or(zero);
        }
        self.hasher.hash_node(children)
    }

    /// Sets leaf `index` to `leaf` and rehashes its ancestors.
    pub fn insert(&mut self, index: u64, leaf: Fr) -> Result<(), MerkleError> {
        self.check_index(index)?;
        self.set(0, index, leaf);
        let mut children = vec![Fr::from(0u64); self.arity];
        let mut idx = index;
        for level in 0..self.height as usize {
            idx /= self.arity as u64;
            let v = self.hash_parent(level, idx, &mut children);
            self.set(level + 1, idx, v);
        }
        Ok(())
    }

    /// Sets many leaves (a later duplicate index wins) and rehashes every
    /// affected ancestor once; all indices are checked before anything changes.
    pub fn insert_batch(&mut self, leaves: &[(u64, Fr)]) -> Result<(), MerkleError> {
        for &(i, _) in leaves {
            self.check_index(i)?;
        }
        for &(i, v) in leaves {
            self.set(0, i, v);
        }
        let a = self.arity as u64;
        let mut dirty: Vec<u64> = leaves.iter().map(|&(i, _)| i).collect();
        for level in 0..self.height as usize {
            for d in dirty.iter_mut() {
                *d /= a;
            }
            dirty.sort_unstable();
            dirty.dedup();
            let values = self.hash_parents(level, &dirty);
            for (&idx, v) in dirty.iter().zip(values) {
                self.set(level + 1, idx, v);
            }
        }
        Ok(())
    }

    fn hash_parents(&self, level: usize, parents: &[u64]) -> Vec<Fr> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            if parents.len() >= 64 {
                return parents
                    .par_iter()
                    .map_init(
                        || vec![Fr::from(0u64); self.arity],
                        |children, &p| self.hash_parent(level, p, children),
                    )
                    .collect();
            }
        }
        let mut children = vec![Fr::from(0u64); self.arity];
        parents
            .iter()
            .map(|&p| self.hash_parent(level, p, &mut children))
            .collect()
    }

    /// Resets leaf `index` to the empty leaf.
    pub fn remove(&mut self, index: u64) -> Result<(), MerkleError> {
        let empty = self.zeros[0];
        self.insert(index, empty)
    }

    /// The membership path of leaf `index`.
    pub fn path(&self, index: u64) -> Result<MerklePath, MerkleError> {
        self.check_index(index)?;
        Ok(MerklePath::collect(
            index,
            self.arity,
            self.height,
            |level, i| self.node(level, i),
        ))
    }

    /// Whether `leaf` at `path` is in the tree with the current root.
    pub fn verify(&self, leaf: &Fr, path: &MerklePath) -> bool {
        path.verify(leaf, &self.root(), self.hasher.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::toy;

    #[test]
    fn height_and_empty_root() {
        let t = SparseMerkleTree::new(toy(2), 5, Fr::from(0u64)).unwrap();
        assert_eq!(t.height(), 3);
        assert_eq!(t.root(), t.zero_hashes()[3]);
        assert_eq!(t.stored_nodes(), 0);
        let t = SparseMerkleTree::with_defaults(toy(16));
        assert_eq!(t.height(), 9);
        assert_eq!(t.capacity(), DEFAULT_CAPACITY);
        assert!(SparseMerkleTree::new(toy(2), 0, Fr::from(0u64)).is_err());
        assert!(SparseMerkleTree::with_height(toy(16), 17, Fr::from(0u64)).is_err());
        assert!(SparseMerkleTree::with_height(toy(16), 16, Fr::from(0u64)).is_ok());
    }

    #[test]
    fn insert_matches_dense_and_batch() {
        for arity in [2usize, 3, 4] {
            let h = toy(arity);
            let n = arity.pow(3);
            let leaves: Vec<Fr> = (0..n as u64).map(|i| Fr::from(i * i + 3)).collect();
            let dense = crate::dense_layers(h.as_ref(), &leaves).unwrap();
            let mut t = SparseMerkleTree::new(h.clone(), n as u128, Fr::from(0u64)).unwrap();
            for (i, l) in leaves.iter().enumerate() {
                t.insert(i as u64, *l).unwrap();
            }
            assert_eq!(t.root(), dense[3][0]);
            let mut b = SparseMerkleTree::new(h, n as u128, Fr::from(0u64)).unwrap();
            let batch: Vec<_> = leaves
                .iter()
                .enumerate()
                .map(|(i, l)| (i as u64, *l))
                .collect();
            b.insert_batch(&batch).unwrap();
            assert_eq!(b.root(), t.root());
            assert_eq!(b.stored_nodes(), t.stored_nodes());
        }
    }

    #[test]
    fn removing_restores_empty_root_and_storage() {
        let mut t = SparseMerkleTree::new(toy(3), 1000, Fr::from(7u64)).unwrap();
        let empty = t.root();
        t.insert(5, Fr::from(1u64)).unwrap();
        t.insert(999, Fr::from(2u64)).unwrap();
        assert_ne!(t.root(), empty);
        t.remove(5).unwrap();
        t.remove(999).unwrap();
        assert_eq!(t.root(), empty);
        assert_eq!(t.stored_nodes(), 0);
        assert!(matches!(
            t.insert(1000, Fr::from(1u64)),
            Err(MerkleError::IndexOutOfRange {
                index: 1000,
                capacity: 1000
            })
        ));
    }
}
