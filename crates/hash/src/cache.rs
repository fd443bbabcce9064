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

/// `pub fn get(width)`: the cached shared instance of `$ty` of width `width`,
/// one of the module's `$n` `WIDTHS` (built by `$ty::new`).
macro_rules! cached_get {
    ($ty:ident, $n:literal) => {
        /// The cached shared instance of width `width`.
        pub fn get(width: usize) -> Result<&'static Arc<$ty>, HashError> {
            static CACHE: [OnceLock<Arc<$ty>>; $n] = [const { OnceLock::new() }; $n];
            $crate::cache::cached_by_width(&CACHE, &WIDTHS, FAMILY, width, |w| {
                Self::new(w).expect("width checked against WIDTHS")
            })
        }
    };
}
pub(crate) use cached_get;
