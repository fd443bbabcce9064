//! # zkbench-pool
//!
//! The private pool protocol (a sequencer batching deposits into an era/slot
//! tree, Guo et al.) end to end on the embedded EVM or a JSON-RPC node
//! (protocol, trust model and threat analysis in `docs/pool.md`):
//!
//! * [`contracts`]: `contracts/Pool.sol` and zkbench's generated verifiers
//!   for the note-spend (withdraw) and slot-insert (batch) statements, with
//!   their test-setup keys ([`contracts::PoolProvers`]);
//! * [`sequencer`]: watches `Deposit` events, applies the blocklist, proves
//!   and commits a batch of `2^slot_depth` deposits;
//! * [`wallet`]: notes (`zkbench-<network>-<wei>-<pool>-0x…`), written to disk
//!   before the deposit is sent;
//! * [`mod@simulate`]: the whole protocol with a real attempt behind every check;
//! * [`tornado`]: the Tornado Cash baseline (table 2 of Guo et al.) in the same
//!   harness: `contracts/TornadoBaseline.sol`, circomlibjs's MiMCSponge hasher;
//! * [`chain`]: where it runs, the embedded EVM or a JSON-RPC node (alloy),
//!   behind one trait;
//! * [`abi`]: calldata, events and custom errors of the pool.
//!
//! **All keys are test setups** (toxic waste derivable from a seed).
#![deny(missing_docs)]

pub mod abi;
pub mod chain;
pub mod contracts;
pub mod error;
pub mod hardhat;
pub mod sequencer;
pub mod simulate;
pub mod tornado;
pub mod wallet;

pub use error::PoolError;
pub use simulate::{simulate, simulate_on, simulate_with, SimulateConfig, SimulationReport};
