//! ABI encoding of the pool's calls and decoding of its events and errors
//! (by hand: a handful of static signatures).

use ark_ff::PrimeField;
use sha3::{Digest, Keccak256};
use zkbench_evm::{calldata::Word, Address, CallStatus, Groth16Calldata, Log, U256};
use zkbench_hash::Fr;

/// `keccak256(bytes)`.
pub fn keccak(bytes: &[u8]) -> [u8; 32] {
    Keccak256::digest(bytes).into()
}

/// The 4-byte selector of a function or error signature.
pub fn selector(signature: &str) -> [u8; 4] {
    let h = keccak(signature.as_bytes());
    [h[0], h[1], h[2], h[3]]
}

/// The word of a field element.
pub fn fr_word(x: &Fr) -> Word {
    zkbench_evm::calldata::fr_word(x)
}

/// The word of a 256-bit integer.
pub fn u256_word(x: U256) -> Word {
    x.to_be_bytes::<32>()
}

/// The word of an address (left-padded).
pub fn address_word(a: Address) -> Word {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(a.as_slice());
    w
}

/// A field element as a 256-bit integer.
pub fn fr_u256(x: &Fr) -> U256 {
    U256::from_be_bytes(fr_word(x))
}

/// The field element of a word (reduced mod r).
pub fn word_fr(w: &Word) -> Fr {
    Fr::from_be_bytes_mod_order(w)
}

/// `keccak256(abi.encode(recipient, relayer, fee, refund)) mod r`, the
/// external-data hash the contract computes for a withdrawal.
pub fn ext_data_hash(recipient: Address, relayer: Address, fee: U256, refund: U256) -> Fr {
    let mut b = Vec::with_capacity(128);
    b.extend_from_slice(&address_word(recipient));
    b.extend_from_slice(&address_word(relayer));
    b.extend_from_slice(&u256_word(fee));
    b.extend_from_slice(&u256_word(refund));
    Fr::from_be_bytes_mod_order(&keccak(&b))
}

fn proof_words(p: &Groth16Calldata, out: &mut Vec<u8>) {
    for w in p.a.iter().chain(p.b.iter().flatten()).chain(p.c.iter()) {
        out.extend_from_slice(w);
    }
}

/// ABI-encoded constructor arguments of `Pool`.
#[allow(clippy::too_many_arguments)]
pub fn constructor_args(
    withdraw_verifier: Address,
    batch_verifier: Address,
    batch_selector: [u8; 4],
    denomination: U256,
    batch_size: usize,
    era_capacity: u64,
    empty_leaf: &Fr,
    initial_root: &Fr,
    sequencer: Address,
    liveness_timeout_s: u64,
) -> Vec<u8> {
    let mut sel = [0u8; 32];
    sel[..4].copy_from_slice(&batch_selector);
    [
        address_word(withdraw_verifier),
        address_word(batch_verifier),
        sel,
        u256_word(denomination),
        u256_word(U256::from(batch_size)),
        u256_word(U256::from(era_capacity)),
        fr_word(empty_leaf),
        fr_word(initial_root),
        address_word(sequencer),
        u256_word(U256::from(liveness_timeout_s)),
    ]
    .concat()
}

/// `deposit(uint256 commitment)`.
pub fn deposit_call(commitment: U256) -> Vec<u8> {
    let mut v = selector("deposit(uint256)").to_vec();
    v.extend_from_slice(&u256_word(commitment));
    v
}

/// `commit(uint256[2],uint256[2][2],uint256[2],uint256,uint256[],address[],uint256)`.
pub fn commit_call(
    proof: &Groth16Calldata,
    new_root: &Fr,
    commitments: &[U256],
    depositors: &[Address],
    excluded_mask: U256,
) -> Vec<u8> {
    let mut v =
        selector("commit(uint256[2],uint256[2][2],uint256[2],uint256,uint256[],address[],uint256)")
            .to_vec();
    proof_words(proof, &mut v);
    v.extend_from_slice(&fr_word(new_root));
    // Head: 8 proof words, newRoot, two offsets, mask = 12 words.
    let head = 12 * 32;
    let off_c = head;
    let off_d = off_c + 32 * (1 + commitments.len());
    v.extend_from_slice(&u256_word(U256::from(off_c)));
    v.extend_from_slice(&u256_word(U256::from(off_d)));
    v.extend_from_slice(&u256_word(excluded_mask));
    batch_lists(&mut v, commitments, depositors);
    v
}

/// Appends the tails of a batch's two dynamic arrays (length, then words).
fn batch_lists(v: &mut Vec<u8>, commitments: &[U256], depositors: &[Address]) {
    v.extend_from_slice(&u256_word(U256::from(commitments.len())));
    for c in commitments {
        v.extend_from_slice(&u256_word(*c));
    }
    v.extend_from_slice(&u256_word(U256::from(depositors.len())));
    for d in depositors {
        v.extend_from_slice(&address_word(*d));
    }
}

/// The arguments of a withdrawal besides the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WithdrawArgs {
    /// Era root the proof is against.
    pub root: U256,
    /// The note's nullifier hash.
    pub nullifier_hash: U256,
    /// Who receives `denomination − fee`.
    pub recipient: Address,
    /// Who receives `fee`.
    pub relayer: Address,
    /// Relayer fee in wei.
    pub fee: U256,
    /// Refund (must be 0 in an ether pool).
    pub refund: U256,
}

/// `withdraw(uint256[2],uint256[2][2],uint256[2],uint256,uint256,address,address,uint256,uint256)`.
pub fn withdraw_call(proof: &Groth16Calldata, a: &WithdrawArgs) -> Vec<u8> {
    let mut v = selector(
        "withdraw(uint256[2],uint256[2][2],uint256[2],uint256,uint256,address,address,uint256,uint256)",
    )
    .to_vec();
    proof_words(proof, &mut v);
    for w in [
        u256_word(a.root),
        u256_word(a.nullifier_hash),
        address_word(a.recipient),
        address_word(a.relayer),
        u256_word(a.fee),
        u256_word(a.refund),
    ] {
        v.extend_from_slice(&w);
    }
    v
}

/// `reclaim(uint64 batch, uint256[] commitments, address[] depositors, uint256 position)`.
pub fn reclaim_call(
    batch: u64,
    commitments: &[U256],
    depositors: &[Address],
    position: u64,
) -> Vec<u8> {
    let mut v = selector("reclaim(uint64,uint256[],address[],uint256)").to_vec();
    // Head: batch, two offsets, position = 4 words.
    let off_c = 4 * 32;
    let off_d = off_c + 32 * (1 + commitments.len());
    v.extend_from_slice(&u256_word(U256::from(batch)));
    v.extend_from_slice(&u256_word(U256::from(off_c)));
    v.extend_from_slice(&u256_word(U256::from(off_d)));
    v.extend_from_slice(&u256_word(U256::from(position)));
    batch_lists(&mut v, commitments, depositors);
    v
}

/// `claimEscrow()`.
pub fn claim_escrow_call() -> Vec<u8> {
    selector("claimEscrow()").to_vec()
}

/// Call data of a `view` getter with one word argument (or none).
pub fn getter_call(signature: &str, arg: Option<Word>) -> Vec<u8> {
    let mut v = selector(signature).to_vec();
    if let Some(a) = arg {
        v.extend_from_slice(&a);
    }
    v
}

/// The custom errors of `Pool.sol`.
pub const POOL_ERRORS: &[&str] = &[
    "Reentrancy",
    "WrongDenomination",
    "FieldElementTooLarge",
    "EmptyLeafCommitment",
    "NotSequencer",
    "BatchNotFull",
    "EraFull",
    "WrongBatchLength",
    "BatchMismatch",
    "BadMask",
    "InvalidProof",
    "UnknownRoot",
    "NullifierAlreadySpent",
    "FeeTooHigh",
    "RefundNotSupported",
    "ZeroRecipient",
    "NothingToClaim",
    "TransferFailed",
    "NotStalled",
    "BatchNotPending",
    "NotDepositor",
    "AlreadyReclaimed",
    "ReclaimedNotExcluded",
];

/// What a call did, in words: `ok`, the name of the contract's custom error,
/// or the raw revert/halt.
pub fn describe(status: &CallStatus) -> String {
    match status {
        CallStatus::Returned(_) => "ok".into(),
        CallStatus::Reverted(data) => match error_name(data, POOL_ERRORS) {
            Some(e) => e.into(),
            None => format!("revert 0x{}", hex::encode(data)),
        },
        CallStatus::Halted(h) => format!("halt {h}"),
    }
}

/// What a custom error of `Pool.sol` means for the one who sent the call.
pub fn meaning(error: &str) -> Option<&'static str> {
    Some(match error {
        "Reentrancy" => "a call re-entered the pool",
        "WrongDenomination" => "the value sent is not the pool's denomination",
        "FieldElementTooLarge" => "a value is not below the BN254 scalar field modulus",
        "EmptyLeafCommitment" => "the commitment is the tree's empty-leaf value",
        "NotSequencer" => "only the pool's sequencer may commit batches",
        "BatchNotFull" => "the open batch does not have 2^slot_depth deposits yet",
        "EraFull" => "the era tree has no free slot",
        "WrongBatchLength" => "the batch lists do not have one entry per deposit",
        "BatchMismatch" => "the batch lists are not the deposits the pool recorded",
        "BadMask" => "the exclusion mask does not match the batch",
        "InvalidProof" => "the proof does not verify for these public inputs",
        "UnknownRoot" => "the proof is against a root the pool never had",
        "NullifierAlreadySpent" => "this note was already withdrawn",
        "FeeTooHigh" => "the relayer fee exceeds the denomination",
        "RefundNotSupported" => "the pool takes no refund",
        "ZeroRecipient" => "the recipient is the zero address",
        "NothingToClaim" => "this account has no escrow to claim",
        "TransferFailed" => "sending ether to the recipient failed",
        "NotStalled" => "the pool made progress within its liveness timeout; reclaim only works when it is stalled",
        "BatchNotPending" => "the deposit's batch is committed (withdraw the note) or not open",
        "NotDepositor" => "only the account that deposited may reclaim it",
        "AlreadyReclaimed" => "this deposit was already reclaimed",
        "ReclaimedNotExcluded" => "the batch would include a reclaimed deposit",
        _ => return None,
    })
}

/// [`describe`] with the error's [`meaning`]: `NotStalled (the pool made
/// progress …)`.
pub fn explain(status: &CallStatus) -> String {
    explain_error(&describe(status))
}

/// An error name with its [`meaning`], when it has one.
pub fn explain_error(name: &str) -> String {
    match meaning(name) {
        Some(m) => format!("{name} ({m})"),
        None => name.to_string(),
    }
}

/// The custom error among `errors` (names of errors without arguments)
/// whose selector starts the revert data `data`.
pub(crate) fn error_name(data: &[u8], errors: &[&'static str]) -> Option<&'static str> {
    let sel = data.get(..4)?;
    errors
        .iter()
        .find(|e| selector(&format!("{e}()")) == sel)
        .copied()
}

/// One decoded `Deposit(uint256 indexed commitment, address indexed depositor, uint256 batch, uint256 position)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepositEvent {
    /// The note commitment.
    pub commitment: U256,
    /// Who deposited.
    pub depositor: Address,
    /// Batch index.
    pub batch: u64,
    /// Position in the batch.
    pub position: u64,
}

/// The `Deposit` events of `pool` among `logs`.
pub fn deposit_events(pool: Address, logs: &[Log]) -> Vec<DepositEvent> {
    two_topic_events(pool, logs, b"Deposit(uint256,address,uint256,uint256)")
        .filter_map(|(t, d)| {
            Some(DepositEvent {
                commitment: U256::from_be_bytes(t[1]),
                depositor: Address::from_slice(&t[2][12..]),
                batch: U256::from_be_slice(&d[..32]).try_into().ok()?,
                position: U256::from_be_slice(&d[32..]).try_into().ok()?,
            })
        })
        .collect()
}

/// The events `signature` of `pool` among `logs` with two indexed words
/// and two data words: `(topics, data)` of each (`topics[0]` the
/// signature's hash).
fn two_topic_events<'a>(
    pool: Address,
    logs: &'a [Log],
    signature: &[u8],
) -> impl Iterator<Item = ([[u8; 32]; 3], &'a [u8])> + 'a {
    let topic = keccak(signature);
    logs.iter()
        .filter(move |l| l.address == pool)
        .filter(move |l| l.data.topics().first().map(|t| t.0) == Some(topic))
        .filter_map(|l| {
            let t = l.data.topics();
            let d = &l.data.data[..];
            if t.len() != 3 || d.len() != 64 {
                return None;
            }
            Some(([t[0].0, t[1].0, t[2].0], d))
        })
}

/// The `(slot, position, depositor)` of the `Excluded` events of `pool` among `logs`.
pub fn excluded_events(pool: Address, logs: &[Log]) -> Vec<(u64, u64, Address)> {
    indexed_position_events(pool, logs, b"Excluded(uint256,uint256,address,uint256)")
}

/// `(batch, position, depositor)` of the events `signature` of `pool`: `event
/// E(uint256 indexed batch, uint256 position, address indexed depositor, uint256 commitment)`.
fn indexed_position_events(
    pool: Address,
    logs: &[Log],
    signature: &[u8],
) -> Vec<(u64, u64, Address)> {
    two_topic_events(pool, logs, signature)
        .filter_map(|(t, d)| {
            Some((
                U256::from_be_bytes(t[1]).try_into().ok()?,
                U256::from_be_slice(&d[..32]).try_into().ok()?,
                Address::from_slice(&t[2][12..]),
            ))
        })
        .collect()
}

/// The `(batch, position, depositor)` of the `Reclaimed` events of `pool` among `logs`.
pub fn reclaimed_events(pool: Address, logs: &[Log]) -> Vec<(u64, u64, Address)> {
    indexed_position_events(pool, logs, b"Reclaimed(uint256,uint256,address,uint256)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_error_has_a_meaning() {
        for e in POOL_ERRORS {
            assert!(meaning(e).is_some(), "{e}");
        }
        let data = selector("NotStalled()").to_vec();
        let text = explain(&CallStatus::Reverted(data));
        assert!(
            text.starts_with("NotStalled (the pool made progress"),
            "{text}"
        );
        assert_eq!(explain(&CallStatus::Returned(vec![])), "ok");
    }
}
