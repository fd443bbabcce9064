//! The Tornado Cash baseline on the embedded EVM: circomlibjs's MiMCSponge
//! hasher contract against zkbench's native MiMCSponge, the contract's
//! hard-coded empty-subtree roots, its root after deposits against zkbench's
//! native incremental tree, a withdrawal once and its double spend, and the
//! contract's input checks. A small tree (depth 4) keeps the proofs fast.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkbench_evm::{Address, CallStatus, Chain, Solc, U256};
use zkbench_hash::{mimc_sponge, Fr};
use zkbench_pool::abi::{self, fr_u256};
use zkbench_pool::tornado::{
    self, deploy, describe, mimc_sponge_call, simulate_tornado, TornadoConfig, TornadoProver,
};
use zkbench_pool::wallet::Note;

const DENOM: u64 = 100_000_000_000_000_000;

/// The hasher's creation code, or `None` (with a SKIPPED line) without node/circomlibjs.
fn hasher_or_skip(test: &str) -> Option<Vec<u8>> {
    match tornado::mimc_sponge_hasher_code() {
        Ok(c) => Some(c),
        Err(e) => {
            println!("SKIPPED {test}: {e} (run scripts/setup.sh)");
            None
        }
    }
}

fn word_fr(d: &[u8]) -> Fr {
    abi::word_fr(&d.try_into().unwrap())
}

#[test]
fn hasher_contract_matches_native_mimc_sponge() {
    let Some(code) = hasher_or_skip("hasher") else {
        return;
    };
    let mut chain = Chain::new();
    let h = chain.deploy(&code).unwrap().address;
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut inputs = vec![
        (Fr::from(0u64), Fr::from(0u64), Fr::from(0u64)),
        (Fr::from(1u64), Fr::from(2u64), Fr::from(0u64)),
        (Fr::from(1u64), Fr::from(2u64), Fr::from(3u64)),
    ];
    for _ in 0..3 {
        use ark_ff::UniformRand;
        inputs.push((Fr::rand(&mut rng), Fr::rand(&mut rng), Fr::rand(&mut rng)));
    }
    for (xl, xr, k) in inputs {
        let out = chain.call(h, &mimc_sponge_call(&xl, &xr, &k)).unwrap();
        let CallStatus::Returned(d) = &out.status else {
            panic!("hasher call failed: {:?}", out.status)
        };
        assert_eq!(d.len(), 64);
        let want = mimc_sponge::feistel(xl, xr, k);
        assert_eq!(
            (word_fr(&d[..32]), word_fr(&d[32..])),
            want,
            "({xl}, {xr}, {k})"
        );
    }
    // Tornado's node hash from two calls equals the native one.
    let (l, r) = (Fr::from(5u64), Fr::from(9u64));
    let call = |chain: &mut Chain, xl: Fr, xr: Fr| {
        let out = chain
            .call(h, &mimc_sponge_call(&xl, &xr, &Fr::from(0u64)))
            .unwrap();
        let CallStatus::Returned(d) = out.status else {
            panic!()
        };
        (word_fr(&d[..32]), word_fr(&d[32..]))
    };
    let (a, c) = call(&mut chain, l, Fr::from(0u64));
    let (b, _) = call(&mut chain, a + r, c);
    assert_eq!(b, mimc_sponge::hash_left_right(l, r));
}

#[test]
fn contract_zeros_are_tornados_empty_roots() {
    // `zeros(i)` is hard-coded in the source, as in tornado-core: the constants must be
    // zeros(0) = keccak256("tornado") mod r, zeros(i + 1) = hashLeftRight(zeros(i), zeros(i)).
    let consts: Vec<Fr> = tornado::TORNADO_SOURCE
        .lines()
        .filter_map(|l| l.trim().strip_prefix("if (i == "))
        .filter(|l| l.contains("return 0x"))
        .map(|l| {
            let hex = l.split("return 0x").nth(1).unwrap().trim_end_matches(';');
            word_fr(&hex::decode(hex).unwrap())
        })
        .collect();
    assert_eq!(consts, mimc_sponge::tornado_zeros(32));
}

#[test]
fn baseline_roots_match_native_tree_and_double_spend_is_rejected() {
    if hasher_or_skip("baseline").is_none() || Solc::locate().is_err() {
        println!("SKIPPED baseline: needs node, solc-js and circomlibjs (scripts/setup.sh)");
        return;
    }
    let prover = TornadoProver::setup(4, tornado::TORNADO_SETUP_SEED).unwrap();
    let cfg = TornadoConfig {
        deposits: 3,
        denomination: U256::from(DENOM),
        fee: U256::from(DENOM / 100),
        max_withdrawals: Some(2),
        seed: 5,
    };
    let r = simulate_tornado(&cfg, &prover).unwrap();
    assert!(r.checks.root_matches_native, "{r:#?}");
    assert!(r.checks.double_spend_rejected, "{r:#?}");
    assert!(r.all_checks_passed(), "{r:#?}");
    assert_eq!(r.withdrawals, 2);
    assert_eq!(r.answers["withdraw_double_spend"], "NullifierAlreadySpent");
    assert_eq!(r.answers["deposit_same_commitment"], "CommitmentExists");
    // 4 levels = 8 hasher calls per deposit
    assert!(r.gas.deposit > 8 * r.gas.mimc_sponge_call, "{r:#?}");
    assert!(r.gas.withdraw > 200_000 && r.gas.per_tx == r.gas.deposit + r.gas.withdraw);
}

#[test]
fn baseline_checks_its_inputs() {
    if hasher_or_skip("inputs").is_none() {
        return;
    }
    let Ok(solc) = Solc::locate() else {
        println!("SKIPPED inputs: solc-js missing (scripts/setup.sh)");
        return;
    };
    let prover = TornadoProver::setup(2, tornado::TORNADO_SETUP_SEED).unwrap();
    let mut chain = Chain::new();
    let denom = U256::from(DENOM);
    let d = deploy(&mut chain, &solc, &prover, denom).unwrap();
    let user = Address::repeat_byte(0xd0);
    chain.set_balance(user, denom * U256::from(10u8)).unwrap();
    let send = |chain: &mut Chain, data: &[u8], value: U256| {
        describe(
            &chain
                .send(user, d.pool, data, value)
                .unwrap()
                .outcome
                .status,
        )
    };
    let modulus = U256::from_str_radix(
        "21888242871839275222246405745257275088548364400416034343698204186575808495617",
        10,
    )
    .unwrap();
    assert_eq!(
        send(&mut chain, &abi::deposit_call(modulus), denom),
        "FieldElementTooLarge"
    );
    assert_eq!(
        send(
            &mut chain,
            &abi::deposit_call(U256::from(7u8)),
            U256::from(1u8)
        ),
        "WrongDenomination"
    );
    // a depth-2 tree takes 4 deposits, then is full
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let hashes = prover.hashes().clone();
    let mut tree = prover.empty_tree().unwrap();
    let mut notes = Vec::new();
    for _ in 0..4 {
        let n = Note::random(&mut rng, "revm", denom, d.pool);
        let c = n.commitment(&hashes);
        assert_eq!(
            send(&mut chain, &abi::deposit_call(fr_u256(&c)), denom),
            "ok"
        );
        tree.insert(c).unwrap();
        notes.push(n);
    }
    assert_eq!(
        send(&mut chain, &abi::deposit_call(U256::from(8u8)), denom),
        "TreeFull"
    );
    let (proof, args) = prover
        .prove_withdrawal(&tree, &notes[1], user, user, U256::ZERO, &mut rng)
        .unwrap();
    let over = abi::WithdrawArgs {
        fee: denom + U256::from(1u8),
        ..args
    };
    assert_eq!(
        send(&mut chain, &abi::withdraw_call(&proof, &over), U256::ZERO),
        "FeeTooHigh"
    );
    let refund = abi::WithdrawArgs {
        refund: U256::from(1u8),
        ..args
    };
    assert_eq!(
        send(&mut chain, &abi::withdraw_call(&proof, &refund), U256::ZERO),
        "RefundNotSupported"
    );
    let big = abi::WithdrawArgs {
        nullifier_hash: modulus,
        ..args
    };
    assert_eq!(
        send(&mut chain, &abi::withdraw_call(&proof, &big), U256::ZERO),
        "FieldElementTooLarge"
    );
    let zero_to = abi::WithdrawArgs {
        recipient: Address::ZERO,
        ..args
    };
    assert_eq!(
        send(
            &mut chain,
            &abi::withdraw_call(&proof, &zero_to),
            U256::ZERO
        ),
        "ZeroRecipient"
    );
    assert_eq!(
        send(&mut chain, &abi::withdraw_call(&proof, &args), U256::ZERO),
        "ok"
    );
    assert_eq!(
        send(&mut chain, &abi::withdraw_call(&proof, &args), U256::ZERO),
        "NullifierAlreadySpent"
    );
    // a depth outside 1..=31 is a clear error, before any setup
    assert!(TornadoProver::setup(0, 1).is_err() && TornadoProver::setup(32, 1).is_err());
}
