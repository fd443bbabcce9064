//! Every R1CS gadget against its native implementation in `zkbench-hash`, on
//! random inputs: the circuit's outputs equal the native outputs and the
//! constraint system is satisfied. Prints the constraint table (run with
//! `--nocapture`).

use ark_ff::UniformRand;
use ark_relations::r1cs::ConstraintSystem;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_groth16::{
    gadgets::{node_gadget, permutation_gadget},
    lc::Cs,
    testing::node_gadget_output,
    Groth16Error,
};
use zkbench_hash::{Fr, HashFamily};

/// (family, alpha) pairs with their widths; families whose native
/// implementation is missing in this build are reported and skipped.
fn instances() -> Vec<(HashFamily, u64, Vec<usize>)> {
    let mut v = Vec::new();
    for f in HashFamily::ALL {
        for &a in f.alphas() {
            match f.widths(Some(a)) {
                Ok(w) if !w.is_empty() => v.push((f, a, w)),
                _ => println!("{f} alpha {a}: no native instance in this build"),
            }
        }
    }
    v
}

#[test]
fn permutation_gadgets_match_native() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    println!("\n| family | alpha | width | constraints/permutation |");
    println!("|---|---|---|---|");
    let mut missing = Vec::new();
    for (f, a, widths) in instances() {
        for w in widths {
            let native = f.permutation(Some(w), Some(a)).unwrap();
            let gadget = match permutation_gadget(f, Some(w), Some(a)) {
                Ok(g) => g,
                Err(Groth16Error::NoGadget { .. }) => {
                    missing.push(format!("{f}/{a}/t={w}"));
                    continue;
                }
                Err(e) => panic!("{f}: {e}"),
            };
            assert_eq!(gadget.width(), w);
            for _ in 0..3 {
                let input: Vec<Fr> = (0..w).map(|_| Fr::rand(&mut rng)).collect();
                let cs = ConstraintSystem::<Fr>::new_ref();
                let c = Cs::new(cs.clone());
                let vars: Vec<_> = input.iter().map(|x| c.witness(Some(*x)).unwrap()).collect();
                let out = gadget.permute(&c, &vars).unwrap();
                let expect = native.permute(&input).unwrap();
                let got: Vec<Fr> = out.iter().map(|o| o.value().unwrap()).collect();
                assert_eq!(got, expect, "{f} alpha {a} width {w}");
                assert!(cs.is_satisfied().unwrap(), "{f} alpha {a} width {w}");
                assert_eq!(
                    cs.num_constraints(),
                    gadget.constraints_per_permutation(),
                    "{f} t={w}"
                );
            }
            println!(
                "| {f} | {a} | {w} | {} |",
                gadget.constraints_per_permutation()
            );
        }
    }
    assert!(
        missing.is_empty(),
        "no permutation gadget: {}",
        missing.join(", ")
    );
}

#[test]
fn node_gadgets_match_native() {
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    println!("\n| family | alpha | arity | constraints/node |");
    println!("|---|---|---|---|");
    let mut missing = Vec::new();
    for (f, a, _) in instances() {
        for arity in [2, 3, 4, 5, 7, 8, 16] {
            let Ok(native) = f.node_hasher(arity, Some(a)) else {
                continue;
            };
            let gadget = match node_gadget(f, arity, a) {
                Ok(g) => g,
                Err(Groth16Error::NoGadget { .. }) => {
                    missing.push(format!("{f}/{a}/A={arity}"));
                    continue;
                }
                Err(e) => panic!("{f}: {e}"),
            };
            let children: Vec<Fr> = (0..arity).map(|_| Fr::rand(&mut rng)).collect();
            let (out, cs) = node_gadget_output(gadget.as_ref(), &children);
            assert_eq!(
                out,
                native.hash_node(&children),
                "{f} alpha {a} arity {arity}"
            );
            assert!(cs.is_satisfied().unwrap());
            assert!(cs.num_constraints() <= gadget.constraints_per_node());
            println!("| {f} | {a} | {arity} | {} |", cs.num_constraints());
        }
    }
    assert!(missing.is_empty(), "no node gadget: {}", missing.join(", "));
}
