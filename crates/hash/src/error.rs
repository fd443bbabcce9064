//! Errors returned by the hash library.

/// What went wrong when constructing or calling a hash instance.
///
/// Every variant says what was given and what is accepted, so that the CLI
/// can print it verbatim.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// The family has no instance of this state width.
    #[error("{family} has no instance of width {width}; supported widths: {supported:?}")]
    UnsupportedWidth {
        /// Hash family name.
        family: &'static str,
        /// Requested width.
        width: usize,
        /// Widths that exist.
        supported: Vec<usize>,
    },
    /// The family has no instance with this S-box exponent.
    #[error("{family} has no instance with alpha = {alpha}; supported alphas: {supported:?}")]
    UnsupportedAlpha {
        /// Hash family name.
        family: &'static str,
        /// Requested exponent.
        alpha: u64,
        /// Exponents that exist.
        supported: Vec<u64>,
    },
    /// The family cannot hash Merkle nodes of this arity.
    #[error(
        "{family} cannot hash Merkle nodes of arity {arity}; supported arities: {supported:?}"
    )]
    UnsupportedArity {
        /// Hash family name.
        family: &'static str,
        /// Requested arity.
        arity: usize,
        /// Arities that exist.
        supported: Vec<usize>,
    },
    /// Wrong number of inputs.
    #[error("{what}: got {got} input(s), expected {expected}")]
    InputLength {
        /// What was being computed.
        what: String,
        /// Number of inputs given.
        got: usize,
        /// What is accepted, in words (e.g. "exactly 3", "1 to 16").
        expected: String,
    },
    /// A string that is not a canonical BN254 scalar field element.
    #[error("invalid field element {input:?}: {reason} (accepted: a decimal or 0x-prefixed hex integer below the BN254 scalar field modulus r = {modulus})")]
    InvalidFieldElement {
        /// The offending text.
        input: String,
        /// Why it was rejected.
        reason: String,
        /// The modulus, in decimal.
        modulus: String,
    },
    /// A family name that is not known.
    #[error("unknown hash family {given:?}; known families: {known}")]
    UnknownFamily {
        /// The name given.
        given: String,
        /// Comma-separated list of known names.
        known: String,
    },
    /// An option that does not apply to the chosen family or mode.
    #[error("{0}")]
    InvalidOption(String),
}

/// The Merkle arities every family's `node_hasher` accepts (`2..=16`).
pub(crate) const NODE_ARITIES: std::ops::RangeInclusive<usize> = 2..=16;

impl HashError {
    /// [`HashError::UnsupportedWidth`] for `family`, listing `supported`.
    pub(crate) fn unsupported_width(
        family: &'static str,
        width: usize,
        supported: Vec<usize>,
    ) -> Self {
        Self::UnsupportedWidth {
            family,
            width,
            supported,
        }
    }

    /// [`HashError::UnsupportedArity`] for `family`, listing `supported`.
    pub(crate) fn unsupported_arity(
        family: &'static str,
        arity: usize,
        supported: Vec<usize>,
    ) -> Self {
        Self::UnsupportedArity {
            family,
            arity,
            supported,
        }
    }
}

/// `Ok(())` if `arity` is in [`NODE_ARITIES`], else [`HashError::UnsupportedArity`]
/// listing them.
pub(crate) fn check_node_arity(family: &'static str, arity: usize) -> Result<(), HashError> {
    arity_unless(family, arity, NODE_ARITIES.contains(&arity))
}

/// `Ok(())` if `arity` is at least 2 (families whose sponge node hasher takes
/// any number of children), else [`HashError::UnsupportedArity`] listing
/// [`NODE_ARITIES`].
pub(crate) fn check_min_arity(family: &'static str, arity: usize) -> Result<(), HashError> {
    arity_unless(family, arity, arity >= 2)
}

/// `Ok(())` if `ok`, else [`HashError::UnsupportedArity`] listing [`NODE_ARITIES`].
fn arity_unless(family: &'static str, arity: usize, ok: bool) -> Result<(), HashError> {
    if ok {
        Ok(())
    } else {
        Err(HashError::unsupported_arity(
            family,
            arity,
            NODE_ARITIES.collect(),
        ))
    }
}

/// `Ok(())` if `width` is one of `supported`, else [`HashError::UnsupportedWidth`]
/// listing them.
pub(crate) fn check_width(
    family: &'static str,
    width: usize,
    supported: &[usize],
) -> Result<(), HashError> {
    if supported.contains(&width) {
        Ok(())
    } else {
        Err(HashError::unsupported_width(
            family,
            width,
            supported.to_vec(),
        ))
    }
}

/// `Ok(())` if `inputs` is not empty, else [`HashError::InputLength`] for
/// `what` (expected at least 1).
pub(crate) fn check_nonempty<T>(what: impl Into<String>, inputs: &[T]) -> Result<(), HashError> {
    if inputs.is_empty() {
        return Err(HashError::InputLength {
            what: what.into(),
            got: 0,
            expected: "at least 1".into(),
        });
    }
    Ok(())
}
