//! The private pool of Guo et al.: the shape of its era/slot tree and the
//! **slot-insert** statement the sequencer proves for every batch
//! (see `docs/pool.md`).
//!
//! # Slot insert
//! Binary trees of the family's 2-to-1 node hash `H_2`. For a batch of
//! `B = 2^slot_depth` leaves, an era of depth `era_depth` and a slot index `k`:
//! * public inputs, in this order: `old_root`, `new_root`, `slot_index`, then
//!   the `B` leaves;
//! * private: the `era_depth` siblings of the era path at `k`;
//! * constraints:
//!   - `slot_root` = root of the full tree over the leaves (`B − 1` hashes),
//!   - `slot_index = Σ bᵢ 2ⁱ` with every `bᵢ` boolean (the position is bound,
//!     unlike the membership product of the spend circuit),
//!   - the era path at `k` with those siblings leads from the empty slot root
//!     ([`empty_slot_root`]) to `old_root` and from `slot_root` to `new_root`
//!     (at each level the node is the left child when `bᵢ = 0`).
//!
//! So the chain learns, from one proof, that the new era root is the old one
//! with exactly this batch appended at slot `k`, and that slot `k` was empty.

use zkbench_hash::field::fr_from_be_bytes_mod_order;

use crate::{
    batch_root, CircuitKind, Fr, NativeHashes, StatementConfig, StatementError, TreeShape,
};

/// The tag string of [`pool_empty_leaf`].
pub const POOL_EMPTY_LEAF_TAG: &[u8] = b"zkbench/pool/empty";

/// Largest slot depth (batch of `2^12` leaves, as [`crate::MAX_BATCH_LEAVES`]).
pub const MAX_SLOT_DEPTH: u32 = 12;

/// Largest `slot_depth + era_depth` (leaf indices fit in `u64`).
pub const MAX_TOTAL_DEPTH: u32 = 63;

/// The empty leaf `E` of the pool's tree: the big-endian integer of the ASCII
/// bytes `"zkbench/pool/empty"`. No note commitment equals it unless someone
/// finds an `H_2` preimage; the contract also refuses it as a deposit.
pub fn pool_empty_leaf() -> Fr {
    fr_from_be_bytes_mod_order(POOL_EMPTY_LEAF_TAG)
}

/// Depths of the pool's two-level tree (binary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PoolShape {
    /// Depth of each slot (batch) tree: `2^slot_depth` deposits per batch.
    pub slot_depth: u32,
    /// Depth of the era tree: `2^era_depth` slots.
    pub era_depth: u32,
}

impl PoolShape {
    /// Checks `1 ≤ slot_depth ≤ 12`, `1 ≤ era_depth` and
    /// `slot_depth + era_depth ≤ 63`.
    pub fn new(slot_depth: u32, era_depth: u32) -> Result<Self, StatementError> {
        if !(1..=MAX_SLOT_DEPTH).contains(&slot_depth) {
            return Err(StatementError::Config(format!(
                "slot depth {slot_depth} not in 1..={MAX_SLOT_DEPTH}"
            )));
        }
        if era_depth == 0 || slot_depth + era_depth > MAX_TOTAL_DEPTH {
            return Err(StatementError::Config(format!(
                "era depth {era_depth} must be at least 1 and slot depth + era depth at most {MAX_TOTAL_DEPTH}"
            )));
        }
        Ok(Self {
            slot_depth,
            era_depth,
        })
    }

    /// Deposits per batch, `2^slot_depth`.
    pub fn batch_size(&self) -> usize {
        1usize << self.slot_depth
    }

    /// Number of slots, `2^era_depth`.
    pub fn slots(&self) -> u64 {
        1u64 << self.era_depth
    }

    /// The note-spend statement a withdrawal proves: binary, height
    /// `slot_depth + era_depth` (the flattened era/slot tree).
    pub fn spend_config(
        &self,
        family: zkbench_hash::HashFamily,
        alpha: Option<u64>,
    ) -> StatementConfig {
        StatementConfig {
            family,
            alpha,
            arity: 2,
            leaves: 1u64 << (self.slot_depth + self.era_depth),
            circuit: CircuitKind::Spend,
        }
    }

    /// Number of public inputs of the slot-insert statement, `3 + 2^slot_depth`.
    pub fn slot_insert_inputs(&self) -> usize {
        3 + self.batch_size()
    }
}

/// Witness of the slot-insert statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotInsertWitness {
    /// The batch's leaves, in order (`2^slot_depth`).
    pub leaves: Vec<Fr>,
    /// Where the slot goes in the era tree.
    pub slot_index: u64,
    /// The era path's siblings at `slot_index`, bottom-up (`era_depth`).
    pub era_siblings: Vec<Fr>,
}

/// Root of a slot of empty leaves.
pub fn empty_slot_root(hashes: &NativeHashes, shape: &PoolShape) -> Fr {
    let h = hashes.native_pair();
    let mut z = pool_empty_leaf();
    for _ in 0..shape.slot_depth {
        z = h.hash_node(&[z, z]);
    }
    z
}

/// Root reached from `leaf` at `index` with binary `siblings` (bottom-up;
/// bit `i` of `index` = 1 means the node is the right child at level `i`).
pub fn binary_path_root(hashes: &NativeHashes, leaf: Fr, index: u64, siblings: &[Fr]) -> Fr {
    let h = hashes.native_pair();
    let mut cur = leaf;
    for (i, s) in siblings.iter().enumerate() {
        cur = if (index >> i) & 1 == 0 {
            h.hash_node(&[cur, *s])
        } else {
            h.hash_node(&[*s, cur])
        };
    }
    cur
}

/// Root of the slot tree over `leaves` (exactly `2^slot_depth`).
pub fn slot_root(
    hashes: &NativeHashes,
    shape: &PoolShape,
    leaves: &[Fr],
) -> Result<Fr, StatementError> {
    let tree = TreeShape {
        arity: 2,
        height: shape.slot_depth as usize,
    };
    let pair = NativeHashes::new(hashes.native_pair().clone(), hashes.native_pair().clone())?;
    batch_root(&pair, &tree, leaves)
}

/// Native public inputs of the slot-insert statement:
/// `[old_root, new_root, slot_index, leaves…]`.
pub fn slot_insert_public_inputs(
    hashes: &NativeHashes,
    shape: &PoolShape,
    w: &SlotInsertWitness,
) -> Result<Vec<Fr>, StatementError> {
    if w.era_siblings.len() != shape.era_depth as usize {
        return Err(StatementError::Witness(format!(
            "the era path needs {} siblings; got {}",
            shape.era_depth,
            w.era_siblings.len()
        )));
    }
    if w.slot_index >= shape.slots() {
        return Err(StatementError::Witness(format!(
            "slot index {} out of range (the era has {} slots)",
            w.slot_index,
            shape.slots()
        )));
    }
    let root = slot_root(hashes, shape, &w.leaves)?;
    let old = binary_path_root(
        hashes,
        empty_slot_root(hashes, shape),
        w.slot_index,
        &w.era_siblings,
    );
    let new = binary_path_root(hashes, root, w.slot_index, &w.era_siblings);
    let mut v = vec![old, new, Fr::from(w.slot_index)];
    v.extend_from_slice(&w.leaves);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use zkbench_hash::HashFamily;
    use zkbench_merkle::EraSlotTree;

    #[test]
    fn insertion_matches_the_era_slot_tree() {
        let hashes = NativeHashes::for_family(HashFamily::Poseidon2, None, 2).unwrap();
        let shape = PoolShape::new(2, 3).unwrap();
        let mut tree = EraSlotTree::new(
            Arc::clone(hashes.native_pair()),
            shape.slot_depth,
            shape.era_depth,
            pool_empty_leaf(),
        )
        .unwrap();
        assert_eq!(
            tree.era().zeros(0).unwrap(),
            empty_slot_root(&hashes, &shape)
        );
        for s in 0..3u64 {
            let old = tree.root();
            let leaves: Vec<Fr> = (0..4).map(|i| Fr::from(10 * s + i + 1)).collect();
            tree.commit_slot(&leaves).unwrap();
            let path = tree.path(s, 0).unwrap();
            let w = SlotInsertWitness {
                leaves: leaves.clone(),
                slot_index: s,
                era_siblings: path.era_path.siblings.iter().map(|l| l[0]).collect(),
            };
            let p = slot_insert_public_inputs(&hashes, &shape, &w).unwrap();
            assert_eq!(p[0], old);
            assert_eq!(p[1], tree.root());
            assert_eq!(p[2], Fr::from(s));
            assert_eq!(&p[3..], &leaves[..]);
        }
    }

    #[test]
    fn bad_shapes_and_witnesses() {
        assert!(PoolShape::new(0, 4).is_err());
        assert!(PoolShape::new(13, 4).is_err());
        assert!(PoolShape::new(5, 0).is_err());
        assert!(PoolShape::new(5, 60).is_err());
        let hashes = NativeHashes::for_family(HashFamily::Poseidon2, None, 2).unwrap();
        let shape = PoolShape::new(1, 2).unwrap();
        let w = SlotInsertWitness {
            leaves: vec![Fr::from(1u64); 2],
            slot_index: 4,
            era_siblings: vec![Fr::from(0u64); 2],
        };
        assert!(slot_insert_public_inputs(&hashes, &shape, &w).is_err());
        let w = SlotInsertWitness {
            slot_index: 0,
            era_siblings: vec![Fr::from(0u64); 1],
            ..w
        };
        assert!(slot_insert_public_inputs(&hashes, &shape, &w).is_err());
    }
}
