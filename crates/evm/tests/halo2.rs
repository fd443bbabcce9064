//! The Halo2-KZG EVM verifier (snark-verifier's Yul, hardened) in revm, on a
//! small note-spend circuit: it accepts zkbench's Keccak-transcript proofs,
//! rejects every tampered call (changed public input, input ≥ r, changed
//! proof scalar, scalar ≥ r, point off the curve, flipped byte in a point,
//! coordinate ≥ p, negated point, truncated or extended
//! calldata, a Blake2b-transcript proof, a proof of another statement), and
//! agrees with the native verifier (`verify_with`, Keccak transcript) on
//! every case; no invalid call costs more gas than the valid one (under a
//! 30M gas limit). Also: its runtime bytecode is under the EIP-170 limit, and so
//! is that of the widest spend the suites measure (α=7, arity 7).

use crate::common::solc_or_skip;
use ark_ff::{BigInteger, PrimeField};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_evm::{
    halo2::{accepted, compile_halo2},
    halo2_calldata, halo2_verifier, Chain,
};
use zkbench_halo2::{
    chip::ChipLayout,
    statement::{CircuitKind, PublicInputs, StatementConfig},
    verify_with, Halo2Circuit, Halo2Config, Keys, Srs, Transcript,
};
use zkbench_hash::{Fr, HashFamily};

fn r_word() -> [u8; 32] {
    let be = Fr::MODULUS.to_bytes_be();
    let mut w = [0u8; 32];
    w[32 - be.len()..].copy_from_slice(&be);
    w
}

/// `a + b` for 32-byte big-endian words (mod 2^256).
fn add(a: &[u8], b: &[u8; 32]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let s = a[i] as u16 + b[i] as u16 + carry;
        out[i] = s as u8;
        carry = s >> 8;
    }
    out
}

/// The Keccak-transcript note-spend circuit (Poseidon2 α, arity, leaves)
/// in the layout on-chain proofs use (the folded [`ChipLayout::evm`]) and
/// its keys under the unsafe test SRS.
fn spend(alpha: u64, arity: usize, leaves: u64) -> (Halo2Circuit, Keys) {
    spend_in(alpha, arity, leaves, Transcript::Keccak.chip_layout())
}

/// [`spend`] in a given chip layout.
fn spend_in(alpha: u64, arity: usize, leaves: u64, layout: ChipLayout) -> (Halo2Circuit, Keys) {
    let cfg = Halo2Config {
        statement: StatementConfig {
            family: HashFamily::Poseidon2,
            alpha: Some(alpha),
            arity,
            leaves,
            circuit: CircuitKind::Spend,
        },
        layout,
    };
    let circuit = Halo2Circuit::new(&cfg)
        .unwrap()
        .with_transcript(Transcript::Keccak);
    let keys = circuit.keygen(&Srs::TestSetup { seed: 7 }).unwrap();
    (circuit, keys)
}

/// What a rejected proof that fails only at the last check (the pairing) may
/// cost above a valid one: `revert(0, 0)`'s two operands (PUSH0, DUP1: 5
/// gas) against the valid path's jump (JUMPDEST: 1 gas), with room for
/// another compiler's choice of opcodes.
const REVERT_OPERANDS_GAS: u64 = 8;

/// The runtime bytecode size every verifier the suites deploy must stay
/// under: EIP-170's 24,576 bytes less a margin for compiler and key changes.
const SIZE_BUDGET: usize = 20_000;

/// Compiles and deploys a verifier source, checking its size against EIP-170
/// with a margin ([`SIZE_BUDGET`]).
fn deploy(solc: &zkbench_evm::Solc, src: &str) -> (Chain, zkbench_evm::Deployed) {
    let compiled = compile_halo2(solc, src).unwrap_or_else(|e| panic!("{e}"));
    let mut chain = Chain::new();
    let d = chain.deploy(&compiled.creation).unwrap();
    assert!(
        d.bytecode_bytes <= SIZE_BUDGET,
        "runtime bytecode {} B: less than {} B under the EIP-170 limit ({} B)",
        d.bytecode_bytes,
        zkbench_evm::EIP170_LIMIT - SIZE_BUDGET,
        zkbench_evm::EIP170_LIMIT
    );
    (chain, d)
}

#[test]
fn halo2_evm_verifier_accepts_rejects_and_agrees_with_native() {
    let Some(solc) = solc_or_skip("halo2_evm_verifier") else {
        return;
    };
    // a note spend over a tree of 2^4 leaves: the spend circuit's three public inputs
    let (circuit, keys) = spend(5, 2, 16);
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let prove = |rng: &mut ChaCha20Rng, transcript: Transcript| {
        let c = circuit.clone().with_transcript(transcript);
        let w = c.random_witness(rng);
        let (out, _) = c.prove(&keys, &w, rng).unwrap();
        (out.public, out.proof)
    };
    let (public, proof) = prove(&mut rng, Transcript::Keccak);
    let (other_public, other_proof) = prove(&mut rng, Transcript::Keccak);
    let (_, blake_proof) = prove(&mut rng, Transcript::Blake2b);
    let n = circuit.num_public_inputs();
    assert_eq!(n, 3);
    assert!(verify_with(&keys.params, keys.vk(), &public, &proof, Transcript::Keccak).unwrap());

    let src = halo2_verifier(&keys, n).unwrap();
    assert!(
        src.contains("checked_scalar(calldataload(0x0))"),
        "public inputs range-checked"
    );
    assert!(
        !src.contains("mod(calldataload("),
        "no scalar is reduced mod r"
    );
    for pc in ["0x6", "0x7", "0x8"] {
        assert!(
            !src.contains(&format!("staticcall(gas(), {pc},")),
            "precompile {pc} is given only its price"
        );
    }
    assert!(
        src.contains("if iszero(validate_ec_point(x, y)) { revert(0, 0) }"),
        "an invalid point reverts at once"
    );
    let (mut chain, d) = deploy(&solc, &src);

    let good = halo2_calldata(&public, &proof);
    let words = |c: &[u8]| c.len() / 32;
    assert_eq!(good.len() % 32, 0);
    let r = r_word();
    let mut cases: Vec<(&str, Vec<u8>, bool)> = vec![("valid", good.clone(), true)];
    cases.push((
        "valid proof of another statement",
        halo2_calldata(&other_public, &other_proof),
        true,
    ));
    for i in 0..n {
        let mut c = good.clone();
        c[32 * i + 31] ^= 1;
        cases.push(("public input changed", c, false));
        let mut c = good.clone();
        let w = add(&c[32 * i..32 * i + 32], &r);
        c[32 * i..32 * i + 32].copy_from_slice(&w);
        cases.push(("public input + r (≥ r, same value mod r)", c, false));
    }
    // the proof's first element is a point (advice commitment x, y); its last
    // words are evaluations (scalars)
    let mut c = good.clone();
    c[32 * n + 63] ^= 1;
    cases.push(("point moved off the curve (y changed)", c, false));
    let mut c = good.clone();
    c[32 * n + 64 + 5] ^= 0x10;
    cases.push(("flipped byte in a proof point's x", c, false));
    let p_word = {
        use ark_bn254::Fq;
        let be = Fq::MODULUS.to_bytes_be();
        let mut w = [0u8; 32];
        w[32 - be.len()..].copy_from_slice(&be);
        w
    };
    let mut c = good.clone();
    let w = add(&c[32 * n..32 * n + 32], &p_word);
    c[32 * n..32 * n + 32].copy_from_slice(&w);
    cases.push(("proof point's x + p (non-canonical)", c, false));
    let mut c = good.clone();
    // (x, p - y): the negated point, on the curve, but not the proof's
    let y = &c[32 * n + 32..32 * n + 64];
    let mut neg = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let d = p_word[i] as i16 - y[i] as i16 - borrow;
        neg[i] = d.rem_euclid(256) as u8;
        borrow = (d < 0) as i16;
    }
    c[32 * n + 32..32 * n + 64].copy_from_slice(&neg);
    cases.push(("proof point negated (on the curve)", c, false));
    let mut c = good.clone();
    let last = words(&c) - 1;
    c[32 * last + 31] ^= 1;
    cases.push(("last proof scalar changed", c, false));
    let mut c = good.clone();
    // the last scalar of the proof is below r; + r is the same value mod r
    // (if it overflows 2^256 the case is still invalid)
    let w = add(&c[32 * last..32 * last + 32], &r);
    c[32 * last..32 * last + 32].copy_from_slice(&w);
    cases.push(("last proof scalar + r (≥ r)", c, false));
    cases.push((
        "truncated by one word",
        good[..good.len() - 32].to_vec(),
        false,
    ));
    cases.push((
        "truncated by one byte",
        good[..good.len() - 1].to_vec(),
        false,
    ));
    let mut c = good.clone();
    c.extend_from_slice(&[0u8; 32]);
    cases.push(("extended by a zero word", c, false));
    cases.push(("empty calldata", vec![], false));
    cases.push((
        "Blake2b-transcript proof",
        halo2_calldata(&public, &blake_proof),
        false,
    ));
    let mut swapped = halo2_calldata(&public, &other_proof);
    cases.push(("proof of another statement", swapped.clone(), false));
    swapped.truncate(32 * n);
    cases.push(("public inputs only", swapped, false));

    let mut valid_gas = 0;
    for (name, calldata, want) in &cases {
        let out = chain.call(d.address, calldata).unwrap();
        let evm = accepted(&out);
        assert_eq!(evm, *want, "EVM verifier on {name:?}: {:?}", out.status);
        // the first case is the valid proof: no invalid call (under the
        // chain's 30M gas limit) may cost more than it, but for the operands
        // of the final REVERT (a valid call ends in STOP, 0 gas)
        if *name == "valid" {
            valid_gas = out.gas_exec;
        }
        assert!(
            out.gas_exec <= valid_gas + REVERT_OPERANDS_GAS,
            "{name:?} used {} gas, more than the valid proof's {valid_gas}",
            out.gas_exec
        );
        if !*want {
            println!("{name}: rejected, {} gas", out.gas_exec);
        }
        // the native verifier on the same bytes (calldata = inputs ‖ proof)
        if calldata.len() >= 32 * n && calldata.len() % 32 == 0 {
            let inputs: Option<Vec<Fr>> = calldata[..32 * n]
                .chunks(32)
                .map(|w| {
                    let x = Fr::from_be_bytes_mod_order(w);
                    // a non-canonical word is not an input the native API can take
                    (x.into_bigint().to_bytes_be() == w).then_some(x)
                })
                .collect();
            let native = match inputs {
                Some(inputs) => verify_with(
                    &keys.params,
                    keys.vk(),
                    &PublicInputs(inputs),
                    &calldata[32 * n..],
                    Transcript::Keccak,
                )
                .unwrap(),
                None => false,
            };
            assert_eq!(native, evm, "native and EVM disagree on {name:?}");
        }
        if *want {
            println!(
                "{name}: verify gas {} (transaction {}), calldata {} B",
                out.gas_exec,
                out.gas_tx,
                calldata.len()
            );
        }
    }
    println!(
        "Halo2 EVM verifier: runtime bytecode {} B, deploy gas {}; {} cases",
        d.bytecode_bytes,
        d.gas_deploy,
        cases.len()
    );
}

/// The zkOS-comparable spend (Poseidon2 α=7, arity 7, 2^36 leaves: the most
/// columns of the suites' configurations) has a deployable verifier — under
/// EIP-170 only thanks to the Yul passes — that accepts its proof and rejects
/// a changed public input and a changed proof scalar, as the native verifier does.
#[test]
fn halo2_evm_verifier_of_the_widest_spend_is_deployable() {
    let Some(solc) = solc_or_skip("halo2_evm_verifier_of_the_widest_spend_is_deployable") else {
        return;
    };
    let (circuit, keys) = spend(7, 7, 1 << 36);
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let w = circuit.random_witness(&mut rng);
    let (out, _) = circuit.prove(&keys, &w, &mut rng).unwrap();
    let n = circuit.num_public_inputs();
    let src = halo2_verifier(&keys, n).unwrap();
    let (mut chain, d) = deploy(&solc, &src);
    let good = halo2_calldata(&out.public, &out.proof);
    let mut changed_input = good.clone();
    changed_input[31] ^= 1;
    let mut changed_scalar = good.clone();
    let last = good.len() - 1;
    changed_scalar[last] ^= 1;
    for (name, c, want) in [
        ("valid", &good, true),
        ("public input changed", &changed_input, false),
        ("last proof scalar changed", &changed_scalar, false),
    ] {
        let out = chain.call(d.address, c).unwrap();
        let evm = accepted(&out);
        assert_eq!(evm, want, "EVM verifier on {name:?}");
        println!("{name}: {} gas", out.gas_exec);
        let inputs = c[..32 * n]
            .chunks(32)
            .map(Fr::from_be_bytes_mod_order)
            .collect();
        let native = verify_with(
            &keys.params,
            keys.vk(),
            &PublicInputs(inputs),
            &c[32 * n..],
            Transcript::Keccak,
        )
        .unwrap();
        assert_eq!(native, evm, "native and EVM disagree on {name:?}");
    }
    println!("α=7 arity-7 spend: runtime bytecode {} B", d.bytecode_bytes);
}

/// The folded chip layout ([`ChipLayout::evm`]: the same gates over 4x the
/// rows and a quarter of the columns, so fewer commitments and ecMul) brings
/// the zkOS-comparable spend's verifier (Poseidon2 α=7, arity 7, 2^36
/// leaves) under 350,000 gas, below the wide layout's, and keeps it under the
/// size budget.
#[test]
fn halo2_evm_verifier_of_the_folded_spend_costs_under_350k() {
    let Some(solc) = solc_or_skip("halo2_evm_verifier_of_the_folded_spend_costs_under_350k") else {
        return;
    };
    let mut gas = vec![];
    for layout in [ChipLayout::default(), ChipLayout::evm()] {
        let (circuit, keys) = spend_in(7, 7, 1 << 36, layout);
        let mut rng = ChaCha20Rng::seed_from_u64(10);
        let w = circuit.random_witness(&mut rng);
        let (out, _) = circuit.prove(&keys, &w, &mut rng).unwrap();
        let src = halo2_verifier(&keys, circuit.num_public_inputs()).unwrap();
        let (mut chain, d) = deploy(&solc, &src);
        let r = chain
            .call(d.address, &halo2_calldata(&out.public, &out.proof))
            .unwrap();
        assert!(accepted(&r), "{layout:?}");
        println!(
            "fold {}: {} gas, {} B runtime, {} B proof, {}",
            layout.fold,
            r.gas_exec,
            d.bytecode_bytes,
            out.proof.len(),
            circuit.stats_with_keys(&keys).unwrap()
        );
        gas.push(r.gas_exec);
    }
    assert!(gas[1] <= 350_000, "folded verifier: {} gas", gas[1]);
    assert!(gas[1] < gas[0], "folding saves gas: {gas:?}");
}
