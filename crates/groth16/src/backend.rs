//! A hash family as the circuits need it: the native node hashers (arity 2
//! for notes and nullifiers, arity `A` for the tree) together with the R1CS
//! gadgets that compute the same functions.

use std::sync::Arc;

use zkbench_hash::{HashFamily, NodeHasher};

use crate::gadgets::{self, NodeHashGadget};
use crate::statement::NativeHashes;
use crate::Groth16Error;

/// Native node hashers and their gadgets for one family, exponent and arity.
#[derive(Clone)]
pub struct HashBackend {
    name: String,
    alpha: u64,
    native: NativeHashes,
    gadget_pair: Arc<dyn NodeHashGadget>,
    gadget_node: Arc<dyn NodeHashGadget>,
}

impl HashBackend {
    /// The backend of a library family: `HashFamily::node_hasher(2 and A,
    /// alpha)` and the matching gadgets ([`gadgets::node_gadget`]).
    pub fn for_family(
        family: HashFamily,
        alpha: Option<u64>,
        arity: usize,
    ) -> Result<Self, Groth16Error> {
        let alpha = family.resolve_alpha(alpha)?;
        let native = NativeHashes::for_family(family, Some(alpha), arity)?;
        let (gadget_pair, gadget_node) =
            crate::statement::pair_and_node(arity, |a| gadgets::node_gadget(family, a, alpha))?;
        Ok(Self {
            name: family.name().to_string(),
            alpha,
            native,
            gadget_pair,
            gadget_node,
        })
    }

    /// A backend from explicit parts (tests and experiments). The arity-2
    /// pair hashes notes and nullifiers; `node` hashes the tree.
    ///
    /// # Panics
    /// If the arities of a native hasher and its gadget differ, or the pair is
    /// not of arity 2.
    pub fn custom(
        name: impl Into<String>,
        alpha: u64,
        pair: (Arc<dyn NodeHasher>, Arc<dyn NodeHashGadget>),
        node: (Arc<dyn NodeHasher>, Arc<dyn NodeHashGadget>),
    ) -> Self {
        assert_eq!(pair.0.arity(), 2);
        assert_eq!(pair.1.arity(), 2);
        assert_eq!(node.0.arity(), node.1.arity());
        Self {
            name: name.into(),
            alpha,
            native: NativeHashes::new(pair.0, node.0).expect("arity-2 pair checked above"),
            gadget_pair: pair.1,
            gadget_node: node.1,
        }
    }

    /// Family name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// S-box exponent.
    pub fn alpha(&self) -> u64 {
        self.alpha
    }

    /// Tree arity.
    pub fn arity(&self) -> usize {
        self.native.arity()
    }

    /// The native hashers, as the statement computes with them.
    pub fn native(&self) -> &NativeHashes {
        &self.native
    }

    /// Native 2-to-1 hasher (notes, nullifiers).
    pub fn native_pair(&self) -> &Arc<dyn NodeHasher> {
        self.native.native_pair()
    }

    /// Native tree node hasher.
    pub fn native_node(&self) -> &Arc<dyn NodeHasher> {
        self.native.native_node()
    }

    /// 2-to-1 gadget.
    pub fn gadget_pair(&self) -> &Arc<dyn NodeHashGadget> {
        &self.gadget_pair
    }

    /// Tree node gadget.
    pub fn gadget_node(&self) -> &Arc<dyn NodeHashGadget> {
        &self.gadget_node
    }
}
