//! The note-spend statement and its two companions (membership-only and
//! batch-root), mirrored from `zkbench-groth16`'s `statement` module (same
//! definitions, same public inputs in the same order, same native
//! computation; that crate pulls in the whole R1CS/Groth16 stack, so it is
//! not a dependency here). The only difference: the native hashes come from
//! [`NativeHashes`] instead of Groth16's `HashBackend`.
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
//! seed 003 publishes the batch so that the chain can check it contains every
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

use std::sync::OnceLock;

use rand::Rng;
use zkbench_hash::{field::fr_from_be_bytes_mod_order, Fr};

use ark_ff::UniformRand;

use crate::Halo2Error;
use std::sync::Arc;
use zkbench_hash::{HashFamily, NodeHasher};

/// The native node hashers of a family: arity 2 (notes, nullifiers) and
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
    ) -> Result<Self, Halo2Error> {
        Ok(Self {
            pair: family.node_hasher(2, alpha)?,
            node: family.node_hasher(arity, alpha)?,
        })
    }

    /// Native 2-to-1 hasher (notes, nullifiers).
    pub fn native_pair(&self) -> &Arc<dyn NodeHasher> {
        &self.pair
    }

    /// Native tree node hasher.
    pub fn native_node(&self) -> &Arc<dyn NodeHasher> {
        &self.node
    }
}

/// Default number of leaves: 2^36.
pub const DEFAULT_LEAVES: u64 = 1 << 36;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    type Err = Halo2Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "spend" | "note-spend" => Ok(CircuitKind::Spend),
            "membership" => Ok(CircuitKind::Membership),
            "batch-root" | "batch" => Ok(CircuitKind::BatchRoot),
            _ => Err(Halo2Error::Config(format!(
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
    pub fn for_leaves(arity: usize, leaves: u64) -> Result<Self, Halo2Error> {
        if !(2..=16).contains(&arity) {
            return Err(Halo2Error::Config(format!("arity {arity} not in 2..=16")));
        }
        if leaves == 0 {
            return Err(Halo2Error::Config("leaves must be at least 1".into()));
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
    pub fn position_digits(&self, index: u64) -> Result<Vec<usize>, Halo2Error> {
        if (index as u128) >= self.capacity() {
            return Err(Halo2Error::Witness(format!(
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

    pub(crate) fn check_siblings(&self, siblings: &[Vec<Fr>]) -> Result<(), Halo2Error> {
        if siblings.len() != self.height || siblings.iter().any(|s| s.len() != self.arity - 1) {
            return Err(Halo2Error::Witness(format!(
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
    /// Native root of the tree that holds `leaf` at this path.
    pub fn root(
        &self,
        backend: &NativeHashes,
        shape: &TreeShape,
        leaf: Fr,
    ) -> Result<Fr, Halo2Error> {
        shape.check_siblings(&self.siblings)?;
        let digits = shape.position_digits(self.index)?;
        let h = backend.native_node();
        let mut cur = leaf;
        for (d, sib) in digits.iter().zip(&self.siblings) {
            cur = h.hash_node(&children_with(cur, *d, sib));
        }
        Ok(cur)
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
pub fn note_commitment(backend: &NativeHashes, nullifier: Fr, secret: Fr) -> Fr {
    backend.native_pair().hash_node(&[nullifier, secret])
}

/// `nullifier_hash = H_2(n, DOMAIN_NULLIFIER)`.
pub fn nullifier_hash(backend: &NativeHashes, nullifier: Fr) -> Fr {
    backend
        .native_pair()
        .hash_node(&[nullifier, domain_nullifier()])
}

/// Native root of a full tree over `leaves` (`A^d` of them).
pub fn batch_root(
    backend: &NativeHashes,
    shape: &TreeShape,
    leaves: &[Fr],
) -> Result<Fr, Halo2Error> {
    if leaves.len() as u128 != shape.capacity() {
        return Err(Halo2Error::Witness(format!(
            "a batch of arity {} depth {} has {} leaves; got {}",
            shape.arity,
            shape.height,
            shape.capacity(),
            leaves.len()
        )));
    }
    let h = backend.native_node();
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
        backend: &NativeHashes,
        shape: &TreeShape,
        witness: &Witness,
    ) -> Result<Self, Halo2Error> {
        Ok(PublicInputs(match witness {
            Witness::Spend(w) => {
                if w.secret == domain_nullifier() {
                    return Err(Halo2Error::Witness(
                        "the secret must differ from DOMAIN_NULLIFIER".into(),
                    ));
                }
                let leaf = note_commitment(backend, w.nullifier, w.secret);
                let root = w.path.root(backend, shape, leaf)?;
                vec![root, nullifier_hash(backend, w.nullifier), w.ext_data_hash]
            }
            Witness::Membership(w) => vec![w.path.root(backend, shape, w.leaf)?],
            Witness::BatchRoot(w) => {
                let mut v = vec![batch_root(backend, shape, &w.leaves)?];
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
