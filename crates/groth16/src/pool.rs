//! The pool's slot-insert circuit (statement in
//! [`zkbench_statement::pool`]): the sequencer's batch proof of the pool,
//! with the era-tree insertion proven in the circuit instead of hashed on
//! chain. Setup, witness and proof use the same keys and prover as
//! [`crate::Circuit`].

use std::sync::Arc;

use ark_bn254::Bn254;
use ark_ff::{One, UniformRand, Zero};
use ark_groth16::Proof;
use ark_relations::r1cs::{
    ConstraintMatrices, ConstraintSynthesizer, ConstraintSystemRef, SynthesisError,
};
use rand::RngCore;
use zkbench_hash::{Fr, HashFamily};

use crate::api::{
    counts, setup_matrices, synthesize_assignment, test_setup_keys, ConstraintCounts, Keys,
};
use crate::backend::HashBackend;
use crate::lc::{Cs, LinVar};
use crate::statement::pool::{
    empty_slot_root, slot_insert_public_inputs, PoolShape, SlotInsertWitness,
};
use crate::statement::PublicInputs;
use crate::Groth16Error;

/// The slot-insert circuit: shape, hashes and (when proving) the witness.
#[derive(Clone)]
pub struct SlotInsertCircuit {
    /// Slot and era depths.
    pub shape: PoolShape,
    /// Hashes (binary: only the arity-2 pair is used).
    pub backend: Arc<HashBackend>,
    /// The witness (`None` for setup).
    pub witness: Option<SlotInsertWitness>,
    /// Public input values to use instead of the native ones (negative tests).
    pub public_override: Option<Vec<Fr>>,
}

impl SlotInsertCircuit {
    /// Synthesises into `cs`.
    pub fn synthesize(&self, cs: &Cs) -> Result<(), SynthesisError> {
        let n = self.shape.batch_size();
        let public = self.public_values()?;
        let pv = |i: usize| public.as_ref().map(|p| p[i]);
        let old_root = cs.input(pv(0))?;
        let new_root = cs.input(pv(1))?;
        let slot_index = cs.input(pv(2))?;
        let leaves = (0..n)
            .map(|i| cs.input(pv(3 + i)))
            .collect::<Result<Vec<_>, _>>()?;
        let slot_root = self.slot_root(cs, leaves)?;
        let bits = self.index_bits(cs, &slot_index)?;
        let (old, new) = self.era_roots(cs, &bits, slot_root)?;
        cs.enforce_equal(&old, &old_root)?;
        cs.enforce_equal(&new, &new_root)?;
        Ok(())
    }

    /// The public input values (`[old_root, new_root, slot_index,
    /// leaves…]`): the override, else the native ones of the witness, else
    /// `None` (setup); unsatisfiable if they are not `3 + batch size`.
    fn public_values(&self) -> Result<Option<Vec<Fr>>, SynthesisError> {
        let public: Option<Vec<Fr>> = match (&self.public_override, &self.witness) {
            (Some(p), _) => Some(p.clone()),
            (None, Some(w)) => Some(
                slot_insert_public_inputs(self.backend.native(), &self.shape, w)
                    .map_err(|_| SynthesisError::Unsatisfiable)?,
            ),
            (None, None) => None,
        };
        if public
            .as_ref()
            .is_some_and(|p| p.len() != 3 + self.shape.batch_size())
        {
            return Err(SynthesisError::Unsatisfiable);
        }
        Ok(public)
    }

    /// Slot root: the full binary tree over the leaves.
    fn slot_root(&self, cs: &Cs, leaves: Vec<LinVar>) -> Result<LinVar, SynthesisError> {
        let pair = self.backend.gadget_pair().as_ref();
        let mut level = leaves;
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|c| pair.hash_node(cs, c))
                .collect::<Result<Vec<_>, _>>()?;
        }
        level.pop().ok_or(SynthesisError::Unsatisfiable)
    }

    /// Position bits of the slot index, least significant first (one per
    /// era level): boolean, and they sum to `slot_index`. Unsatisfiable if
    /// the witness has not one era sibling per level.
    fn index_bits(&self, cs: &Cs, slot_index: &LinVar) -> Result<Vec<LinVar>, SynthesisError> {
        let depth = self.shape.era_depth as usize;
        let index = self.witness.as_ref().map(|w| w.slot_index);
        if let Some(w) = &self.witness {
            if w.era_siblings.len() != depth {
                return Err(SynthesisError::Unsatisfiable);
            }
        }
        let mut bits = Vec::with_capacity(depth);
        let mut weighted = Vec::with_capacity(depth);
        let mut pow = Fr::one();
        for i in 0..depth {
            let b = cs.witness(index.map(|k| {
                if (k >> i) & 1 == 1 {
                    Fr::one()
                } else {
                    Fr::zero()
                }
            }))?;
            cs.enforce_product_zero(&b, &b.add_const(-Fr::one()))?;
            weighted.push(b.scale(pow));
            pow += pow;
            bits.push(b);
        }
        cs.enforce_equal(&LinVar::sum(&weighted), slot_index)?;
        Ok(bits)
    }

    /// The era roots before and after the insertion: the empty slot's root
    /// and `slot_root` hashed up the era path at the position `bits`; the
    /// two paths share bits and siblings.
    fn era_roots(
        &self,
        cs: &Cs,
        bits: &[LinVar],
        slot_root: LinVar,
    ) -> Result<(LinVar, LinVar), SynthesisError> {
        let pair = self.backend.gadget_pair().as_ref();
        let mut old = LinVar::constant(empty_slot_root(self.backend.native(), &self.shape));
        let mut new = slot_root;
        for (i, b) in bits.iter().enumerate() {
            let sib = cs.witness(self.witness.as_ref().map(|w| w.era_siblings[i]))?;
            for cur in [&mut old, &mut new] {
                // left = cur + b·(sib − cur); right = cur + sib − left.
                let t = cs.mul(b, &sib.sub(cur))?;
                let left = cur.add(&t);
                let right = cur.add(&sib).sub(&left);
                *cur = pair.hash_node(cs, &[left, right])?;
            }
        }
        Ok((old, new))
    }
}

impl ConstraintSynthesizer<Fr> for SlotInsertCircuit {
    fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
        self.synthesize(&Cs::new(cs))
    }
}

/// The slot-insert statement for one hash family and pool shape: setup,
/// proof and verification.
#[derive(Clone)]
pub struct SlotInsert {
    shape: PoolShape,
    backend: Arc<HashBackend>,
}

impl SlotInsert {
    /// The circuit for `family` (default exponent when `alpha` is `None`).
    pub fn new(
        shape: PoolShape,
        family: HashFamily,
        alpha: Option<u64>,
    ) -> Result<Self, Groth16Error> {
        Ok(Self {
            shape,
            backend: Arc::new(HashBackend::for_family(family, alpha, 2)?),
        })
    }

    /// The pool shape.
    pub fn shape(&self) -> &PoolShape {
        &self.shape
    }

    /// The hashes.
    pub fn backend(&self) -> &Arc<HashBackend> {
        &self.backend
    }

    fn circuit(&self, witness: Option<SlotInsertWitness>) -> SlotInsertCircuit {
        SlotInsertCircuit {
            shape: self.shape,
            backend: self.backend.clone(),
            witness,
            public_override: None,
        }
    }

    /// The constraint matrices.
    pub fn matrices(&self) -> Result<ConstraintMatrices<Fr>, Groth16Error> {
        setup_matrices(self.circuit(None))
    }

    /// Constraint counts.
    pub fn num_constraints(&self) -> Result<ConstraintCounts, Groth16Error> {
        Ok(counts(&self.matrices()?))
    }

    /// **Test setup** (toxic waste from `seed`, as [`crate::Circuit::setup`]),
    /// with the prover tables built.
    pub fn setup(&self, seed: u64) -> Result<Keys, Groth16Error> {
        let keys = test_setup_keys(self.circuit(None), seed)?;
        keys.prover_tables();
        Ok(keys)
    }

    /// Native public inputs of `w`: `[old_root, new_root, slot_index, leaves…]`.
    pub fn public_inputs(&self, w: &SlotInsertWitness) -> Result<PublicInputs, Groth16Error> {
        Ok(PublicInputs(slot_insert_public_inputs(
            self.backend.native(),
            &self.shape,
            w,
        )?))
    }

    /// Whether the witness with these public inputs (native ones when `None`)
    /// satisfies every constraint (negative tests).
    pub fn is_satisfied(
        &self,
        keys: &Keys,
        w: &SlotInsertWitness,
        public: Option<Vec<Fr>>,
    ) -> Result<bool, Groth16Error> {
        let mut c = self.circuit(Some(w.clone()));
        c.public_override = public;
        let a = synthesize_assignment(c)?;
        Ok(crate::api::is_satisfied(&keys.matrices, &a.full))
    }

    /// Witness generation and proof (the fixed-base prover of
    /// [`crate::prover`]). Fails if the witness does not satisfy the circuit.
    pub fn prove<R: RngCore>(
        &self,
        keys: &Keys,
        w: &SlotInsertWitness,
        rng: &mut R,
    ) -> Result<(Proof<Bn254>, PublicInputs), Groth16Error> {
        let a = synthesize_assignment(self.circuit(Some(w.clone())))?;
        if !crate::api::is_satisfied(&keys.matrices, &a.full) {
            return Err(Groth16Error::Witness(
                "the slot-insert witness does not satisfy the circuit".into(),
            ));
        }
        let r = Fr::rand(rng);
        let s = Fr::rand(rng);
        let proof = crate::prover::create_proof(
            &keys.pk,
            keys.prover_tables(),
            &keys.matrices,
            &a.full,
            r,
            s,
        )?;
        Ok((proof, a.public_inputs()))
    }
}
