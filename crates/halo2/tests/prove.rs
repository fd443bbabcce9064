//! Real KZG prove/verify: the 2^36-leaf spend proof (zkOS shape), tampered
//! proofs, artifacts and the key cache.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{
    run_once, verify_dir, verify_for, write_artifacts, Halo2Circuit, Halo2Config, Srs,
};
use zkbench_hash::Fr;

#[test]
fn spend_2_36_prove_verify_tamper_artifacts() {
    let cfg = Halo2Config::zkos_like();
    let srs = Srs::TestSetup { seed: 1 };
    let keydir = tempfile::tempdir().unwrap();
    let (circuit, keys, out, timings, ok) = run_once(&cfg, &srs, Some(keydir.path()), 7).unwrap();
    let stats = circuit.stats_with_keys(&keys).unwrap();
    println!("{stats}\nproof {} bytes, {timings:?}", out.proof.len());
    assert!(ok, "honest proof verifies");
    assert!(stats.k <= 9, "k = {}", stats.k);

    // Wrong public inputs.
    for i in 0..3 {
        let mut p = out.public.clone();
        p.0[i] += Fr::from(1u64);
        assert!(!verify_for(&circuit, &keys, &p, &out.proof).unwrap());
    }
    // Wrong number of public inputs is an error.
    let mut p = out.public.clone();
    p.0.pop();
    assert!(verify_for(&circuit, &keys, &p, &out.proof).is_err());

    // Random byte flips, truncation, extension: rejected, never a panic.
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for _ in 0..40 {
        let mut bad = out.proof.clone();
        let i = rng.gen_range(0..bad.len());
        bad[i] ^= 1 << rng.gen_range(0..8);
        assert!(
            !verify_for(&circuit, &keys, &out.public, &bad).unwrap(),
            "flip at {i}"
        );
    }
    assert!(!verify_for(
        &circuit,
        &keys,
        &out.public,
        &out.proof[..out.proof.len() - 1]
    )
    .unwrap());
    assert!(!verify_for(&circuit, &keys, &out.public, &[]).unwrap());
    let mut longer = out.proof.clone();
    longer.push(0);
    // Trailing bytes are not read by the transcript; either answer is fine, no panic.
    let _ = verify_for(&circuit, &keys, &out.public, &longer).unwrap();

    // Artifacts and the key cache.
    let dir = tempfile::tempdir().unwrap();
    write_artifacts(dir.path(), &circuit, &keys, &srs, &out).unwrap();
    let meta = std::fs::read_to_string(dir.path().join("meta.json")).unwrap();
    assert!(meta.contains("UNSAFE"));
    let (ok, meta) = verify_dir(dir.path(), keydir.path()).unwrap();
    assert!(ok);
    assert!(meta.test_setup);
    // Tampered proof file: clean `false`.
    let mut bytes = std::fs::read(dir.path().join("proof.bin")).unwrap();
    bytes[100] ^= 0x55;
    std::fs::write(dir.path().join("proof.bin"), &bytes).unwrap();
    let (ok, _) = verify_dir(dir.path(), keydir.path()).unwrap();
    assert!(!ok);

    // A cached key proves again.
    let c2 = Halo2Circuit::new(&cfg).unwrap();
    let (keys2, cached) = c2.load_or_keygen(keydir.path(), &srs).unwrap();
    assert!(cached);
    let w = c2.random_witness(&mut rng);
    let (out2, _) = c2.prove(&keys2, &w, &mut rng).unwrap();
    assert!(verify_for(&c2, &keys2, &out2.public, &out2.proof).unwrap());
    // And the proof of the first keys verifies under the cached keys.
    assert!(verify_for(&c2, &keys2, &out.public, &out.proof).unwrap());
}

#[test]
fn srs_from_params_file_and_poseidon_membership() {
    use halo2_axiom::{
        halo2curves::bn256::Bn256,
        poly::{commitment::Params, kzg::commitment::ParamsKZG},
    };
    use zkbench_halo2::{chip::ChipLayout, statement::CircuitKind};
    use zkbench_hash::HashFamily;

    let cfg = Halo2Config {
        statement: zkbench_halo2::statement::StatementConfig {
            family: HashFamily::Poseidon,
            alpha: None,
            arity: 2,
            leaves: 4,
            circuit: CircuitKind::Membership,
        },
        layout: ChipLayout::new(4),
    };
    let circuit = Halo2Circuit::new(&cfg).unwrap();
    let k = circuit.stats().unwrap().k;
    // A params file of a larger k, in halo2's format (downsized on load).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("params-k.srs");
    let params = ParamsKZG::<Bn256>::setup(k + 1, ChaCha20Rng::seed_from_u64(99));
    params
        .write(&mut std::fs::File::create(&path).unwrap())
        .unwrap();
    let srs = Srs::File(path.clone());
    assert!(!srs.is_test_setup());
    let keys = circuit.keygen(&srs).unwrap();
    assert_eq!(keys.params.k(), k);
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let w = circuit.random_witness(&mut rng);
    let (out, _) = circuit.prove(&keys, &w, &mut rng).unwrap();
    assert!(verify_for(&circuit, &keys, &out.public, &out.proof).unwrap());
    // A truncated params file is a clean error.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert!(circuit.keygen(&Srs::File(path)).is_err());
}
