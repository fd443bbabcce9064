//! Every implementation agrees with arkworks on the same input (MSM results,
//! FFT outputs, field chains), pairings are bilinear, every commitment scheme
//! opens and verifies and rejects a wrong evaluation, and every supported
//! case prepares and runs. Small sizes only.

use ark_ec::{pairing::Pairing, CurveGroup, PrimeGroup};
use ark_ff::{Field, One, UniformRand};
use halo2_axiom::halo2curves::{bn256, ff::Field as _, group::Curve};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_core::{Case, CaseKind};
use zkbench_msm::FixedBaseTable;
use zkbench_primitives::{
    convert, fft, field::Ops, fri, inputs, msm, pairing, pcs, pcs::Pcs, prepare, supported,
    SUPPORTED,
};

#[test]
fn msm_implementations_agree() {
    for n in [1usize, 2, 7, 64, 300] {
        let scalars = inputs::scalars(n, 20 + n as u64);
        let h_scalars: Vec<bn256::Fr> = scalars.iter().map(convert::fr).collect();

        let p1 = inputs::g1(n, n as u64);
        let expected = msm::arkworks(&p1, &scalars);
        for chunks in [1, 2, 3] {
            let table = FixedBaseTable::new(&p1, chunks);
            assert_eq!(msm::zkbench(&table, &scalars), expected, "G1 n={n}");
        }
        let h1: Vec<bn256::G1Affine> = p1.iter().map(convert::g1).collect();
        assert_eq!(
            msm::halo2curves(&h1, &h_scalars).to_affine(),
            convert::g1(&expected.into_affine()),
            "G1 halo2curves n={n}"
        );

        let p2 = inputs::g2(n, 100 + n as u64);
        let expected = msm::arkworks(&p2, &scalars);
        let table = FixedBaseTable::new(&p2, 2);
        assert_eq!(msm::zkbench(&table, &scalars), expected, "G2 n={n}");
        let h2: Vec<bn256::G2Affine> = p2.iter().map(convert::g2).collect();
        assert_eq!(
            msm::halo2curves(&h2, &h_scalars).to_affine(),
            convert::g2(&expected.into_affine()),
            "G2 halo2curves n={n}"
        );
    }
}

#[test]
fn msm_cost_model_is_sane() {
    // more points amortise the bucket reduction; more threads divide the work
    let small = msm::model_muls_per_point(1 << 10, 1);
    let large = msm::model_muls_per_point(1 << 20, 1);
    assert!(large < small && large > 6.0 * 256.0 / 20.0);
    assert!(msm::model_muls_per_point(1 << 20, 2) < large);
}

#[test]
fn fft_implementations_agree() {
    for k in [1u32, 3, 6, 9] {
        let d = fft::domain(k).unwrap();
        let input = inputs::scalars(1 << k, k as u64);
        let mut a = input.clone();
        fft::arkworks(&d, &mut a);
        let mut h: Vec<bn256::Fr> = input.iter().map(convert::fr).collect();
        fft::halo2curves(&mut h, convert::fr(&d.group_gen), k);
        let back: Vec<bn256::Fr> = a.iter().map(convert::fr).collect();
        assert_eq!(h, back, "k = {k}");
        let mut z = input.clone();
        zkbench_msm::fft::Fft::<zkbench_msm::fft::ArkMul>::new(1 << k)
            .unwrap()
            .fft(&mut z);
        assert_eq!(z, a, "zkbench, k = {k}");
        // and it is the evaluation at the domain's points
        let x = d.group_gen;
        let at_x: ark_bn254::Fr = input
            .iter()
            .rev()
            .fold(ark_bn254::Fr::from(0u64), |acc, c| acc * x + c);
        assert_eq!(a[1], at_x);
    }
}

#[test]
fn pairings_are_bilinear_in_both_libraries() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let a = ark_bn254::Fr::rand(&mut rng);
    let p = ark_bn254::G1Projective::generator() * ark_bn254::Fr::rand(&mut rng);
    let q = ark_bn254::G2Projective::generator() * ark_bn254::Fr::rand(&mut rng);
    let (pa, qa) = ((p * a).into_affine(), (q * a).into_affine());
    let (p, q) = (p.into_affine(), q.into_affine());
    // e(aP, Q) · e(−P, aQ) = 1
    let ark = pairing::arkworks(&[pa, -p], &[q, qa]);
    assert!(ark.0.is_one());
    assert_eq!(
        pairing::arkworks(&[pa], &[q]),
        ark_bn254::Bn254::pairing(p, qa)
    );
    let h = pairing::halo2curves(
        &[convert::g1(&pa), convert::g1(&-p)],
        &[convert::g2(&q), convert::g2(&qa)],
    );
    assert_eq!(h, bn256::Gt::identity());
    let h1 = pairing::halo2curves(&[convert::g1(&pa)], &[convert::g2(&q)]);
    assert_ne!(h1, bn256::Gt::identity());
}

#[test]
fn field_chains_agree() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let (x, y) = (ark_bn254::Fr::rand(&mut rng), ark_bn254::Fr::rand(&mut rng));
    let mut a = zkbench_primitives::field::Ark(x, y);
    let mut h = zkbench_primitives::field::Halo2(convert::fr(&x), convert::fr(&y));
    a.mul_chain(100);
    h.mul_chain(100);
    assert_eq!(a.0, x * y.pow([100u64]));
    assert_eq!(convert::fr(&a.0), h.0);
    a.inv_chain(10);
    h.inv_chain(10);
    assert_eq!(convert::fr(&a.0), h.0);
    let (x, y) = (ark_bn254::Fq::rand(&mut rng), ark_bn254::Fq::rand(&mut rng));
    let mut a = zkbench_primitives::field::Ark(x, y);
    let mut h = zkbench_primitives::field::Halo2(convert::fq(&x), convert::fq(&y));
    a.mul_chain(50);
    h.mul_chain(50);
    a.inv_chain(5);
    h.inv_chain(5);
    assert_eq!(convert::fq(&a.0), h.0);
}

#[test]
fn kzg_srs_is_the_powers_of_tau() {
    let tau = bn256::Fr::from(5u64);
    let g = pcs::kzg_srs(3, tau);
    let gen = bn256::G1Affine::generator();
    for (i, p) in g.iter().enumerate() {
        assert_eq!(*p, (gen * tau.pow_vartime([i as u64])).to_affine());
    }
}

#[test]
fn commitment_schemes_open_verify_and_reject_a_wrong_evaluation() {
    type Make = fn(u32) -> Box<dyn Pcs>;
    let schemes: [(&str, Make, &[u32]); 4] = [
        ("KZG", |k| Box::new(pcs::Kzg::new(k).unwrap()), &[1, 2, 5]),
        ("IPA", |k| Box::new(pcs::Ipa::new(k).unwrap()), &[1, 2, 5]),
        (
            "FRI BabyBear",
            |k| Box::new(fri::FriBabyBear::new(k).unwrap()),
            &[4, 6],
        ),
        (
            "FRI Goldilocks",
            |k| Box::new(fri::FriGoldilocks::new(k).unwrap()),
            &[4, 6],
        ),
    ];
    for (name, make, sizes) in schemes {
        for &k in sizes {
            let mut p = make(k);
            p.commit().unwrap();
            p.open().unwrap();
            assert!(
                p.check(false).unwrap(),
                "{name} k={k}: honest opening rejected"
            );
            assert!(
                !p.check(true).unwrap(),
                "{name} k={k}: wrong evaluation accepted"
            );
            assert!(p.proof_bytes() > 0);
        }
    }
}

fn case(kind: CaseKind, system: &str, object: &str, size: u64) -> Case {
    Case::primitive(kind, system, object, size, 1)
}

#[test]
fn every_supported_case_prepares_and_runs() {
    for (kind, system, objects) in SUPPORTED {
        for object in *objects {
            let size = match kind {
                CaseKind::Pairing => 2,
                CaseKind::PcsCommit if object.name().starts_with("fri") => 16,
                _ => 8,
            };
            let c = case(*kind, system, object.name(), size);
            let mut w = prepare(&c).unwrap_or_else(|e| panic!("{}: {e}", c.id()));
            let phases = w.phases();
            assert!(!phases.is_empty());
            for i in 0..phases.len() {
                w.run(i)
                    .unwrap_or_else(|e| panic!("{} phase {i}: {e}", c.id()));
                assert_eq!(w.items(i), size);
                let _ = w.metrics(i);
            }
            if *kind == CaseKind::PcsCommit {
                let kinds: Vec<CaseKind> = phases.iter().map(|p| p.0).collect();
                assert_eq!(
                    kinds,
                    [CaseKind::PcsCommit, CaseKind::PcsOpen, CaseKind::PcsVerify]
                );
                assert!(w.metrics(1).contains_key("proof_bytes"));
            }
            if *kind == CaseKind::Msm {
                assert!(w.metrics(0).contains_key("model_ns_per_point"));
            }
            let est = zkbench_primitives::estimate_bytes(&c).unwrap();
            let bigger = zkbench_primitives::estimate_bytes(&Case {
                size: Some(size << 10),
                ..c.clone()
            })
            .unwrap();
            // field chains run in registers: their memory does not grow
            if *kind != CaseKind::Field {
                assert!(bigger > est, "{}: estimate does not grow", c.id());
            }
        }
    }
}

#[test]
fn unsupported_and_bad_cases_are_errors() {
    assert!(!supported(CaseKind::Msm, "plonky3", "bn254-g1"));
    assert!(supported(CaseKind::PcsOpen, "halo2-axiom", "kzg-bn254"));
    for c in [
        case(CaseKind::Msm, "nobody", "bn254-g1", 8),
        case(CaseKind::Fft, "arkworks", "bn254-fr", 12),
        case(CaseKind::Proof, "arkworks", "bn254-fr", 8),
        Case {
            size: None,
            ..case(CaseKind::Msm, "arkworks", "bn254-g1", 8)
        },
    ] {
        assert!(prepare(&c).is_err(), "{}", c.id());
    }
}
