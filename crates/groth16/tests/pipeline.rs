//! The circuits and the Groth16 pipeline on the toy HADES backend
//! (`zkbench_groth16::testing`), independent of the library's families:
//! satisfiability, negative cases, prove/verify, key and artifact files,
//! damaged-file handling.

use std::sync::Arc;

use ark_ff::UniformRand;
use ark_relations::r1cs::ConstraintSystem;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::testing::{self, satisfied};
use zkbench_groth16::{
    artifacts, gadgets::PermutationGadget, keys, lc::Cs, snarkjs, statement::domain_nullifier,
    verify, Circuit, CircuitKind, PublicInputs, SpendConfig, Witness,
};
use zkbench_hash::{Fr, HashFamily, Permutation};

fn cfg(arity: usize, leaves: u64, circuit: CircuitKind) -> SpendConfig {
    SpendConfig {
        family: HashFamily::Poseidon,
        alpha: None,
        arity,
        leaves,
        circuit,
    }
}

fn toy_circuit(arity: usize, leaves: u64, kind: CircuitKind) -> Circuit {
    Circuit::with_backend(
        &cfg(arity, leaves, kind),
        Arc::new(testing::toy_backend(arity)),
    )
    .unwrap()
}

#[test]
fn toy_gadget_matches_native() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for t in [2, 3, 5, 9, 17] {
        let spec = testing::toy_spec(t);
        let gadget = zkbench_groth16::gadgets::poseidon::PoseidonGadget::new(spec.clone());
        let input: Vec<Fr> = (0..t).map(|_| Fr::rand(&mut rng)).collect();
        let cs = ConstraintSystem::<Fr>::new_ref();
        let c = Cs::new(cs.clone());
        let vars: Vec<_> = input.iter().map(|x| c.witness(Some(*x)).unwrap()).collect();
        let out = gadget.permute(&c, &vars).unwrap();
        let native = spec.permute(&input).unwrap();
        assert_eq!(
            out.iter().map(|o| o.value().unwrap()).collect::<Vec<_>>(),
            native
        );
        assert!(cs.is_satisfied().unwrap());
        assert_eq!(cs.num_constraints(), gadget.constraints_per_permutation());
    }
}

#[test]
fn spend_satisfied_and_negative_cases() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for arity in [2, 3, 4, 16] {
        let c = toy_circuit(arity, 1 << 8, CircuitKind::Spend);
        let w = c.random_witness(&mut rng);
        let public = c.public_inputs(&w).unwrap().0;
        assert!(satisfied(&c, &w, &public), "honest spend, arity {arity}");
        let Witness::Spend(sw) = &w else {
            unreachable!()
        };

        // wrong sibling
        let mut bad = sw.clone();
        bad.path.siblings[1][0] += Fr::from(1u64);
        assert!(
            !satisfied(&c, &Witness::Spend(bad), &public),
            "wrong sibling"
        );
        // wrong position
        let mut bad = sw.clone();
        bad.path.index ^= 1;
        assert!(
            !satisfied(&c, &Witness::Spend(bad), &public),
            "wrong position"
        );
        // wrong root, nullifier hash, external data
        for i in 0..2 {
            let mut p = public.clone();
            p[i] += Fr::from(1u64);
            assert!(!satisfied(&c, &w, &p), "tampered public input {i}");
        }
        // wrong nullifier (hash no longer matches)
        let mut bad = sw.clone();
        bad.nullifier += Fr::from(1u64);
        assert!(
            !satisfied(&c, &Witness::Spend(bad), &public),
            "wrong nullifier"
        );
        // secret equal to the nullifier domain is refused
        let mut bad = sw.clone();
        bad.secret = domain_nullifier();
        assert!(c.public_inputs(&Witness::Spend(bad.clone())).is_err());
    }
}

#[test]
fn membership_and_batch_satisfied() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for arity in [2, 5, 8] {
        let c = toy_circuit(arity, 1000, CircuitKind::Membership);
        let w = c.random_witness(&mut rng);
        let public = c.public_inputs(&w).unwrap().0;
        assert!(satisfied(&c, &w, &public));
        let mut p = public.clone();
        p[0] += Fr::from(1u64);
        assert!(!satisfied(&c, &w, &p));
    }
    for (arity, leaves) in [(2, 1), (2, 8), (4, 16), (3, 9)] {
        let c = toy_circuit(arity, leaves, CircuitKind::BatchRoot);
        let w = c.random_witness(&mut rng);
        let public = c.public_inputs(&w).unwrap().0;
        assert_eq!(public.len(), 1 + leaves as usize);
        assert!(
            satisfied(&c, &w, &public),
            "batch arity {arity} leaves {leaves}"
        );
        let mut p = public.clone();
        p[1] += Fr::from(1u64);
        assert!(!satisfied(&c, &w, &p));
    }
}

#[test]
fn constraint_counts_of_the_spend_circuit() {
    // toy node hash at arity A = one HADES permutation of width A + 1:
    // (8 (A+1) + 57) * 3 constraints, minus the free S-box on the constant
    // capacity element in round 0.
    for arity in [2, 4, 8] {
        let c = toy_circuit(arity, 1 << 8, CircuitKind::Spend);
        let h = c.shape().height;
        let node = (8 * (arity + 1) + 57) * 3 - 3;
        let pair = (8 * 3 + 57) * 3 - 3;
        // the nullifier hash H2(n, D) has two constant S-box inputs in round 0
        let expected = 1 + pair + (pair - 3) + 1 + h * ((arity - 1) + node) + 1 + 1;
        let n = c.num_constraints().unwrap();
        assert_eq!(n.constraints, expected, "arity {arity}");
        assert_eq!(n.public_inputs, 3);
    }
}

#[test]
fn prove_verify_keys_and_artifacts() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let c = toy_circuit(4, 1 << 8, CircuitKind::Spend);
    let keys = c.setup(7).unwrap();
    assert!(keys.test_setup);
    let w = c.random_witness(&mut rng);
    let (proof, public, timings) = c.prove(&keys, &w, &mut rng).unwrap();
    assert!(timings.witness.is_some() && timings.prove.is_some());
    assert_eq!(public, c.public_inputs(&w).unwrap());
    assert!(verify(&keys.pvk, &public, &proof).unwrap());
    assert_eq!(zkbench_groth16::proof_size(&proof), 128);

    // wrong public inputs → false
    for i in 0..3 {
        let mut p = public.clone();
        p.0[i] += Fr::from(1u64);
        assert!(
            !verify(&keys.pvk, &p, &proof).unwrap(),
            "tampered input {i}"
        );
    }
    // wrong count → error
    assert!(verify(&keys.pvk, &PublicInputs(public.0[..2].to_vec()), &proof).is_err());
    // tampered proof → false
    let mut bad = proof.clone();
    bad.a = (bad.a + bad.a).into();
    assert!(!verify(&keys.pvk, &public, &bad).unwrap());

    // same setup seed → same keys; the assignment satisfies the matrices
    let a = c.witness(&w).unwrap();
    assert!(c.is_satisfied(&keys, &a));

    // key files round-trip
    let pk_bytes = keys::proving_key_to_bytes(&keys.pk, true);
    let (pk2, test) = keys::proving_key_from_bytes(&pk_bytes).unwrap();
    assert!(test);
    assert_eq!(pk2, keys.pk);
    let vk_bytes = keys::verifying_key_to_bytes(keys.vk(), true);
    assert_eq!(
        keys::verifying_key_from_bytes(&vk_bytes).unwrap().0,
        *keys.vk()
    );

    // a query coordinate out of range, under a valid checksum: a clean error
    // (the queries are raw Montgomery limbs, range-checked on reading)
    let mut b = pk_bytes.clone();
    let n = b.len();
    b[n - 32..].fill(0xff); // the last point's y (last coordinate of l_query)
    let sum = xxhash_rust::xxh3::xxh3_64(&b[20..]);
    b[12..20].copy_from_slice(&sum.to_le_bytes());
    let err = keys::proving_key_from_bytes(&b).unwrap_err().to_string();
    assert!(err.contains("not below the modulus"), "{err}");

    // random byte flips and truncations: clean errors, never panics
    let proof_bytes = keys::proof_to_bytes(&proof);
    for _ in 0..300 {
        for (bytes, kind) in [(&proof_bytes, 0), (&vk_bytes, 1), (&pk_bytes, 2)] {
            let mut b = bytes.clone();
            let i = rng.gen_range(0..b.len());
            b[i] ^= 1 << rng.gen_range(0..8);
            if rng.gen_bool(0.2) {
                b.truncate(rng.gen_range(0..b.len()));
            }
            match kind {
                0 => {
                    if let Ok(p) = keys::proof_from_bytes(&b) {
                        assert!(!verify(&keys.pvk, &public, &p).unwrap());
                    }
                }
                1 => assert!(keys::verifying_key_from_bytes(&b).is_err()),
                _ => assert!(keys::proving_key_from_bytes(&b).is_err()),
            }
        }
    }

    // artifacts: write, read back (snarkjs JSON), verify
    let dir = std::env::temp_dir().join(format!("zkbench-g16-art-{}", std::process::id()));
    let meta = artifacts::meta_json(
        c.config(),
        7,
        None,
        &timings,
        128,
        Some(keys.pk_size()),
        keys.vk_size(),
    );
    artifacts::write_artifacts(
        &dir,
        &artifacts::Artifacts {
            proof: proof.clone(),
            public: public.clone(),
            vk: keys.vk().clone(),
            meta,
        },
    )
    .unwrap();
    let back = artifacts::read_artifacts(&dir).unwrap();
    assert_eq!(back.proof, proof);
    assert_eq!(back.public, public);
    assert_eq!(back.vk, *keys.vk());
    assert_eq!(back.meta["test_setup"], true);
    assert!(artifacts::verify_dir(&dir).unwrap());

    // a tampered public.json → verification fails; a damaged proof.json → error or false
    let pub_json = std::fs::read_to_string(dir.join("public.json")).unwrap();
    let mut p = public.clone();
    p.0[2] += Fr::from(1u64);
    std::fs::write(
        dir.join("public.json"),
        snarkjs::to_snarkjs_string(&snarkjs::public_to_json(&p)),
    )
    .unwrap();
    assert!(!artifacts::verify_dir(&dir).unwrap());
    std::fs::write(dir.join("public.json"), pub_json).unwrap();
    let proof_json = std::fs::read(dir.join("proof.json")).unwrap();
    for _ in 0..200 {
        let mut b = proof_json.clone();
        let i = rng.gen_range(0..b.len());
        b[i] = rng.gen();
        std::fs::write(dir.join("proof.json"), &b).unwrap();
        // whitespace changes may leave a valid file: then it is the same proof
        if let Ok(true) = artifacts::verify_dir(&dir) {
            assert_eq!(artifacts::read_artifacts(&dir).unwrap().proof, proof);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn key_cache_round_trip() {
    let c = toy_circuit(2, 16, CircuitKind::Membership);
    let dir = std::env::temp_dir().join(format!("zkbench-g16-cache-{}", std::process::id()));
    let (k1, cached1) = c.load_or_setup(&dir, 3).unwrap();
    let (k2, cached2) = c.load_or_setup(&dir, 3).unwrap();
    assert!(!cached1 && cached2);
    assert_eq!(k1.pk, k2.pk);
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let w = c.random_witness(&mut rng);
    let (proof, public, _) = c.prove(&k2, &w, &mut rng).unwrap();
    assert!(verify(&k1.pvk, &public, &proof).unwrap());

    // the first proof's inputs through the proof-system trait: keys read
    // while the witness is generated, the same as one after the other
    use zkbench_core::ProofSystem;
    let sys = zkbench_groth16::Groth16;
    let (k3, a3) = sys.read_keys_and_witness(&c, &dir, 3, &w).unwrap();
    assert_eq!(k3.pk, k1.pk);
    assert_eq!(a3.full, c.witness(&w).unwrap().full);
    let proof = sys.prove(&c, &k3, &a3, &mut rng).unwrap();
    assert!(verify(&k1.pvk, &public, &proof).unwrap());
    // no keys in the directory: the error, not a fresh setup
    let empty = dir.join("none");
    assert!(sys.read_keys_and_witness(&c, &empty, 3, &w).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// Compact prover tables (every row count down to the bases alone) make the
/// same proof bytes as the full tables from the same randomness, in memory
/// and through a key file, whose bytes shrink with the rows.
#[test]
fn compact_keys_prove_the_same() {
    let c = toy_circuit(2, 16, CircuitKind::Spend);
    let keys = c.setup(3).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let w = c.random_witness(&mut rng);
    let a = c.witness(&w).unwrap();
    let public = c.public_inputs(&w).unwrap();
    let proof_with = |k: &zkbench_groth16::Keys| {
        let p = c
            .prove_assignment(k, &a, &mut ChaCha20Rng::seed_from_u64(7))
            .unwrap();
        assert!(verify(&keys.pvk, &public, &p).unwrap());
        keys::proof_to_bytes(&p)
    };
    let full = proof_with(&keys);
    let full_bytes = keys.to_bytes().len();
    let mut last = full_bytes;
    for rows in [8, 3, 1] {
        let compact = keys.compacted(rows);
        assert_eq!(proof_with(&compact), full, "rows {rows}");
        let bytes = compact.to_bytes();
        assert!(bytes.len() < last, "rows {rows}: {} bytes", bytes.len());
        last = bytes.len();
        let back = zkbench_groth16::Keys::from_bytes(&bytes).unwrap();
        assert_eq!(proof_with(&back), full, "rows {rows}, from its key file");
    }
}

/// A key file stores the proving key's queries once, as the tables' first
/// rows, and its head (the key without them): the key read back is the
/// setup's, for full and compact tables, and a head or a base that does not
/// fit the rest is an error.
#[test]
fn key_files_rebuild_the_proving_key() {
    use zkbench_groth16::prover_cache;
    let c = toy_circuit(2, 16, CircuitKind::Spend);
    let keys = c.setup(3).unwrap(); // TEST SETUP
    for rows in [None, Some(4), Some(1)] {
        let compact;
        let k = match rows {
            None => &keys,
            Some(r) => {
                compact = keys.compacted(r);
                &compact
            }
        };
        let file = k.to_bytes();
        let back = zkbench_groth16::Keys::from_bytes(&file).unwrap();
        assert_eq!(back.pk, keys.pk, "rows {rows:?}");
        assert!(back.test_setup);
        // the queries are not stored twice: the file is the cache and a head
        let cache = prover_cache::to_bytes(&k.pk, &k.matrices, k.prover_tables());
        let head = keys::proving_key_head_to_bytes(&k.pk, true);
        assert_eq!(file.len(), 16 + cache.len() + head.len());
        assert!(head.len() < 2048, "{} bytes", head.len());
    }
    let cache = prover_cache::to_bytes(&keys.pk, &keys.matrices, keys.prover_tables());
    let with_head = |head: &[u8]| {
        let mut f = Vec::new();
        for part in [&cache[..], head] {
            f.extend_from_slice(&(part.len() as u64).to_le_bytes());
            f.extend_from_slice(part);
        }
        zkbench_groth16::Keys::from_bytes(&f).map(|_| ())
    };
    // a query one point longer than the matrices' variables
    let mut longer = keys.pk.clone();
    longer.a_query.push(longer.a_query[0]);
    let e = with_head(&keys::proving_key_head_to_bytes(&longer, true)).unwrap_err();
    assert!(e.to_string().contains("query lengths"), "{e}");
    // another key's head (another setup of the same circuit)
    let other = c.setup(4).unwrap(); // TEST SETUP
    let e = with_head(&keys::proving_key_head_to_bytes(&other.pk, true)).unwrap_err();
    assert!(e.to_string().contains("another proving key"), "{e}");
    // a base's coordinate out of range, under a valid checksum
    let mut bad = cache.clone();
    let matrices_len = u64::from_le_bytes(bad[28..36].try_into().unwrap()) as usize;
    let tables = 36 + matrices_len;
    // a table's header: window, rows, split, bases (u64 each)
    let n = u64::from_le_bytes(bad[tables + 24..tables + 32].try_into().unwrap()) as usize;
    let base = tables + 32 + 4 * n;
    bad[base..base + 32].fill(0xff);
    let sum = xxhash_rust::xxh3::xxh3_64(&bad[tables..]);
    bad[20..28].copy_from_slice(&sum.to_le_bytes());
    let head = keys::proving_key_head_to_bytes(&keys.pk, true);
    let e = prover_cache::unbound_from_bytes(&bad)
        .and_then(|u| u.bind_head(keys::proving_key_head_from_bytes(&head)?.0))
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("not below the modulus"), "{e}");
    // a table header's split flag other than 0 or 1, and a split window of
    // 16 bits (its negated digits would not fit), under a valid checksum
    for (at, value) in [(16, 2u64), (0, 16)] {
        let mut bad = cache.clone();
        bad[tables + at..tables + at + 8].copy_from_slice(&value.to_le_bytes());
        if at == 0 {
            bad[tables + 16..tables + 24].copy_from_slice(&1u64.to_le_bytes());
        }
        let sum = xxhash_rust::xxh3::xxh3_64(&bad[tables..]);
        bad[20..28].copy_from_slice(&sum.to_le_bytes());
        let e = prover_cache::unbound_from_bytes(&bad)
            .map(|_| ())
            .unwrap_err();
        assert!(e.to_string().contains("bad table shape"), "{e}");
    }
    // a variables' count far past the matrices' entries, with a head to
    // match: an error before it sizes an allocation
    let mut big = cache.clone();
    let vk_len = u64::from_le_bytes(big[36..44].try_into().unwrap()) as usize;
    let at = 36 + 8 + vk_len + 8; // the witness variables' count
    let witness = 1u64 << 40;
    big[at..at + 8].copy_from_slice(&witness.to_le_bytes());
    let sum = xxhash_rust::xxh3::xxh3_64(&big[36..36 + matrices_len]);
    big[12..20].copy_from_slice(&sum.to_le_bytes());
    let vars = witness + keys.pk.vk.gamma_abc_g1.len() as u64;
    let head = keys::ProvingKeyHead {
        vk: keys.pk.vk.clone(),
        beta_g1: keys.pk.beta_g1,
        delta_g1: keys.pk.delta_g1,
        query_lens: [vars, vars, vars, keys.pk.h_query.len() as u64, witness],
    };
    let e = prover_cache::unbound_from_bytes(&big)
        .and_then(|u| u.bind_head(head))
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("more variables"), "{e}");
}
