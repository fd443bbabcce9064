//! The mutation audit: every shipped circuit kills every mutation, and a
//! deliberately under-constrained gadget is caught (the audit can fail).

use std::sync::Arc;

use ark_relations::r1cs::SynthesisError;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{
    audit::mutation_audit,
    gadgets::NodeHashGadget,
    lc::{Cs, LinVar},
    Circuit, CircuitKind, HashBackend, SpendConfig, Witness,
};
use zkbench_hash::{HashFamily, NodeHasher};

#[test]
fn shipped_circuits_kill_every_mutation() {
    for (family, arity) in [
        (HashFamily::Poseidon2, 4),
        (HashFamily::Griffin, 7),
        (HashFamily::MimcSponge, 2),
    ] {
        for circuit in CircuitKind::ALL {
            let cfg = SpendConfig {
                arity,
                leaves: if circuit == CircuitKind::BatchRoot {
                    arity as u64
                } else {
                    (arity * arity) as u64
                },
                circuit,
                ..SpendConfig::new(family)
            };
            let c = Circuit::new(&cfg).unwrap();
            let mut rng = ChaCha20Rng::seed_from_u64(5);
            let w = c.random_witness(&mut rng);
            let r = mutation_audit(&c, &w, &mut rng).unwrap();
            assert!(r.mutations > 100, "{}", r.circuit);
            assert_eq!(r.killed, r.mutations, "{}: {:?}", r.circuit, r.survivors);
            assert!(r.is_sound(), "{}: {:?}", r.circuit, r.unconstrained);
        }
    }
}

/// A node "hash" that witnesses the native hash value and constrains
/// nothing: the bug the audit exists to find.
struct Unconstrained(Arc<dyn NodeHasher>);

impl NodeHashGadget for Unconstrained {
    fn family(&self) -> &'static str {
        "unconstrained"
    }

    fn arity(&self) -> usize {
        self.0.arity()
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        let value = children
            .iter()
            .map(LinVar::value)
            .collect::<Option<Vec<_>>>()
            .map(|v| self.0.hash_node(&v));
        cs.witness(value)
    }

    fn constraints_per_node(&self) -> usize {
        0
    }
}

#[test]
fn an_unconstrained_gadget_is_caught() {
    let native = HashFamily::Poseidon2.node_hasher(2, Some(5)).unwrap();
    let good = zkbench_groth16::gadgets::node_gadget(HashFamily::Poseidon2, 2, 5).unwrap();
    let bad: Arc<dyn NodeHashGadget> = Arc::new(Unconstrained(native.clone()));
    // notes hashed correctly, tree nodes not constrained at all
    let backend = HashBackend::custom("broken", 5, (native.clone(), good), (native, bad));
    let cfg = SpendConfig {
        leaves: 4,
        circuit: CircuitKind::Membership,
        ..SpendConfig::new(HashFamily::Poseidon2)
    };
    let c = Circuit::with_backend(&cfg, Arc::new(backend)).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let w: Witness = c.random_witness(&mut rng);
    let r = mutation_audit(&c, &w, &mut rng).unwrap();
    assert!(!r.is_sound());
    assert!(
        !r.survivors.is_empty() || !r.unconstrained.is_empty(),
        "{r:?}"
    );
}
