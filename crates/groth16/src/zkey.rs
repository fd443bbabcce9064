//! snarkjs Groth16 proving keys (`.zkey`) and witness files (`.wtns`) from zkbench keys, so that
//! **snarkjs proves with a key zkbench made** (and zkbench's verifiers check snarkjs's proofs).
//!
//! # Format
//!
//! snarkjs 0.7.6 (`src/zkey_new.js`, `zkey_utils.js`, `groth16_prove.js`, `wtns_utils.js`,
//! `@iden3/binfileutils`): magic `zkey`, version 1 (u32 LE), number of sections (u32 LE), then
//! sections `id (u32 LE) · size (u64 LE) · bytes`. Points are affine with every coordinate in
//! Montgomery form, 32 bytes little endian, G2 as `x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1`, the point at
//! infinity as zeros (the `.ptau` encoding, [`crate::ptau::g1_raw`]).
//!
//! | id | contents |
//! |---|---|
//! | 1 | protocol: `1` = Groth16 |
//! | 2 | `n8q`, q, `n8r`, r, `nVars`, `nPublic`, `domainSize`, α₁, β₁, β₂, γ₂, δ₁, δ₂ |
//! | 3 | IC: `(β·aᵢ + α·bᵢ + cᵢ)/γ` for the `nPublic + 1` instance variables |
//! | 4 | the non-zero entries of A and B (`matrix`, `constraint`, `signal`, value), the libsnark instance rows `A[m + s][s] = 1` included |
//! | 5, 6, 7 | `aᵢ(τ)·G1`, `bᵢ(τ)·G1`, `bᵢ(τ)·G2` for every variable |
//! | 8 | `(β·aᵢ + α·bᵢ + cᵢ)/δ` for the witness variables |
//! | 9 | H: `L_{2j+1}(τ)/δ·G1`, j < n: the Lagrange basis of the 2n-th roots of unity at the odd ones |
//! | 10 | the MPC parameters: a 64-byte circuit hash and the number of contributions |
//!
//! A coefficient of section 4 is stored as `c·R² mod r` (R = 2²⁵⁶) in standard form:
//! snarkjs multiplies it, as a Montgomery-form element, with the witness read in standard form,
//! which yields `c·w` in Montgomery form without a conversion in the prover's inner loop.
//! snarkjs's prover never reads the C matrix: it takes `C·w = (A·w)∘(B·w)` on the domain.
//!
//! # The H section without the toxic waste
//!
//! arkworks' proving key (zkbench's) holds `τʲ·Z(τ)/δ` for j < n − 1 (Z the vanishing polynomial
//! of the n-th roots of unity) and the prover multiplies them with the coefficients of
//! `H = (A·B − C)/Z`. snarkjs evaluates `A·B − C` on the odd 2n-th roots `a = w^{2j+1}` and
//! multiplies with `L_{2j+1}(τ)/δ`. For odd k, `L_k(x) = Z(x)·q_k(x)` with
//! `q_k(x) = −(1/2n)·Σ_{i<n} a^{−i}·xⁱ`, so snarkjs's points are a **group inverse FFT** of
//! zkbench's: `H_j = −½·IFFT_n(τⁱZ(τ)/δ · w^{−i})_j`. The missing `i = n − 1` term can be left
//! out: `A·B − C` has degree at most 2n − 2, so the coefficients of `x^{n−1}` cancel in the
//! prover's sum for every witness (the test `h_section_gives_arkworks_h_term` checks the
//! identity on a real circuit). Cost: `n/2·log₂ n` scalar multiplications in G1 (about a second
//! for n = 2¹³ on two cores), once per key.
//!
//! The circuit hash of section 10 is BLAKE2b-512 of this file's header and point sections:
//! snarkjs hashes the key *before* phase-2 contributions (δ = 1), which a zkbench key never
//! had; snarkjs's prover does not read it.
//!
//! A `.wtns` file is magic `wtns`, version 2, section 1 (`n8`, r, number of values) and section
//! 2 (the full assignment `[1, public…, witness…]`, standard form, 32 bytes LE each).

use std::path::Path;

use ark_bn254::{Bn254, Fq, Fr, G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, Field, PrimeField};
use ark_groth16::ProvingKey;
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use ark_relations::r1cs::ConstraintMatrices;
use blake2::{Blake2b512, Digest};

use crate::{
    ptau::{g1_raw, g2_raw},
    Groth16Error,
};

/// snarkjs's protocol id for Groth16 (section 1 of a `.zkey`).
pub const ZKEY_PROTOCOL_GROTH16: u32 = 1;

/// What [`write_zkey`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkeyInfo {
    /// File size in bytes.
    pub bytes: usize,
    /// Number of variables, the constant 1 included (snarkjs's `nVars`).
    pub vars: usize,
    /// Public inputs (snarkjs's `nPublic`).
    pub public: usize,
    /// QAP domain size n.
    pub domain_size: usize,
    /// Entries of section 4 (non-zero A and B coefficients plus the instance rows).
    pub coefficients: usize,
}

/// Appends one `id · size · bytes` section.
fn section(out: &mut Vec<u8>, id: u32, body: &[u8]) {
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
}

fn fr_le(x: &Fr) -> Vec<u8> {
    x.into_bigint().to_bytes_le()
}

fn g1s(points: &[G1Affine]) -> Vec<u8> {
    points.iter().flat_map(g1_raw).collect()
}

/// Checks that `pk` is a key for the constraint system `m`; returns (nVars, nPublic + 1, n).
fn shape(
    pk: &ProvingKey<Bn254>,
    m: &ConstraintMatrices<Fr>,
) -> Result<(usize, usize, usize), Groth16Error> {
    let num_inst = m.num_instance_variables;
    let nvars = num_inst + m.num_witness_variables;
    let n = (m.num_constraints + num_inst).next_power_of_two();
    let checks = [
        ("a_query", pk.a_query.len(), nvars),
        ("b_g1_query", pk.b_g1_query.len(), nvars),
        ("b_g2_query", pk.b_g2_query.len(), nvars),
        ("l_query", pk.l_query.len(), nvars - num_inst),
        ("gamma_abc_g1", pk.vk.gamma_abc_g1.len(), num_inst),
        ("h_query", pk.h_query.len(), n - 1),
    ];
    for (what, got, want) in checks {
        if got != want {
            return Err(Groth16Error::Config(format!(
                "the proving key does not belong to this constraint system: {what} has {got} points, the circuit needs {want}"
            )));
        }
    }
    if u32::try_from(nvars).is_err() || u32::try_from(n).is_err() {
        return Err(Groth16Error::Config(format!(
            "{nvars} variables / domain 2^{}: too large for the .zkey format's 32-bit counts",
            n.trailing_zeros()
        )));
    }
    Ok((nvars, num_inst, n))
}

/// snarkjs's H section for `pk`: `L_{2j+1}(τ)/δ·G1` over the 2n-th roots of unity, j < n,
/// computed from arkworks' `τʲ·Z(τ)/δ` by a group inverse FFT (see the module docs).
pub fn snarkjs_h_query(
    pk: &ProvingKey<Bn254>,
    domain_size: usize,
) -> Result<Vec<G1Affine>, Groth16Error> {
    let n = domain_size;
    if !n.is_power_of_two() || n < 2 || pk.h_query.len() != n - 1 {
        return Err(Groth16Error::Config(format!(
            "h_query has {} points; a domain of size {n} needs {}",
            pk.h_query.len(),
            n.saturating_sub(1)
        )));
    }
    let domain = Radix2EvaluationDomain::<Fr>::new(n)
        .ok_or_else(|| Groth16Error::Config(format!("no radix-2 domain of size {n}")))?;
    let w = Radix2EvaluationDomain::<Fr>::new(2 * n)
        .ok_or_else(|| Groth16Error::Config(format!("no radix-2 domain of size {}", 2 * n)))?
        .group_gen();
    let mut g: Vec<G1Projective> = pk.h_query.iter().map(|p| p.into_group()).collect();
    g.push(G1Projective::default());
    // g_i = −½ · w^{−i} · τⁱZ(τ)/δ, then H = IFFT_n(g): the scaling commutes with the (linear) IFFT.
    let minus_half = -Fr::from(2u64).inverse().expect("2 is invertible");
    Radix2EvaluationDomain::<Fr>::distribute_powers_and_mul_by_const(
        &mut g,
        w.inverse().expect("a root of unity is invertible"),
        minus_half,
    );
    domain.ifft_in_place(&mut g);
    Ok(G1Projective::normalize_batch(&g))
}

/// The `.zkey` bytes of `pk` (a key for the constraint system `m`, as arkworks'
/// `LibsnarkReduction` lays it out: zkbench's test setup, `zkbench prove --ptau`, or
/// `ark_groth16::Groth16::generate_random_parameters_with_reduction`).
pub fn zkey_bytes(
    pk: &ProvingKey<Bn254>,
    m: &ConstraintMatrices<Fr>,
) -> Result<(Vec<u8>, ZkeyInfo), Groth16Error> {
    let (nvars, num_inst, n) = shape(pk, m)?;
    let header = zkey_header(pk, nvars, num_inst, n);
    let (sec4, count) = coefficient_section(m, num_inst);
    let ic = g1s(&pk.vk.gamma_abc_g1);
    let h = g1s(&snarkjs_h_query(pk, n)?);
    let c = g1s(&pk.l_query);
    let a = g1s(&pk.a_query);
    let b1 = g1s(&pk.b_g1_query);
    let b2: Vec<u8> = pk.b_g2_query.iter().flat_map(g2_raw).collect();
    let mpc = mpc_parameters(&[&header, &ic, &h, &c, &a, &b1, &b2]);

    // snarkjs's section order.
    let sections: [(u32, &[u8]); 10] = [
        (1, &ZKEY_PROTOCOL_GROTH16.to_le_bytes()),
        (2, &header),
        (4, &sec4),
        (3, &ic),
        (9, &h),
        (8, &c),
        (5, &a),
        (6, &b1),
        (7, &b2),
        (10, &mpc),
    ];
    let mut out = b"zkey".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    for (id, body) in sections {
        section(&mut out, id, body);
    }
    let info = ZkeyInfo {
        bytes: out.len(),
        vars: nvars,
        public: num_inst - 1,
        domain_size: n,
        coefficients: count as usize,
    };
    Ok((out, info))
}

/// Section 2: the Groth16 header (field sizes and moduli, counts, the key's
/// fixed points).
fn zkey_header(pk: &ProvingKey<Bn254>, nvars: usize, num_inst: usize, n: usize) -> Vec<u8> {
    let vk = &pk.vk;
    let mut header = Vec::new();
    header.extend_from_slice(&32u32.to_le_bytes());
    header.extend(Fq::MODULUS.to_bytes_le());
    header.extend_from_slice(&32u32.to_le_bytes());
    header.extend(Fr::MODULUS.to_bytes_le());
    header.extend_from_slice(&(nvars as u32).to_le_bytes());
    header.extend_from_slice(&((num_inst - 1) as u32).to_le_bytes());
    header.extend_from_slice(&(n as u32).to_le_bytes());
    header.extend(g1_raw(&vk.alpha_g1));
    header.extend(g1_raw(&pk.beta_g1));
    header.extend(g2_raw(&vk.beta_g2));
    header.extend(g2_raw(&vk.gamma_g2));
    header.extend(g1_raw(&pk.delta_g1));
    header.extend(g2_raw(&vk.delta_g2));
    header
}

/// Section 4: the A and B coefficients, each value stored as c·R² (see the
/// module docs), and their number.
fn coefficient_section(m: &ConstraintMatrices<Fr>, num_inst: usize) -> (Vec<u8>, u32) {
    let r = Fr::from(2u64).pow([256u64]);
    let r2 = r * r;
    let mut coefs = Vec::new();
    let mut count = 0u32;
    let mut coef = |matrix: u32, constraint: usize, signal: usize, c: &Fr| {
        coefs.extend_from_slice(&matrix.to_le_bytes());
        coefs.extend_from_slice(&(constraint as u32).to_le_bytes());
        coefs.extend_from_slice(&(signal as u32).to_le_bytes());
        coefs.extend(fr_le(&(*c * r2)));
        count += 1;
    };
    for j in 0..m.num_constraints {
        for (c, i) in &m.a[j] {
            coef(0, j, *i, c);
        }
        for (c, i) in &m.b[j] {
            coef(1, j, *i, c);
        }
    }
    for s in 0..num_inst {
        coef(0, m.num_constraints + s, s, &Fr::from(1u64));
    }
    let mut sec4 = count.to_le_bytes().to_vec();
    sec4.extend(coefs);
    (sec4, count)
}

/// Section 10: the circuit hash (BLAKE2b-512 of the header and point
/// sections, `parts`) and no contributions.
fn mpc_parameters(parts: &[&[u8]]) -> Vec<u8> {
    let mut hasher = Blake2b512::new();
    for part in parts {
        hasher.update(part);
    }
    let mut mpc = hasher.finalize().to_vec();
    mpc.extend_from_slice(&0u32.to_le_bytes()); // no contributions
    mpc
}

/// Writes [`zkey_bytes`] to `path`.
pub fn write_zkey(
    path: &Path,
    pk: &ProvingKey<Bn254>,
    m: &ConstraintMatrices<Fr>,
) -> Result<ZkeyInfo, Groth16Error> {
    let (bytes, info) = zkey_bytes(pk, m)?;
    std::fs::write(path, bytes).map_err(|e| Groth16Error::io(path, e))?;
    Ok(info)
}

/// The `.wtns` bytes of a full assignment `[1, public…, witness…]` (what
/// [`crate::Circuit::witness`] returns in `Assignment::full`).
pub fn wtns_bytes(full: &[Fr]) -> Vec<u8> {
    let mut s1 = 32u32.to_le_bytes().to_vec();
    s1.extend(Fr::MODULUS.to_bytes_le());
    s1.extend_from_slice(&(full.len() as u32).to_le_bytes());
    let s2: Vec<u8> = full.iter().flat_map(fr_le).collect();
    let mut out = b"wtns".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&2u32.to_le_bytes());
    section(&mut out, 1, &s1);
    section(&mut out, 2, &s2);
    out
}

/// Writes [`wtns_bytes`] to `path`.
pub fn write_wtns(path: &Path, full: &[Fr]) -> Result<(), Groth16Error> {
    std::fs::write(path, wtns_bytes(full)).map_err(|e| Groth16Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{testing, Circuit, CircuitKind, SpendConfig};
    use ark_ec::VariableBaseMSM;
    use ark_ff::Zero;
    use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;
    use std::sync::Arc;
    use zkbench_hash::HashFamily;

    fn toy() -> (Circuit, crate::Keys, Vec<Fr>) {
        let cfg = SpendConfig {
            family: HashFamily::Poseidon,
            alpha: None,
            arity: 2,
            leaves: 8,
            circuit: CircuitKind::Spend,
        };
        let c = Circuit::with_backend(&cfg, Arc::new(testing::toy_backend(2))).unwrap();
        let keys = c.setup(3).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let w = c.random_witness(&mut rng);
        let full = c.witness(&w).unwrap().full;
        (c, keys, full)
    }

    /// The H term snarkjs's prover computes with our section 9 (`Σ e_j·H_j`, e the odd-coset
    /// evaluations of A·B − C exactly as `groth16_prove.js` builds them) equals the H term of
    /// arkworks' prover (`Σ h_i·τⁱZ(τ)/δ`).
    #[test]
    fn h_section_gives_arkworks_h_term() {
        let (_c, keys, full) = toy();
        let m = &keys.matrices;
        let n = (m.num_constraints + m.num_instance_variables).next_power_of_two();
        let ours = snarkjs_h_query(&keys.pk, n).unwrap();

        // snarkjs: A·w and B·w per constraint (instance rows included), C = A∘B, then odd coset.
        let dot = |row: &[(Fr, usize)]| row.iter().map(|(c, i)| *c * full[*i]).sum::<Fr>();
        let mut a = vec![Fr::from(0u64); n];
        let mut b = vec![Fr::from(0u64); n];
        for j in 0..m.num_constraints {
            a[j] = dot(&m.a[j]);
            b[j] = dot(&m.b[j]);
        }
        for s in 0..m.num_instance_variables {
            a[m.num_constraints + s] = full[s];
        }
        let c: Vec<Fr> = a.iter().zip(&b).map(|(x, y)| *x * y).collect();
        let d = Radix2EvaluationDomain::<Fr>::new(n).unwrap();
        let w = Radix2EvaluationDomain::<Fr>::new(2 * n)
            .unwrap()
            .group_gen();
        let odd = |mut v: Vec<Fr>| {
            d.ifft_in_place(&mut v);
            Radix2EvaluationDomain::<Fr>::distribute_powers(&mut v, w);
            d.fft_in_place(&mut v);
            v
        };
        let (ao, bo, co) = (odd(a), odd(b), odd(c));
        let e: Vec<Fr> = (0..n).map(|i| ao[i] * bo[i] - co[i]).collect();
        let snarkjs_term = G1Projective::msm(&ours, &e).unwrap();

        let h = LibsnarkReduction::witness_map_from_matrices::<Fr, Radix2EvaluationDomain<Fr>>(
            m,
            m.num_instance_variables,
            m.num_constraints,
            &full,
        )
        .unwrap();
        let ark_term = G1Projective::msm(&keys.pk.h_query, &h[..n - 1]).unwrap();
        assert_eq!(snarkjs_term, ark_term);
        assert!(!ark_term.is_zero());
    }

    #[test]
    fn zkey_layout_and_wtns() {
        let (_c, keys, full) = toy();
        let m = &keys.matrices;
        let (bytes, info) = zkey_bytes(&keys.pk, m).unwrap();
        assert_eq!(&bytes[..4], b"zkey");
        assert_eq!(info.bytes, bytes.len());
        assert_eq!(info.vars, full.len());
        // walk the sections: ids 1..=10 once each, sizes add up to the file
        let mut pos = 12;
        let mut ids = Vec::new();
        while pos < bytes.len() {
            let id = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap());
            let size = u64::from_le_bytes(bytes[pos + 4..pos + 12].try_into().unwrap()) as usize;
            if id == 5 {
                assert_eq!(size, 64 * info.vars);
            }
            if id == 9 {
                assert_eq!(size, 64 * info.domain_size);
            }
            ids.push(id);
            pos += 12 + size;
        }
        assert_eq!(pos, bytes.len());
        ids.sort();
        assert_eq!(ids, (1..=10).collect::<Vec<_>>());
        let w = wtns_bytes(&full);
        assert_eq!(w.len(), 12 + 12 + 40 + 12 + 32 * full.len());
        // value 1 first, standard form
        assert_eq!(w[76], 1);
        assert!(w[77..108].iter().all(|b| *b == 0));
    }

    #[test]
    fn foreign_key_is_a_clear_error() {
        let (_c, keys, _) = toy();
        let cfg = SpendConfig {
            family: HashFamily::Poseidon,
            alpha: None,
            arity: 2,
            leaves: 64,
            circuit: CircuitKind::Spend,
        };
        let other = Circuit::with_backend(&cfg, Arc::new(testing::toy_backend(2))).unwrap();
        let m = other.matrices().unwrap();
        let e = zkey_bytes(&keys.pk, &m).unwrap_err().to_string();
        assert!(e.contains("does not belong"), "{e}");
    }
}
