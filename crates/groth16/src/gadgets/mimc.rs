//! MiMC gadgets: circomlib's MiMCSponge (Feistel, `x^5`, 220 rounds) and
//! MiMC-7 (`x^7`, 91 rounds), with the node hashes of `zkbench_hash`.
//!
//! * MiMCSponge Feistel round `i`: `t = (xL + k + c_i)^5`, then
//!   `(xL, xR) = (xR + t, xL)` (no swap in the last round): 3 constraints per
//!   round, 660 per permutation (circomlib `MiMCFeistel(220)`). The node hash
//!   of arity `A` is `multiHash(children, key 0, 1 output)`: `A` permutations,
//!   `660·A` constraints (Tornado's `hashLeftRight` = 1320, as circom reports).
//! * MiMC-7 `hash(x, k)`: `t_0 = x + k`, `t_i = t_{i−1}^7 + k + c_i`, output
//!   `t_90^7 + k`: 91 S-boxes of 4 constraints = 364 per call. The node hash is
//!   circomlibjs' `multiHash(children, 0)`: `r = 0; r = r + x + hash(x, r)`,
//!   `A` calls.
//!
//! Round constants are the native ones (`zkbench_hash::mimc_sponge::round_constants`,
//! `zkbench_hash::mimc7::round_constants`).

use ark_relations::r1cs::SynthesisError;
use zkbench_hash::{mimc7, mimc_sponge};

use super::{NodeHashGadget, PermutationGadget};
use crate::lc::{Cs, LinVar};

/// One MiMCSponge Feistel permutation on `(xL, xR)` with key `k`.
pub fn mimc_feistel(
    cs: &Cs,
    xl: &LinVar,
    xr: &LinVar,
    k: &LinVar,
) -> Result<(LinVar, LinVar), SynthesisError> {
    let cts = mimc_sponge::round_constants();
    let (mut xl, mut xr) = (xl.clone(), xr.clone());
    let last = cts.len() - 1;
    for (i, c) in cts.iter().enumerate() {
        let t = cs.pow(&xl.add(k).add_const(*c), mimc_sponge::ALPHA)?;
        if i < last {
            let new_xl = xr.add(&t);
            xr = xl;
            xl = new_xl;
        } else {
            xr = xr.add(&t);
        }
    }
    Ok((xl, xr))
}

/// The MiMCSponge Feistel permutation (width 2, key 0) as a permutation gadget.
#[derive(Clone, Copy, Debug, Default)]
pub struct MimcSpongePermutationGadget;

impl PermutationGadget for MimcSpongePermutationGadget {
    fn family(&self) -> &'static str {
        mimc_sponge::FAMILY
    }

    fn width(&self) -> usize {
        2
    }

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        assert_eq!(state.len(), 2);
        let (l, r) = mimc_feistel(cs, &state[0], &state[1], &LinVar::zero())?;
        Ok(vec![l, r])
    }

    fn constraints_per_permutation(&self) -> usize {
        mimc_sponge::ROUNDS * Cs::pow_cost(mimc_sponge::ALPHA)
    }
}

/// MiMCSponge node hash: `multiHash(children, 0, 1)`.
#[derive(Clone, Copy, Debug)]
pub struct MimcSpongeNodeGadget {
    arity: usize,
}

impl MimcSpongeNodeGadget {
    /// Node gadget of `arity` children.
    pub fn new(arity: usize) -> Self {
        Self { arity }
    }
}

impl NodeHashGadget for MimcSpongeNodeGadget {
    fn family(&self) -> &'static str {
        mimc_sponge::FAMILY
    }

    fn arity(&self) -> usize {
        self.arity
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        assert_eq!(children.len(), self.arity);
        let k = LinVar::zero();
        let (mut r, mut c) = (LinVar::zero(), LinVar::zero());
        for x in children {
            (r, c) = mimc_feistel(cs, &r.add(x), &c, &k)?;
        }
        Ok(r)
    }

    fn constraints_per_node(&self) -> usize {
        self.arity * MimcSpongePermutationGadget.constraints_per_permutation()
    }
}

/// circomlib MiMC-7 `hash(x, k)` (the whole cipher including the final `+ k`).
pub fn mimc7_hash(cs: &Cs, x: &LinVar, k: &LinVar) -> Result<LinVar, SynthesisError> {
    let cts = mimc7::round_constants();
    let mut t = x.add(k);
    for c in &cts[1..] {
        t = cs.pow(&t, mimc7::ALPHA)?.add(k).add_const(*c);
    }
    Ok(cs.pow(&t, mimc7::ALPHA)?.add(k))
}

/// MiMC-7 cipher with key 0 as a width-1 permutation gadget (`x ↦ hash(x, 0)`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Mimc7PermutationGadget;

impl PermutationGadget for Mimc7PermutationGadget {
    fn family(&self) -> &'static str {
        mimc7::FAMILY
    }

    fn width(&self) -> usize {
        1
    }

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        assert_eq!(state.len(), 1);
        Ok(vec![mimc7_hash(cs, &state[0], &LinVar::zero())?])
    }

    fn constraints_per_permutation(&self) -> usize {
        mimc7::ROUNDS * Cs::pow_cost(mimc7::ALPHA)
    }
}

/// MiMC-7 node hash: circomlibjs `multiHash(children, 0)`.
#[derive(Clone, Copy, Debug)]
pub struct Mimc7NodeGadget {
    arity: usize,
}

impl Mimc7NodeGadget {
    /// Node gadget of `arity` children.
    pub fn new(arity: usize) -> Self {
        Self { arity }
    }
}

impl NodeHashGadget for Mimc7NodeGadget {
    fn family(&self) -> &'static str {
        mimc7::FAMILY
    }

    fn arity(&self) -> usize {
        self.arity
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        assert_eq!(children.len(), self.arity);
        let mut r = LinVar::zero();
        for x in children {
            let h = mimc7_hash(cs, x, &r)?;
            r = r.add(x).add(&h);
        }
        Ok(r)
    }

    fn constraints_per_node(&self) -> usize {
        self.arity * Mimc7PermutationGadget.constraints_per_permutation()
    }
}
