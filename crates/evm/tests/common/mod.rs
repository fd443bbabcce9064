//! Shared fixtures: small Groth16 proofs (toy hash, arity 2) and their proof
//! directories, and the check that Node.js + solc-js are installed.

#![allow(dead_code)]

use std::{path::PathBuf, sync::Arc, sync::OnceLock};

use ark_bn254::Bn254;
use ark_groth16::{Proof, VerifyingKey};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_evm::{Compiled, Solc};
use zkbench_groth16::{artifacts, testing, Circuit, CircuitKind, PublicInputs, SpendConfig};
use zkbench_hash::HashFamily;

/// One key with two proofs of different statements.
pub struct Fixture {
    pub name: &'static str,
    pub vk: VerifyingKey<Bn254>,
    pub proofs: Vec<(Proof<Bn254>, PublicInputs)>,
    pub dir: PathBuf,
}

fn make(name: &'static str, kind: CircuitKind, leaves: u64) -> Fixture {
    let cfg = SpendConfig {
        family: HashFamily::Poseidon,
        alpha: None,
        arity: 2,
        leaves,
        circuit: kind,
    };
    let c = Circuit::with_backend(&cfg, Arc::new(testing::toy_backend(2))).unwrap();
    let keys = c.setup(21).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    let proofs: Vec<_> = (0..2)
        .map(|_| {
            let w = c.random_witness(&mut rng);
            let (proof, public, _) = c.prove(&keys, &w, &mut rng).unwrap();
            assert!(zkbench_groth16::verify(&keys.pvk, &public, &proof).unwrap());
            (proof, public)
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("zkbench-evm-{name}-{}", std::process::id()));
    let (proof, public) = proofs[0].clone();
    artifacts::write_artifacts(
        &dir,
        &artifacts::Artifacts {
            proof,
            public,
            vk: keys.vk().clone(),
            meta: serde_json::json!({ "test_setup": true }),
        },
    )
    .unwrap();
    Fixture {
        name,
        vk: keys.vk().clone(),
        proofs,
        dir,
    }
}

/// Spend (3 public inputs), membership (1) and batch root of 4 leaves (5).
pub fn fixtures() -> &'static [Fixture] {
    static F: OnceLock<Vec<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        vec![
            make("spend", CircuitKind::Spend, 4),
            make("membership", CircuitKind::Membership, 4),
            make("batch-root", CircuitKind::BatchRoot, 4),
        ]
    })
}

/// solc-js, or `None` after printing one SKIPPED line naming `test` and why.
pub fn solc_or_skip(test: &str) -> Option<Solc> {
    match Solc::locate() {
        Ok(s) => Some(s),
        Err(e) => {
            println!("SKIPPED {test}: {e}");
            None
        }
    }
}

/// Compiles zkbench's verifier for `vk`.
pub fn ours(solc: &Solc, vk: &VerifyingKey<Bn254>) -> Compiled {
    let src = zkbench_evm::solidity_verifier(vk).unwrap();
    solc.compile(&src, zkbench_evm::GROTH16_CONTRACT)
        .unwrap_or_else(|e| panic!("{e}\n{src}"))
}
