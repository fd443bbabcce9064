//! Property tests (proptest): every node-hash gadget equals its native hash
//! on arbitrary children, for every family, exponent and arity 2..=16 the
//! family supports, and the constraint system is satisfied.

use ark_ff::PrimeField;
use proptest::prelude::*;
use zkbench_groth16::{gadgets::node_gadget, testing::node_gadget_output};
use zkbench_hash::{Fr, HashFamily};

/// A field element from 32 arbitrary bytes (reduced modulo r).
fn fr() -> impl Strategy<Value = Fr> {
    any::<[u8; 32]>().prop_map(|b| Fr::from_le_bytes_mod_order(&b))
}

fn check(family: HashFamily, alpha: u64, children: &[Fr]) -> Result<(), TestCaseError> {
    let arity = children.len();
    let Ok(native) = family.node_hasher(arity, Some(alpha)) else {
        return Ok(()); // the family has no node hash of this arity
    };
    let gadget = node_gadget(family, arity, alpha)
        .map_err(|e| TestCaseError::fail(format!("{family} alpha {alpha} arity {arity}: {e}")))?;
    let (out, cs) = node_gadget_output(gadget.as_ref(), children);
    prop_assert_eq!(
        out,
        native.hash_node(children),
        "{} alpha {} arity {}",
        family,
        alpha,
        arity
    );
    prop_assert!(cs.is_satisfied().unwrap());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn node_gadgets_equal_native_hashes(children in prop::collection::vec(fr(), 2..=16)) {
        for family in HashFamily::ALL {
            for &alpha in family.alphas() {
                check(family, alpha, &children)?;
            }
        }
    }
}
