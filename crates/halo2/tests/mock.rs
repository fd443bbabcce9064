//! MockProver tests: native vs chip for every circuit kind, α and layouts.

use halo2_axiom::{dev::MockProver, halo2curves::bn256::Fr};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_halo2::{
    chip::ChipLayout,
    circuit::{circuit_stats, CircuitParams, StatementCircuit},
    params::fr_from_ark,
    statement::{CircuitKind, NativeHashes, PublicInputs, Witness},
};
use zkbench_hash::HashFamily;

fn run(params: &CircuitParams, witness: Witness, public: &[Fr]) -> Result<(), String> {
    let stats = circuit_stats(params).map_err(|e| e.to_string())?;
    let circuit = StatementCircuit {
        params: params.clone(),
        witness: Some(witness),
    };
    let prover =
        MockProver::run(stats.k, &circuit, vec![public.to_vec()]).map_err(|e| format!("{e:?}"))?;
    prover
        .verify()
        .map_err(|e| format!("{} failures, first: {:?}", e.len(), e.first()))
}

fn check(params: CircuitParams, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let shape = params.shape();
    let native = NativeHashes::for_family(params.family, Some(params.alpha), params.arity).unwrap();
    let w = Witness::random(&mut rng, params.kind, &shape);
    let public = PublicInputs::compute(&native, &shape, &w).unwrap();
    let public: Vec<Fr> = public.0.iter().map(fr_from_ark).collect();
    let stats = circuit_stats(&params).unwrap();
    println!("{params:?}: {stats}");
    run(&params, w, &public).unwrap_or_else(|e| panic!("{params:?}: {e}"));
}

#[test]
fn spend_alpha7_arity7_layouts() {
    for p in [1, 2, 4, 6, 8] {
        let own_degree = ChipLayout {
            degree: 0,
            ..ChipLayout::new(p)
        };
        for layout in [ChipLayout::new(p), own_degree, ChipLayout::unsplit(p)] {
            check(
                CircuitParams {
                    family: HashFamily::Poseidon2,
                    alpha: 7,
                    arity: 7,
                    height: 2,
                    kind: CircuitKind::Spend,
                    layout,
                },
                p as u64,
            );
        }
    }
}

#[test]
fn split_sbox_gates_have_degree_4_pinned_to_5() {
    for (family, alpha, arity) in [
        (HashFamily::Poseidon2, 7, 7),
        (HashFamily::Poseidon2, 5, 16),
        (HashFamily::Poseidon, 5, 4),
    ] {
        for kind in [CircuitKind::Spend, CircuitKind::Membership] {
            let params = |layout| CircuitParams {
                family,
                alpha,
                arity,
                height: 2,
                kind,
                layout,
            };
            let own = ChipLayout {
                degree: 0,
                ..ChipLayout::new(6)
            };
            let split = circuit_stats(&params(own)).unwrap();
            let pinned = circuit_stats(&params(ChipLayout::new(6))).unwrap();
            let unsplit = circuit_stats(&params(ChipLayout::unsplit(6))).unwrap();
            assert_eq!(split.max_degree, 4, "{family:?} {alpha} {arity} {kind:?}");
            assert_eq!(pinned.max_degree, 5);
            assert_eq!(unsplit.max_degree, alpha as usize + 1);
            assert_eq!(split.rows, unsplit.rows, "same rows, more columns");
            assert_eq!(pinned.rows, unsplit.rows);
        }
    }
}

#[test]
fn spend_all_arities() {
    for alpha in [5, 7] {
        for arity in [2, 3, 4, 5, 8, 9, 12, 16] {
            check(
                CircuitParams {
                    family: HashFamily::Poseidon2,
                    alpha,
                    arity,
                    height: 1,
                    kind: CircuitKind::Spend,
                    layout: ChipLayout::new(6),
                },
                arity as u64,
            );
        }
    }
}

#[test]
fn membership_and_batch() {
    for arity in [2, 7] {
        check(
            CircuitParams {
                family: HashFamily::Poseidon2,
                alpha: 7,
                arity,
                height: 2,
                kind: CircuitKind::Membership,
                layout: ChipLayout::default(),
            },
            1,
        );
        check(
            CircuitParams {
                family: HashFamily::Poseidon2,
                alpha: 7,
                arity,
                height: if arity == 2 { 3 } else { 1 },
                kind: CircuitKind::BatchRoot,
                layout: ChipLayout::default(),
            },
            2,
        );
    }
}

#[test]
fn poseidon_circomlib_all_kinds() {
    for arity in [2, 4, 7, 16] {
        for kind in [CircuitKind::Spend, CircuitKind::Membership] {
            check(
                CircuitParams {
                    family: HashFamily::Poseidon,
                    alpha: 5,
                    arity,
                    height: 2,
                    kind,
                    layout: ChipLayout::new(4),
                },
                arity as u64,
            );
        }
    }
    check(
        CircuitParams {
            family: HashFamily::Poseidon,
            alpha: 5,
            arity: 2,
            height: 2,
            kind: CircuitKind::BatchRoot,
            layout: ChipLayout::new(4),
        },
        3,
    );
}

/// The folded layouts (the EVM verifier's): the same gates over fewer
/// columns, every kind, both hash families; and the column counts they save.
#[test]
fn folded_layouts_all_kinds() {
    for fold in [2, 3, 4, 8] {
        for (family, alpha, arity) in [
            (HashFamily::Poseidon2, 7, 7),
            (HashFamily::Poseidon2, 5, 4),
            (HashFamily::Poseidon, 5, 2),
        ] {
            for (kind, height) in [
                (CircuitKind::Spend, 2),
                (CircuitKind::Membership, 2),
                (CircuitKind::BatchRoot, 1),
            ] {
                check(
                    CircuitParams {
                        family,
                        alpha,
                        arity,
                        height,
                        kind,
                        layout: ChipLayout::folded(6, fold),
                    },
                    fold as u64,
                );
            }
        }
    }
    let params = |layout| CircuitParams {
        layout,
        ..CircuitParams::default()
    };
    let wide = circuit_stats(&params(ChipLayout::new(6))).unwrap();
    let folded = circuit_stats(&params(ChipLayout::evm())).unwrap();
    assert_eq!((wide.advice_columns, wide.fixed_columns), (19, 8));
    assert_eq!((folded.advice_columns, folded.fixed_columns), (5, 2));
    assert_eq!(folded.rows, (wide.rows - 1) * 4 + 1);
    assert_eq!(folded.rows_per_hash, wide.rows_per_hash, "logical rows");
}
