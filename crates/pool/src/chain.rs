//! Where the pool runs: the embedded EVM ([`Embedded`], revm) or any
//! JSON-RPC node ([`RpcChain`], through alloy), behind one trait,
//! [`PoolChain`], so that deploy, deposit, commit, withdraw, event reading,
//! balances and gas (from receipts) are the same code on both.
//!
//! On a node, every transaction is signed locally with a key this process
//! holds: Hardhat's well-known **test keys** (public, from its default
//! mnemonic; they protect nothing) unless `ZKBENCH_POOL_KEYS` gives others
//! (comma-separated hex private keys). Keys are never printed.

use std::collections::HashMap;
use std::future::IntoFuture;
use std::time::{Duration, Instant};

use alloy_network::eip2718::Encodable2718;
use alloy_network::{Ethereum, EthereumWallet, NetworkTransactionBuilder, TransactionBuilder};
use alloy_provider::{Provider, RootProvider};
use alloy_rpc_types_eth::{Filter, TransactionReceipt, TransactionRequest};
use alloy_signer_local::PrivateKeySigner;
use zkbench_evm::{Address, CallStatus, Chain, Log, U256};

use crate::abi;
use crate::PoolError;

/// One transaction's outcome, as either chain reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxResult {
    /// What it did (a revert carries the contract's error data).
    pub status: CallStatus,
    /// Transaction gas (`gasUsed` of the receipt; on revm `21,000 + calldata + execution`).
    pub gas_tx: u64,
    /// Its logs (empty unless it succeeded).
    pub logs: Vec<Log>,
    /// Its hash (`None` on the embedded EVM, which does not sign transactions).
    pub tx_hash: Option<String>,
    /// What the sender paid for gas in wei (`gasUsed · effectiveGasPrice`; 0 on revm).
    pub fee_wei: U256,
}

/// A chain the pool can run on.
pub trait PoolChain {
    /// The network name written into notes (alphanumeric): `revm`, or
    /// `chain<id>` on a node.
    fn network(&self) -> String;
    /// A description for reports.
    fn describe(&self) -> String;
    /// The account that deploys contracts (and, by default, sequences).
    fn deployer(&self) -> Address;
    /// Deploys `creation` code from [`PoolChain::deployer`]; returns the
    /// address and the creation transaction's gas.
    fn deploy(&mut self, creation: &[u8]) -> Result<(Address, u64), PoolError>;
    /// Sends a transaction from `from` (an account this chain can sign for);
    /// a revert is an outcome, not an error.
    fn send(
        &mut self,
        from: Address,
        to: Address,
        data: &[u8],
        value: U256,
    ) -> Result<TxResult, PoolError>;
    /// A read-only call (a `view` getter).
    fn view(&mut self, to: Address, data: &[u8]) -> Result<CallStatus, PoolError>;
    /// The balance of `who`.
    fn balance(&mut self, who: Address) -> Result<U256, PoolError>;
    /// Every log `address` emitted, in order.
    fn logs(&mut self, address: Address) -> Result<Vec<Log>, PoolError>;
    /// Moves the chain's clock `seconds` forward (a test chain only: the
    /// embedded EVM's block timestamp; on a node `evm_increaseTime` and
    /// `evm_mine`, which Hardhat and Anvil answer and a public node refuses).
    fn advance_time(&mut self, seconds: u64) -> Result<(), PoolError>;
    /// `n` accounts this chain can send from, for role `tag`: on the embedded
    /// EVM new accounts holding exactly `wei`; on a node the next `n` of its
    /// keys (their balance is what the node gave them), an error when too few
    /// are left.
    fn senders(&mut self, tag: u8, n: usize, wei: U256) -> Result<Vec<Address>, PoolError>;
    /// How many more sender accounts [`PoolChain::senders`] can hand out
    /// (`None`: any number).
    fn senders_left(&self) -> Option<usize>;
    /// `n` addresses nobody sends from (recipients), for role `tag`: on the
    /// embedded EVM fixed addresses holding `wei`; on a node addresses
    /// derived from `salt` (fresh), and `wei` must be 0.
    fn receivers(
        &mut self,
        tag: u8,
        n: usize,
        wei: U256,
        salt: &[u8],
    ) -> Result<Vec<Address>, PoolError>;
    /// Whether [`PoolChain::send`] sends a transaction the node's `eth_call`
    /// says will revert (on a node, default: no, [`PoolError::Refused`] and
    /// nothing sent; yes for `simulate`'s attack checks, which must see the
    /// rejection on chain, and `--send-anyway`). The embedded EVM always
    /// runs it (it costs nothing there).
    fn set_send_reverting(&mut self, _yes: bool) {}
}

/// A test account on the embedded EVM: `tag` in the first byte, `i` in the last eight.
pub fn tagged_account(tag: u8, i: u64) -> Address {
    let mut b = [0u8; 20];
    b[0] = tag;
    b[12..].copy_from_slice(&i.to_be_bytes());
    Address::from(b)
}

/// The embedded EVM (revm, Cancun, gas price 0) with a log of every event.
#[derive(Debug, Default)]
pub struct Embedded {
    /// The chain.
    pub chain: Chain,
    logs: Vec<Log>,
}

/// The account that deploys on [`Embedded`] (zkbench-evm's default sender).
pub const EMBEDDED_DEPLOYER: Address = Address::new([0x5a; 20]);

impl Embedded {
    /// A fresh chain.
    pub fn new() -> Self {
        Self::default()
    }
}

impl PoolChain for Embedded {
    fn network(&self) -> String {
        "revm".into()
    }
    fn describe(&self) -> String {
        "revm (embedded, Cancun)".into()
    }
    fn deployer(&self) -> Address {
        EMBEDDED_DEPLOYER
    }
    fn deploy(&mut self, creation: &[u8]) -> Result<(Address, u64), PoolError> {
        let d = self.chain.deploy(creation)?;
        Ok((d.address, d.gas_deploy))
    }
    fn send(
        &mut self,
        from: Address,
        to: Address,
        data: &[u8],
        value: U256,
    ) -> Result<TxResult, PoolError> {
        let r = self.chain.send(from, to, data, value)?;
        self.logs.extend(r.logs.iter().cloned());
        Ok(TxResult {
            status: r.outcome.status,
            gas_tx: r.outcome.gas_tx,
            logs: r.logs,
            tx_hash: None,
            fee_wei: U256::ZERO,
        })
    }
    fn view(&mut self, to: Address, data: &[u8]) -> Result<CallStatus, PoolError> {
        Ok(self.chain.call(to, data)?.status)
    }
    fn balance(&mut self, who: Address) -> Result<U256, PoolError> {
        Ok(self.chain.balance(who)?)
    }
    fn logs(&mut self, address: Address) -> Result<Vec<Log>, PoolError> {
        Ok(self
            .logs
            .iter()
            .filter(|l| l.address == address)
            .cloned()
            .collect())
    }
    fn advance_time(&mut self, seconds: u64) -> Result<(), PoolError> {
        self.chain.advance_time(seconds);
        Ok(())
    }
    fn senders(&mut self, tag: u8, n: usize, wei: U256) -> Result<Vec<Address>, PoolError> {
        self.receivers(tag, n, wei, &[])
    }
    fn senders_left(&self) -> Option<usize> {
        None
    }
    fn receivers(
        &mut self,
        tag: u8,
        n: usize,
        wei: U256,
        _salt: &[u8],
    ) -> Result<Vec<Address>, PoolError> {
        (0..n as u64)
            .map(|i| {
                let a = tagged_account(tag, i);
                self.chain.set_balance(a, wei)?;
                Ok(a)
            })
            .collect()
    }
}

/// Hardhat's default accounts' private keys (mnemonic `test test … junk`,
/// derivation `m/44'/60'/0'/0/i`): **public test keys**, for local dev nodes only.
pub const HARDHAT_TEST_KEYS: [&str; 10] = [
    "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    "47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
    "8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
    "92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
    "4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
    "dbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
    "2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
];

/// The environment variable with the keys to use on a node instead of
/// [`HARDHAT_TEST_KEYS`]: comma-separated hex private keys.
pub const KEYS_ENV: &str = "ZKBENCH_POOL_KEYS";

/// Gas limit of a transaction the node's `eth_call` says will revert, sent
/// all the same only with [`PoolChain::set_send_reverting`] (the attack
/// checks of `simulate`, which must see the rejection happen on chain).
const REVERTING_GAS_LIMIT: u64 = 5_000_000;
/// How long to wait for a receipt.
const RECEIPT_TIMEOUT: Duration = Duration::from_secs(120);

/// The keys of [`KEYS_ENV`], or Hardhat's test keys; `(keys, from_env)`.
pub fn node_keys() -> Result<(Vec<PrivateKeySigner>, bool), PoolError> {
    match std::env::var(KEYS_ENV)
        .ok()
        .filter(|s| !s.trim().is_empty())
    {
        Some(s) => Ok((parse_keys(&s)?, true)),
        None => Ok((parse_keys(&HARDHAT_TEST_KEYS.join(","))?, false)),
    }
}

/// Parses comma-separated hex private keys (`0x` optional); an error names
/// the key's position, never the key.
pub fn parse_keys(list: &str) -> Result<Vec<PrivateKeySigner>, PoolError> {
    list.split(',')
        .map(str::trim)
        .enumerate()
        .map(|(i, k)| {
            k.trim_start_matches("0x")
                .parse::<PrivateKeySigner>()
                .map_err(|_| {
                    PoolError::Config(format!(
                        "{KEYS_ENV}: key number {} is not a 32-byte hex private key",
                        i + 1
                    ))
                })
        })
        .collect()
}

/// A JSON-RPC node (HTTP), reached through alloy, with local signing.
pub struct RpcChain {
    url: String,
    rt: tokio::runtime::Runtime,
    provider: RootProvider<Ethereum>,
    wallet: EthereumWallet,
    accounts: Vec<Address>,
    next_account: usize,
    chain_id: u64,
    from_block: u64,
    send_reverting: bool,
}

impl std::fmt::Debug for RpcChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // no keys
        f.debug_struct("RpcChain")
            .field("url", &self.url)
            .field("chain_id", &self.chain_id)
            .field("accounts", &self.accounts.len())
            .finish_non_exhaustive()
    }
}

fn rpc_err(url: &str, what: &str, e: impl std::fmt::Display) -> PoolError {
    PoolError::Rpc {
        url: url.to_string(),
        what: what.to_string(),
        reason: e.to_string(),
    }
}

/// An error with every cause under it (`error sending request: … :
/// Connection refused (os error 111)`), each once: a node that is down
/// reads "connection refused", not only "error sending request for url".
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    if out.to_ascii_lowercase().contains("connection refused") {
        out.push_str(" (is the node running at this address?)");
    }
    out
}

impl RpcChain {
    /// Connects to the node at `url` (`http://…`) with [`node_keys`]; fails
    /// clearly when the node does not answer.
    pub fn connect(url: &str) -> Result<Self, PoolError> {
        let (keys, _) = node_keys()?;
        Self::connect_with(url, keys)
    }

    /// Connects with these signing keys.
    pub fn connect_with(url: &str, keys: Vec<PrivateKeySigner>) -> Result<Self, PoolError> {
        if !url.starts_with("http://") {
            return Err(PoolError::Config(format!(
                "--rpc {url:?}: only http:// JSON-RPC endpoints are supported (alloy is built without TLS, ws and ipc)"
            )));
        }
        if keys.is_empty() {
            return Err(PoolError::Config(format!("{KEYS_ENV}: no keys")));
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| rpc_err(url, "tokio runtime", e))?;
        // No idle connections kept: a node's HTTP server (Node.js: 5 s keep-alive)
        // closes them while a long proof runs, and the next request would fail.
        let client = alloy_transport_http::reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| rpc_err(url, "HTTP client", e))?;
        let parsed = url
            .parse()
            .map_err(|e| PoolError::Config(format!("--rpc {url:?}: {e}")))?;
        let provider: RootProvider<Ethereum> = RootProvider::new(
            alloy_rpc_client::RpcClient::new_http_with_client(client, parsed),
        );
        let chain_id = rt
            .block_on(provider.get_chain_id().into_future())
            .map_err(|e| rpc_err(url, "eth_chainId", with_causes(&e)))?;
        let accounts: Vec<Address> = keys.iter().map(|k| k.address()).collect();
        let mut wallet = EthereumWallet::default();
        for k in keys {
            wallet.register_signer(k);
        }
        Ok(Self {
            url: url.to_string(),
            rt,
            provider,
            wallet,
            accounts,
            next_account: 0,
            chain_id,
            from_block: 0,
            send_reverting: false,
        })
    }

    /// The accounts this process can sign for, in key order.
    pub fn accounts(&self) -> &[Address] {
        &self.accounts
    }

    /// Reads logs from block `block` on (default 0).
    pub fn set_log_start(&mut self, block: u64) {
        self.from_block = block;
    }

    /// The node's chain id.
    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    /// The latest block number.
    pub fn block_number(&self) -> Result<u64, PoolError> {
        self.rt
            .block_on(self.provider.get_block_number().into_future())
            .map_err(|e| rpc_err(&self.url, "eth_blockNumber", e))
    }

    /// Signs and sends `tx` (from, to/create, input, value set) and waits for
    /// its receipt. `eth_call` first tells whether it reverts and why; a
    /// reverting transaction is refused ([`PoolError::Refused`], nothing
    /// sent, no gas spent) unless [`PoolChain::set_send_reverting`] is on: then
    /// it is sent (the rejection happens on chain) and its receipt must say so.
    fn transact(&mut self, tx: TransactionRequest, what: &str) -> Result<Sent, PoolError> {
        let from = tx.from.unwrap_or_default();
        if !self.accounts.contains(&from) {
            return Err(PoolError::Config(format!(
                "no key for account {from:#x} (keys: Hardhat's test keys or {KEYS_ENV})"
            )));
        }
        let expect = self.expected_status(&tx, what)?;
        let reverts = !matches!(expect, CallStatus::Returned(_));
        if reverts && !self.send_reverting {
            return Err(PoolError::Refused {
                what: what.to_string(),
                reason: abi::explain(&expect),
            });
        }
        let raw = self.sign(tx, from, reverts, what)?;
        self.broadcast(&raw, expect, reverts, what)
    }

    /// What `eth_call` says `tx` does: returns, or reverts (with the
    /// contract's error data when the node gives it).
    fn expected_status(
        &self,
        tx: &TransactionRequest,
        what: &str,
    ) -> Result<CallStatus, PoolError> {
        let url = &self.url;
        match self
            .rt
            .block_on(self.provider.call(tx.clone()).into_future())
        {
            Ok(out) => Ok(CallStatus::Returned(out.to_vec())),
            Err(e) => match e.as_error_resp() {
                Some(payload) => {
                    let data = payload.as_revert_data().map(|b| b.to_vec());
                    match data {
                        Some(d) => Ok(CallStatus::Reverted(d)),
                        None if payload.message.contains("revert") => {
                            Ok(CallStatus::Reverted(vec![]))
                        }
                        None => Err(rpc_err(url, &format!("eth_call ({what})"), e)),
                    }
                }
                None => Err(rpc_err(url, &format!("eth_call ({what})"), e)),
            },
        }
    }

    /// `tx` from `from` with nonce, chain id, gas limit (estimated, or
    /// [`REVERTING_GAS_LIMIT`] when it `reverts`) and fees set, signed and
    /// encoded.
    fn sign(
        &self,
        tx: TransactionRequest,
        from: Address,
        reverts: bool,
        what: &str,
    ) -> Result<Vec<u8>, PoolError> {
        let (url, p) = (&self.url, &self.provider);
        let gas = if reverts {
            REVERTING_GAS_LIMIT
        } else {
            let g = self
                .rt
                .block_on(p.estimate_gas(tx.clone()).into_future())
                .map_err(|e| rpc_err(url, &format!("eth_estimateGas ({what})"), e))?;
            g + g / 5 + 10_000
        };
        let nonce = self
            .rt
            .block_on(p.get_transaction_count(from).pending().into_future())
            .map_err(|e| rpc_err(url, "eth_getTransactionCount", e))?;
        let price = self
            .rt
            .block_on(p.get_gas_price().into_future())
            .map_err(|e| rpc_err(url, "eth_gasPrice", e))?;
        let tip = price.min(1_000_000_000);
        let tx = tx
            .with_nonce(nonce)
            .with_chain_id(self.chain_id)
            .with_gas_limit(gas)
            .with_max_fee_per_gas(2 * price + tip)
            .with_max_priority_fee_per_gas(tip);
        let envelope = self
            .rt
            .block_on(tx.build(&self.wallet))
            .map_err(|e| rpc_err(url, &format!("signing ({what})"), e))?;
        Ok(envelope.encoded_2718())
    }

    /// Sends the signed transaction `raw` and waits for its receipt, which
    /// must agree with `eth_call`'s `expect`.
    fn broadcast(
        &self,
        raw: &[u8],
        expect: CallStatus,
        reverts: bool,
        what: &str,
    ) -> Result<Sent, PoolError> {
        let (url, p) = (&self.url, &self.provider);
        let hash = match self.rt.block_on(p.send_raw_transaction(raw)) {
            Ok(pending) => *pending.tx_hash(),
            // Hardhat (throwOnTransactionFailures, its default) mines a reverting
            // transaction and answers with an error carrying its hash.
            Err(e) => {
                let mined = e
                    .as_error_resp()
                    .and_then(|p| p.data.as_ref())
                    .and_then(|d| serde_json::from_str::<serde_json::Value>(d.get()).ok())
                    .and_then(|v| v.get("txHash")?.as_str()?.parse().ok());
                match mined {
                    Some(h) if reverts => h,
                    _ => return Err(rpc_err(url, &format!("eth_sendRawTransaction ({what})"), e)),
                }
            }
        };
        let start = Instant::now();
        let receipt = loop {
            let r = self
                .rt
                .block_on(p.get_transaction_receipt(hash).into_future())
                .map_err(|e| rpc_err(url, "eth_getTransactionReceipt", e))?;
            if let Some(r) = r {
                break r;
            }
            if start.elapsed() > RECEIPT_TIMEOUT {
                return Err(rpc_err(
                    url,
                    what,
                    format!("no receipt for {hash:#x} after {RECEIPT_TIMEOUT:?}"),
                ));
            }
            std::thread::sleep(Duration::from_millis(25));
        };
        self.settle(receipt, expect, reverts, format!("{hash:#x}"), what)
    }

    /// The outcome of the transaction `hash` from its receipt, whose status
    /// must be what `eth_call` said (`expect`, which `reverts` or not).
    fn settle(
        &self,
        receipt: TransactionReceipt,
        expect: CallStatus,
        reverts: bool,
        hash: String,
        what: &str,
    ) -> Result<Sent, PoolError> {
        if receipt.status() == reverts {
            return Err(rpc_err(
                &self.url,
                what,
                format!(
                    "eth_call said {} but the receipt of {hash} has status {}",
                    abi::describe(&expect),
                    receipt.status()
                ),
            ));
        }
        let logs = receipt
            .inner
            .logs()
            .iter()
            .map(|l| l.inner.clone())
            .collect();
        Ok(Sent {
            result: TxResult {
                status: expect,
                gas_tx: receipt.gas_used,
                logs,
                tx_hash: Some(hash),
                fee_wei: U256::from(receipt.gas_used) * U256::from(receipt.effective_gas_price),
            },
            contract: receipt.contract_address,
            block: receipt.block_number,
        })
    }
}

struct Sent {
    result: TxResult,
    contract: Option<Address>,
    block: Option<u64>,
}

impl PoolChain for RpcChain {
    fn set_send_reverting(&mut self, yes: bool) {
        self.send_reverting = yes;
    }

    fn network(&self) -> String {
        format!("chain{}", self.chain_id)
    }
    fn describe(&self) -> String {
        format!("JSON-RPC node {} (chain id {})", self.url, self.chain_id)
    }
    fn deployer(&self) -> Address {
        self.accounts[0]
    }
    fn deploy(&mut self, creation: &[u8]) -> Result<(Address, u64), PoolError> {
        let tx = TransactionRequest::default()
            .with_from(self.deployer())
            .with_deploy_code(creation.to_vec());
        let s = self.transact(tx, "deploy")?;
        if !matches!(s.result.status, CallStatus::Returned(_)) {
            return Err(PoolError::Transaction {
                what: "deploy".into(),
                reason: abi::describe(&s.result.status),
            });
        }
        let a = s
            .contract
            .ok_or_else(|| rpc_err(&self.url, "deploy", "receipt has no contract address"))?;
        if self.from_block == 0 {
            self.from_block = s.block.unwrap_or(0);
        }
        Ok((a, s.result.gas_tx))
    }
    fn send(
        &mut self,
        from: Address,
        to: Address,
        data: &[u8],
        value: U256,
    ) -> Result<TxResult, PoolError> {
        let tx = TransactionRequest::default()
            .with_from(from)
            .with_to(to)
            .with_input(data.to_vec())
            .with_value(value);
        Ok(self.transact(tx, "transaction")?.result)
    }
    fn view(&mut self, to: Address, data: &[u8]) -> Result<CallStatus, PoolError> {
        let tx = TransactionRequest::default()
            .with_from(self.deployer())
            .with_to(to)
            .with_input(data.to_vec());
        match self.rt.block_on(self.provider.call(tx).into_future()) {
            Ok(out) => Ok(CallStatus::Returned(out.to_vec())),
            Err(e) => match e.as_error_resp().and_then(|p| p.as_revert_data()) {
                Some(d) => Ok(CallStatus::Reverted(d.to_vec())),
                None => Err(rpc_err(&self.url, "eth_call", e)),
            },
        }
    }
    fn balance(&mut self, who: Address) -> Result<U256, PoolError> {
        self.rt
            .block_on(self.provider.get_balance(who).into_future())
            .map_err(|e| rpc_err(&self.url, "eth_getBalance", e))
    }
    fn logs(&mut self, address: Address) -> Result<Vec<Log>, PoolError> {
        let f = Filter::new().address(address).from_block(self.from_block);
        let logs = self
            .rt
            .block_on(self.provider.get_logs(&f))
            .map_err(|e| rpc_err(&self.url, "eth_getLogs", e))?;
        Ok(logs.into_iter().map(|l| l.inner).collect())
    }
    fn advance_time(&mut self, seconds: u64) -> Result<(), PoolError> {
        let p = &self.provider;
        self.rt
            .block_on(p.raw_request::<_, serde_json::Value>("evm_increaseTime".into(), [seconds]))
            .map_err(|e| rpc_err(&self.url, "evm_increaseTime", e))?;
        self.rt
            .block_on(p.raw_request::<_, serde_json::Value>(
                "evm_mine".into(),
                Vec::<serde_json::Value>::new(),
            ))
            .map_err(|e| rpc_err(&self.url, "evm_mine", e))?;
        Ok(())
    }
    fn senders(&mut self, _tag: u8, n: usize, _wei: U256) -> Result<Vec<Address>, PoolError> {
        let left = self.accounts.len() - self.next_account;
        if n > left {
            return Err(PoolError::Config(format!(
                "{n} more sending accounts needed, {left} keys left (Hardhat's test keys, or {KEYS_ENV})"
            )));
        }
        let v = self.accounts[self.next_account..self.next_account + n].to_vec();
        self.next_account += n;
        Ok(v)
    }
    fn senders_left(&self) -> Option<usize> {
        Some(self.accounts.len() - self.next_account)
    }
    fn receivers(
        &mut self,
        tag: u8,
        n: usize,
        wei: U256,
        salt: &[u8],
    ) -> Result<Vec<Address>, PoolError> {
        if !wei.is_zero() {
            return Err(PoolError::Config(
                "on a node, recipients are fresh addresses (they cannot be funded); leave out --existing-recipients".into(),
            ));
        }
        Ok((0..n as u64)
            .map(|i| {
                let mut b = salt.to_vec();
                b.push(tag);
                b.extend_from_slice(&i.to_be_bytes());
                Address::from_slice(&abi::keccak(&b)[12..])
            })
            .collect())
    }
}

/// Per-account ether bookkeeping of a run: what each account should have
/// gained and lost, and the gas fees it paid, so that balances can be
/// checked exactly on any chain (fees are 0 on the embedded EVM).
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    plus: HashMap<Address, U256>,
    minus: HashMap<Address, U256>,
    fees: HashMap<Address, U256>,
}

impl Ledger {
    /// `wei` moves from `from` to `to`.
    pub fn transfer(&mut self, from: Address, to: Address, wei: U256) {
        *self.minus.entry(from).or_default() += wei;
        *self.plus.entry(to).or_default() += wei;
    }
    /// `from` paid `r`'s gas fee.
    pub fn fee(&mut self, from: Address, r: &TxResult) {
        *self.fees.entry(from).or_default() += r.fee_wei;
    }
    /// All fees paid.
    pub fn total_fees(&self) -> U256 {
        self.fees.values().fold(U256::ZERO, |s, x| s + x)
    }
    /// Whether `after + fees = before + plus − minus` for `who`.
    pub fn holds(&self, who: Address, before: U256, after: U256) -> bool {
        let g = |m: &HashMap<Address, U256>| m.get(&who).copied().unwrap_or_default();
        after + g(&self.fees) + g(&self.minus) == before + g(&self.plus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hardhat_test_keys_are_hardhats_accounts() {
        let k: PrivateKeySigner = HARDHAT_TEST_KEYS[0].parse().unwrap();
        assert_eq!(
            format!("{:#x}", k.address()),
            "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        );
        let k: PrivateKeySigner = HARDHAT_TEST_KEYS[9].parse().unwrap();
        assert_eq!(
            format!("{:#x}", k.address()),
            "0xa0ee7a142d267c1f36714e4a8f75612f20a79720"
        );
    }

    #[test]
    fn bad_urls_and_keys_are_clear_errors_without_the_key() {
        let e = RpcChain::connect_with("ws://127.0.0.1:1", vec![]).unwrap_err();
        assert!(e.to_string().contains("only http://"), "{e}");
        let e = RpcChain::connect_with("http://127.0.0.1:1", vec![]).unwrap_err();
        assert!(e.to_string().contains("no keys"), "{e}");
        let key: PrivateKeySigner = HARDHAT_TEST_KEYS[1].parse().unwrap();
        let e = RpcChain::connect_with("http://127.0.0.1:1", vec![key]).unwrap_err();
        assert!(e.to_string().contains("eth_chainId"), "{e}");
        assert!(!e.to_string().contains(HARDHAT_TEST_KEYS[1]));
        let list = format!(
            "0x{}, {}zz",
            HARDHAT_TEST_KEYS[0],
            &HARDHAT_TEST_KEYS[1][2..]
        );
        let e = parse_keys(&list).unwrap_err().to_string();
        assert!(e.contains("key number 2"), "{e}");
        assert!(!e.contains(&HARDHAT_TEST_KEYS[1][2..]), "{e}");
        assert_eq!(parse_keys(HARDHAT_TEST_KEYS[0]).unwrap().len(), 1);
    }

    #[test]
    fn ledger_accounts_transfers_and_fees() {
        let (a, b) = (tagged_account(1, 0), tagged_account(2, 0));
        let mut l = Ledger::default();
        l.transfer(a, b, U256::from(10u8));
        let r = TxResult {
            status: CallStatus::Returned(vec![]),
            gas_tx: 21_000,
            logs: vec![],
            tx_hash: None,
            fee_wei: U256::from(3u8),
        };
        l.fee(a, &r);
        assert!(l.holds(a, U256::from(100u8), U256::from(87u8)));
        assert!(!l.holds(a, U256::from(100u8), U256::from(90u8)));
        assert!(l.holds(b, U256::from(0u8), U256::from(10u8)));
        assert_eq!(l.total_fees(), U256::from(3u8));
    }

    #[test]
    fn embedded_accounts_and_receivers() {
        let mut e = Embedded::new();
        assert_eq!(e.senders_left(), None);
        let s = e.senders(0xd0, 2, U256::from(5u8)).unwrap();
        assert_eq!(s[1], tagged_account(0xd0, 1));
        assert_eq!(e.balance(s[1]).unwrap(), U256::from(5u8));
        assert_eq!(e.network(), "revm");
        let t = e.chain.timestamp();
        e.advance_time(100).unwrap();
        assert_eq!(e.chain.timestamp(), t + 100);
        assert!(e.logs(s[0]).unwrap().is_empty());
    }
}
