//! Test helpers: a **toy** HADES permutation (Poseidon round structure with
//! Grain-drawn round constants and a Cauchy matrix over small integers) with
//! its native node hasher and gadget, so that the circuits and the Groth16
//! pipeline can be tested independently of any library family. It is not a
//! reference instance of anything; do not use it to hash.

use std::sync::Arc;

use ark_ff::Field;
use ark_relations::r1cs::{ConstraintSystem, ConstraintSystemRef, OptimizationGoal, SynthesisMode};
use zkbench_hash::{grain::Grain, Fr, SpongeNodeHasher};

use crate::backend::HashBackend;
use crate::circuits::StatementCircuit;
use crate::gadgets::poseidon::{PoseidonGadget, PoseidonSpec};
use crate::gadgets::{NodeHashGadget, SpongeNodeGadget};
use crate::lc::Cs;
use crate::{Circuit, Witness};

/// The toy spec of width `t` (`R_F = 8`, `R_P = 57`, `x^5`).
pub fn toy_spec(t: usize) -> PoseidonSpec {
    let (rf, rp) = (8, 57);
    let mut g = Grain::bn254(t, rf, rp);
    let round_constants = (0..rf + rp)
        .map(|_| (0..t).map(|_| g.next_field_element()).collect())
        .collect();
    let mds = (0..t)
        .map(|i| {
            (0..t)
                .map(|j| Fr::from((i + t + j + 1) as u64).inverse().unwrap())
                .collect()
        })
        .collect();
    PoseidonSpec {
        family: "toy-hades",
        width: t,
        rounds_full: rf,
        rounds_partial: rp,
        alpha: 5,
        round_constants,
        mds,
    }
}

/// Toy backend of the given arity: node hash = sponge over `toy_spec(A + 1)`
/// (one permutation per node), exactly as `zkbench_hash::SpongeNodeHasher`.
pub fn toy_backend(arity: usize) -> HashBackend {
    let part = |a: usize| {
        let spec = toy_spec(a + 1);
        let native: Arc<dyn zkbench_hash::NodeHasher> =
            Arc::new(SpongeNodeHasher::new(Arc::new(spec.clone()), a));
        let gadget: Arc<dyn crate::gadgets::NodeHashGadget> = Arc::new(SpongeNodeGadget::new(
            Arc::new(PoseidonGadget::new(spec)),
            a,
        ));
        (native, gadget)
    };
    HashBackend::custom("toy-hades", 5, part(2), part(arity))
}

/// Whether `w` with the public inputs `public` satisfies every constraint of
/// `c`'s statement (synthesised with matrices and values; a synthesis error
/// counts as unsatisfied).
pub fn satisfied(c: &Circuit, w: &Witness, public: &[Fr]) -> bool {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Prove {
        construct_matrices: true,
    });
    let sc = StatementCircuit {
        kind: c.config().circuit,
        shape: *c.shape(),
        backend: c.backend().clone(),
        witness: Some(w.clone()),
    };
    sc.synthesize_with_public(&Cs::new(cs.clone()), Some(public))
        .is_ok()
        && cs.is_satisfied().unwrap()
}

/// `gadget` on `children`, each a witness of a fresh constraint system: the
/// value of its output and the system (to check that it is satisfied and to
/// count its constraints).
pub fn node_gadget_output(
    gadget: &dyn NodeHashGadget,
    children: &[Fr],
) -> (Fr, ConstraintSystemRef<Fr>) {
    let cs = ConstraintSystem::<Fr>::new_ref();
    let c = Cs::new(cs.clone());
    let vars: Vec<_> = children
        .iter()
        .map(|x| c.witness(Some(*x)).unwrap())
        .collect();
    let out = gadget.hash_node(&c, &vars).unwrap();
    (out.value().unwrap(), cs)
}
