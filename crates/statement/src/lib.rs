//! # zkbench-statement
//!
//! The note-spend statement, defined once for every proof-system backend of
//! zkbench (Groth16, Halo2-KZG, and the WebAssembly, EVM and pool layers on
//! top of them), and its two companions (membership-only and batch-root):
//! configuration ([`StatementConfig`]), tree shape, witnesses, and the native
//! computation of notes, nullifiers and public inputs. Backends prove exactly
//! what this crate computes natively; paths are the `zkbench-merkle` paths.
//!
//! # Tree shape
//! A tree of `leaves` leaves (default 2^36) and arity `A` (2..=16) has height
//! `h = ⌈log_A leaves⌉` (the smallest `h` with `A^h ≥ leaves`). A leaf's
//! position is written in base `A`, least significant digit first: digit `i`
//! is the index of the level-`i` node among its `A` siblings (level 0 = leaves).
//! A path lists, for each level bottom-up, the `A − 1` siblings in child order
//! with the path node left out. Nodes are hashed with the family's native
//! `HashFamily::node_hasher(A, alpha)` (written `H_A` below), exactly as in the
//! `zkbench-merkle` trees.
//!
//! # Note-spend
//! * private: nullifier `n`, secret `s`, the position digits, the siblings;
//! * public inputs, in this order: `root`, `nullifier_hash`, `ext_data_hash`;
//! * constraints:
//!   - `leaf = H_2(n, s)` (the family's 2-to-1 node compression),
//!   - `nullifier_hash = H_2(n, DOMAIN_NULLIFIER)` with the constant
//!     [`domain_nullifier`], and `s ≠ DOMAIN_NULLIFIER` (one constraint:
//!     `(s − D)·inv = 1`). The two domains are therefore disjoint: a leaf and a
//!     nullifier hash can only coincide through a collision of `H_2`,
//!   - the path from `leaf` to `root` (see *Position* below),
//!   - `ext_data_hash` is bound to the proof by the constraint
//!     `ext_data_hash · ext_data_hash = sq` (as Tornado Cash does): Groth16
//!     proofs are only valid for the public inputs they were made for, and a
//!     constraint touching the input keeps the input from being optimised away
//!     by any backend. The caller hashes recipient, relayer and fee into this
//!     one field element (any hash; the circuit does not look inside).
//!
//! # Membership-only
//! Public: `root`. Private: `leaf`, the position digits, the siblings.
//! Constraints: the path from `leaf` to `root`.
//!
//! # Batch root
//! A full tree of `A^d` leaves (`d = ⌈log_A leaves⌉`, `(A^d − 1)/(A − 1)`
//! node hashes; `d = 0` is a single leaf which is the root). Public inputs:
//! `root`, then the `A^d` leaves in order (the sequencer's deposit proof of
//! the pool of Guo et al. publishes the batch so that the chain can check it contains every
//! deposit; a committed-leaves variant would hash them to one input instead).
//!
//! # Position
//! At each level the circuit witnesses the `A` children in order and enforces
//! that the current node is one of them with the *membership product*
//! `Π_i (child_i − cur) = 0`, which costs `A − 1` constraints per level
//! (no booleans, no selector, no chain of swaps). The position digits only
//! decide where the prover places `cur` among the children; the circuit does
//! not bind them, which is fine for membership (the position is private
//! anyway, and a different position changes the parent hash, hence the root).
//! A one-hot selector would cost `A` booleanity constraints, one sum and
//! `A` products per level (`2A + 1`) for the same soundness.

#![deny(missing_docs)]

pub mod pool;

use std::sync::{Arc, OnceLock};

use ark_ff::UniformRand;
use rand::Rng;
use zkbench_hash::{field::fr_from_be_bytes_mod_order, HashError, HashFamily, NodeHasher};

pub use zkbench_hash::Fr;

/// What is wrong with a configuration or a witness.
#[derive(Debug, thiserror::Error)]
pub enum StatementError {
    /// The hash library rejected the parameters.
    #[error(transparent)]
    Hash(#[from] HashError),
    /// Invalid configuration (arity, leaves, batch size ...).
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The witness does not fit the statement (wrong number of siblings, index
    /// out of range ...).
    #[error("invalid witness: {0}")]
    Witness(String),
}

/// Largest batch (number of leaves, hence public inputs) the batch-root
/// statement accepts.
pub const MAX_BATCH_LEAVES: u128 = 1 << 12;

/// Default number of leaves: 2^36.
pub const DEFAULT_LEAVES: u64 = 1 << 36;

/// `(make(2), make(arity))`: the 2-to-1 hash of notes and nullifiers and the
/// tree's node hash, `make(2)` made once and shared when `arity` is 2. Used
/// by [`NativeHashes::for_family`] and by backends building their gadgets.
pub fn pair_and_node<T: Clone, E>(
    arity: usize,
    make: impl Fn(usize) -> Result<T, E>,
) -> Result<(T, T), E> {
    let pair = make(2)?;
    let node = if arity == 2 {
        pair.clone()
    } else {
        make(arity)?
    };
    Ok((pair, node))
}

/// The native node hashers of a statement: arity 2 (notes, nullifiers) and
/// the tree arity.
#[derive(Clone)]
pub struct NativeHashes {
    pair: Arc<dyn NodeHasher>,
    node: Arc<dyn NodeHasher>,
}

impl NativeHashes {
    /// `family.node_hasher(2, alpha)` and `family.node_hasher(arity, alpha)`.
    pub fn for_family(
        family: HashFamily,
        alpha: Option<u64>,
        arity: usize,
    ) -> Result<Self, StatementError> {
        let (pair, node) = pair_and_node(arity, |a| family.node_hasher(a, alpha))?;
        Ok(Self { pair, node })
    }

    /// Explicit hashers (tests and experiments).
    ///
    /// # Errors
    /// If `pair` is not of arity 2.
    pub fn new(
        pair: Arc<dyn NodeHasher>,
        node: Arc<dyn NodeHasher>,
    ) -> Result<Self, StatementError> {
        if pair.arity() != 2 {
            return Err(StatementError::Config(format!(
                "the note/nullifier hasher must have arity 2, not {}",
                pair.arity()
            )));
        }
        Ok(Self { pair, node })
    }

    /// Native 2-to-1 hasher (notes, nullifiers).
    pub fn native_pair(&self) -> &Arc<dyn NodeHasher> {
        &self.pair
    }

    /// Native tree node hasher.
    pub fn native_node(&self) -> &Arc<dyn NodeHasher> {
        &self.node
    }

    /// Tree arity.
    pub fn arity(&self) -> usize {
        self.node.arity()
    }
}

/// What to prove: hash family and exponent, tree arity and size, circuit.
/// Every backend takes its statement from this one configuration.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct StatementConfig {
    /// Hash family.
    pub family: HashFamily,
    /// S-box exponent (`None`: the family's default).
    pub alpha: Option<u64>,
    /// Tree arity (2..=16).
    pub arity: usize,
    /// Number of leaves (height `⌈log_A leaves⌉`; batch root: `A^height` leaves).
    pub leaves: u64,
    /// Which circuit.
    pub circuit: CircuitKind,
}

impl StatementConfig {
    /// A binary 2^36-leaf note spend with `family`'s default exponent.
    pub fn new(family: HashFamily) -> Self {
        Self {
            family,
            alpha: None,
            arity: 2,
            leaves: DEFAULT_LEAVES,
            circuit: CircuitKind::Spend,
        }
    }

    /// The tree shape; checks arity, leaves and batch size.
    pub fn shape(&self) -> Result<TreeShape, StatementError> {
        let shape = TreeShape::for_leaves(self.arity, self.leaves)?;
        if self.circuit != CircuitKind::BatchRoot && shape.height == 0 {
            return Err(StatementError::Config(
                "a path needs at least 2 leaves".into(),
            ));
        }
        if self.circuit == CircuitKind::BatchRoot && shape.capacity() > MAX_BATCH_LEAVES {
            return Err(StatementError::Config(format!(
                "batch of {} leaves is too large (at most {MAX_BATCH_LEAVES})",
                shape.capacity()
            )));
        }
        Ok(shape)
    }

    /// The exponent in use.
    pub fn resolved_alpha(&self) -> Result<u64, StatementError> {
        Ok(self.family.resolve_alpha(self.alpha)?)
    }

    /// The native hashers of this statement.
    pub fn native_hashes(&self) -> Result<NativeHashes, StatementError> {
        NativeHashes::for_family(self.family, self.alpha, self.arity)
    }

    /// A file-name-safe description of every parameter:
    /// `<family>-a<alpha>-ar<arity>-l<leaves>-<circuit>`.
    pub fn key_label(&self) -> Result<String, StatementError> {
        Ok(format!(
            "{}-a{}-ar{}-l{}-{}",
            self.family.name(),
            self.resolved_alpha()?,
            self.arity,
            self.leaves,
            self.circuit.name(),
        ))
    }
}

/// The tag string of [`domain_nullifier`].
pub const DOMAIN_NULLIFIER_TAG: &[u8] = b"zkbench/nullifier";

/// `DOMAIN_NULLIFIER`: the big-endian integer of the ASCII bytes
/// `"zkbench/nullifier"` (17 bytes, below the modulus), i.e.
/// `0x7a6b62656e63682f6e756c6c6966696572`.
pub fn domain_nullifier() -> Fr {
    static D: OnceLock<Fr> = OnceLock::new();
    *D.get_or_init(|| fr_from_be_bytes_mod_order(DOMAIN_NULLIFIER_TAG))
}

/// Which statement a circuit proves.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum CircuitKind {
    /// Note spend: public root, nullifier hash, external-data hash.
    Spend,
    /// Membership only: public root.
    Membership,
    /// Root of a full tree over public leaves.
    BatchRoot,
}

impl CircuitKind {
    /// All kinds.
    pub const ALL: [CircuitKind; 3] = [
        CircuitKind::Spend,
        CircuitKind::Membership,
        CircuitKind::BatchRoot,
    ];

    /// Command-line name (`spend`, `membership`, `batch-root`).
    pub fn name(self) -> &'static str {
        match self {
            CircuitKind::Spend => "spend",
            CircuitKind::Membership => "membership",
            CircuitKind::BatchRoot => "batch-root",
        }
    }
}

impl std::str::FromStr for CircuitKind {
    type Err = StatementError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "spend" | "note-spend" => Ok(CircuitKind::Spend),
            "membership" => Ok(CircuitKind::Membership),
            "batch-root" | "batch" => Ok(CircuitKind::BatchRoot),
            _ => Err(StatementError::Config(format!(
                "unknown circuit {s:?}; known: spend, membership, batch-root"
            ))),
        }
    }
}

impl std::fmt::Display for CircuitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Arity and height of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TreeShape {
    /// Children per node (2..=16).
    pub arity: usize,
    /// Number of levels of node hashes between leaf and root.
    pub height: usize,
}

impl TreeShape {
    /// The shape of a tree of `leaves` leaves: `h = ⌈log_A leaves⌉`.
    pub fn for_leaves(arity: usize, leaves: u64) -> Result<Self, StatementError> {
        if !(2..=16).contains(&arity) {
            return Err(StatementError::Config(format!(
                "arity {arity} not in 2..=16"
            )));
        }
        if leaves == 0 {
            return Err(StatementError::Config("leaves must be at least 1".into()));
        }
        let mut height = 0usize;
        let mut cap: u128 = 1;
        while cap < leaves as u128 {
            cap *= arity as u128;
            height += 1;
        }
        Ok(Self { arity, height })
    }

    /// `A^h` (saturating), the capacity of the tree.
    pub fn capacity(&self) -> u128 {
        (self.arity as u128).saturating_pow(self.height as u32)
    }

    /// Base-`A` digits of `index`, least significant first (`height` digits).
    pub fn position_digits(&self, index: u64) -> Result<Vec<usize>, StatementError> {
        if (index as u128) >= self.capacity() {
            return Err(StatementError::Witness(format!(
                "leaf index {index} out of range for arity {} height {} (capacity {})",
                self.arity,
                self.height,
                self.capacity()
            )));
        }
        let mut i = index;
        Ok((0..self.height)
            .map(|_| {
                let d = (i % self.arity as u64) as usize;
                i /= self.arity as u64;
                d
            })
            .collect())
    }

    /// Checks that `siblings` has `height` levels of `arity − 1` siblings.
    pub fn check_siblings(&self, siblings: &[Vec<Fr>]) -> Result<(), StatementError> {
        if siblings.len() != self.height || siblings.iter().any(|s| s.len() != self.arity - 1) {
            return Err(StatementError::Witness(format!(
                "a path needs {} levels of {} siblings; got {} levels with {:?} siblings",
                self.height,
                self.arity - 1,
                siblings.len(),
                siblings.iter().map(Vec::len).collect::<Vec<_>>()
            )));
        }
        Ok(())
    }
}

/// The children of a node: `siblings` with `cur` inserted at `digit`.
pub fn children_with(cur: Fr, digit: usize, siblings: &[Fr]) -> Vec<Fr> {
    let mut c = Vec::with_capacity(siblings.len() + 1);
    c.extend_from_slice(&siblings[..digit]);
    c.push(cur);
    c.extend_from_slice(&siblings[digit..]);
    c
}

/// A Merkle path: the leaf index and the siblings bottom-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerklePath {
    /// Leaf position (its base-A digits are the position digits).
    pub index: u64,
    /// `height` levels of `A − 1` siblings each, bottom-up, in child order.
    pub siblings: Vec<Vec<Fr>>,
}

impl MerklePath {
    /// Native root of the tree that holds `leaf` at this path (computed by
    /// `zkbench-merkle`'s path verification).
    pub fn root(
        &self,
        hashes: &NativeHashes,
        shape: &TreeShape,
        leaf: Fr,
    ) -> Result<Fr, StatementError> {
        self.to_merkle(shape)?
            .compute_root(&leaf, hashes.native_node().as_ref())
            .map_err(|e| StatementError::Witness(e.to_string()))
    }

    /// This path as a `zkbench-merkle` path (positions = base-A digits of
    /// the index).
    pub fn to_merkle(
        &self,
        shape: &TreeShape,
    ) -> Result<zkbench_merkle::MerklePath, StatementError> {
        shape.check_siblings(&self.siblings)?;
        let positions = shape
            .position_digits(self.index)?
            .into_iter()
            .map(|d| d as u8)
            .collect();
        Ok(zkbench_merkle::MerklePath {
            leaf_index: self.index,
            arity: shape.arity,
            siblings: self.siblings.clone(),
            positions,
        })
    }

    /// A path with uniformly random siblings at a random index (benchmarks
    /// and tests: it is a valid path of *some* tree).
    pub fn random<R: Rng>(rng: &mut R, shape: &TreeShape) -> Self {
        let cap = shape.capacity().min(u64::MAX as u128) as u64;
        let index = if cap <= 1 { 0 } else { rng.gen_range(0..cap) };
        let siblings = (0..shape.height)
            .map(|_| (0..shape.arity - 1).map(|_| Fr::rand(rng)).collect())
            .collect();
        Self { index, siblings }
    }
}

/// Private inputs of a note spend (plus the external-data hash, which is public).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpendWitness {
    /// Nullifier `n`.
    pub nullifier: Fr,
    /// Secret `s` (must differ from [`domain_nullifier`]).
    pub secret: Fr,
    /// The note's path.
    pub path: MerklePath,
    /// Hash of recipient, relayer and fee (public input).
    pub ext_data_hash: Fr,
}

/// Private inputs of a membership proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MembershipWitness {
    /// The leaf.
    pub leaf: Fr,
    /// Its path.
    pub path: MerklePath,
}

/// Inputs of a batch-root proof: all `A^d` leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchWitness {
    /// The leaves, in order.
    pub leaves: Vec<Fr>,
}

/// A witness for one of the three circuits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    /// Note spend.
    Spend(SpendWitness),
    /// Membership only.
    Membership(MembershipWitness),
    /// Batch root.
    BatchRoot(BatchWitness),
}

impl Witness {
    /// The circuit this witness is for.
    pub fn kind(&self) -> CircuitKind {
        match self {
            Witness::Spend(_) => CircuitKind::Spend,
            Witness::Membership(_) => CircuitKind::Membership,
            Witness::BatchRoot(_) => CircuitKind::BatchRoot,
        }
    }

    /// A random witness of the given kind (random notes, random siblings;
    /// batch: random leaves).
    pub fn random<R: Rng>(rng: &mut R, kind: CircuitKind, shape: &TreeShape) -> Self {
        match kind {
            CircuitKind::Spend => Witness::Spend(SpendWitness {
                nullifier: Fr::rand(rng),
                secret: Fr::rand(rng),
                path: MerklePath::random(rng, shape),
                ext_data_hash: Fr::rand(rng),
            }),
            CircuitKind::Membership => Witness::Membership(MembershipWitness {
                leaf: Fr::rand(rng),
                path: MerklePath::random(rng, shape),
            }),
            CircuitKind::BatchRoot => Witness::BatchRoot(BatchWitness {
                leaves: (0..shape.capacity()).map(|_| Fr::rand(rng)).collect(),
            }),
        }
    }
}

/// `leaf = H_2(n, s)`.
pub fn note_commitment(hashes: &NativeHashes, nullifier: Fr, secret: Fr) -> Fr {
    hashes.native_pair().hash_node(&[nullifier, secret])
}

/// `nullifier_hash = H_2(n, DOMAIN_NULLIFIER)`.
pub fn nullifier_hash(hashes: &NativeHashes, nullifier: Fr) -> Fr {
    hashes
        .native_pair()
        .hash_node(&[nullifier, domain_nullifier()])
}

/// Native root of a full tree over `leaves` (`A^d` of them).
pub fn batch_root(
    hashes: &NativeHashes,
    shape: &TreeShape,
    leaves: &[Fr],
) -> Result<Fr, StatementError> {
    if leaves.len() as u128 != shape.capacity() {
        return Err(StatementError::Witness(format!(
            "a batch of arity {} depth {} has {} leaves; got {}",
            shape.arity,
            shape.height,
            shape.capacity(),
            leaves.len()
        )));
    }
    let h = hashes.native_node();
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level.chunks(shape.arity).map(|c| h.hash_node(c)).collect();
    }
    Ok(level[0])
}

/// The public inputs of a statement, in circuit order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicInputs(pub Vec<Fr>);

impl PublicInputs {
    /// Native computation of the public inputs of `witness`:
    /// spend → `[root, nullifier_hash, ext_data_hash]`; membership → `[root]`;
    /// batch root → `[root, leaves...]`.
    pub fn compute(
        hashes: &NativeHashes,
        shape: &TreeShape,
        witness: &Witness,
    ) -> Result<Self, StatementError> {
        Ok(PublicInputs(match witness {
            Witness::Spend(w) => {
                if w.secret == domain_nullifier() {
                    return Err(StatementError::Witness(
                        "the secret must differ from DOMAIN_NULLIFIER".into(),
                    ));
                }
                let leaf = note_commitment(hashes, w.nullifier, w.secret);
                let root = w.path.root(hashes, shape, leaf)?;
                vec![root, nullifier_hash(hashes, w.nullifier), w.ext_data_hash]
            }
            Witness::Membership(w) => vec![w.path.root(hashes, shape, w.leaf)?],
            Witness::BatchRoot(w) => {
                let mut v = vec![batch_root(hashes, shape, &w.leaves)?];
                v.extend_from_slice(&w.leaves);
                v
            }
        }))
    }

    /// Number of public inputs of a circuit of this kind and shape.
    pub fn count(kind: CircuitKind, shape: &TreeShape) -> usize {
        match kind {
            CircuitKind::Spend => 3,
            CircuitKind::Membership => 1,
            CircuitKind::BatchRoot => 1 + shape.capacity() as usize,
        }
    }
}

impl MerklePath {
    /// Converts a path of the `zkbench-merkle` trees (same conventions:
    /// siblings bottom-up in child order, base-A digits least significant
    /// first). Checks that its arity and height match `shape` and that the
    /// digits encode its leaf index.
    pub fn from_merkle(
        path: &zkbench_merkle::MerklePath,
        shape: &TreeShape,
    ) -> Result<Self, StatementError> {
        if path.arity != shape.arity || path.height() != shape.height {
            return Err(StatementError::Witness(format!(
                "path of arity {} height {} does not fit a tree of arity {} height {}",
                path.arity,
                path.height(),
                shape.arity,
                shape.height
            )));
        }
        if path.index_from_positions() != Some(path.leaf_index)
            || path.positions.iter().any(|&d| d as usize >= shape.arity)
        {
            return Err(StatementError::Witness(
                "path digits do not encode its leaf index".into(),
            ));
        }
        let p = Self {
            index: path.leaf_index,
            siblings: path.siblings.clone(),
        };
        shape.check_siblings(&p.siblings)?;
        Ok(p)
    }
}
