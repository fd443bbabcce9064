//! The registry of backends compiled into this build: the harness, the CLI
//! (`zkbench list`, `--system` values) and the report iterate over it.
//!
//! Adding a proof system is its own crate implementing
//! [`zkbench_core::ProofSystem`] plus one line in [`all`]
//! (`Box::new(ProofBackend::new(MySystem))`); the measurement loop, records,
//! report and CLI listing come with it.

pub use crate::backend::Backend;
use crate::{case::Case, evm::EvmVerifiers, native::NativeHash, proof::ProofBackend};

/// All backends compiled into this build.
pub fn all() -> Vec<Box<dyn Backend>> {
    vec![
        Box::new(NativeHash),
        Box::new(ProofBackend::new(zkbench_groth16::Groth16)),
        Box::new(ProofBackend::new(zkbench_halo2::Halo2Kzg::default())),
        Box::new(ProofBackend::new(zkbench_halo2::Halo2Kzg::keccak())),
        Box::new(EvmVerifiers),
        Box::new(crate::primitives::Primitives),
        Box::new(crate::pool::PoolBench),
    ]
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
/// proof cases; the native and EVM backends are not proof systems).
pub fn proof_system_names() -> Vec<&'static str> {
    all()
        .iter()
        .map(|b| b.name())
        .filter(|n| {
            ![
                "native",
                crate::evm::BACKEND_NAME,
                crate::primitives::BACKEND_NAME,
                crate::pool::BACKEND_NAME,
            ]
            .contains(n)
        })
        .collect()
}
