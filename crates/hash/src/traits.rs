//! The small layered traits every hash in this crate implements:
//! a [`Permutation`] of a fixed-width state, a variable-length [`FieldHasher`]
//! (each reference's own hash definition) and an A-to-1 [`NodeHasher`] that
//! Merkle trees are built from.

use crate::{Fr, HashError};

/// Parameters of an instance, as a JSON object (for `--json` output and reports).
pub type Params = serde_json::Map<String, serde_json::Value>;

/// A permutation of `Fr^t`.
pub trait Permutation: Send + Sync {
    /// Short family name, e.g. `"poseidon2"`.
    fn family(&self) -> &'static str;

    /// State width `t`.
    fn width(&self) -> usize;

    /// Every parameter of the instance (width, exponent, rounds, matrix kind,
    /// constant provenance ...).
    fn params(&self) -> Params;

    /// Applies the permutation in place.
    ///
    /// # Panics
    /// Panics if `state.len() != self.width()` (a programmer error; use
    /// [`Permutation::permute`] for unchecked input).
    fn permute_mut(&self, state: &mut [Fr]);

    /// Applies the permutation to a copy of `state`, checking its length.
    fn permute(&self, state: &[Fr]) -> Result<Vec<Fr>, HashError> {
        if state.len() != self.width() {
            return Err(HashError::InputLength {
                what: format!("{} permutation of width {}", self.family(), self.width()),
                got: state.len(),
                expected: format!("exactly {}", self.width()),
            });
        }
        let mut s = state.to_vec();
        self.permute_mut(&mut s);
        Ok(s)
    }
}

/// A hash of a sequence of field elements to one field element.
pub trait FieldHasher: Send + Sync {
    /// Short family name.
    fn family(&self) -> &'static str;

    /// Every parameter of the instance, including how inputs are absorbed.
    fn params(&self) -> Params;

    /// Hashes `inputs`; errors if their number is not accepted.
    fn hash(&self, inputs: &[Fr]) -> Result<Fr, HashError>;
}

/// An A-to-1 compression used for the nodes of an A-ary Merkle tree.
pub trait NodeHasher: Send + Sync {
    /// Short family name.
    fn family(&self) -> &'static str;

    /// Number of children `A` per node.
    fn arity(&self) -> usize;

    /// Parameters, including how the children are placed in the state.
    fn params(&self) -> Params;

    /// Hashes exactly `arity()` children into their parent.
    ///
    /// # Panics
    /// Panics if `children.len() != self.arity()` (programmer error).
    fn hash_node(&self, children: &[Fr]) -> Fr;
}

/// Builds a [`Params`] object from `(key, value)` pairs.
#[macro_export]
macro_rules! params {
    ($($k:expr => $v:expr),* $(,)?) => {{
        let mut m = $crate::Params::new();
        $( m.insert(($k).to_string(), serde_json::json!($v)); )*
        m
    }};
}
