//! Notes and the wallet side of the protocol.
//!
//! A note is the secret a depositor needs to withdraw. Its text form carries
//! the network, the denomination and the pool, like Tornado Cash's
//! `tornado-eth-0.1-1-0x…`:
//!
//! ```text
//! zkbench-<network>-<denomination in wei>-<pool address>-0x<nullifier: 64 hex><secret: 64 hex>
//! ```
//!
//! [`Note::save`] writes the note to its own file and syncs it **before** the
//! deposit transaction is sent ([`deposit`]), so a crash after sending never
//! loses the secret.

use std::{
    fmt,
    io::Write,
    path::{Path, PathBuf},
    str::FromStr,
};

use ark_ff::UniformRand;
use rand::Rng;
use zkbench_evm::{Address, U256};
use zkbench_hash::Fr;
use zkbench_statement::{domain_nullifier, note_commitment, nullifier_hash, NativeHashes};

use crate::abi::{self, fr_word, word_fr};
use crate::chain::{PoolChain, TxResult};
use crate::PoolError;

/// A deposit note.
#[derive(Clone, PartialEq, Eq)]
pub struct Note {
    /// Network name (`revm` for the embedded EVM, or a chain's name).
    pub network: String,
    /// The pool's denomination in wei.
    pub denomination: U256,
    /// The pool's address.
    pub pool: Address,
    /// Nullifier `n`.
    pub nullifier: Fr,
    /// Secret `s`.
    pub secret: Fr,
}

impl fmt::Debug for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the secret parts.
        f.debug_struct("Note")
            .field("network", &self.network)
            .field("denomination", &self.denomination)
            .field("pool", &self.pool)
            .finish_non_exhaustive()
    }
}

impl Note {
    /// A fresh note with random nullifier and secret.
    pub fn random<R: Rng>(rng: &mut R, network: &str, denomination: U256, pool: Address) -> Self {
        let nullifier = Fr::rand(rng);
        let mut secret = Fr::rand(rng);
        while secret == domain_nullifier() {
            secret = Fr::rand(rng);
        }
        Self {
            network: network.to_string(),
            denomination,
            pool,
            nullifier,
            secret,
        }
    }

    /// The commitment `H_2(n, s)` that is deposited.
    pub fn commitment(&self, hashes: &NativeHashes) -> Fr {
        note_commitment(hashes, self.nullifier, self.secret)
    }

    /// The nullifier hash revealed at withdrawal.
    pub fn nullifier_hash(&self, hashes: &NativeHashes) -> Fr {
        nullifier_hash(hashes, self.nullifier)
    }

    /// Writes the note to a new file in `dir` (created if needed), named
    /// after its commitment's first bytes, and syncs it to disk.
    pub fn save(&self, dir: &Path, hashes: &NativeHashes) -> Result<PathBuf, PoolError> {
        std::fs::create_dir_all(dir).map_err(|e| PoolError::io(dir, e))?;
        let c = hex::encode(fr_word(&self.commitment(hashes)));
        let path = dir.join(format!("note-{}.txt", &c[..16]));
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| PoolError::io(&path, e))?;
        writeln!(f, "{self}").map_err(|e| PoolError::io(&path, e))?;
        f.sync_all().map_err(|e| PoolError::io(&path, e))?;
        Ok(path)
    }

    /// Reads a note file written by [`Note::save`].
    pub fn load(path: &Path) -> Result<Self, PoolError> {
        let text = std::fs::read_to_string(path).map_err(|e| PoolError::io(path, e))?;
        text.trim().parse()
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "zkbench-{}-{}-0x{}-0x{}{}",
            self.network,
            self.denomination,
            hex::encode(self.pool.as_slice()),
            hex::encode(fr_word(&self.nullifier)),
            hex::encode(fr_word(&self.secret))
        )
    }
}

impl FromStr for Note {
    type Err = PoolError;

    fn from_str(s: &str) -> Result<Self, PoolError> {
        let bad = |why: &str| {
            PoolError::Note(format!(
                "{why}; expected zkbench-<network>-<wei>-0x<pool>-0x<128 hex digits>"
            ))
        };
        let parts: Vec<&str> = s.trim().split('-').collect();
        if parts.len() != 5 || parts[0] != "zkbench" {
            return Err(bad("not five '-'-separated parts starting with zkbench"));
        }
        let network = parts[1];
        if network.is_empty() || !network.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(bad("the network must be alphanumeric"));
        }
        let denomination =
            U256::from_str_radix(parts[2], 10).map_err(|_| bad("bad denomination"))?;
        let pool_hex = parts[3]
            .strip_prefix("0x")
            .ok_or_else(|| bad("pool without 0x"))?;
        let pool_bytes = hex::decode(pool_hex).map_err(|_| bad("pool is not hex"))?;
        if pool_bytes.len() != 20 {
            return Err(bad("the pool address must have 20 bytes"));
        }
        let secret_hex = parts[4]
            .strip_prefix("0x")
            .ok_or_else(|| bad("secret without 0x"))?;
        let bytes = hex::decode(secret_hex).map_err(|_| bad("secret part is not hex"))?;
        if bytes.len() != 64 {
            return Err(bad("the secret part must have 64 bytes"));
        }
        let mut n = [0u8; 32];
        let mut sec = [0u8; 32];
        n.copy_from_slice(&bytes[..32]);
        sec.copy_from_slice(&bytes[32..]);
        let (nullifier, secret) = (word_fr(&n), word_fr(&sec));
        if fr_word(&nullifier) != n || fr_word(&secret) != sec {
            return Err(bad("nullifier and secret must be below the field modulus"));
        }
        Ok(Self {
            network: network.to_string(),
            denomination,
            pool: Address::from_slice(&pool_bytes),
            nullifier,
            secret,
        })
    }
}

/// Saves `note` in `dir`, then sends the deposit from `from` (the note file
/// exists before the transaction is sent). Returns the note file and the receipt.
pub fn deposit(
    chain: &mut dyn PoolChain,
    from: Address,
    note: &Note,
    dir: &Path,
    hashes: &NativeHashes,
) -> Result<(PathBuf, TxResult), PoolError> {
    let path = note.save(dir, hashes)?;
    let data = abi::deposit_call(abi::fr_u256(&note.commitment(hashes)));
    let r = chain.send(from, note.pool, &data, note.denomination)?;
    Ok((path, r))
}

/// Everything about a withdrawal of `note` that needs neither keys nor a
/// proof, checked against the pool's state and history: the note is for
/// this chain and this pool's denomination, the pool has a deposit with its
/// commitment (a note with a changed digit has another commitment), that
/// deposit is committed and not excluded, and its nullifier is not spent
/// ([`PoolError::Refused`] with `NullifierAlreadySpent`). Returns the pool's
/// parameters.
pub fn check_withdrawable(
    chain: &mut dyn PoolChain,
    note: &Note,
    hashes: &NativeHashes,
) -> Result<crate::contracts::PoolInfo, PoolError> {
    if note.network != chain.network() {
        return Err(PoolError::Note(format!(
            "the note is for network {:?}, this chain is {:?}",
            note.network,
            chain.network()
        )));
    }
    let info = crate::contracts::pool_info(chain, note.pool)?;
    if info.denomination != note.denomination {
        return Err(PoolError::Note(format!(
            "the note says {} wei, pool {:#x} takes {} wei",
            note.denomination, note.pool, info.denomination
        )));
    }
    let logs = chain.logs(note.pool)?;
    let c = abi::fr_u256(&note.commitment(hashes));
    let d = abi::deposit_events(note.pool, &logs)
        .into_iter()
        .find(|d| d.commitment == c)
        .ok_or_else(|| {
            PoolError::Note(format!(
                "pool {:#x} has no deposit with this note's commitment (another pool's note, \
                 another --hash, or a changed digit)",
                note.pool
            ))
        })?;
    if d.batch >= info.committed {
        return Err(PoolError::Note(format!(
            "the deposit is in batch {}, which the sequencer has not committed yet ({} committed): \
             withdraw after its commit",
            d.batch, info.committed
        )));
    }
    if abi::excluded_events(note.pool, &logs)
        .iter()
        .any(|&(slot, pos, _)| (slot, pos) == (d.batch, d.position))
    {
        return Err(PoolError::Note(
            "the deposit was excluded from its batch (blocklisted or reclaimed): its depositor \
             takes it back with `zkbench pool claim-escrow` (or has reclaimed it)"
                .into(),
        ));
    }
    let nh = fr_word(&note.nullifier_hash(hashes));
    if !crate::contracts::read(chain, note.pool, "nullifierSpent(uint256)", Some(nh))?.is_zero() {
        return Err(PoolError::Refused {
            what: "withdraw".into(),
            reason: abi::explain_error("NullifierAlreadySpent"),
        });
    }
    Ok(info)
}

/// Withdraws `note` from its pool on `chain`: checks it
/// ([`check_withdrawable`]), rebuilds the era tree from the pool's events,
/// proves the spend to `recipient` with `fee` for `relayer`, and sends it
/// from `from`. A revert is an error naming the contract's reason.
#[allow(clippy::too_many_arguments)]
pub fn withdraw<R: rand::RngCore>(
    chain: &mut dyn PoolChain,
    provers: &crate::contracts::PoolProvers,
    note: &Note,
    from: Address,
    recipient: Address,
    relayer: Address,
    fee: U256,
    rng: &mut R,
) -> Result<TxResult, PoolError> {
    check_withdrawable(chain, note, provers.hashes())?;
    let seq = crate::sequencer::resume(chain, note.pool, from, provers, Default::default())?;
    let (proof, args) = provers.prove_withdrawal(seq.tree(), note, recipient, relayer, fee, rng)?;
    let r = chain.send(
        from,
        note.pool,
        &abi::withdraw_call(&proof, &args),
        U256::ZERO,
    )?;
    if !matches!(r.status, zkbench_evm::CallStatus::Returned(_)) {
        return Err(PoolError::Transaction {
            what: "withdraw".into(),
            reason: abi::describe(&r.status),
        });
    }
    Ok(r)
}

/// Pays `note`'s deposit back to its depositor `from` when the pool is
/// stalled (no progress for its liveness timeout while deposits wait): finds
/// the note's `Deposit` event by `from` in the pool's history, sends
/// `reclaim` with its batch's deposit list. The note must not be committed
/// yet. A revert (`NotStalled`, `AlreadyReclaimed`, …) is an outcome in the
/// returned receipt, not an error.
pub fn reclaim(
    chain: &mut dyn PoolChain,
    from: Address,
    note: &Note,
    hashes: &NativeHashes,
) -> Result<TxResult, PoolError> {
    let logs = chain.logs(note.pool)?;
    let deposits = abi::deposit_events(note.pool, &logs);
    let c = abi::fr_u256(&note.commitment(hashes));
    let mine = deposits
        .iter()
        .rev()
        .find(|d| d.commitment == c && d.depositor == from)
        .ok_or_else(|| {
            PoolError::Note(format!(
                "pool {:#x} has no deposit of this note by {from:#x}",
                note.pool
            ))
        })?;
    let mut batch: Vec<_> = deposits.iter().filter(|d| d.batch == mine.batch).collect();
    batch.sort_by_key(|d| d.position);
    let commitments: Vec<U256> = batch.iter().map(|d| d.commitment).collect();
    let depositors: Vec<Address> = batch.iter().map(|d| d.depositor).collect();
    let data = abi::reclaim_call(mine.batch, &commitments, &depositors, mine.position);
    chain.send(from, note.pool, &data, U256::ZERO)
}

/// Pays `from`'s escrow in `pool` (the denominations of its deposits the
/// sequencer excluded: a blocklisted depositor's way back) to `from`;
/// returns the amount and the receipt. Refused before any transaction when
/// the escrow is empty ([`PoolError::Refused`], `NothingToClaim`).
pub fn claim_escrow(
    chain: &mut dyn PoolChain,
    pool: Address,
    from: Address,
) -> Result<(U256, TxResult), PoolError> {
    let amount = crate::contracts::read(
        chain,
        pool,
        "escrow(address)",
        Some(abi::address_word(from)),
    )?;
    if amount.is_zero() {
        return Err(PoolError::Refused {
            what: "claimEscrow".into(),
            reason: abi::explain_error("NothingToClaim"),
        });
    }
    let r = chain.send(from, pool, &abi::claim_escrow_call(), U256::ZERO)?;
    if !matches!(r.status, zkbench_evm::CallStatus::Returned(_)) {
        return Err(PoolError::Transaction {
            what: "claimEscrow".into(),
            reason: abi::explain(&r.status),
        });
    }
    Ok((amount, r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn note_round_trips_and_rejects_garbage() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let pool = Address::from([0x11; 20]);
        let n = Note::random(
            &mut rng,
            "revm",
            U256::from(100_000_000_000_000_000u64),
            pool,
        );
        let s = n.to_string();
        assert!(s.starts_with("zkbench-revm-100000000000000000-0x1111"));
        assert_eq!(s.parse::<Note>().unwrap(), n);
        assert!(!format!("{n:?}").contains(&hex::encode(fr_word(&n.secret))));
        for bad in [
            "",
            "tornado-eth-0.1-1-0x00",
            &s.replace("zkbench-revm", "zkbench-re vm"),
            &s[..s.len() - 2],
            &s.replace("-0x1111", "-0x11"),
        ] {
            assert!(bad.parse::<Note>().is_err(), "{bad}");
        }
        let over = format!("zkbench-revm-1-0x{}-0x{}", "11".repeat(20), "ff".repeat(64));
        assert!(over.parse::<Note>().is_err());
    }
}
