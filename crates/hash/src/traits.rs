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

/// Defines a public Merkle node hasher type `$name` (arity at least 2) whose
/// parent is `$hash(children)`; its parameters are the calling module's
/// `base_params()` with the arity, key 0, `$mode` and one permutation per
/// child, its family the module's `FAMILY`.
macro_rules! keyed_node_hasher {
    ($(#[$doc:meta])* $name:ident, $mode:expr, $hash:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            arity: usize,
        }

        impl $name {
            /// Node hasher for `arity` children.
            ///
            /// # Panics
            /// Panics if `arity < 2` (use [`node_hasher`] for checked construction).
            pub fn new(arity: usize) -> Self {
                assert!(arity >= 2, "Merkle arity must be at least 2");
                Self { arity }
            }
        }

        impl NodeHasher for $name {
            fn family(&self) -> &'static str {
                FAMILY
            }

            fn arity(&self) -> usize {
                self.arity
            }

            fn params(&self) -> Params {
                let mut p = base_params();
                p.extend($crate::params! {
                    "arity" => self.arity,
                    "key" => "0",
                    "mode" => $mode,
                    "permutations_per_node" => self.arity,
                });
                p
            }

            fn hash_node(&self, children: &[Fr]) -> Fr {
                assert_eq!(
                    children.len(),
                    self.arity,
                    "node hasher called with wrong child count"
                );
                let hash: fn(&[Fr]) -> Fr = $hash;
                hash(children)
            }
        }
    };
}
pub(crate) use keyed_node_hasher;

/// The `family` and `width` of a [`Permutation`] impl whose module has a
/// `FAMILY` and whose type has a `width` field.
macro_rules! family_and_width {
    () => {
        fn family(&self) -> &'static str {
            FAMILY
        }

        fn width(&self) -> usize {
            self.width
        }
    };
}
pub(crate) use family_and_width;

/// A public type `$name` holding one key of `Fr`.
macro_rules! keyed_struct {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            key: Fr,
        }
    };
}
pub(crate) use keyed_struct;

/// Defines a public keyed cipher type `$name` of the calling module (its
/// `ROUNDS`, `ALPHA`, `FAMILY`, `round_constants()` and `base_params()`) as
/// a [`Permutation`] of width `$width`: `$permute(key, state)` with the
/// parameters `$mode` and the key.
macro_rules! keyed_cipher {
    (
        $(#[$doc:meta])* $name:ident,
        constants: $constants_doc:literal,
        width: $width:literal,
        mode: $mode:expr,
        permute: $permute:expr $(,)?
    ) => {
        $crate::traits::keyed_struct!($(#[$doc])* $name);

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $name {
            /// Number of rounds.
            pub const ROUNDS: usize = ROUNDS;
            /// S-box exponent.
            pub const ALPHA: u64 = ALPHA;

            /// The cipher with key 0 (as circomlib's hashers and Tornado Cash use it).
            pub fn new() -> Self {
                Self { key: Fr::zero() }
            }

            /// The cipher with the given key.
            pub fn with_key(key: Fr) -> Self {
                Self { key }
            }

            /// The key.
            pub fn key(&self) -> Fr {
                self.key
            }

            #[doc = $constants_doc]
            pub fn round_constants() -> &'static [Fr; ROUNDS] {
                round_constants()
            }
        }

        impl Permutation for $name {
            fn family(&self) -> &'static str {
                FAMILY
            }

            fn width(&self) -> usize {
                $width
            }

            fn params(&self) -> Params {
                let mut p = base_params();
                p.extend($crate::params! {
                    "width" => $width,
                    "key" => fr_to_decimal(&self.key),
                    "mode" => $mode,
                });
                p
            }

            fn permute_mut(&self, state: &mut [Fr]) {
                let permute: fn(Fr, &mut [Fr]) = $permute;
                permute(self.key, state)
            }
        }
    };
}
pub(crate) use keyed_cipher;

/// The registry functions of a module with one permutation width `$width`:
/// `supported_widths`, `permutation(width)` (the expression `$permutation`)
/// and `node_hasher(arity)` (the expression `$node`, for `arity` in 2..=16;
/// any other arity is refused).
macro_rules! one_width_registry {
    (
        width: $width:literal,
        widths_doc: $wd:literal,
        permutation_doc: $pd:literal,
        node_doc: $nd:literal,
        permutation: |$w:ident| $permutation:expr,
        node: |$a:ident| $node:expr $(,)?
    ) => {
        #[doc = $wd]
        pub fn supported_widths() -> Vec<usize> {
            vec![$width]
        }

        #[doc = $pd]
        pub fn permutation($w: usize) -> Result<Arc<dyn Permutation>, HashError> {
            $permutation
        }

        #[doc = $nd]
        pub fn node_hasher($a: usize) -> Result<Arc<dyn NodeHasher>, HashError> {
            check_node_arity(FAMILY, $a)?;
            $node
        }
    };
}
pub(crate) use one_width_registry;

/// Defines a public [`FieldHasher`] type `$name` of the calling module (its
/// `FAMILY` and `base_params()`): `$hash(inputs, key)` for one or more
/// inputs (`$what` names it in the error for none), with the key and
/// `$params` as its parameters.
macro_rules! keyed_field_hasher {
    (
        $(#[$doc:meta])* $name:ident,
        new_doc: $new_doc:literal,
        what: $what:literal,
        params: { $($k:literal => $v:expr),* $(,)? },
        hash: $hash:expr $(,)?
    ) => {
        $crate::traits::keyed_struct!($(#[$doc])* $name);

        impl Default for $name {
            fn default() -> Self {
                Self::new(Fr::zero())
            }
        }

        impl $name {
            #[doc = $new_doc]
            pub fn new(key: Fr) -> Self {
                Self { key }
            }
        }

        impl FieldHasher for $name {
            fn family(&self) -> &'static str {
                FAMILY
            }

            fn params(&self) -> Params {
                let mut p = base_params();
                p.extend($crate::params! {
                    "key" => fr_to_decimal(&self.key),
                    $($k => $v,)*
                });
                p
            }

            fn hash(&self, inputs: &[Fr]) -> Result<Fr, HashError> {
                check_nonempty($what, inputs)?;
                let hash: fn(&[Fr], Fr) -> Fr = $hash;
                Ok(hash(inputs, self.key))
            }
        }
    };
}
pub(crate) use keyed_field_hasher;

/// Public getters `fn name(&self) -> Type { self.name }`, each with its
/// documentation, for fields of `Copy` types.
macro_rules! getters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty),* $(,)?) => {
        $(
            $(#[$doc])*
            pub fn $name(&self) -> $ty {
                self.$name
            }
        )*
    };
}
pub(crate) use getters;
