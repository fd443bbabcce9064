//! One statement, every backend: Groth16 and Halo2-KZG prove the same
//! statement witness through the `ProofSystem` trait, agree with the native
//! public inputs of `zkbench-statement`, and reject a changed public input.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_core::{
    statement::{CircuitKind, PublicInputs, StatementConfig, Witness},
    ProofSystem,
};
use zkbench_hash::{Fr, HashFamily};

/// Proves `witness` with `sys`, checks it against the native public inputs,
/// round-trips the proof bytes, and checks a tampered input is rejected.
fn prove_and_check<P: ProofSystem>(sys: &P, cfg: &StatementConfig, witness: &Witness) {
    let circuit = sys.circuit(cfg).unwrap();
    let keys = sys.setup(&circuit, 42).unwrap();
    assert!(sys.is_test_setup(&keys));
    let prepared = sys.witness(&circuit, witness).unwrap();
    let public = sys.public_inputs(&circuit, &prepared);
    let native = PublicInputs::compute(
        &cfg.native_hashes().unwrap(),
        &cfg.shape().unwrap(),
        witness,
    )
    .unwrap();
    assert_eq!(
        public,
        native,
        "{}: public inputs differ from the statement's",
        sys.name()
    );

    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let proof = sys.prove(&circuit, &keys, &prepared, &mut rng).unwrap();
    let bytes = sys.proof_to_bytes(&proof);
    let proof = sys.proof_from_bytes(&bytes).unwrap();
    assert!(
        sys.verify(&circuit, &keys, &public, &proof).unwrap(),
        "{}",
        sys.name()
    );

    for i in 0..public.0.len() {
        let mut bad = public.clone();
        bad.0[i] += Fr::from(1u64);
        assert!(
            !sys.verify(&circuit, &keys, &bad, &proof).unwrap(),
            "{}: public input {i} changed and the proof still verifies",
            sys.name()
        );
    }
    let mut short = public.clone();
    short.0.pop();
    assert!(sys.verify(&circuit, &keys, &short, &proof).is_err());
}

#[test]
fn groth16_and_halo2_prove_the_same_statement() {
    for (circuit, arity, leaves) in [
        (CircuitKind::Spend, 4, 16u64),
        (CircuitKind::Membership, 2, 8),
        (CircuitKind::BatchRoot, 2, 4),
    ] {
        let cfg = StatementConfig {
            alpha: Some(5),
            arity,
            leaves,
            circuit,
            ..StatementConfig::new(HashFamily::Poseidon2)
        };
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let witness = Witness::random(&mut rng, circuit, &cfg.shape().unwrap());
        prove_and_check(&zkbench_groth16::Groth16, &cfg, &witness);
        prove_and_check(&zkbench_halo2::Halo2Kzg::default(), &cfg, &witness);
    }
}

/// Halo2 transcripts: flipping bit 255 of a compressed point (ignored by
/// halo2curves' decoder for non-identity points) or appending a byte gives a
/// different byte string, which must not verify (found by `zkbench audit --fuzz`).
#[test]
fn halo2_proofs_have_one_encoding() {
    let sys = zkbench_halo2::Halo2Kzg::default();
    let cfg = StatementConfig {
        arity: 2,
        leaves: 4,
        circuit: CircuitKind::Membership,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    let circuit = sys.circuit(&cfg).unwrap();
    let keys = sys.setup(&circuit, 1).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let w = Witness::random(&mut rng, cfg.circuit, &cfg.shape().unwrap());
    let prepared = sys.witness(&circuit, &w).unwrap();
    let public = sys.public_inputs(&circuit, &prepared);
    let proof = sys.prove(&circuit, &keys, &prepared, &mut rng).unwrap();
    assert!(sys.verify(&circuit, &keys, &public, &proof).unwrap());
    assert_eq!(proof.len() % 32, 0);
    // the first element is a commitment (a point): flip its bit 255
    let mut flipped = proof.clone();
    flipped[31] ^= 0x80;
    assert!(!sys.verify(&circuit, &keys, &public, &flipped).unwrap());
    let mut longer = proof.clone();
    longer.push(0);
    assert!(!sys.verify(&circuit, &keys, &public, &longer).unwrap());
}
