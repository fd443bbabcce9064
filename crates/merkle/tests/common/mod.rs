//! A NON-CRYPTOGRAPHIC test-only node hasher, so that the tree code can be
//! tested independently of the hash families. Do not use it for anything else.
#![allow(dead_code)]

use std::sync::Arc;

use zkbench_hash::{params, Fr, NodeHasher, Params};

/// Toy A-to-1 compression: `s = A; for c in children { s = (s + c)^5 + 1 }`.
/// Position-sensitive and non-linear, but NOT a secure hash.
#[derive(Debug, Clone, Copy)]
pub struct ToyHasher {
    /// Number of children.
    pub arity: usize,
}

impl NodeHasher for ToyHasher {
    fn family(&self) -> &'static str {
        "toy-non-cryptographic"
    }

    fn arity(&self) -> usize {
        self.arity
    }

    fn params(&self) -> Params {
        params! { "arity" => self.arity, "note" => "test-only, not a cryptographic hash" }
    }

    fn hash_node(&self, children: &[Fr]) -> Fr {
        assert_eq!(children.len(), self.arity, "toy hasher arity");
        let mut s = Fr::from(self.arity as u64);
        for c in children {
            let t = s + c;
            let t2 = t * t;
            s = t2 * t2 * t + Fr::from(1u64);
        }
        s
    }
}

/// The toy hasher of arity `arity`, as the trait object trees take.
pub fn toy(arity: usize) -> Arc<dyn NodeHasher> {
    Arc::new(ToyHasher { arity })
}
