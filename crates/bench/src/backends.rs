//! The registry of backends compiled into this build: the harness, the CLI
//! (`zkbench list`, `--system` values) and the report iterate over it.
//!
//! Adding a proof system is its own crate implementing
//! [`zkbench_core::ProofSystem`] plus a [`SystemId`] variant in
//! `zkbench-systems` (its name and its prover); the measurement loop,
//! records, report and CLI listing come with it.

pub use crate::backend::Backend;
use crate::{case::Case, evm::EvmVerifiers, native::NativeHash, proof::ProofBackend};
use zkbench_systems::{ProofSystem, SystemId, WithSystem};

/// A prover as a benchmark backend (run by [`SystemId::dispatch`]).
struct AsBackend;

impl WithSystem for AsBackend {
    type Output = Box<dyn Backend>;

    fn run<P: ProofSystem>(self, system: P) -> Box<dyn Backend> {
        Box::new(ProofBackend::new(system))
    }
}

/// All backends compiled into this build: the native hashes, every
/// [`SystemId`]'s prover, the EVM verifiers, the primitives and the pool.
pub fn all() -> Vec<Box<dyn Backend>> {
    let mut all: Vec<Box<dyn Backend>> = vec![Box::new(NativeHash)];
    all.extend(SystemId::ALL.map(|id| id.dispatch(AsBackend)));
    all.push(Box::new(EvmVerifiers));
    all.push(Box::new(crate::primitives::Primitives));
    all.push(Box::new(crate::pool::PoolBench));
    all
}

/// The backend for a case in `backends`, if any.
pub fn find<'a>(backends: &'a [Box<dyn Backend>], case: &Case) -> Option<&'a dyn Backend> {
    backends
        .iter()
        .find(|b| b.handles(case))
        .map(|b| b.as_ref())
}

/// The backend for a case among [`all`], if any.
pub fn for_case(case: &Case) -> Option<Box<dyn Backend>> {
    all().into_iter().find(|b| b.handles(case))
}

/// Names of the proof systems in [`all`] (the accepted `system` values of
/// proof cases, [`SystemId::ALL`]; the native and EVM backends are not proof
/// systems).
pub fn proof_system_names() -> Vec<&'static str> {
    SystemId::ALL.map(SystemId::name).to_vec()
}
