//! The three circuits of [`crate::statement`] as arkworks
//! [`ConstraintSynthesizer`]s.

use std::sync::Arc;

use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystemRef, SynthesisError};
use zkbench_hash::Fr;

use crate::backend::HashBackend;
use crate::gadgets::NodeHashGadget;
use crate::lc::{Cs, LinVar};
use crate::statement::{
    children_with, domain_nullifier, CircuitKind, MerklePath, TreeShape, Witness,
};

/// A statement circuit: kind, shape, hash backend and (when proving) the witness.
#[derive(Clone)]
pub struct StatementCircuit {
    /// Which statement.
    pub kind: CircuitKind,
    /// Tree arity and height (batch root: depth).
    pub shape: TreeShape,
    /// Hashes.
    pub backend: Arc<HashBackend>,
    /// The witness (`None` for setup).
    pub witness: Option<Witness>,
}

/// Enforces the membership of `cur` among the witnessed children of each level
/// and returns the root (as a linear combination).
///
/// Per level: `A` witnesses for the children, `A − 1` constraints for the
/// membership product `Π (child_i − cur) = 0`, plus the node hash.
pub fn path_root(
    cs: &Cs,
    node: &dyn NodeHashGadget,
    shape: &TreeShape,
    leaf: LinVar,
    path: Option<&MerklePath>,
) -> Result<LinVar, SynthesisError> {
    let digits = match path {
        Some(p) => Some(
            shape
                .position_digits(p.index)
                .map_err(|_| SynthesisError::Unsatisfiable)?,
        ),
        None => None,
    };
    let mut cur = leaf;
    for level in 0..shape.height {
        let values: Option<Vec<Fr>> = match (&digits, path, cur.value()) {
            (Some(d), Some(p), Some(c)) => {
                let sib = p
                    .siblings
                    .get(level)
                    .ok_or(SynthesisError::AssignmentMissing)?;
                if sib.len() != shape.arity - 1 {
                    return Err(SynthesisError::AssignmentMissing);
                }
                Some(children_with(c, d[level], sib))
            }
            _ => None,
        };
        let children = (0..shape.arity)
            .map(|i| cs.witness(values.as_ref().map(|v| v[i])))
            .collect::<Result<Vec<_>, _>>()?;
        enforce_member(cs, &cur, &children)?;
        cur = node.hash_node(cs, &children)?;
    }
    Ok(cur)
}

/// Enforces `Π_i (children_i − cur) = 0` with `children.len() − 1` constraints.
pub fn enforce_member(cs: &Cs, cur: &LinVar, children: &[LinVar]) -> Result<(), SynthesisError> {
    let diffs: Vec<LinVar> = children.iter().map(|c| c.sub(cur)).collect();
    let mut acc = diffs[0].clone();
    for d in &diffs[1..diffs.len() - 1] {
        acc = cs.mul(&acc, d)?;
    }
    cs.enforce_product_zero(&acc, &diffs[diffs.len() - 1])
}

impl StatementCircuit {
    /// Synthesises into an existing [`Cs`].
    pub fn synthesize(&self, cs: &Cs) -> Result<(), SynthesisError> {
        let pub_vals: Option<Vec<Fr>> = match &self.witness {
            Some(w) => Some(
                crate::statement::PublicInputs::compute(self.backend.native(), &self.shape, w)
                    .map_err(|_| SynthesisError::Unsatisfiable)?
                    .0,
            ),
            None => None,
        };
        self.synthesize_with_public(cs, pub_vals.as_deref())
    }

    /// Synthesises with explicitly given public input values (which may
    /// differ from those the witness implies: negative tests use this).
    pub fn synthesize_with_public(
        &self,
        cs: &Cs,
        public: Option<&[Fr]>,
    ) -> Result<(), SynthesisError> {
        let pv = |i: usize| public.map(|p| p[i]);
        let node = self.backend.gadget_node().as_ref();
        match self.kind {
            CircuitKind::Spend => {
                let w = match &self.witness {
                    Some(Witness::Spend(w)) => Some(w),
                    Some(_) => return Err(SynthesisError::Unsatisfiable),
                    None => None,
                };
                let root = cs.input(pv(0))?;
                let nh = cs.input(pv(1))?;
                let ext = cs.input(pv(2))?;
                let n = cs.witness(w.map(|w| w.nullifier))?;
                let s = cs.witness(w.map(|w| w.secret))?;
                let d = domain_nullifier();
                // s ≠ DOMAIN_NULLIFIER: (s − D) · inv = 1.
                cs.inverse(&s.add_const(-d))?;
                let pair = self.backend.gadget_pair().as_ref();
                let leaf = pair.hash_node(cs, &[n.clone(), s])?;
                let nh_c = pair.hash_node(cs, &[n, LinVar::constant(d)])?;
                cs.enforce_equal(&nh_c, &nh)?;
                let r = path_root(cs, node, &self.shape, leaf, w.map(|w| &w.path))?;
                cs.enforce_equal(&r, &root)?;
                // Bind the external data: ext · ext = sq.
                cs.square(&ext)?;
            }
            CircuitKind::Membership => {
                let w = match &self.witness {
                    Some(Witness::Membership(w)) => Some(w),
                    Some(_) => return Err(SynthesisError::Unsatisfiable),
                    None => None,
                };
                let root = cs.input(pv(0))?;
                let leaf = cs.witness(w.map(|w| w.leaf))?;
                let r = path_root(cs, node, &self.shape, leaf, w.map(|w| &w.path))?;
                cs.enforce_equal(&r, &root)?;
            }
            CircuitKind::BatchRoot => {
                let n = self.shape.capacity() as usize;
                let root = cs.input(pv(0))?;
                let mut level = (0..n)
                    .map(|i| cs.input(pv(1 + i)))
                    .collect::<Result<Vec<_>, _>>()?;
                while level.len() > 1 {
                    level = level
                        .chunks(self.shape.arity)
                        .map(|c| node.hash_node(cs, c))
                        .collect::<Result<Vec<_>, _>>()?;
                }
                cs.enforce_equal(&level[0], &root)?;
            }
        }
        Ok(())
    }
}

impl ConstraintSynthesizer<Fr> for StatementCircuit {
    fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
        self.synthesize(&Cs::new(cs))
    }
}
