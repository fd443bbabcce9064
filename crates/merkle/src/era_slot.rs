//! Two-level "era/slot" tree of Guo et al. (§4, Figure 8, Theorem 2).
//!
//! Transactions are batched off-chain into *slots*: fully populated A-ary
//! trees of depth `d_slot` (`A^d_slot` leaves, `Func_slot` in the seed's
//! `Cir_dep` circuit). Each slot root is appended, as one leaf, to the *era*
//! tree: an [`IncrementalMerkleTree`] of depth `d_era` kept on chain (the
//! seed's modified Tornado Cash contract, `Func_com`). A leaf is proven in two
//! steps: leaf ∈ slot (a path of height `d_slot`) and slot root ∈ era (a path
//! of height `d_era`), see [`EraSlotPath`]. The seed ran `d_slot = 5`,
//! `d_era = 20` with MiMCSponge, A = 2.
//!
//! The era tree's zero leaf is the root of a slot whose leaves are all
//! `empty_leaf`, so an era of depth `d_era` over slots of depth `d_slot` *is*
//! a single tree of depth `d_slot + d_era` whose leaves are the slots' leaves
//! in commit order (Theorem 2: `r_slot ∈ L_era ∧ C ∈ L_slot ⇒ C ∈ L_era`);
//! [`EraSlotPath::flatten`] turns a two-level path into that tree's path.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use zkbench_hash::{Fr, NodeHasher};

use crate::{
    check_shape, dense_layers, zero_hashes, IncrementalMerkleTree, MerkleError, MerklePath,
};

/// A membership proof through a slot tree and the era tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EraSlotPath {
    /// Path of the leaf in its slot tree (height `d_slot`).
    pub slot_path: MerklePath,
    /// Path of the slot root in the era tree (height `d_era`; its
    /// `leaf_index` is the slot index).
    pub era_path: MerklePath,
}

impl EraSlotPath {
    /// Index of the slot.
    pub fn slot_index(&self) -> u64 {
        self.era_path.leaf_index
    }

    /// Index of the leaf within its slot.
    pub fn leaf_in_slot(&self) -> u64 {
        self.slot_path.leaf_index
    }

    /// The slot root `leaf` leads to.
    pub fn slot_root(&self, leaf: &Fr, hasher: &dyn NodeHasher) -> Result<Fr, MerkleError> {
        self.slot_path.compute_root(leaf, hasher)
    }

    /// The era root `leaf` leads to through both levels.
    pub fn compute_root(&self, leaf: &Fr, hasher: &dyn NodeHasher) -> Result<Fr, MerkleError> {
        let slot_root = self.slot_path.compute_root(leaf, hasher)?;
        self.era_path.compute_root(&slot_root, hasher)
    }

    /// Whether `leaf` is in the era with root `era_root`; `false` for malformed paths.
    pub fn verify(&self, leaf: &Fr, era_root: &Fr, hasher: &dyn NodeHasher) -> bool {
        matches!(self.compute_root(leaf, hasher), Ok(r) if r == *era_root)
    }

    /// The equivalent path in one tree of depth `d_slot + d_era` (Theorem 2),
    /// leaf index `slot · A^d_slot + leaf_in_slot`.
    pub fn flatten(&self) -> Result<MerklePath, MerkleError> {
        self.slot_path.concat(&self.era_path)
    }
}

/// The era tree with the committed slot trees (kept to give paths).
#[derive(Clone, Debug)]
pub struct EraSlotTree {
    slot_depth: u32,
    empty_leaf: Fr,
    /// Every committed slot, all levels (`slots[s][0]` = its leaves).
    slots: Vec<Vec<Vec<Fr>>>,
    era: IncrementalMerkleTree,
}

impl EraSlotTree {
    /// An empty era of depth `era_depth ≥ 1` over slots of depth `slot_depth`
    /// (`A^slot_depth` leaves each); the era's zero leaf is the root of a slot
    /// of `empty_leaf`s. Needs `A^(slot_depth + era_depth) ≤ 2^64`.
    pub fn new(
        hasher: Arc<dyn NodeHasher>,
        slot_depth: u32,
        era_depth: u32,
        empty_leaf: Fr,
    ) -> Result<Self, MerkleError> {
        let arity = hasher.arity();
        let total = slot_depth
            .checked_add(era_depth)
            .ok_or_else(|| MerkleError::InvalidShape {
                reason: "slot_depth + era_depth overflows".into(),
            })?;
        check_shape(arity, total)?;
        let empty_slot_root =
            zero_hashes(hasher.as_ref(), empty_leaf, slot_depth)[slot_depth as usize];
        let era = IncrementalMerkleTree::new(hasher, era_depth, empty_slot_root)?;
        Ok(Self {
            slot_depth,
            empty_leaf,
            slots: Vec::new(),
            era,
        })
    }

    /// The node hasher.
    pub fn hasher(&self) -> &Arc<dyn NodeHasher> {
        self.era.hasher()
    }

    /// Arity `A`.
    pub fn arity(&self) -> usize {
        self.era.arity()
    }

    /// Depth of each slot tree.
    pub fn slot_depth(&self) -> u32 {
        self.slot_depth
    }

    /// Depth of the era tree.
    pub fn era_depth(&self) -> u32 {
        self.era.levels()
    }

    /// Number of leaves per slot, `A^slot_depth`.
    pub fn slot_size(&self) -> usize {
        self.arity().pow(self.slot_depth)
    }

    /// The empty leaf a never-committed slot is made of.
    pub fn empty_leaf(&self) -> Fr {
        self.empty_leaf
    }

    /// Number of committed slots.
    pub fn slots_committed(&self) -> u64 {
        self.slots.len() as u64
    }

    /// The era tree (root, root history, `is_known_root`).
    pub fn era(&self) -> &IncrementalMerkleTree {
        &self.era
    }

    /// Current era root.
    pub fn root(&self) -> Fr {
        self.era.root()
    }

    /// Whether `root` is one of the era's recent roots.
    pub fn is_known_root(&self, root: &Fr) -> bool {
        self.era.is_known_root(root)
    }

    /// Root of the slot tree over `leaves` (exactly `A^slot_depth` of them).
    pub fn slot_root(&self, leaves: &[Fr]) -> Result<Fr, MerkleError> {
        Ok(self
            .slot_layers(leaves)?
            .pop()
            .expect("a dense tree has a root")[0])
    }

    fn slot_layers(&self, leaves: &[Fr]) -> Result<Vec<Vec<Fr>>, MerkleError> {
        if leaves.len() != self.slot_size() {
            return Err(MerkleError::Length {
                what: "slot leaves".into(),
                got: leaves.len(),
                expected: self.slot_size(),
            });
        }
        if self.slot_depth == 0 {
            return Ok(vec![leaves.to_vec()]);
        }
        dense_layers(self.hasher().as_ref(), leaves)
    }

    /// Builds the slot tree over `leaves` (exactly `A^slot_depth`), appends its
    /// root to the era tree and returns the slot index.
    pub fn commit_slot(&mut self, leaves: &[Fr]) -> Result<u64, MerkleError> {
        let layers = self.slot_layers(leaves)?;
        if self.era.next_index() as u128 >= self.era.capacity() {
            return Err(MerkleError::TreeFull {
                capacity: self.era.capacity(),
            });
        }
        let root = layers.last().expect("a dense tree has a root")[0];
        let index = self.era.insert(root)?;
        self.slots.push(layers);
        Ok(index)
    }

    /// Leaves of committed slot `slot`.
    pub fn slot_leaves(&self, slot: u64) -> Result<&[Fr], MerkleError> {
        Ok(&self.slot(slot)?[0])
    }

    fn slot(&self, slot: u64) -> Result<&Vec<Vec<Fr>>, MerkleError> {
        usize::try_from(slot)
            .ok()
            .and_then(|s| self.slots.get(s))
            .ok_or(MerkleError::UnknownSlot {
                slot,
                committed: self.slots.len() as u64,
            })
    }

    /// Two-level path of leaf `leaf_in_slot` of committed slot `slot`.
    pub fn path(&self, slot: u64, leaf_in_slot: u64) -> Result<EraSlotPath, MerkleError> {
        let layers = self.slot(slot)?;
        if leaf_in_slot as u128 >= self.slot_size() as u128 {
            return Err(MerkleError::IndexOutOfRange {
                index: leaf_in_slot as u128,
                capacity: self.slot_size() as u128,
            });
        }
        let a = self.arity() as u64;
        let mut siblings = Vec::with_capacity(self.slot_depth as usize);
        let mut positions = Vec::with_capacity(self.slot_depth as usize);
        let mut idx = leaf_in_slot;
        for layer in &layers[..self.slot_depth as usize] {
            let pos = idx % a;
            let base = (idx - pos) as usize;
            siblings.push(
                (0..a as usize)
                    .filter(|&p| p as u64 != pos)
                    .map(|p| layer[base + p])
                    .collect(),
            );
            positions.push(pos as u8);
            idx /= a;
        }
        let slot_path = MerklePath {
            leaf_index: leaf_in_slot,
            arity: self.arity(),
            siblings,
            positions,
        };
        Ok(EraSlotPath {
            slot_path,
            era_path: self.era.path(slot)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{toy::toy, SparseMerkleTree};

    #[test]
    fn equals_one_tree_of_summed_depth() {
        for (arity, ds, de) in [(2usize, 2u32, 3u32), (3, 1, 3), (4, 2, 2), (2, 0, 4)] {
            let h = toy(arity);
            let empty = Fr::from(42u64);
            let mut es = EraSlotTree::new(h.clone(), ds, de, empty).unwrap();
            let mut flat = SparseMerkleTree::with_height(h.clone(), ds + de, empty).unwrap();
            assert_eq!(es.root(), flat.root());
            let size = es.slot_size() as u64;
            for s in 0..3u64 {
                let leaves: Vec<Fr> = (0..size).map(|i| Fr::from(s * 1000 + i + 1)).collect();
                assert_eq!(es.commit_slot(&leaves).unwrap(), s);
                let batch: Vec<_> = leaves
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (s * size + i as u64, *l))
                    .collect();
                flat.insert_batch(&batch).unwrap();
                assert_eq!(es.root(), flat.root(), "A={arity} ds={ds} de={de} slot {s}");
                for i in 0..size {
                    let p = es.path(s, i).unwrap();
                    assert!(p.verify(&leaves[i as usize], &es.root(), h.as_ref()));
                    assert_eq!(p.flatten().unwrap(), flat.path(s * size + i).unwrap());
                }
            }
        }
    }

    #[test]
    fn errors() {
        let h = toy(2);
        let mut es = EraSlotTree::new(h, 2, 1, Fr::from(0u64)).unwrap();
        assert!(matches!(
            es.commit_slot(&[Fr::from(1u64); 3]),
            Err(MerkleError::Length {
                got: 3,
                expected: 4,
                ..
            })
        ));
        es.commit_slot(&[Fr::from(1u64); 4]).unwrap();
        es.commit_slot(&[Fr::from(2u64); 4]).unwrap();
        assert!(matches!(
            es.commit_slot(&[Fr::from(3u64); 4]),
            Err(MerkleError::TreeFull { .. })
        ));
        assert!(matches!(
            es.path(2, 0),
            Err(MerkleError::UnknownSlot {
                slot: 2,
                committed: 2
            })
        ));
        assert!(matches!(
            es.path(0, 4),
            Err(MerkleError::IndexOutOfRange { .. })
        ));
    }
}
