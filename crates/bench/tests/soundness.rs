//! Every registered proof system: the mutation audit kills every mutation of
//! a small spend circuit, and the verifier rejects malformed proofs without
//! panicking (the full grid and 10^5+ proofs run in `zkbench audit`).

use zkbench_bench::backends;
use zkbench_core::statement::{CircuitKind, StatementConfig};
use zkbench_hash::HashFamily;

#[test]
fn every_backend_is_audited_and_fuzzed() {
    let bn254 = StatementConfig {
        alpha: Some(5),
        arity: 2,
        leaves: 4,
        circuit: CircuitKind::Spend,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    // the STARKs' Poseidon2 is BabyBear's, with x^7
    let babybear = StatementConfig {
        alpha: Some(7),
        ..bn254.clone()
    };
    let registry = backends::all();
    let mut audited = 0;
    for name in backends::proof_system_names() {
        let cfg = if name.starts_with("stark") {
            &babybear
        } else {
            &bn254
        };
        let b = registry.iter().find(|b| b.name() == name).unwrap();
        let (audit, fuzz) = b
            .audit(cfg, 400, 3)
            .expect("proof systems have an audit")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(audit.mutations > 100, "{name}");
        assert_eq!(
            audit.killed, audit.mutations,
            "{name}: {:?}",
            audit.survivors
        );
        assert!(audit.is_sound(), "{name}");
        let fuzz = fuzz.expect("fuzz requested");
        assert_eq!(fuzz.tried, 400, "{name}");
        assert!(fuzz.is_clean(), "{name}: {:?}", fuzz);
        assert!(fuzz.by_kind.len() >= 8, "{name}: {:?}", fuzz.by_kind);
        audited += 1;
    }
    assert!(audited >= 2);
}
