//! neptune (placeholder: being implemented).
#![allow(missing_docs, unused_variables)]

use std::sync::Arc;

use crate::{HashError, NodeHasher, Permutation};

pub const FAMILY: &str = "neptune";

pub fn supported_widths() -> Vec<usize> {
    vec![]
}

pub fn permutation(width: usize) -> Result<Arc<dyn Permutation>, HashError> {
    Err(HashError::UnsupportedWidth { family: FAMILY, width, supported: vec![] })
}

pub fn node_hasher(arity: usize) -> Result<Arc<dyn NodeHasher>, HashError> {
    Err(HashError::UnsupportedArity { family: FAMILY, arity, supported: vec![] })
}
