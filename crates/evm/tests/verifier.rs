//! zkbench's Solidity Groth16 verifier in revm: accepts zkbench proofs,
//! rejects every tampered call (changed input, input ≥ r, changed or
//! off-curve point, coordinate ≥ q, truncated calldata), never reverts on a
//! well-formed call and never halts; no invalid call costs more gas than the
//! valid one (under a 30M gas limit); and agrees with a native verifier over
//! a table of valid and invalid calls.

use crate::common::{fixtures, ours, solc_or_skip};
use ark_bn254::{Bn254, Fq, Fq2, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, PrimeField};
use ark_groth16::{prepare_verifying_key, Proof, VerifyingKey};
use zkbench_evm::{calldata::Word, CallStatus, Chain, Groth16Calldata};
use zkbench_hash::Fr;

/// What the contract must do with a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    True,
    False,
    Revert,
}

fn add_word(w: &Word, k: &[u8; 32]) -> Word {
    // w + k mod 2^256 (big-endian)
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let s = w[i] as u16 + k[i] as u16 + carry;
        out[i] = s as u8;
        carry = s >> 8;
    }
    out
}

fn modulus_word<F: PrimeField>() -> Word {
    let be = F::MODULUS.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - be.len()..].copy_from_slice(&be);
    out
}

fn one() -> Word {
    let mut w = [0u8; 32];
    w[31] = 1;
    w
}

/// Named calldata cases built from a valid proof and a second valid proof
/// (of another statement, same key); each with what the contract must do.
fn cases(
    vk: &VerifyingKey<Bn254>,
    p: &(Proof<Bn254>, zkbench_groth16::PublicInputs),
    other: &(Proof<Bn254>, zkbench_groth16::PublicInputs),
) -> Vec<(String, Vec<u8>, Expect)> {
    let good = Groth16Calldata::new(&p.0, &p.1);
    let n = good.public.len();
    let r = modulus_word::<Fr>();
    let q = modulus_word::<Fq>();
    let mut v: Vec<(String, Groth16Calldata, Expect)> =
        vec![("valid".into(), good.clone(), Expect::True)];
    v.push((
        "second valid proof".into(),
        Groth16Calldata::new(&other.0, &other.1),
        Expect::True,
    ));
    for i in 0..n {
        let mut c = good.clone();
        c.public[i] = add_word(&c.public[i], &one());
        v.push((format!("public input {i} + 1"), c, Expect::False));
        let mut c = good.clone();
        c.public[i] = add_word(&c.public[i], &r);
        v.push((
            format!("public input {i} + r (same value mod r, >= r)"),
            c,
            Expect::False,
        ));
        let mut c = good.clone();
        c.public[i] = [0xff; 32];
        v.push((format!("public input {i} = 2^256 - 1"), c, Expect::False));
    }
    v.push((
        "proof of another statement".into(),
        Groth16Calldata::new(&other.0, &p.1),
        Expect::False,
    ));
    let with = |f: &dyn Fn(&mut Proof<Bn254>)| {
        let mut pr = p.0.clone();
        f(&mut pr);
        Groth16Calldata::new(&pr, &p.1)
    };
    v.push(("A negated".into(), with(&|pr| pr.a = -pr.a), Expect::False));
    v.push((
        "C doubled".into(),
        with(&|pr| pr.c = (pr.c + pr.c).into()),
        Expect::False,
    ));
    v.push((
        "B = generator".into(),
        with(&|pr| pr.b = G2Affine::generator()),
        Expect::False,
    ));
    v.push(("A = C".into(), with(&|pr| pr.a = pr.c), Expect::False));
    v.push((
        "A, B, C at infinity".into(),
        with(&|pr| {
            pr.a = G1Affine::zero();
            pr.b = G2Affine::zero();
            pr.c = G1Affine::zero();
        }),
        Expect::False,
    ));
    let mut c = good.clone();
    c.a[1] = add_word(&c.a[1], &one());
    v.push(("A off the curve (y + 1)".into(), c, Expect::False));
    let mut c = good.clone();
    c.c[0] = add_word(&c.c[0], &one());
    v.push(("C off the curve (x + 1)".into(), c, Expect::False));
    let mut c = good.clone();
    c.b[0][1] = add_word(&c.b[0][1], &one());
    v.push(("B off the twist (x.c0 + 1)".into(), c, Expect::False));
    let mut c = good.clone();
    c.a[0] = add_word(&c.a[0], &q);
    v.push(("A.x + q (non-canonical)".into(), c, Expect::False));
    let mut c = good.clone();
    c.b[1][0] = add_word(&c.b[1][0], &q);
    v.push(("B.y.c1 + q (non-canonical)".into(), c, Expect::False));
    let mut c = good.clone();
    c.b[0].swap(0, 1);
    c.b[1].swap(0, 1);
    v.push(("B in (c0, c1) order".into(), c, Expect::False));
    let _ = vk;

    let mut out: Vec<(String, Vec<u8>, Expect)> = v
        .into_iter()
        .map(|(name, c, e)| (name, c.abi_encode(), e))
        .collect();
    let full = good.abi_encode();
    out.push((
        "truncated by 1 byte".into(),
        full[..full.len() - 1].to_vec(),
        Expect::Revert,
    ));
    out.push((
        "truncated by 1 word".into(),
        full[..full.len() - 32].to_vec(),
        Expect::Revert,
    ));
    out.push(("selector only".into(), full[..4].to_vec(), Expect::Revert));
    out.push(("empty calldata".into(), Vec::new(), Expect::Revert));
    let mut wrong = full.clone();
    wrong[0] ^= 1;
    out.push(("wrong selector".into(), wrong, Expect::Revert));
    out
}

fn outcome(chain: &mut Chain, to: revm::primitives::Address, data: &[u8]) -> (Expect, u64) {
    let o = chain.call(to, data).unwrap();
    let e = match &o.status {
        CallStatus::Returned(d) if o.returned_true() => {
            assert_eq!(d.len(), 32);
            Expect::True
        }
        CallStatus::Returned(d) => {
            assert_eq!(d, &vec![0u8; 32], "returned neither true nor false");
            Expect::False
        }
        CallStatus::Reverted(_) => Expect::Revert,
        CallStatus::Halted(why) => panic!("the verifier halted ({why}): it must return or revert"),
    };
    (e, o.gas_exec)
}

#[test]
fn verifier_accepts_valid_and_rejects_tampered_calls() {
    let Some(solc) = solc_or_skip("verifier_accepts_valid_and_rejects_tampered_calls") else {
        return;
    };
    for f in fixtures() {
        let compiled = ours(&solc, &f.vk);
        let mut chain = Chain::new();
        let d = chain.deploy(&compiled.creation).unwrap();
        assert!(d.bytecode_bytes < zkbench_evm::EIP170_LIMIT);
        let mut valid_gas = 0;
        for (name, data, expect) in cases(&f.vk, &f.proofs[0], &f.proofs[1]) {
            let (got, gas) = outcome(&mut chain, d.address, &data);
            println!("{:>10} · {name}: {got:?} ({gas} gas)", f.name);
            assert_eq!(got, expect, "{}: case {name:?}", f.name);
            // the valid proof is the first case: no invalid call (under the
            // chain's 30M gas limit) may cost more than it
            if name == "valid" {
                valid_gas = gas;
            }
            assert!(
                gas <= valid_gas,
                "{}: {name:?} used {gas} gas, more than the valid proof's {valid_gas}",
                f.name
            );
        }
    }
}

// ------------------------------------------------------------ differential

fn fq(w: &Word) -> Option<Fq> {
    let x = Fq::from_be_bytes_mod_order(w);
    (x.into_bigint().to_bytes_be() == w.to_vec()).then_some(x)
}

fn g1(w: &[Word; 2]) -> Option<G1Affine> {
    let (x, y) = (fq(&w[0])?, fq(&w[1])?);
    if x == Fq::from(0u64) && y == Fq::from(0u64) {
        return Some(G1Affine::zero());
    }
    let p = G1Affine::new_unchecked(x, y);
    p.is_on_curve().then_some(p)
}

fn g2(w: &[[Word; 2]; 2]) -> Option<G2Affine> {
    let x = Fq2::new(fq(&w[0][1])?, fq(&w[0][0])?);
    let y = Fq2::new(fq(&w[1][1])?, fq(&w[1][0])?);
    if x == Fq2::from(0u64) && y == Fq2::from(0u64) {
        return Some(G2Affine::zero());
    }
    let p = G2Affine::new_unchecked(x, y);
    (p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve()).then_some(p)
}

/// The reference: decode the calldata as the precompiles define it (canonical
/// coordinates, on the curve, G2 in the subgroup, inputs < r) and run
/// arkworks' Groth16 verifier.
fn native_verify(vk: &VerifyingKey<Bn254>, data: &[u8]) -> Expect {
    let n = vk.gamma_abc_g1.len() - 1;
    if data.len() < 4 + 32 * (8 + n) || data[..4] != zkbench_evm::calldata::selector(n) {
        return Expect::Revert;
    }
    let w: Vec<Word> = data[4..4 + 32 * (8 + n)]
        .chunks(32)
        .map(|c| c.try_into().unwrap())
        .collect();
    let decoded = (|| {
        let a = g1(&[w[0], w[1]])?;
        let b = g2(&[[w[2], w[3]], [w[4], w[5]]])?;
        let c = g1(&[w[6], w[7]])?;
        let public = w[8..]
            .iter()
            .map(|x| {
                let v = Fr::from_be_bytes_mod_order(x);
                (v.into_bigint().to_bytes_be() == x.to_vec()).then_some(v)
            })
            .collect::<Option<Vec<_>>>()?;
        Some((Proof { a, b, c }, public))
    })();
    match decoded {
        None => Expect::False,
        Some((proof, public)) => {
            let ok = zkbench_groth16::verify(
                &prepare_verifying_key(vk),
                &zkbench_groth16::PublicInputs(public),
                &proof,
            )
            .unwrap_or(false);
            if ok {
                Expect::True
            } else {
                Expect::False
            }
        }
    }
}

#[test]
fn native_and_evm_verifiers_agree() {
    let Some(solc) = solc_or_skip("native_and_evm_verifiers_agree") else {
        return;
    };
    let mut n = 0;
    for f in fixtures() {
        let compiled = ours(&solc, &f.vk);
        let mut chain = Chain::new();
        let d = chain.deploy(&compiled.creation).unwrap();
        // the case table in both directions (proof 0 and proof 1 as the base)
        for (p, o) in [(&f.proofs[0], &f.proofs[1]), (&f.proofs[1], &f.proofs[0])] {
            for (name, data, _) in cases(&f.vk, p, o) {
                let native = native_verify(&f.vk, &data);
                let (evm, _) = outcome(&mut chain, d.address, &data);
                assert_eq!(
                    native, evm,
                    "{}: {name}: native {native:?}, EVM {evm:?}",
                    f.name
                );
                n += 1;
            }
        }
    }
    println!("native and EVM verifiers agree on {n} calls");
}
