//! A fixed-length sponge over any [`Permutation`], used as the hash and the
//! Merkle node compression of families whose reference defines only a permutation.
//!
//! Construction (capacity 1, rate `t - 1`): the state starts as `[iv, 0, ..., 0]`;
//! inputs are absorbed `t - 1` at a time by field addition into positions
//! `1..t`, with one permutation after each chunk; the output is `state[0]`.
//! With `iv = 0` and exactly `t - 1` inputs this is `perm([0, x_1, ..., x_{t-1}])[0]`,
//! the same shape as circomlib's Poseidon hash.
//!
//! The length is not absorbed: callers use it for a fixed number of inputs
//! (a Merkle node always has `A` children), where no padding ambiguity arises.

use std::sync::Arc;

use crate::error::check_nonempty;
use crate::{params, FieldHasher, Fr, HashError, NodeHasher, Params, Permutation};

/// Fixed-length sponge with capacity 1 at state index 0.
#[derive(Clone)]
pub struct Sponge {
    perm: Arc<dyn Permutation>,
    iv: Fr,
}

impl Sponge {
    /// A sponge over `perm` with initial capacity value 0.
    pub fn new(perm: Arc<dyn Permutation>) -> Self {
        Self {
            perm,
            iv: Fr::from(0u64),
        }
    }

    /// The permutation used.
    pub fn permutation(&self) -> &Arc<dyn Permutation> {
        &self.perm
    }

    /// Rate: inputs absorbed per permutation call.
    pub fn rate(&self) -> usize {
        self.perm.width() - 1
    }

    /// Number of permutation calls needed for `n` inputs.
    pub fn calls_for(&self, n: usize) -> usize {
        n.div_ceil(self.rate()).max(1)
    }

    fn absorb_all(&self, inputs: &[Fr]) -> Fr {
        let t = self.perm.width();
        let mut state = vec![Fr::from(0u64); t];
        state[0] = self.iv;
        if inputs.is_empty() {
            self.perm.permute_mut(&mut state);
        }
        for chunk in inputs.chunks(t - 1) {
            for (s, x) in state[1..].iter_mut().zip(chunk) {
                *s += x;
            }
            self.perm.permute_mut(&mut state);
        }
        state[0]
    }
}

impl FieldHasher for Sponge {
    fn family(&self) -> &'static str {
        self.perm.family()
    }

    fn params(&self) -> Params {
        let mut p = self.perm.params();
        p.extend(params! {
            "mode" => "sponge: capacity 1 at index 0 (iv 0), rate t-1 by addition, output state[0]",
        });
        p
    }

    fn hash(&self, inputs: &[Fr]) -> Result<Fr, HashError> {
        check_nonempty(format!("{} sponge hash", self.perm.family()), inputs)?;
        Ok(self.absorb_all(inputs))
    }
}

/// A Merkle node hasher that runs a [`Sponge`] over exactly `arity` children.
#[derive(Clone)]
pub struct SpongeNodeHasher {
    sponge: Sponge,
    arity: usize,
}

impl SpongeNodeHasher {
    /// Node hasher of the given arity over `perm`.
    pub fn new(perm: Arc<dyn Permutation>, arity: usize) -> Self {
        assert!(arity >= 2, "Merkle arity must be at least 2");
        Self {
            sponge: Sponge::new(perm),
            arity,
        }
    }
}

impl NodeHasher for SpongeNodeHasher {
    fn family(&self) -> &'static str {
        self.sponge.perm.family()
    }

    fn arity(&self) -> usize {
        self.arity
    }

    fn params(&self) -> Params {
        let mut p = self.sponge.params();
        p.extend(params! {
            "arity" => self.arity,
            "permutations_per_node" => self.sponge.calls_for(self.arity),
        });
        p
    }

    fn hash_node(&self, children: &[Fr]) -> Fr {
        assert_eq!(
            children.len(),
            self.arity,
            "node hasher called with wrong child count"
        );
        self.sponge.absorb_all(children)
    }
}
