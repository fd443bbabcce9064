//! Randomized differential test: zkbench's Groth16 verifier against snarkjs's
//! (`groth16.verify` of the pinned snarkjs 0.7.6, the function behind
//! `snarkjs groth16 verify`) on the same valid and invalid proofs.
//!
//! Valid proofs come from random witnesses of a small spend circuit, plus two
//! valid re-encodings (re-randomized `(sA, s⁻¹B, C)` and a Jacobian `z ≠ 1`
//! encoding). Invalid ones come from [`Mutation`]: changed, non-canonical,
//! missing or extra public inputs, wrong / negated / off-curve / identity /
//! non-canonical points, G2 points outside the subgroup, swapped elements,
//! proofs of another statement. proptest draws the sequence of mutations and
//! their randomness; one `node` process verifies a whole batch.
//!
//! Every case must be decided as expected by zkbench (valid ⇒ accepted,
//! mutated ⇒ rejected), and snarkjs must agree — except where snarkjs is
//! known to be more lenient ([`Mutation::snarkjs_lenient`]): there zkbench
//! must reject and the test records what snarkjs did.
//!
//! Skipped (with a printed reason) only when `node`/`npm` are not installed.

use std::{
    collections::BTreeMap,
    process::Command,
    sync::{Mutex, OnceLock},
};

use ark_bn254::{Bn254, Fq, Fq2, G1Affine, G1Projective, G2Affine};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, Field, PrimeField, UniformRand};
use ark_groth16::{prepare_verifying_key, PreparedVerifyingKey, Proof};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};
use zkbench_groth16::{snarkjs, Circuit, CircuitKind, PublicInputs, SpendConfig, Witness};
use zkbench_hash::{Fr, HashFamily};

use crate::common::{ensure_snarkjs, snarkjs_dir};

/// How a case is made from a valid proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mutation {
    /// The valid proof, untouched.
    Valid,
    /// `(sA, s⁻¹B, C)`: Groth16's re-randomization, still valid.
    Rerandomized,
    /// `A` in Jacobian coordinates with a random `z ≠ 1` (snarkjs's format allows it): valid.
    JacobianA,
    /// A public input + 1.
    PublicPlusOne,
    /// A public input replaced by a random field element.
    PublicRandom,
    /// A public input written as `x + r` (not canonical).
    PublicPlusModulus,
    /// A public input written as `-1`.
    PublicNegative,
    /// The last public input left out (its value set to 0 and the proof made for it).
    PublicDroppedZero,
    /// The last public input left out.
    PublicDropped,
    /// An extra public input `0` appended.
    PublicAppendedZero,
    /// `A` replaced by a random point of G1.
    ARandom,
    /// `A` negated.
    ANegated,
    /// `A.x + 1`: (almost surely) off the curve.
    AOffCurve,
    /// `A.x` written as `x + q` (not canonical; the same point mod q).
    ANonCanonical,
    /// `A` the point at infinity.
    AIdentity,
    /// `A` and `C` swapped.
    ASwapC,
    /// `B`'s Fq2 halves swapped.
    BSwappedHalves,
    /// `B` a point of the twist outside the order-r subgroup.
    BOutsideSubgroup,
    /// `B` from another proof.
    BOtherProof,
    /// `C + G`.
    CPlusGenerator,
    /// A valid proof of another statement, with this statement's public inputs.
    OtherStatement,
    /// A coordinate that is not a decimal number.
    NotANumber,
}

impl Mutation {
    const ALL: [Mutation; 22] = [
        Mutation::Valid,
        Mutation::Rerandomized,
        Mutation::JacobianA,
        Mutation::PublicPlusOne,
        Mutation::PublicRandom,
        Mutation::PublicPlusModulus,
        Mutation::PublicNegative,
        Mutation::PublicDroppedZero,
        Mutation::PublicDropped,
        Mutation::PublicAppendedZero,
        Mutation::ARandom,
        Mutation::ANegated,
        Mutation::AOffCurve,
        Mutation::ANonCanonical,
        Mutation::AIdentity,
        Mutation::ASwapC,
        Mutation::BSwappedHalves,
        Mutation::BOutsideSubgroup,
        Mutation::BOtherProof,
        Mutation::CPlusGenerator,
        Mutation::OtherStatement,
        Mutation::NotANumber,
    ];

    fn valid(self) -> bool {
        matches!(
            self,
            Mutation::Valid | Mutation::Rerandomized | Mutation::JacobianA
        )
    }

    /// Cases snarkjs 0.7.6 accepts although they are not a canonical
    /// encoding of a valid (proof, public inputs) pair, and why. zkbench
    /// rejects them, like the EVM precompiles and zkbench's Solidity verifier.
    fn snarkjs_lenient(self) -> Option<&'static str> {
        match self {
            // ffjavascript's F.e() reduces a coordinate modulo q.
            Mutation::ANonCanonical => Some("reduces coordinates >= q modulo q"),
            // groth16.verify never compares the number of public signals with
            // nPublic: a trailing 0 contributes 0·IC[n] to the linear combination.
            Mutation::PublicDroppedZero => Some("does not check the number of public inputs"),
            _ => None,
        }
    }
}

/// One small spend circuit, its keys and four valid proofs (the last one for
/// a statement whose external-data hash is 0).
struct Fixture {
    vk_json: Value,
    pvk: PreparedVerifyingKey<Bn254>,
    proofs: Vec<(Proof<Bn254>, PublicInputs)>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let cfg = SpendConfig {
            family: HashFamily::Poseidon,
            alpha: None,
            arity: 2,
            leaves: 16,
            circuit: CircuitKind::Spend,
        };
        let c = Circuit::new(&cfg).unwrap();
        let keys = c.setup(21).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(22);
        let mut proofs = vec![];
        for i in 0..4 {
            let mut w = c.random_witness(&mut rng);
            if i == 3 {
                let Witness::Spend(s) = &mut w else {
                    unreachable!()
                };
                s.ext_data_hash = Fr::from(0u64);
            }
            let (proof, public, _) = c.prove(&keys, &w, &mut rng).unwrap();
            proofs.push((proof, public));
        }
        // the verification key goes through snarkjs's JSON both ways
        let vk_json = snarkjs::vk_to_json(keys.vk());
        let vk = snarkjs::vk_from_json(&vk_json).unwrap();
        Fixture {
            vk_json,
            pvk: prepare_verifying_key(&vk),
            proofs,
        }
    })
}

fn dec<F: PrimeField>(x: F) -> Value {
    Value::String(x.into_bigint().to_string())
}

/// `x + p` (p the field's modulus) as a decimal string: the same residue, not canonical.
fn plus_modulus<F: PrimeField>(x: F) -> Value {
    let mut b = x.into_bigint();
    // x < p < 2^254, so the sum fits in 256 bits
    assert!(!b.add_with_carry(&F::MODULUS));
    Value::String(b.to_string())
}

fn g1_jacobian(p: &G1Affine, z: Fq) -> Value {
    let (x, y) = p.xy().unwrap();
    json!([dec(x * z.square()), dec(y * z.square() * z), dec(z)])
}

/// A point of the BN254 twist that is not in the order-r subgroup.
fn g2_outside_subgroup(rng: &mut ChaCha20Rng) -> G2Affine {
    loop {
        let x = Fq2::rand(rng);
        if let Some(p) = G2Affine::get_point_from_x_unchecked(x, false) {
            if !p.is_in_correct_subgroup_assuming_on_curve() {
                return p;
            }
        }
    }
}

/// Builds case `m` from valid proof `k` of the fixture.
fn make_case(m: Mutation, k: usize, seed: u64) -> Value {
    let f = fixture();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let k = if m == Mutation::PublicDroppedZero {
        3
    } else {
        k % 3
    };
    let (proof, public) = f.proofs[k].clone();
    let mut proof_json = snarkjs::proof_to_json(&proof);
    let mut public_json = snarkjs::public_to_json(&public);
    let i = (seed as usize) % public.0.len();
    match m {
        Mutation::Valid => {}
        Mutation::Rerandomized => {
            let s = Fr::rand(&mut rng);
            let p = Proof::<Bn254> {
                a: (proof.a * s).into_affine(),
                b: (proof.b * s.inverse().unwrap()).into_affine(),
                c: proof.c,
            };
            proof_json = snarkjs::proof_to_json(&p);
        }
        Mutation::JacobianA => {
            proof_json["pi_a"] = g1_jacobian(&proof.a, Fq::rand(&mut rng));
        }
        Mutation::PublicPlusOne => public_json[i] = dec(public.0[i] + Fr::from(1u64)),
        Mutation::PublicRandom => public_json[i] = dec(Fr::rand(&mut rng)),
        Mutation::PublicPlusModulus => public_json[i] = plus_modulus(public.0[i]),
        Mutation::PublicNegative => public_json[i] = Value::String("-1".into()),
        Mutation::PublicDroppedZero | Mutation::PublicDropped => {
            public_json.as_array_mut().unwrap().pop();
        }
        Mutation::PublicAppendedZero => public_json.as_array_mut().unwrap().push("0".into()),
        Mutation::ARandom => {
            proof_json["pi_a"] = snarkjs::g1_to_json(&G1Projective::rand(&mut rng).into_affine())
        }
        Mutation::ANegated => proof_json["pi_a"] = snarkjs::g1_to_json(&-proof.a),
        Mutation::AOffCurve => {
            let (x, _) = proof.a.xy().unwrap();
            proof_json["pi_a"][0] = dec(x + Fq::from(1u64));
        }
        Mutation::ANonCanonical => {
            let (x, _) = proof.a.xy().unwrap();
            proof_json["pi_a"][0] = plus_modulus(x);
        }
        Mutation::AIdentity => proof_json["pi_a"] = json!(["0", "1", "0"]),
        Mutation::ASwapC => {
            let a = proof_json["pi_a"].clone();
            proof_json["pi_a"] = proof_json["pi_c"].clone();
            proof_json["pi_c"] = a;
        }
        Mutation::BSwappedHalves => {
            for j in 0..2 {
                let c = proof_json["pi_b"][j].as_array_mut().unwrap();
                c.swap(0, 1);
            }
        }
        Mutation::BOutsideSubgroup => {
            proof_json["pi_b"] = snarkjs::g2_to_json(&g2_outside_subgroup(&mut rng))
        }
        Mutation::BOtherProof => {
            proof_json["pi_b"] = snarkjs::g2_to_json(&f.proofs[(k + 1) % 3].0.b);
        }
        Mutation::CPlusGenerator => {
            proof_json["pi_c"] =
                snarkjs::g1_to_json(&(proof.c + G1Affine::generator()).into_affine())
        }
        Mutation::OtherStatement => {
            proof_json = snarkjs::proof_to_json(&f.proofs[(k + 1) % 3].0);
        }
        Mutation::NotANumber => proof_json["pi_c"][1] = Value::String("12ab".into()),
    }
    json!({ "proof": proof_json, "public": public_json })
}

/// zkbench's decision on a case: parse snarkjs's JSON, then verify.
fn zkbench_accepts(case: &Value) -> bool {
    let f = fixture();
    let Ok(proof) = snarkjs::proof_from_json(&case["proof"]) else {
        return false;
    };
    let Ok(public) = snarkjs::public_from_json(&case["public"]) else {
        return false;
    };
    matches!(zkbench_groth16::verify(&f.pvk, &public, &proof), Ok(true))
}

/// snarkjs's decisions on a batch (true = accepted; false or a thrown error = rejected).
fn snarkjs_decisions(cases: &[Value]) -> Vec<Value> {
    let path = std::env::temp_dir().join(format!(
        "zkbench-g16-differential-{}-{}.json",
        std::process::id(),
        cases.len()
    ));
    std::fs::write(
        &path,
        serde_json::to_vec(&json!({ "vk": fixture().vk_json, "cases": cases })).unwrap(),
    )
    .unwrap();
    let out = Command::new("node")
        .arg(snarkjs_dir().join("verify-batch.mjs"))
        .arg(&path)
        .current_dir(snarkjs_dir())
        .output()
        .expect("running node");
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "verify-batch.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Vec<Value> = serde_json::from_slice(&out.stdout).expect("one JSON array");
    assert_eq!(v.len(), cases.len());
    v
}

/// Runs a batch: every mutation at least once, then `drawn`.
fn run_batch(drawn: &[(usize, usize, u64)]) -> Result<BTreeMap<Mutation, (u32, u32)>, String> {
    let mut plan: Vec<(Mutation, usize, u64)> = Mutation::ALL
        .iter()
        .enumerate()
        .map(|(j, m)| (*m, j, 1000 + j as u64))
        .collect();
    plan.extend(
        drawn
            .iter()
            .map(|&(m, k, s)| (Mutation::ALL[m % Mutation::ALL.len()], k, s)),
    );
    let cases: Vec<Value> = plan.iter().map(|&(m, k, s)| make_case(m, k, s)).collect();
    let theirs = snarkjs_decisions(&cases);
    let mut tally: BTreeMap<Mutation, (u32, u32)> = BTreeMap::new();
    for ((m, _, seed), (case, t)) in plan.iter().zip(cases.iter().zip(&theirs)) {
        let ours = zkbench_accepts(case);
        let snark = *t == Value::Bool(true);
        if ours != m.valid() {
            return Err(format!(
                "zkbench {} a {m:?} case (seed {seed}): {case}",
                if ours { "accepted" } else { "rejected" }
            ));
        }
        let e = tally.entry(*m).or_default();
        e.0 += 1;
        if ours != snark {
            match m.snarkjs_lenient() {
                Some(_) if snark => e.1 += 1,
                _ => {
                    return Err(format!(
                        "zkbench and snarkjs disagree on a {m:?} case (seed {seed}): zkbench {ours}, snarkjs {t}: {case}"
                    ))
                }
            }
        }
    }
    Ok(tally)
}

static TOTALS: Mutex<BTreeMap<Mutation, (u32, u32)>> = Mutex::new(BTreeMap::new());

proptest! {
    // two batches of 22 fixed + 120 drawn cases; each batch is one node process
    #![proptest_config(ProptestConfig { cases: 2, max_shrink_iters: 16, ..ProptestConfig::default() })]

    #[test]
    fn zkbench_and_snarkjs_agree_on_random_proofs(
        drawn in prop::collection::vec((0usize..64, 0usize..3, any::<u64>()), 120)
    ) {
        if !ensure_snarkjs() {
            return Ok(());
        }
        let tally = run_batch(&drawn).map_err(TestCaseError::fail)?;
        let mut totals = TOTALS.lock().unwrap();
        for (m, (n, lenient)) in tally {
            let e = totals.entry(m).or_default();
            e.0 += n;
            e.1 += lenient;
        }
        // print the running table: mutation, cases, zkbench's verdict, snarkjs's
        for (m, (n, lenient)) in totals.iter() {
            let verdict = if m.valid() { "accept" } else { "reject" };
            match (lenient, m.snarkjs_lenient()) {
                (0, _) => println!("{m:?}: {n} cases, both {verdict}"),
                (l, why) => println!(
                    "{m:?}: {n} cases, zkbench rejects all, snarkjs accepted {l} ({})",
                    why.unwrap_or("?")
                ),
            }
        }
    }
}
