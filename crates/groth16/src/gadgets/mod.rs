//! R1CS gadgets for the hashes of `zkbench-hash`.
//!
//! Two small traits mirror the native ones of the hash crate
//! ([`zkbench_hash::Permutation`] and [`zkbench_hash::NodeHasher`]), in the
//! spirit of arkworks' `CRHSchemeGadget`:
//!
//! * [`PermutationGadget`]: a permutation of `width()` field elements, given as
//!   [`LinVar`]s (linear combinations), returning the permuted state;
//! * [`NodeHashGadget`]: the A-to-1 Merkle node compression of a family, built
//!   exactly like the native `HashFamily::node_hasher(A, alpha)`.
//!
//! Every gadget is built from the constants the native implementation uses,
//! and is tested native-vs-circuit on random inputs (`tests/gadgets.rs`),
//! which also prints the table of constraints per permutation.
//!
//! Costs: linear layers are free (they only combine linear combinations); an
//! `x^5` S-box costs 3 constraints, `x^7` 4; S-boxes of constants are free.

use std::sync::Arc;

use ark_relations::r1cs::SynthesisError;

use crate::lc::{Cs, LinVar};

pub mod feistel;
pub mod inverse;
pub mod mimc;
pub mod poseidon;
pub mod poseidon2;

/// A permutation of `Fr^t` in R1CS.
pub trait PermutationGadget: Send + Sync {
    /// Family name, as in `zkbench-hash`.
    fn family(&self) -> &'static str;

    /// State width `t`.
    fn width(&self) -> usize;

    /// Permutes `state` (exactly `width()` elements).
    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError>;

    /// Constraints of one permutation on a state of variables (no constant
    /// folding), computed from the round structure.
    fn constraints_per_permutation(&self) -> usize;
}

/// An A-to-1 Merkle node compression in R1CS, equal to the family's native
/// `NodeHasher` of the same arity.
pub trait NodeHashGadget: Send + Sync {
    /// Family name.
    fn family(&self) -> &'static str;

    /// Number of children `A`.
    fn arity(&self) -> usize;

    /// Hashes exactly `arity()` children.
    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError>;

    /// Upper bound of the constraints of one node hash (variables as inputs).
    fn constraints_per_node(&self) -> usize;
}

/// The fixed-length sponge of `zkbench_hash::Sponge` as a node gadget:
/// capacity 1 at index 0 (iv 0), the children added `t - 1` at a time into
/// positions `1..t` with a permutation after each chunk, output `state[0]`.
pub struct SpongeNodeGadget {
    perm: Arc<dyn PermutationGadget>,
    arity: usize,
}

impl SpongeNodeGadget {
    /// Node gadget of `arity` children over `perm`.
    pub fn new(perm: Arc<dyn PermutationGadget>, arity: usize) -> Self {
        assert!(arity >= 2 && perm.width() >= 2);
        Self { perm, arity }
    }
}

impl NodeHashGadget for SpongeNodeGadget {
    fn family(&self) -> &'static str {
        self.perm.family()
    }

    fn arity(&self) -> usize {
        self.arity
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        assert_eq!(
            children.len(),
            self.arity,
            "node gadget called with wrong child count"
        );
        let t = self.perm.width();
        let mut state = vec![LinVar::zero(); t];
        for chunk in children.chunks(t - 1) {
            for (s, x) in state[1..].iter_mut().zip(chunk) {
                *s = s.add(x);
            }
            state = self.perm.permute(cs, &state)?;
        }
        Ok(state.swap_remove(0))
    }

    fn constraints_per_node(&self) -> usize {
        self.arity.div_ceil(self.perm.width() - 1) * self.perm.constraints_per_permutation()
    }
}

/// The `family` (`zkbench_hash::$module::FAMILY`) and `width` (that of the
/// native instance `self.native`) of a [`PermutationGadget`] impl.
macro_rules! native_family_and_width {
    ($module:ident) => {
        fn family(&self) -> &'static str {
            zkbench_hash::$module::FAMILY
        }

        fn width(&self) -> usize {
            self.native.width()
        }
    };
}
use native_family_and_width;

/// Dense matrix-vector product `m · v` on linear combinations (free).
pub(crate) fn mat_vec(m: &[Vec<zkbench_hash::Fr>], v: &[LinVar]) -> Vec<LinVar> {
    m.iter().map(|row| LinVar::lincomb(row, v)).collect()
}

/// The node gadget of a library family at `arity` and `alpha`, built from the
/// native implementation's constants and node-hashing mode.
pub fn node_gadget(
    family: zkbench_hash::HashFamily,
    arity: usize,
    alpha: u64,
) -> Result<Arc<dyn NodeHashGadget>, crate::Groth16Error> {
    use zkbench_hash::HashFamily as F;
    // The native node hasher must exist for these parameters.
    family.node_hasher(arity, Some(alpha))?;
    Ok(match family {
        // circomlib Poseidon(A): perm_{t = A + 1}([0, children])[0], one permutation.
        F::Poseidon => Arc::new(SpongeNodeGadget::new(
            Arc::new(poseidon::PoseidonGadget::new(
                poseidon::PoseidonSpec::circomlib(arity + 1)?,
            )),
            arity,
        )),
        F::Poseidon2 => match zkbench_hash::poseidon2::node_width(arity) {
            (_, zkbench_hash::poseidon2::NodeMode::Compression) => {
                Arc::new(poseidon2::Poseidon2CompressionGadget::new(arity, alpha)?)
            }
            (w, zkbench_hash::poseidon2::NodeMode::Sponge) => Arc::new(SpongeNodeGadget::new(
                Arc::new(poseidon2::Poseidon2Gadget::library(w, alpha)?),
                arity,
            )),
        },
        F::Poseidon2Gnark => Arc::new(poseidon2::Poseidon2CompressionGadget::gnark()),
        F::MimcSponge => Arc::new(mimc::MimcSpongeNodeGadget::new(arity)),
        F::Mimc7 => Arc::new(mimc::Mimc7NodeGadget::new(arity)),
        F::Gmimc => Arc::new(SpongeNodeGadget::new(
            Arc::new(feistel::GmimcGadget::new(3)?),
            arity,
        )),
        F::Neptune => Arc::new(SpongeNodeGadget::new(
            Arc::new(feistel::NeptuneGadget::new(4)?),
            arity,
        )),
        F::RescuePrime => Arc::new(SpongeNodeGadget::new(
            Arc::new(inverse::RescuePrimeGadget::new(
                zkbench_hash::rescue_prime::NODE_WIDTH,
            )?),
            arity,
        )),
        F::Griffin => Arc::new(SpongeNodeGadget::new(
            Arc::new(inverse::GriffinGadget::new(
                zkbench_hash::griffin::node_width(arity),
            )?),
            arity,
        )),
        F::Anemoi => Arc::new(inverse::AnemoiNodeGadget::new(arity)?),
    })
}

/// The permutation gadget of a library family (width `None`: the family's
/// default width), for per-permutation tests and constraint tables.
pub fn permutation_gadget(
    family: zkbench_hash::HashFamily,
    width: Option<usize>,
    alpha: Option<u64>,
) -> Result<Arc<dyn PermutationGadget>, crate::Groth16Error> {
    use zkbench_hash::HashFamily as F;
    let native = family.permutation(width, alpha)?;
    let w = native.width();
    let a = family.resolve_alpha(alpha)?;
    Ok(match family {
        F::Poseidon => Arc::new(poseidon::PoseidonGadget::new(
            poseidon::PoseidonSpec::circomlib(w)?,
        )),
        F::Poseidon2 => Arc::new(poseidon2::Poseidon2Gadget::library(w, a)?),
        F::Poseidon2Gnark => Arc::new(poseidon2::Poseidon2Gadget::new(
            zkbench_hash::poseidon2_gnark::instance(),
        )),
        F::MimcSponge => Arc::new(mimc::MimcSpongePermutationGadget),
        F::Mimc7 => Arc::new(mimc::Mimc7PermutationGadget),
        F::Gmimc => Arc::new(feistel::GmimcGadget::new(w)?),
        F::Neptune => Arc::new(feistel::NeptuneGadget::new(w)?),
        F::RescuePrime => Arc::new(inverse::RescuePrimeGadget::new(w)?),
        F::Griffin => Arc::new(inverse::GriffinGadget::new(w)?),
        F::Anemoi => Arc::new(inverse::AnemoiGadget::new(w / 2)?),
    })
}
