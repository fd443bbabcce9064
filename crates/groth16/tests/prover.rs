//! The fixed-base prover (`zkbench_groth16::prover`, used by
//! `Circuit::prove_assignment`) against ark-groth16's prover: with the same
//! randomness both give the same proof; the proofs verify with ark-groth16's
//! verifier; tampered proofs and wrong public inputs do not.

use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{One, UniformRand};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{verify, Circuit, CircuitKind, PublicInputs, SpendConfig};
use zkbench_hash::{Fr, HashFamily};

fn check(family: HashFamily, alpha: Option<u64>, arity: usize, leaves: u64, kind: CircuitKind) {
    let cfg = SpendConfig {
        family,
        alpha,
        arity,
        leaves,
        circuit: kind,
    };
    let circuit = Circuit::new(&cfg).unwrap();
    let keys = circuit.setup(3).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for _ in 0..2 {
        let witness = circuit.random_witness(&mut rng);
        let assignment = circuit.witness(&witness).unwrap();
        let public = assignment.public_inputs();
        let seed: u64 = rand::Rng::gen(&mut rng);
        let ours = circuit
            .prove_assignment(&keys, &assignment, &mut ChaCha20Rng::seed_from_u64(seed))
            .unwrap();
        let reference = circuit
            .prove_assignment_arkworks(&keys, &assignment, &mut ChaCha20Rng::seed_from_u64(seed))
            .unwrap();
        assert_eq!(ours, reference, "{family} arity {arity}: proofs differ");
        assert!(
            verify(&keys.pvk, &public, &ours).unwrap(),
            "{family}: no verify"
        );

        // tampered proofs
        let mut bad = ours.clone();
        bad.a = (bad.a.into_group() + ark_bn254::G1Affine::generator()).into_affine();
        assert!(!verify(&keys.pvk, &public, &bad).unwrap());
        let mut bad = ours.clone();
        bad.b = (bad.b.into_group().double()).into_affine();
        assert!(!verify(&keys.pvk, &public, &bad).unwrap());
        let mut bad = ours.clone();
        bad.c = -bad.c;
        assert!(!verify(&keys.pvk, &public, &bad).unwrap());
        // wrong public input
        let mut wrong = public.0.clone();
        wrong[0] += Fr::one();
        assert!(!verify(&keys.pvk, &PublicInputs(wrong), &ours).unwrap());
        // fresh randomness: a different proof that also verifies
        let other = circuit
            .prove_assignment(&keys, &assignment, &mut rng)
            .unwrap();
        assert_ne!(other, ours);
        assert!(verify(&keys.pvk, &public, &other).unwrap());
    }
    // a random (unsatisfying) assignment gives a proof that fails
    let witness = circuit.random_witness(&mut rng);
    let mut assignment = circuit.witness(&witness).unwrap();
    let last = assignment.full.len() - 1;
    assignment.full[last] = Fr::rand(&mut rng);
    let public = assignment.public_inputs();
    let proof = circuit
        .prove_assignment(&keys, &assignment, &mut rng)
        .unwrap();
    assert!(!verify(&keys.pvk, &public, &proof).unwrap());
}

#[test]
fn griffin_spend_arity7() {
    check(HashFamily::Griffin, Some(5), 7, 1 << 12, CircuitKind::Spend);
}

#[test]
fn anemoi_spend_arity4() {
    check(HashFamily::Anemoi, Some(5), 4, 1 << 8, CircuitKind::Spend);
}

#[test]
fn poseidon2_membership_arity2() {
    check(
        HashFamily::Poseidon2,
        Some(5),
        2,
        1 << 4,
        CircuitKind::Membership,
    );
}

#[test]
fn poseidon_spend_arity4() {
    check(HashFamily::Poseidon, None, 4, 1 << 6, CircuitKind::Spend);
}

/// The timed prover gives the same proof as the untimed one, and its parts
/// (`metrics.phase_<name>_s` of the harness) are all there, non-negative and
/// within the call's wall time (no timing assertion beyond that).
#[test]
fn timed_prover_parts() {
    let cfg = SpendConfig {
        family: HashFamily::Poseidon2,
        alpha: Some(5),
        arity: 2,
        leaves: 1 << 4,
        circuit: CircuitKind::Membership,
    };
    let circuit = Circuit::new(&cfg).unwrap();
    let keys = circuit.setup(3).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let assignment = circuit.witness(&circuit.random_witness(&mut rng)).unwrap();
    let plain = circuit
        .prove_assignment(&keys, &assignment, &mut ChaCha20Rng::seed_from_u64(9))
        .unwrap();
    let start = std::time::Instant::now();
    let (timed, parts) = circuit
        .prove_assignment_timed(&keys, &assignment, &mut ChaCha20Rng::seed_from_u64(9))
        .unwrap();
    let wall = start.elapsed().as_secs_f64();
    assert_eq!(plain, timed);
    let names: Vec<&str> = parts.parts().iter().map(|p| p.0).collect();
    assert_eq!(
        names,
        ["h", "msm_a", "msm_b_g1", "msm_b_g2", "msm_c", "msm_h", "rest"]
    );
    assert!(parts.parts().iter().all(|p| p.1 >= 0.0 && p.1.is_finite()));
    assert!(parts.total() <= wall, "{} > {wall}", parts.total());
}

/// The proof is the same whatever the pool (its five MSMs are cut into
/// pieces by bases and by buckets for the pool's threads, capped at this
/// machine's CPUs): equal to ark-groth16's at 1, 2, 3 and 16 threads.
#[test]
fn same_proof_at_every_thread_count() {
    let cfg = SpendConfig {
        family: HashFamily::Poseidon2,
        alpha: Some(5),
        arity: 4,
        leaves: 1 << 8,
        circuit: CircuitKind::Spend,
    };
    let circuit = Circuit::new(&cfg).unwrap();
    let keys = circuit.setup(16).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    let assignment = circuit.witness(&circuit.random_witness(&mut rng)).unwrap();
    let reference = circuit
        .prove_assignment_arkworks(&keys, &assignment, &mut ChaCha20Rng::seed_from_u64(4))
        .unwrap();
    for threads in [1, 2, 3, 16] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let ours = pool
            .install(|| {
                circuit.prove_assignment(&keys, &assignment, &mut ChaCha20Rng::seed_from_u64(4))
            })
            .unwrap();
        assert_eq!(ours, reference, "{threads} threads");
    }
}
