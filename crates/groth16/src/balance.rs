//! Each R1CS row's two factors in the order that makes the proof's MSMs
//! cheapest.
//!
//! **Why.** A constraint `⟨a, z⟩·⟨b, z⟩ = ⟨c, z⟩` holds exactly when
//! `⟨b, z⟩·⟨a, z⟩ = ⟨c, z⟩` does, so every row may put either factor in the
//! matrix A and the other in B: the same statement, the same witness, the
//! same soundness. The proving key's queries are not: a variable that occurs
//! anywhere in B has a base in `b_g1_query` **and** in `b_g2_query` (a G2
//! addition costs about three G1 ones), one that occurs in A a base in
//! `a_query`. The gadgets that build the circuits pick their order for their
//! own reasons; in the Griffin arity-7 spend, B held 2,129 variables and A
//! 1,762. [`balance`] reorders the rows to lower `|A| + 4·|B|` (the distinct
//! variables of each, weighted by the fixed-base additions they cost): a
//! greedy pass over the rows, repeated until none changes. The spend then
//! has 1,398 variables in B and 2,493 in A, a fifth less of that cost.
//!
//! It runs on the matrices of every circuit before its keys are made
//! (the crate's `setup_matrices`), so the test setup, the powers-of-tau
//! setup, the prover and the exported `.zkey` all see the same rows.

use ark_relations::r1cs::{
    ConstraintMatrices, ConstraintSynthesizer, ConstraintSystemRef, LinearCombination,
    SynthesisError, Variable,
};
use zkbench_hash::Fr;

/// Weight of a variable in A: its `a_query` base.
const A_WEIGHT: usize = 1;
/// Weight of a variable in B: its `b_g1_query` base and its `b_g2_query`
/// base (a G2 addition counted as three G1 ones).
const B_WEIGHT: usize = 4;
/// Passes over the rows at most (the greedy search settles in one or two).
const MAX_PASSES: usize = 8;

/// One row of a matrix: `(coefficient, variable index)`.
type Row = Vec<(Fr, usize)>;

/// Reorders the factors of `m`'s rows (see the module docs); returns the
/// number of rows swapped.
pub fn balance(m: &mut ConstraintMatrices<Fr>) -> usize {
    let n = m.num_instance_variables + m.num_witness_variables;
    let mut in_a = vec![0u32; n];
    let mut in_b = vec![0u32; n];
    count(&m.a, &mut in_a);
    count(&m.b, &mut in_b);
    let mut swapped = vec![false; m.num_constraints];
    for _ in 0..MAX_PASSES {
        let mut changed = false;
        for (i, flag) in swapped.iter_mut().enumerate() {
            let (a, b) = (&mut m.a[i], &mut m.b[i]);
            remove(a, &mut in_a);
            remove(b, &mut in_b);
            // what the row adds: variables no other row has in that matrix
            let added = |to_a: &Row, to_b: &Row| {
                A_WEIGHT * to_a.iter().filter(|t| in_a[t.1] == 0).count()
                    + B_WEIGHT * to_b.iter().filter(|t| in_b[t.1] == 0).count()
            };
            if added(b, a) < added(a, b) {
                std::mem::swap(a, b);
                *flag = !*flag;
                changed = true;
            }
            add(a, &mut in_a);
            add(b, &mut in_b);
        }
        if !changed {
            break;
        }
    }
    m.a_num_non_zero = m.a.iter().map(Vec::len).sum();
    m.b_num_non_zero = m.b.iter().map(Vec::len).sum();
    swapped.iter().filter(|&&s| s).count()
}

/// Distinct variables of A and of B (the bases of `a_query` and of
/// `b_g1_query`/`b_g2_query`, the constant included).
pub fn supports(m: &ConstraintMatrices<Fr>) -> (usize, usize) {
    let n = m.num_instance_variables + m.num_witness_variables;
    let (mut in_a, mut in_b) = (vec![0u32; n], vec![0u32; n]);
    count(&m.a, &mut in_a);
    count(&m.b, &mut in_b);
    let used = |c: &[u32]| c.iter().filter(|&&k| k > 0).count();
    (used(&in_a), used(&in_b))
}

/// `uses[j]`: the rows of `rows` that use variable `j`.
fn count(rows: &[Row], uses: &mut [u32]) {
    for row in rows {
        add(row, uses);
    }
}

/// One more use of each variable of `row`.
fn add(row: &Row, uses: &mut [u32]) {
    for &(_, j) in row {
        uses[j] += 1;
    }
}

/// One use less of each variable of `row`.
fn remove(row: &Row, uses: &mut [u32]) {
    for &(_, j) in row {
        uses[j] -= 1;
    }
}

/// The circuit whose constraints are exactly the rows of a set of matrices
/// (setup only: its variables have no values). ark-groth16's key generation
/// synthesises a circuit; this one hands it [`balance`]d rows.
pub(crate) struct MatrixCircuit<'a>(pub(crate) &'a ConstraintMatrices<Fr>);

impl ConstraintSynthesizer<Fr> for MatrixCircuit<'_> {
    fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
        let m = self.0;
        let mut vars = Vec::with_capacity(m.num_instance_variables + m.num_witness_variables);
        vars.push(Variable::One);
        for _ in 1..m.num_instance_variables {
            vars.push(cs.new_input_variable(|| Err(SynthesisError::AssignmentMissing))?);
        }
        for _ in 0..m.num_witness_variables {
            vars.push(cs.new_witness_variable(|| Err(SynthesisError::AssignmentMissing))?);
        }
        let lc = |row: &Row| LinearCombination(row.iter().map(|&(c, j)| (c, vars[j])).collect());
        for i in 0..m.num_constraints {
            cs.enforce_constraint(lc(&m.a[i]), lc(&m.b[i]), lc(&m.c[i]))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{is_satisfied, synthesized_matrices};
    use crate::{Circuit, CircuitKind, SpendConfig};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;
    use zkbench_hash::HashFamily;

    fn circuit(family: HashFamily, arity: usize, kind: CircuitKind) -> Circuit {
        Circuit::new(&SpendConfig {
            family,
            alpha: None,
            arity,
            leaves: 1 << 12,
            circuit: kind,
        })
        .unwrap()
    }

    /// Balanced rows are the gadgets' rows, each in one order or the other
    /// (C untouched); they cost no more than before (less for the Griffin
    /// spend), the same witness satisfies them, and a changed witness is
    /// refused by both.
    #[test]
    fn balanced_rows_are_the_same_constraints() {
        for (family, arity, kind) in [
            (HashFamily::Griffin, 7, CircuitKind::Spend),
            (HashFamily::Poseidon, 2, CircuitKind::Membership),
            (HashFamily::MimcSponge, 2, CircuitKind::Spend),
        ] {
            let c = circuit(family, arity, kind);
            let raw = synthesized_matrices(c.circuit(None)).unwrap();
            let mut m = synthesized_matrices(c.circuit(None)).unwrap();
            let swapped = balance(&mut m);
            let rows = m.a.iter().zip(&m.b).zip(raw.a.iter().zip(&raw.b));
            let flipped = rows
                .map(|((a, b), (ra, rb))| {
                    assert!((a, b) == (ra, rb) || (a, b) == (rb, ra));
                    usize::from((a, b) != (ra, rb))
                })
                .sum::<usize>();
            assert!(flipped <= swapped);
            assert_eq!(m.c, raw.c);
            let cost = |m: &ConstraintMatrices<Fr>| {
                let (a, b) = supports(m);
                A_WEIGHT * a + B_WEIGHT * b
            };
            assert!(cost(&m) <= cost(&raw), "{family:?}");
            if family == HashFamily::Griffin {
                assert!(cost(&m) * 10 < cost(&raw) * 9, "griffin: {swapped} rows");
            }
            let mut rng = ChaCha20Rng::seed_from_u64(3);
            let z = c.witness(&c.random_witness(&mut rng)).unwrap().full;
            assert!(is_satisfied(&raw, &z) && is_satisfied(&m, &z));
            let mut bad = z.clone();
            let last = bad.len() - 1;
            bad[last] += Fr::from(1u64);
            assert!(!is_satisfied(&m, &bad) && !is_satisfied(&raw, &bad));
            assert_eq!(m.a_num_non_zero, m.a.iter().map(Vec::len).sum::<usize>());
            assert_eq!(
                m.a_num_non_zero + m.b_num_non_zero,
                raw.a_num_non_zero + raw.b_num_non_zero
            );
        }
    }

    /// The circuit made of a set of matrices synthesises back to exactly
    /// those matrices (what key generation sees is what the prover uses).
    #[test]
    fn matrix_circuit_round_trips() {
        let c = circuit(HashFamily::Griffin, 7, CircuitKind::Spend);
        let m = c.matrices().unwrap();
        let back = synthesized_matrices(MatrixCircuit(&m)).unwrap();
        assert_eq!(back.a, m.a);
        assert_eq!(back.b, m.b);
        assert_eq!(back.c, m.c);
        assert_eq!(back.num_instance_variables, m.num_instance_variables);
        assert_eq!(back.num_witness_variables, m.num_witness_variables);
    }
}
