//! The sequencer: watches deposits, applies the blocklist, and commits a
//! batch (one slot of the era tree, with its proof) whenever
//! `2^slot_depth` deposits are pending. Deposits their depositors reclaimed
//! (`Reclaimed` events, after the pool's liveness timeout) are excluded with
//! no escrow credit: they were already paid back.

use std::collections::{HashSet, VecDeque};
use std::path::Path;

use rand::RngCore;
use zkbench_evm::{Address, Log, U256};
use zkbench_hash::Fr;
use zkbench_merkle::EraSlotTree;
use zkbench_statement::pool::pool_empty_leaf;

use crate::abi::{self, DepositEvent};
use crate::chain::{PoolChain, TxResult};
use crate::contracts::PoolProvers;
use crate::PoolError;

/// Reads a blocklist file: one `0x`-hex address per line; blank lines and
/// `#` comments are ignored.
pub fn read_blocklist(path: &Path) -> Result<HashSet<Address>, PoolError> {
    let text = std::fs::read_to_string(path).map_err(|e| PoolError::io(path, e))?;
    parse_blocklist(&text)
        .map_err(|(line, why)| PoolError::Config(format!("{}:{line}: {why}", path.display())))
}

/// Parses a blocklist (see [`read_blocklist`]); errors carry the line number.
pub fn parse_blocklist(text: &str) -> Result<HashSet<Address>, (usize, String)> {
    let mut out = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.split('#').next().unwrap_or("").trim();
        if l.is_empty() {
            continue;
        }
        let hex_part = l
            .strip_prefix("0x")
            .ok_or((i + 1, format!("{l:?} is not a 0x-hex address")))?;
        let b = hex::decode(hex_part).map_err(|_| (i + 1, format!("{l:?} is not hex")))?;
        if b.len() != 20 {
            return Err((i + 1, format!("{l:?} does not have 20 bytes")));
        }
        out.insert(Address::from_slice(&b));
    }
    Ok(out)
}

/// A batch as the sequencer commits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchPlan {
    /// The deposited commitments, in deposit order.
    pub commitments: Vec<U256>,
    /// Their depositors.
    pub depositors: Vec<Address>,
    /// The slot's leaves: the commitment, or the empty leaf when excluded.
    pub leaves: Vec<Fr>,
    /// Bit `i` set: deposit `i` is excluded (blocklisted or reclaimed).
    pub mask: U256,
    /// Positions of blocklisted deposits (excluded; their escrow is credited).
    pub excluded: Vec<usize>,
    /// Positions of reclaimed deposits (excluded; already paid back, no escrow).
    pub reclaimed: Vec<usize>,
}

/// What one commit did.
#[derive(Clone, Debug)]
pub struct CommitReport {
    /// The slot committed.
    pub slot: u64,
    /// The transaction.
    pub receipt: TxResult,
    /// Blocklisted (excluded, escrowed) `(position, depositor)`.
    pub excluded: Vec<(usize, Address)>,
    /// Reclaimed (excluded, already paid back) positions.
    pub reclaimed: Vec<usize>,
    /// Wall time of the batch proof, seconds.
    pub prove_s: f64,
}

/// The sequencer's state.
pub struct Sequencer {
    /// Its account (the pool's `sequencer`).
    pub address: Address,
    pool: Address,
    tree: EraSlotTree,
    pending: VecDeque<DepositEvent>,
    blocklist: HashSet<Address>,
    reclaimed: HashSet<(u64, u64)>,
}

impl Sequencer {
    /// A sequencer for `pool` with an empty era and `blocklist`.
    pub fn new(
        address: Address,
        pool: Address,
        provers: &PoolProvers,
        blocklist: HashSet<Address>,
    ) -> Result<Self, PoolError> {
        Ok(Self {
            address,
            pool,
            tree: provers.empty_tree()?,
            pending: VecDeque::new(),
            blocklist,
            reclaimed: HashSet::new(),
        })
    }

    /// A sequencer that takes over `pool` from its history: `logs` are every
    /// log the pool emitted, in order, and `committed` its slot counter
    /// (`nextSlot()`). The committed slots are rebuilt from the `Deposit` and
    /// `Excluded` events (public data; a wallet rebuilds the tree the same
    /// way), the deposits of later batches are pending.
    pub fn from_history(
        address: Address,
        pool: Address,
        provers: &PoolProvers,
        blocklist: HashSet<Address>,
        logs: &[Log],
        committed: u64,
    ) -> Result<Self, PoolError> {
        let b = provers.shape.batch_size();
        let mut s = Self::new(address, pool, provers, blocklist)?;
        let deposits = abi::deposit_events(pool, logs);
        let excluded = abi::excluded_events(pool, logs);
        for slot in 0..committed {
            let batch: Vec<&DepositEvent> = deposits.iter().filter(|d| d.batch == slot).collect();
            if batch.len() != b {
                return Err(PoolError::Config(format!(
                    "pool {pool:#x}: committed slot {slot} has {} deposit events, not {b} (logs incomplete?)",
                    batch.len()
                )));
            }
            let mut leaves = vec![pool_empty_leaf(); b];
            for d in batch {
                let pos = d.position as usize;
                if pos >= b {
                    return Err(PoolError::Config(format!(
                        "pool {pool:#x}: deposit at position {pos} of a batch of {b}"
                    )));
                }
                if !excluded
                    .iter()
                    .any(|&(sl, p, _)| sl == slot && p == d.position)
                {
                    leaves[pos] = abi::word_fr(&d.commitment.to_be_bytes::<32>());
                }
            }
            s.tree.commit_slot(&leaves)?;
        }
        s.pending
            .extend(deposits.into_iter().filter(|d| d.batch >= committed));
        s.reclaimed.extend(
            abi::reclaimed_events(pool, logs)
                .into_iter()
                .filter(|&(batch, _, _)| batch >= committed)
                .map(|(batch, pos, _)| (batch, pos)),
        );
        Ok(s)
    }

    /// The era/slot tree as committed so far (public data: anyone can rebuild
    /// it from the `Deposit`, `Excluded` and `Commit` events).
    pub fn tree(&self) -> &EraSlotTree {
        &self.tree
    }

    /// Takes the pool's `Deposit` and `Reclaimed` events from `logs`; returns
    /// how many deposits.
    pub fn observe(&mut self, logs: &[Log]) -> usize {
        let ev = abi::deposit_events(self.pool, logs);
        let n = ev.len();
        self.pending.extend(ev);
        self.reclaimed.extend(
            abi::reclaimed_events(self.pool, logs)
                .into_iter()
                .map(|(batch, pos, _)| (batch, pos)),
        );
        n
    }

    /// The pending deposits, oldest first.
    pub fn pending_deposits(&self) -> impl Iterator<Item = &DepositEvent> {
        self.pending.iter()
    }

    /// Deposits seen but not committed.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// The next batch of `batch_size` pending deposits, if there are that many.
    pub fn plan(&self, batch_size: usize) -> Option<BatchPlan> {
        if self.pending.len() < batch_size {
            return None;
        }
        let mut p = BatchPlan {
            commitments: Vec::with_capacity(batch_size),
            depositors: Vec::with_capacity(batch_size),
            leaves: Vec::with_capacity(batch_size),
            mask: U256::ZERO,
            excluded: Vec::new(),
            reclaimed: Vec::new(),
        };
        for (i, d) in self.pending.iter().take(batch_size).enumerate() {
            p.commitments.push(d.commitment);
            p.depositors.push(d.depositor);
            if self.reclaimed.contains(&(d.batch, d.position)) {
                p.leaves.push(pool_empty_leaf());
                p.mask |= U256::from(1u8) << i;
                p.reclaimed.push(i);
            } else if self.blocklist.contains(&d.depositor) {
                p.leaves.push(pool_empty_leaf());
                p.mask |= U256::from(1u8) << i;
                p.excluded.push(i);
            } else {
                p.leaves
                    .push(abi::word_fr(&d.commitment.to_be_bytes::<32>()));
            }
        }
        Some(p)
    }

    /// Proves and commits the next batch (none if fewer than `2^slot_depth`
    /// deposits are pending). On success the tree and the queue advance; a
    /// rejected commit is an error and changes nothing.
    pub fn commit_next<R: RngCore>(
        &mut self,
        chain: &mut dyn PoolChain,
        provers: &PoolProvers,
        rng: &mut R,
    ) -> Result<Option<CommitReport>, PoolError> {
        let b = provers.shape.batch_size();
        let Some(plan) = self.plan(b) else {
            return Ok(None);
        };
        let t = std::time::Instant::now();
        let (proof, new_root, next) = provers.prove_batch(&self.tree, &plan.leaves, rng)?;
        let prove_s = t.elapsed().as_secs_f64();
        let data = abi::commit_call(
            &proof,
            &new_root,
            &plan.commitments,
            &plan.depositors,
            plan.mask,
        );
        let receipt = chain.send(self.address, self.pool, &data, U256::ZERO)?;
        if !matches!(receipt.status, zkbench_evm::CallStatus::Returned(_)) {
            return Err(PoolError::Transaction {
                what: "commit".into(),
                reason: abi::describe(&receipt.status),
            });
        }
        let slot = self.tree.slots_committed();
        self.tree = next;
        self.pending.drain(..b);
        self.reclaimed.retain(|&(batch, _)| batch > slot);
        Ok(Some(CommitReport {
            slot,
            receipt,
            excluded: plan
                .excluded
                .iter()
                .map(|&i| (i, plan.depositors[i]))
                .collect(),
            reclaimed: plan.reclaimed,
            prove_s,
        }))
    }
}

/// Takes over the pool at `pool` on `chain` as sequencer `address`: reads
/// its state and history, rebuilds the era tree from the events and checks
/// it against the pool's `currentRoot()` (a mismatch means other provers:
/// another `--hash`).
pub fn resume(
    chain: &mut dyn PoolChain,
    pool: Address,
    address: Address,
    provers: &PoolProvers,
    blocklist: HashSet<Address>,
) -> Result<Sequencer, PoolError> {
    let info = crate::contracts::pool_info(chain, pool)?;
    if info.shape != provers.shape {
        return Err(PoolError::Config(format!(
            "pool {pool:#x} has slot depth {} / era depth {}, the provers {} / {}",
            info.shape.slot_depth,
            info.shape.era_depth,
            provers.shape.slot_depth,
            provers.shape.era_depth
        )));
    }
    let logs = chain.logs(pool)?;
    let s = Sequencer::from_history(address, pool, provers, blocklist, &logs, info.committed)?;
    if abi::fr_u256(&s.tree.root()) != info.root {
        return Err(PoolError::Config(format!(
            "the era tree rebuilt from pool {pool:#x}'s events does not have its root: another hash family (--hash {})?",
            provers.family.name()
        )));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocklist_parsing() {
        let ok =
            parse_blocklist("# list\n0x1111111111111111111111111111111111111111 # bad actor\n\n")
                .unwrap();
        assert!(ok.contains(&Address::from([0x11; 20])));
        assert_eq!(parse_blocklist("0x11\n").unwrap_err().0, 1);
        assert_eq!(
            parse_blocklist("\n1111111111111111111111111111111111111111")
                .unwrap_err()
                .0,
            2
        );
    }
}
