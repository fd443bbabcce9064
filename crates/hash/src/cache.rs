//! Per-width caches of generated instances (crate-internal).

use std::sync::{Arc, OnceLock};

use crate::HashError;

/// The instance of width `width` from `cache`, where `cache[i]` holds the instance of
/// `widths[i]`, built by `build(width)` on first use; `UnsupportedWidth` (listing
/// `widths`) for any other width.
pub(crate) fn cached_by_width<T>(
    cache: &'static [OnceLock<Arc<T>>],
    widths: &[usize],
    family: &'static str,
    width: usize,
    build: impl FnOnce(usize) -> T,
) -> Result<&'static Arc<T>, HashError> {
    debug_assert_eq!(cache.len(), widths.len());
    let idx = widths
        .iter()
        .position(|&w| w == width)
        .ok_or_else(|| HashError::unsupported_width(family, width, widths.to_vec()))?;
    Ok(cache[idx].get_or_init(|| Arc::new(build(width))))
}
