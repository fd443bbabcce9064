//! Property test (proptest): the Halo2 chips against the native hashes. For
//! random statements (random notes, leaves and siblings) of every family the
//! chips implement (Poseidon2 α = 5 and 7, circomlib Poseidon), every arity
//! 2..=16 and every chip layout (1..=8 partial rounds per row), MockProver
//! must accept the circuit with the public inputs zkbench-statement computes
//! natively (root, nullifier hash, ext-data hash), and reject it when one
//! public input is changed.

use halo2_axiom::{dev::MockProver, halo2curves::bn256::Fr};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{
    chip::ChipLayout,
    circuit::{circuit_stats, CircuitParams, StatementCircuit},
    params::fr_from_ark,
    statement::{CircuitKind, NativeHashes, PublicInputs, Witness},
};
use zkbench_hash::HashFamily;

/// The chips' (family, α) pairs.
const FAMILIES: [(HashFamily, u64); 3] = [
    (HashFamily::Poseidon2, 5),
    (HashFamily::Poseidon2, 7),
    (HashFamily::Poseidon, 5),
];

fn mock(params: &CircuitParams, witness: Witness, public: Vec<Fr>) -> Result<(), String> {
    let stats = circuit_stats(params).map_err(|e| e.to_string())?;
    let circuit = StatementCircuit {
        params: params.clone(),
        witness: Some(witness),
    };
    MockProver::run(stats.k, &circuit, vec![public])
        .map_err(|e| format!("{e:?}"))?
        .verify()
        .map_err(|e| format!("{} failures", e.len()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, max_shrink_iters: 32, ..ProptestConfig::default() })]

    #[test]
    fn chips_equal_native_hashes(
        family in 0usize..FAMILIES.len(),
        arity in 2usize..=16,
        kind in prop::sample::select(vec![CircuitKind::Spend, CircuitKind::Membership, CircuitKind::BatchRoot]),
        partial_per_row in 1usize..=8,
        seed in any::<u64>(),
    ) {
        let (family, alpha) = FAMILIES[family];
        let Ok(native) = NativeHashes::for_family(family, Some(alpha), arity) else {
            return Ok(()); // the family has no node hash of this arity
        };
        let params = CircuitParams {
            family,
            alpha,
            arity,
            height: if kind == CircuitKind::BatchRoot { 1 } else { 2 },
            kind,
            layout: ChipLayout::new(partial_per_row),
        };
        let shape = params.shape();
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let w = Witness::random(&mut rng, kind, &shape);
        let public: Vec<Fr> = PublicInputs::compute(&native, &shape, &w)
            .unwrap()
            .0
            .iter()
            .map(fr_from_ark)
            .collect();
        let label = format!("{family} alpha {alpha} arity {arity} {kind:?} p={partial_per_row}");
        prop_assert_eq!(mock(&params, w.clone(), public.clone()), Ok(()), "{}", label);
        let mut changed = public;
        let i = (seed as usize) % changed.len();
        changed[i] += Fr::from(1u64);
        prop_assert!(mock(&params, w, changed).is_err(), "{}: a changed public input was accepted", label);
        println!("{label}: chip = native, changed public input rejected");
    }
}
