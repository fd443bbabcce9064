//! An in-process EVM (revm, Cancun rules) to deploy verifiers and measure their gas.
//!
//! Gas figures follow the definitions:
//! * **deploy**: the creation transaction's gas (21,000 + 32,000 + initcode
//!   calldata and words + constructor execution + 200 per deployed byte);
//! * **execution** (`gas_verify`): the call transaction's gas minus its
//!   intrinsic part (21,000 + EIP-2028 calldata), i.e. what the contract and
//!   the precompiles it calls burn;
//! * **transaction** (`gas_tx`): `21,000 + calldata + execution`, what a
//!   transaction that only verifies would pay.
//!
//! Cancun is used (not Prague) so that no EIP-7623 calldata floor changes the
//! transaction figure; precompile prices are the same in both.

use revm::{
    context::{result::ExecutionResult, result::Output, Context, ContextTr, TxEnv},
    database::InMemoryDB,
    handler::{MainBuilder, MainContext, MainnetContext, MainnetEvm},
    primitives::{hardfork::SpecId, Address, Bytes, Log, TxKind, U256},
    state::AccountInfo,
    DatabaseRef, ExecuteCommitEvm,
};

use crate::calldata::calldata_gas;
use crate::EvmError;

/// EIP-170: the largest runtime bytecode a contract may have.
pub const EIP170_LIMIT: usize = 24_576;
/// The base cost of every transaction.
pub const TX_BASE_GAS: u64 = 21_000;
/// Gas limit of each transaction the test chain runs.
pub const TX_GAS_LIMIT: u64 = 30_000_000;

const CALLER: Address = Address::new([0x5a; 20]);

/// A deployed contract.
#[derive(Clone, Debug)]
pub struct Deployed {
    /// Its address.
    pub address: Address,
    /// Gas of the creation transaction.
    pub gas_deploy: u64,
    /// Size of the runtime bytecode stored at the address.
    pub bytecode_bytes: usize,
}

/// The result of one call transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallOutcome {
    /// What the call did.
    pub status: CallStatus,
    /// Execution gas: transaction gas minus the intrinsic 21,000 + calldata.
    pub gas_exec: u64,
    /// EIP-2028 calldata gas of the transaction.
    pub gas_calldata: u64,
    /// `21,000 + calldata + execution`.
    pub gas_tx: u64,
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallStatus {
    /// Returned normally with this data.
    Returned(Vec<u8>),
    /// Reverted (`REVERT`), with its data.
    Reverted(Vec<u8>),
    /// Halted (out of gas, invalid opcode, ...).
    Halted(String),
}

impl CallOutcome {
    /// Whether the call returned exactly the ABI encoding of `true`.
    pub fn returned_true(&self) -> bool {
        match &self.status {
            CallStatus::Returned(d) => {
                d.len() == 32 && d[..31].iter().all(|&b| b == 0) && d[31] == 1
            }
            _ => false,
        }
    }
}

/// A transaction's outcome with the logs it emitted (empty unless it succeeded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    /// Status and gas.
    pub outcome: CallOutcome,
    /// The logs (events), in order.
    pub logs: Vec<Log>,
}

/// A fresh chain: one default sender for [`Chain::deploy`] and [`Chain::call`];
/// any number of funded accounts for [`Chain::send`].
pub struct Chain {
    evm: MainnetEvm<MainnetContext<InMemoryDB>>,
    nonce: u64,
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chain").field("nonce", &self.nonce).finish()
    }
}

impl Default for Chain {
    fn default() -> Self {
        Self::new()
    }
}

impl Chain {
    /// An empty chain under Cancun rules (gas price 0, so no balance is needed).
    pub fn new() -> Self {
        let evm = Context::mainnet()
            .modify_cfg_chained(|c| c.set_spec_and_mainnet_gas_params(SpecId::CANCUN))
            .with_db(InMemoryDB::default())
            .build_mainnet();
        Self { evm, nonce: 0 }
    }

    fn transact(&mut self, kind: TxKind, data: &[u8]) -> Result<ExecutionResult, EvmError> {
        let r = self.commit_tx(CALLER, kind, data, U256::ZERO, self.nonce)?;
        self.nonce += 1;
        Ok(r)
    }

    /// Executes and commits a transaction from `caller` with `nonce`.
    fn commit_tx(
        &mut self,
        caller: Address,
        kind: TxKind,
        data: &[u8],
        value: U256,
        nonce: u64,
    ) -> Result<ExecutionResult, EvmError> {
        let tx = TxEnv::builder()
            .caller(caller)
            .kind(kind)
            .data(Bytes::copy_from_slice(data))
            .value(value)
            .gas_limit(TX_GAS_LIMIT)
            .nonce(nonce)
            .build()
            .map_err(|e| EvmError::Evm(format!("{e:?}")))?;
        self.evm
            .transact_commit(tx)
            .map_err(|e| EvmError::Evm(e.to_string()))
    }

    /// Deploys `creation` code; fails if the creation reverts or halts
    /// (including the EIP-170 size limit).
    pub fn deploy(&mut self, creation: &[u8]) -> Result<Deployed, EvmError> {
        match self.transact(TxKind::Create, creation)? {
            ExecutionResult::Success {
                output: Output::Create(code, Some(address)),
                gas,
                ..
            } => Ok(Deployed {
                address,
                gas_deploy: gas.tx_gas_used(),
                bytecode_bytes: code.len(),
            }),
            other => Err(EvmError::Deploy(format!("{other:?}"))),
        }
    }

    /// The block timestamp transactions run with (seconds).
    pub fn timestamp(&self) -> u64 {
        self.evm.ctx.block.timestamp.saturating_to()
    }

    /// Moves the chain `seconds` forward: later transactions run in a new
    /// block (number + 1) whose timestamp is that much later.
    pub fn advance_time(&mut self, seconds: u64) {
        self.evm.ctx.modify_block(|b| {
            b.timestamp = b.timestamp.saturating_add(U256::from(seconds));
            b.number = b.number.saturating_add(U256::from(1u8));
        });
    }

    /// Sets the balance of `who` (creating the account).
    pub fn set_balance(&mut self, who: Address, wei: U256) -> Result<(), EvmError> {
        let db = self.evm.db_mut();
        let mut info = db
            .basic_ref(who)
            .map_err(|e| EvmError::Evm(e.to_string()))?
            .unwrap_or_default();
        info.balance = wei;
        db.insert_account_info(who, info);
        Ok(())
    }

    /// The balance of `who` (zero for an unknown account).
    pub fn balance(&self, who: Address) -> Result<U256, EvmError> {
        Ok(self
            .evm
            .db_ref()
            .basic_ref(who)
            .map_err(|e| EvmError::Evm(e.to_string()))?
            .map(|a: AccountInfo| a.balance)
            .unwrap_or_default())
    }

    /// Sends a transaction from `from` to `to` with `data` and `value` wei
    /// (gas price 0: only `value` moves ether), returning its status, gas and
    /// logs. A revert is an outcome, not an error.
    pub fn send(
        &mut self,
        from: Address,
        to: Address,
        data: &[u8],
        value: U256,
    ) -> Result<Receipt, EvmError> {
        let nonce = self
            .evm
            .db_ref()
            .basic_ref(from)
            .map_err(|e| EvmError::Evm(e.to_string()))?
            .map(|a| a.nonce)
            .unwrap_or(0);
        let r = self.commit_tx(from, TxKind::Call(to), data, value, nonce)?;
        let gas_calldata = calldata_gas(data);
        let used = r.gas().tx_gas_used();
        let gas_exec = used.saturating_sub(TX_BASE_GAS + gas_calldata);
        let (status, logs) = match r {
            ExecutionResult::Success { output, logs, .. } => {
                (CallStatus::Returned(output.data().to_vec()), logs)
            }
            ExecutionResult::Revert { output, .. } => {
                (CallStatus::Reverted(output.to_vec()), vec![])
            }
            ExecutionResult::Halt { reason, .. } => {
                (CallStatus::Halted(format!("{reason:?}")), vec![])
            }
        };
        Ok(Receipt {
            outcome: CallOutcome {
                status,
                gas_exec,
                gas_calldata,
                gas_tx: TX_BASE_GAS + gas_calldata + gas_exec,
            },
            logs,
        })
    }

    /// Sends a transaction with `data` to `to`.
    pub fn call(&mut self, to: Address, data: &[u8]) -> Result<CallOutcome, EvmError> {
        let r = self.transact(TxKind::Call(to), data)?;
        let gas_calldata = calldata_gas(data);
        let used = r.gas().tx_gas_used();
        let gas_exec = used.saturating_sub(TX_BASE_GAS + gas_calldata);
        let status = match r {
            ExecutionResult::Success { output, .. } => CallStatus::Returned(output.data().to_vec()),
            ExecutionResult::Revert { output, .. } => CallStatus::Reverted(output.to_vec()),
            ExecutionResult::Halt { reason, .. } => CallStatus::Halted(format!("{reason:?}")),
        };
        Ok(CallOutcome {
            status,
            gas_exec,
            gas_calldata,
            gas_tx: TX_BASE_GAS + gas_calldata + gas_exec,
        })
    }
}
