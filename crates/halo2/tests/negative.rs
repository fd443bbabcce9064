//! Negative MockProver tests: a witness that does not match the public inputs
//! must violate some constraint.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{
    chip::ChipLayout,
    statement::{CircuitKind, PublicInputs, Witness},
    Halo2Circuit, Halo2Config,
};
use zkbench_hash::{Fr, HashFamily};

fn setup(arity: usize, kind: CircuitKind) -> (Halo2Circuit, Witness, PublicInputs) {
    setup_family(HashFamily::Poseidon2, 7, arity, kind)
}

fn setup_family(
    family: HashFamily,
    alpha: u64,
    arity: usize,
    kind: CircuitKind,
) -> (Halo2Circuit, Witness, PublicInputs) {
    let cfg = Halo2Config {
        statement: zkbench_halo2::statement::StatementConfig {
            family,
            alpha: Some(alpha),
            arity,
            leaves: (arity * arity * arity) as u64,
            circuit: kind,
        },
        layout: ChipLayout::new(4),
    };
    let c = Halo2Circuit::new(&cfg).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(42);
    let w = c.random_witness(&mut rng);
    let public = c.public_inputs(&w).unwrap();
    c.mock_check(&w, &public)
        .expect("honest witness satisfies the circuit");
    (c, w, public)
}

#[test]
fn spend_rejects_wrong_sibling_position_root_nullifier_ext() {
    for (family, alpha, arity) in [
        (HashFamily::Poseidon2, 7, 2),
        (HashFamily::Poseidon2, 7, 7),
        (HashFamily::Poseidon2, 5, 4),
        (HashFamily::Poseidon, 5, 2),
        (HashFamily::Poseidon, 5, 4),
    ] {
        let (c, w, public) = setup_family(family, alpha, arity, CircuitKind::Spend);
        let Witness::Spend(sw) = &w else {
            unreachable!()
        };

        let mut bad = sw.clone();
        bad.path.siblings[1][0] += Fr::from(1u64);
        assert!(
            c.mock_check(&Witness::Spend(bad), &public).is_err(),
            "wrong sibling, arity {arity}"
        );

        let mut bad = sw.clone();
        let cap = (arity * arity * arity) as u64;
        bad.path.index = (bad.path.index + 1) % cap;
        assert!(
            c.mock_check(&Witness::Spend(bad), &public).is_err(),
            "wrong position, arity {arity}"
        );

        for i in 0..3 {
            let mut p = public.clone();
            p.0[i] += Fr::from(1u64);
            assert!(
                c.mock_check(&w, &p).is_err(),
                "wrong public input {i}, arity {arity}"
            );
        }

        let mut bad = sw.clone();
        bad.nullifier += Fr::from(1u64);
        assert!(
            c.mock_check(&Witness::Spend(bad), &public).is_err(),
            "wrong nullifier"
        );

        let mut bad = sw.clone();
        bad.secret += Fr::from(1u64);
        assert!(
            c.mock_check(&Witness::Spend(bad), &public).is_err(),
            "wrong secret"
        );

        let mut bad = sw.clone();
        bad.ext_data_hash += Fr::from(1u64);
        assert!(
            c.mock_check(&Witness::Spend(bad), &public).is_err(),
            "changed external data"
        );
    }
}

#[test]
fn membership_and_batch_reject_wrong_data() {
    let (c, w, public) = setup(3, CircuitKind::Membership);
    let Witness::Membership(mw) = &w else {
        unreachable!()
    };
    let mut bad = mw.clone();
    bad.leaf += Fr::from(1u64);
    assert!(c.mock_check(&Witness::Membership(bad), &public).is_err());
    let mut p = public.clone();
    p.0[0] += Fr::from(1u64);
    assert!(c.mock_check(&w, &p).is_err());

    let (c, w, public) = setup(2, CircuitKind::BatchRoot);
    let Witness::BatchRoot(bw) = &w else {
        unreachable!()
    };
    let mut bad = bw.clone();
    bad.leaves[3] += Fr::from(1u64);
    assert!(c.mock_check(&Witness::BatchRoot(bad), &public).is_err());
    let mut p = public.clone();
    p.0[0] += Fr::from(1u64);
    assert!(c.mock_check(&w, &p).is_err());
}
