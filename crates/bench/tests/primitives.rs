//! The `primitives` and `pcs` suites: parsing and expansion of the new case
//! kinds, size caps of the profiles, and the records' contract fields
//! (`case.kind`, `case.system`, `case.size`, per-item metrics,
//! out-of-memory records). Tiny sizes only.

use zkbench_bench::{
    backend::Backend,
    case::{Case, CaseKind},
    primitives::Primitives,
    proof::phase_medians,
    results::Status,
    suite::{Profile, Suite},
    sys::Environment,
};

fn tiny() -> Profile {
    Profile {
        warmup: 0,
        min_samples: 1,
        max_samples: 1,
        target_seconds: 0.0,
        ..Profile::quick()
    }
}

fn case(kind: CaseKind, system: &str, object: &str, size: u64) -> Case {
    Case::primitive(kind, system, object, size, 1)
}

#[test]
fn builtin_primitive_suites_expand_to_the_contract_kinds() {
    let p = Suite::load("primitives").unwrap();
    let cases = p.cases(None);
    for (kind, systems) in [
        (CaseKind::Msm, &["zkbench", "arkworks", "halo2curves"][..]),
        (CaseKind::Fft, &["arkworks", "halo2curves"][..]),
        (CaseKind::Pairing, &["arkworks", "halo2curves"][..]),
        (CaseKind::Field, &["arkworks", "halo2curves"][..]),
    ] {
        for s in systems {
            assert!(
                cases
                    .iter()
                    .any(|c| c.kind == kind && c.system == *s && c.size.is_some()),
                "no {} case of {s}",
                kind.name()
            );
        }
    }
    assert!(cases.iter().any(|c| c.kind == CaseKind::Hash));
    assert!(p.externals.iter().any(|e| e.name == "gnark-crypto"));
    let quick = p.profile(Some("quick")).unwrap();
    let msm20 = case(CaseKind::Msm, "arkworks", "bn254-g1", 1 << 20);
    let fft20 = case(CaseKind::Fft, "arkworks", "bn254-fr", 1 << 20);
    assert!(!quick.admits(&msm20) && quick.admits(&fft20));
    assert!(p.profile(Some("full")).unwrap().admits(&msm20));

    let pcs = Suite::load("pcs").unwrap();
    let cases = pcs.cases(None);
    for scheme in ["kzg-bn254", "ipa-pasta", "fri-babybear", "fri-goldilocks"] {
        let sizes: Vec<u64> = cases
            .iter()
            .filter(|c| c.kind == CaseKind::PcsCommit && c.hash == scheme)
            .filter_map(|c| c.size)
            .collect();
        assert!(sizes.len() > 10, "{scheme}");
        // doubling
        assert!(sizes.windows(2).all(|w| w[1] == 2 * w[0]), "{scheme}");
    }
    let quick = pcs.profile(Some("quick")).unwrap();
    assert!(!quick.admits(&case(
        CaseKind::PcsCommit,
        "halo2-axiom",
        "ipa-pasta",
        1 << 17
    )));
    assert!(quick.admits(&case(
        CaseKind::PcsCommit,
        "halo2-axiom",
        "kzg-bn254",
        1 << 20
    )));
}

#[test]
fn bad_primitive_sweeps_are_rejected() {
    let sweep = |body: &str| format!("name = \"x\"\n[[sweep]]\n{body}");
    for (body, needle) in [
        ("kind = \"msm\"\nsystems = [\"arkworks\"]\ngroups = [\"bn254-g1\"]", "sizes"),
        (
            "kind = \"msm\"\nsystems = [\"nobody\"]\ngroups = [\"bn254-g1\"]\nsizes = [\"2^4\"]",
            "no primitive implementation",
        ),
        (
            "kind = \"msm\"\nsystems = [\"arkworks\"]\ngroups = [\"bn254-gt\"]\nsizes = [\"2^4\"]",
            "bn254-gt",
        ),
        (
            "kind = \"pcs-open\"\nsystems = [\"plonky3\"]\ngroups = [\"fri-babybear\"]\nsizes = [\"2^4\"]",
            "pcs-commit",
        ),
        (
            "kind = \"fft\"\nsystems = [\"arkworks\"]\ngroups = [\"bn254-fr\"]\nsizes = [\"2^99\"]",
            "invalid size",
        ),
    ] {
        let e = Suite::from_toml("x", &sweep(body)).unwrap_err().to_string();
        assert!(e.contains(needle), "{e} does not mention {needle}");
    }
    // a system without an implementation for a group is skipped, not an error
    let s = Suite::from_toml(
        "x",
        &sweep("kind = \"pcs-commit\"\nsystems = [\"halo2-axiom\", \"plonky3\"]\ngroups = [\"kzg-bn254\"]\nsizes = [\"2^4\", \"2^5\"]\nthreads = [1, 2]"),
    )
    .unwrap();
    let cases = s.cases(None);
    assert_eq!(cases.len(), 4);
    assert!(cases.iter().all(|c| c.system == "halo2-axiom"));
    assert_eq!(
        cases[0].id(),
        "pcs-commit/halo2-axiom/kzg-bn254/2^4/threads1"
    );
}

#[test]
fn primitive_records_carry_the_contract_fields() {
    let env = Environment::default();
    let b = Primitives;
    let msm = case(CaseKind::Msm, "zkbench", "bn254-g1", 16);
    assert!(b.handles(&msm));
    let recs = b.run(&msm, &tiny(), &env);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    let v = serde_json::to_value(r).unwrap();
    assert_eq!(v["case"]["kind"], "msm");
    assert_eq!(v["case"]["system"], "zkbench");
    assert_eq!(v["case"]["size"], 16);
    for m in [
        "ns_per_point",
        "points_per_s",
        "model_ns_per_point",
        "table_build_s",
    ] {
        assert!(r.metrics.contains_key(m), "no {m}");
    }

    let kzg = case(CaseKind::PcsCommit, "halo2-axiom", "kzg-bn254", 16);
    let recs = b.run(&kzg, &tiny(), &env);
    let kinds: Vec<&str> = recs.iter().map(|r| r.case.kind.name()).collect();
    assert_eq!(kinds, ["pcs-commit", "pcs-open", "pcs-verify"]);
    assert!(recs
        .iter()
        .all(|r| r.status == Status::Ok && r.case.size == Some(16)));
    assert!(recs[0].metrics.contains_key("coefficients_per_s"));
    assert!(recs[1].metrics.contains_key("proof_bytes"));
    assert_eq!(
        recs[2].case_id,
        "pcs-verify/halo2-axiom/kzg-bn254/2^4/threads1"
    );

    // a size far beyond any machine's memory is recorded, not attempted
    let huge = case(CaseKind::PcsCommit, "plonky3", "fri-goldilocks", 1 << 40);
    let recs = b.run(&huge, &tiny(), &env);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].status, Status::OutOfMemory);
    assert!(recs[0].metrics.contains_key("estimated_bytes"));
}

#[test]
fn phase_medians_name_each_part() {
    let samples = vec![
        vec![("h", 1.0), ("rest", 0.1)],
        vec![("h", 3.0), ("rest", 0.3)],
        vec![("h", 2.0), ("rest", 0.2)],
    ];
    let m = phase_medians(&samples);
    assert_eq!(m.get("phase_h_s"), Some(&2.0));
    assert_eq!(m.get("phase_rest_s"), Some(&0.2));
    assert!(phase_medians(&[vec![], vec![]]).is_empty());
}
