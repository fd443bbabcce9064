//! A small circuit with test-setup keys and one valid proof, built once per
//! fuzzing process.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_core::{
    statement::{CircuitKind, PublicInputs, StatementConfig, Witness},
    ProofSystem,
};
use zkbench_hash::HashFamily;

/// Circuit, TEST-setup keys and public inputs of a membership proof in a
/// 4-leaf Poseidon2 tree.
pub fn fixture<P: ProofSystem>(sys: &P) -> (P::Circuit, P::Keys, PublicInputs) {
    let cfg = StatementConfig {
        leaves: 4,
        circuit: CircuitKind::Membership,
        ..StatementConfig::new(HashFamily::Poseidon2)
    };
    let circuit = sys.circuit(&cfg).expect("circuit");
    let keys = sys.setup(&circuit, 1).expect("test setup");
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let w = Witness::random(&mut rng, cfg.circuit, &cfg.shape().expect("shape"));
    let prepared = sys.witness(&circuit, &w).expect("witness");
    let public = sys.public_inputs(&circuit, &prepared);
    (circuit, keys, public)
}
