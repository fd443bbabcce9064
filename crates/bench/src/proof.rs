//! Proof-system backends (Groth16 now; Halo2-KZG, PLONK and FRI later).

use crate::{
    backends::Backend,
    case::{Case, CaseKind},
    results::{Record, Status},
    suite::Profile,
    sys::Environment,
};

/// Groth16 on BN254 (arkworks), circuit-specific test setup.
pub struct Groth16Backend;

impl Backend for Groth16Backend {
    fn name(&self) -> &'static str {
        "groth16"
    }

    fn description(&self) -> &'static str {
        "Groth16 on BN254 (ark-groth16); test setup with known toxic waste"
    }

    fn handles(&self, case: &Case) -> bool {
        case.kind == CaseKind::Proof && case.system == "groth16"
    }

    fn run(&self, case: &Case, _profile: &Profile, env: &Environment) -> Vec<Record> {
        vec![Record::failed(
            case,
            "prove",
            Status::Skipped,
            "groth16 backend not wired yet",
            env,
        )]
    }
}
