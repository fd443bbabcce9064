//! The pool's contracts on a chain: proving keys for both statements,
//! zkbench's generated verifiers, and `contracts/Pool.sol`.

use std::sync::Arc;

use rand::RngCore;
use zkbench_evm::{Address, CallStatus, Chain, Groth16Calldata, Solc, U256};
use zkbench_groth16::{pool::SlotInsert, Circuit, Keys};
use zkbench_hash::{Fr, HashFamily};
use zkbench_merkle::{EraSlotTree, MerklePath as TreePath};
use zkbench_statement::pool::{pool_empty_leaf, PoolShape, SlotInsertWitness};
use zkbench_statement::{MerklePath, NativeHashes, SpendWitness, Witness};

use crate::abi::{self, WithdrawArgs};
use crate::chain::PoolChain;
use crate::wallet::Note;
use crate::PoolError;

/// The keys in the file `path` ([`Keys::from_bytes`]), or `setup()`'s,
/// written there (through a temporary file and a rename, so that a reader
/// never sees half a file); whether they came from the file.
fn cached_keys(
    path: &std::path::Path,
    setup: impl FnOnce() -> Result<Keys, zkbench_groth16::Groth16Error>,
) -> Result<(Keys, bool), PoolError> {
    if let Ok(bytes) = std::fs::read(path) {
        if let Ok(keys) = Keys::from_bytes(&bytes) {
            return Ok((keys, true));
        }
    }
    let keys = setup()?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| PoolError::io(dir, e))?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, keys.to_bytes()).map_err(|e| PoolError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| PoolError::io(path, e))?;
    Ok((keys, false))
}

/// Source of the pool contract (`contracts/Pool.sol`).
pub const POOL_SOURCE: &str = include_str!("../../../contracts/Pool.sol");

/// Seed of the test setups of both circuits (the keys are test keys: their
/// toxic waste is derivable from it).
pub const TEST_SETUP_SEED: u64 = 0x5eed_0003;

/// The default liveness timeout: one day without progress (no commit while
/// deposits wait) and the depositors of uncommitted batches may reclaim.
pub const DEFAULT_LIVENESS_TIMEOUT_S: u64 = 86_400;

/// Both statements of the pool with their (test-setup) keys.
pub struct PoolProvers {
    /// Slot and era depths.
    pub shape: PoolShape,
    /// Hash family of the trees and notes.
    pub family: HashFamily,
    /// The note-spend circuit (withdrawals).
    pub spend: Circuit,
    /// Its keys.
    pub spend_keys: Keys,
    /// The slot-insert circuit (batches).
    pub batch: SlotInsert,
    /// Its keys.
    pub batch_keys: Keys,
}

impl PoolProvers {
    /// Circuits for `shape` and `family` with test-setup keys from `seed`.
    pub fn setup(shape: PoolShape, family: HashFamily, seed: u64) -> Result<Self, PoolError> {
        let (p, _) = Self::with_keys(shape, family, |spend, batch| {
            Ok((spend.setup(seed)?, batch.setup(seed ^ 0xba7c)?, false))
        })?;
        Ok(p)
    }

    /// Both circuits for `shape` and `family`, with the keys `keys` gives
    /// them (spend, batch, whether both came from a cache).
    fn with_keys(
        shape: PoolShape,
        family: HashFamily,
        keys: impl FnOnce(&Circuit, &SlotInsert) -> Result<(Keys, Keys, bool), PoolError>,
    ) -> Result<(Self, bool), PoolError> {
        let spend = Circuit::new(&shape.spend_config(family, None))?;
        let batch = SlotInsert::new(shape, family, None)?;
        let (spend_keys, batch_keys, cached) = keys(&spend, &batch)?;
        Ok((
            Self {
                shape,
                family,
                spend,
                spend_keys,
                batch,
                batch_keys,
            },
            cached,
        ))
    }

    /// [`PoolProvers::setup`] through the key cache `dir`: the keys of both
    /// circuits (with their prover tables, [`Keys::to_bytes`]) are read from
    /// files named after every parameter, or set up and written there (a
    /// wallet command after the first one loads them instead of running the
    /// setup again). A damaged file is set up again and rewritten. Returns
    /// the provers and whether both came from the cache.
    pub fn load_or_setup(
        shape: PoolShape,
        family: HashFamily,
        seed: u64,
        dir: &std::path::Path,
    ) -> Result<(Self, bool), PoolError> {
        let name = |what: &str| {
            dir.join(format!(
                "pool-{what}-{}-slot{}-era{}-seed{seed:x}-v{}-r{}.keys",
                family.name(),
                shape.slot_depth,
                shape.era_depth,
                env!("CARGO_PKG_VERSION"),
                zkbench_groth16::R1CS_LAYOUT
            ))
        };
        Self::with_keys(shape, family, |spend, batch| {
            let (s, a) = cached_keys(&name("spend"), || spend.setup(seed))?;
            let (b, c) = cached_keys(&name("batch"), || batch.setup(seed ^ 0xba7c))?;
            Ok((s, b, a && c))
        })
    }

    /// The native hashes (notes, nullifiers, tree nodes).
    pub fn hashes(&self) -> &NativeHashes {
        self.spend.backend().native()
    }

    /// An empty era/slot tree of this pool.
    pub fn empty_tree(&self) -> Result<EraSlotTree, PoolError> {
        Ok(EraSlotTree::new(
            Arc::clone(self.hashes().native_pair()),
            self.shape.slot_depth,
            self.shape.era_depth,
            pool_empty_leaf(),
        )?)
    }

    /// Proves that `leaves` become the next slot of `tree`; returns the proof
    /// as calldata, the new root and the tree with the slot appended.
    pub fn prove_batch<R: RngCore>(
        &self,
        tree: &EraSlotTree,
        leaves: &[Fr],
        rng: &mut R,
    ) -> Result<(Groth16Calldata, Fr, EraSlotTree), PoolError> {
        let mut next = tree.clone();
        let slot = next.commit_slot(leaves)?;
        let path = next.path(slot, 0)?;
        let w = SlotInsertWitness {
            leaves: leaves.to_vec(),
            slot_index: slot,
            era_siblings: path.era_path.siblings.iter().map(|s| s[0]).collect(),
        };
        let (proof, public) = self.batch.prove(&self.batch_keys, &w, rng)?;
        Ok((Groth16Calldata::new(&proof, &public), public.0[1], next))
    }

    /// Proves the spend of `note` (which must be a leaf of `tree`) to
    /// `recipient` with `fee` for `relayer`; returns the calldata of the
    /// proof and the withdrawal's other arguments.
    pub fn prove_withdrawal<R: RngCore>(
        &self,
        tree: &EraSlotTree,
        note: &Note,
        recipient: Address,
        relayer: Address,
        fee: U256,
        rng: &mut R,
    ) -> Result<(Groth16Calldata, WithdrawArgs), PoolError> {
        let hashes = self.hashes();
        let c = note.commitment(hashes);
        let (slot, pos) = find_leaf(tree, &c).ok_or_else(|| {
            PoolError::Note(
                "the note's commitment is not in the tree (not committed yet, or excluded)".into(),
            )
        })?;
        let flat: TreePath = tree.path(slot, pos)?.flatten()?;
        let path = MerklePath::from_merkle(&flat, self.spend.shape())?;
        let to = Payout {
            recipient,
            relayer,
            fee,
        };
        prove_spend((&self.spend, &self.spend_keys), note, path, to, rng)
    }
}

/// Who a withdrawal pays: `denomination − fee` to the recipient, `fee` to
/// the relayer (no refund).
pub(crate) struct Payout {
    /// Who receives `denomination − fee`.
    pub recipient: Address,
    /// Who receives `fee`.
    pub relayer: Address,
    /// Relayer fee in wei.
    pub fee: U256,
}

/// Proves with the note-spend circuit and its keys (`spend`) that `note`
/// sits at the end of `path`, bound to the withdrawal `to`; returns the
/// calldata of the proof and the withdrawal's other arguments (root and
/// nullifier hash from the proof's public inputs). The one spend proof of
/// the pool ([`PoolProvers::prove_withdrawal`]) and the Tornado baseline
/// ([`crate::tornado::TornadoProver::prove_withdrawal`]).
pub(crate) fn prove_spend<R: RngCore>(
    spend: (&Circuit, &Keys),
    note: &Note,
    path: MerklePath,
    to: Payout,
    rng: &mut R,
) -> Result<(Groth16Calldata, WithdrawArgs), PoolError> {
    let (circuit, keys) = spend;
    let refund = U256::ZERO;
    let w = Witness::Spend(SpendWitness {
        nullifier: note.nullifier,
        secret: note.secret,
        path,
        ext_data_hash: abi::ext_data_hash(to.recipient, to.relayer, to.fee, refund),
    });
    let (proof, public, _) = circuit.prove(keys, &w, rng)?;
    let args = WithdrawArgs {
        root: abi::fr_u256(&public.0[0]),
        nullifier_hash: abi::fr_u256(&public.0[1]),
        recipient: to.recipient,
        relayer: to.relayer,
        fee: to.fee,
        refund,
    };
    Ok((Groth16Calldata::new(&proof, &public), args))
}

/// `(slot, position)` of `leaf` in the committed slots of `tree`.
pub fn find_leaf(tree: &EraSlotTree, leaf: &Fr) -> Option<(u64, u64)> {
    (0..tree.slots_committed()).find_map(|s| {
        tree.slot_leaves(s)
            .ok()?
            .iter()
            .position(|l| l == leaf)
            .map(|p| (s, p as u64))
    })
}

/// Addresses and deploy gas of a deployed pool.
#[derive(Clone, Debug)]
pub struct PoolDeployment {
    /// The pool contract.
    pub pool: Address,
    /// The note-spend verifier.
    pub withdraw_verifier: Address,
    /// The slot-insert verifier.
    pub batch_verifier: Address,
    /// Denomination in wei.
    pub denomination: U256,
    /// The sequencer's account.
    pub sequencer: Address,
    /// Gas of the three creation transactions (withdraw verifier, batch verifier, pool).
    pub gas_deploy: [u64; 3],
}

/// Compiles and deploys both verifiers and the pool on `chain` (from its
/// deployer); depositors may reclaim after `liveness_timeout_s` seconds
/// without progress ([`DEFAULT_LIVENESS_TIMEOUT_S`] is the usual choice).
pub fn deploy(
    chain: &mut dyn PoolChain,
    solc: &Solc,
    provers: &PoolProvers,
    denomination: U256,
    sequencer: Address,
    liveness_timeout_s: u64,
) -> Result<PoolDeployment, PoolError> {
    let wv_src = zkbench_evm::solidity_verifier(provers.spend_keys.vk())?;
    let bv_src = zkbench_evm::solidity_verifier(provers.batch_keys.vk())?;
    let wv = solc.compile(&wv_src, zkbench_evm::GROTH16_CONTRACT)?;
    let bv = solc.compile(&bv_src, zkbench_evm::GROTH16_CONTRACT)?;
    let pool = solc.compile(POOL_SOURCE, "Pool")?;
    let wd = chain.deploy(&wv.creation)?;
    let bd = chain.deploy(&bv.creation)?;
    let ((wd_address, wd_gas), (bd_address, bd_gas)) = (wd, bd);
    let tree = provers.empty_tree()?;
    let mut creation = pool.creation.clone();
    creation.extend(abi::constructor_args(
        wd_address,
        bd_address,
        zkbench_evm::calldata::selector(provers.shape.slot_insert_inputs()),
        denomination,
        provers.shape.batch_size(),
        provers.shape.slots(),
        &pool_empty_leaf(),
        &tree.root(),
        sequencer,
        liveness_timeout_s,
    ));
    let (pool_address, pool_gas) = chain.deploy(&creation)?;
    Ok(PoolDeployment {
        pool: pool_address,
        withdraw_verifier: wd_address,
        batch_verifier: bd_address,
        denomination,
        sequencer,
        gas_deploy: [wd_gas, bd_gas, pool_gas],
    })
}

/// Reads a `uint256` getter of a contract on the embedded EVM (`name()` or
/// `name(uint256|address)`).
pub fn read_word(
    chain: &mut Chain,
    pool: Address,
    signature: &str,
    arg: Option<[u8; 32]>,
) -> Result<U256, PoolError> {
    let out = chain.call(pool, &abi::getter_call(signature, arg))?;
    word_of(pool, signature, out.status)
}

/// Reads a `uint256` getter of a contract on any chain (see [`read_word`]).
pub fn read(
    chain: &mut dyn PoolChain,
    pool: Address,
    signature: &str,
    arg: Option<[u8; 32]>,
) -> Result<U256, PoolError> {
    let status = chain.view(pool, &abi::getter_call(signature, arg))?;
    word_of(pool, signature, status)
}

/// The word a getter returned. A call to an address without code succeeds
/// with no data (the EVM runs nothing): that is an address with no contract,
/// said as such rather than as a malformed answer.
fn word_of(pool: Address, signature: &str, status: CallStatus) -> Result<U256, PoolError> {
    match status {
        CallStatus::Returned(d) if d.len() == 32 => Ok(U256::from_be_slice(&d)),
        CallStatus::Returned(d) if d.is_empty() => Err(PoolError::Config(format!(
            "no contract at {pool} (its {signature} answered nothing): give --pool the address \
             `zkbench pool deploy` printed, on the same node as --rpc"
        ))),
        s => Err(PoolError::Transaction {
            what: signature.to_string(),
            reason: abi::describe(&s),
        }),
    }
}

/// What a deployed pool says about itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolInfo {
    /// Slot and era depths (from `batchSize()` and `eraCapacity()`).
    pub shape: PoolShape,
    /// `denomination()` in wei.
    pub denomination: U256,
    /// `sequencer()`.
    pub sequencer: Address,
    /// `nextSlot()`: slots committed.
    pub committed: u64,
    /// `currentRoot()`.
    pub root: U256,
    /// `livenessTimeout()` in seconds.
    pub liveness_timeout_s: u64,
}

fn log2_exact(x: U256, what: &str) -> Result<u32, PoolError> {
    let v: u64 = x
        .try_into()
        .map_err(|_| PoolError::Config(format!("{what} = {x} is not a pool's")))?;
    if !v.is_power_of_two() {
        return Err(PoolError::Config(format!(
            "{what} = {v} is not a power of two: not a zkbench pool?"
        )));
    }
    Ok(v.trailing_zeros())
}

/// Reads the pool at `pool`: its shape, denomination, sequencer and progress.
pub fn pool_info(chain: &mut dyn PoolChain, pool: Address) -> Result<PoolInfo, PoolError> {
    let slot = log2_exact(read(chain, pool, "batchSize()", None)?, "batchSize()")?;
    let era = log2_exact(read(chain, pool, "eraCapacity()", None)?, "eraCapacity()")?;
    let seq = read(chain, pool, "sequencer()", None)?.to_be_bytes::<32>();
    let committed = read(chain, pool, "nextSlot()", None)?
        .try_into()
        .map_err(|_| PoolError::Config("nextSlot() above 2^64".into()))?;
    Ok(PoolInfo {
        shape: PoolShape::new(slot, era)?,
        denomination: read(chain, pool, "denomination()", None)?,
        sequencer: Address::from_slice(&seq[12..]),
        committed,
        root: read(chain, pool, "currentRoot()", None)?,
        liveness_timeout_s: read(chain, pool, "livenessTimeout()", None)?
            .try_into()
            .map_err(|_| PoolError::Config("livenessTimeout() above 2^64".into()))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::{tagged_account, Embedded};

    #[test]
    fn an_address_without_a_contract_is_named_as_such() {
        let mut chain = Embedded::new();
        let nobody = tagged_account(7, 1);
        let e = pool_info(&mut chain, nobody).unwrap_err().to_string();
        assert!(e.contains("no contract at"), "{e}");
        assert!(e.contains("--pool"), "{e}");
    }
}
