//! Checks shared by the families' unit tests.

use std::sync::Arc;

use crate::{Fr, HashError, NodeHasher, Permutation};

/// Asserts that `permutation(bad_width)` is refused with
/// [`HashError::UnsupportedWidth`] and `node_hasher(bad_arity)` with
/// [`HashError::UnsupportedArity`], each naming the value given, and that for
/// every arity `a` in 2..=16 `node_hasher(a)` has arity `a` and hashes the
/// children `0..a`.
pub(crate) fn check_registry(
    permutation: fn(usize) -> Result<Arc<dyn Permutation>, HashError>,
    bad_width: usize,
    node_hasher: fn(usize) -> Result<Arc<dyn NodeHasher>, HashError>,
    bad_arity: usize,
) {
    assert!(matches!(
        permutation(bad_width),
        Err(HashError::UnsupportedWidth { width, .. }) if width == bad_width
    ));
    assert!(matches!(
        node_hasher(bad_arity),
        Err(HashError::UnsupportedArity { arity, .. }) if arity == bad_arity
    ));
    for a in 2..=16 {
        let h = node_hasher(a).unwrap();
        assert_eq!(h.arity(), a);
        let kids: Vec<Fr> = (0..a as u64).map(Fr::from).collect();
        let _ = h.hash_node(&kids);
    }
}

/// Asserts that `fast` and `reference` map each of `samples` fixed states of
/// width `width` to the same state, and that it differs from the input.
pub(crate) fn check_fast_equals_reference(
    width: u64,
    samples: u64,
    fast: impl Fn(&mut [Fr]),
    reference: impl Fn(&mut [Fr]),
) {
    for seed in 0..samples {
        let input: Vec<Fr> = (0..width)
            .map(|i| Fr::from(seed * 1_000_003 + i * 7919 + 1))
            .collect();
        let mut a = input.clone();
        let mut b = input.clone();
        fast(&mut a);
        reference(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, input);
    }
}
