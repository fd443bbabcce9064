//! # zkbench-primitives
//!
//! The parts a prover is made of, measured on their own so that one sees where
//! the time of a proof goes and how far each part is from its limit. Every
//! implementation runs on the same inputs in the same process:
//!
//! | kind | what | implementations (`case.system`) |
//! |---|---|---|
//! | `msm` | BN254 G1 / G2 multi-scalar multiplication of `size` points ([`msm`]) | `zkbench` (the Groth16 prover's fixed-base tables, `zkbench_msm::FixedBaseTable`), `arkworks` (`ark_ec::VariableBaseMSM`, Pippenger), `halo2curves` (`msm_best`, Pippenger) |
//! | `fft` | radix-2 FFT of `size` BN254 scalars ([`fft`]) | `arkworks` (`ark_poly::Radix2EvaluationDomain`), `halo2curves` (`fft::best_fft`), `zkbench` (the Groth16 prover's, `zkbench_msm::fft`) |
//! | `pairing` | pairing (`size` 1) or multi-pairing of `size` pairs ([`pairing`]) | `arkworks`, `halo2curves` |
//! | `field` | multiplication and inversion in BN254's Fr and Fq ([`field`]) | `arkworks`, `halo2curves` |
//! | `pcs-commit`, `pcs-open`, `pcs-verify` | polynomial commitment of `size` coefficients, an opening at one point and its verification ([`pcs`]) | `halo2-axiom` (KZG on BN254; IPA on the Pasta curve Vesta), `plonky3` (FRI: `p3-fri`'s `TwoAdicFriPcs` over BabyBear and Goldilocks, Poseidon2 Merkle trees from `p3-merkle-tree`) |
//!
//! A case is turned into a [`Workload`] by [`prepare`] (inputs and keys are
//! made there, outside the measurement), and the harness (`zkbench-bench`)
//! samples each of its phases. [`estimate_bytes`] says how much memory a case
//! needs, so that a size beyond the machine's memory is recorded as
//! out-of-memory instead of swapping the machine to death.
#![deny(missing_docs)]

use pcs::PcsWorkload;
use zkbench_core::{Case, CaseKind, Metrics, Primitive, Primitive::*};

pub mod convert;
pub mod fft;
pub mod field;
pub mod fri;
pub mod inputs;
pub mod msm;
pub mod pairing;
pub mod pcs;

/// Errors preparing or running a primitive case.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The combination of kind, system and group/scheme is not implemented.
    #[error("{0}")]
    Unsupported(String),
    /// The case has no or a bad `size`.
    #[error("{0}")]
    Size(String),
    /// A run failed (a proof did not verify, a library returned an error).
    #[error("{0}")]
    Run(String),
}

/// One prepared case: inputs and keys made, phases ready to be sampled.
pub trait Workload {
    /// The measured phases in order: the record's kind and phase name (one
    /// phase for most kinds; `mul` and `inv` for `field`; `commit`, `open`,
    /// `verify` for the commitment schemes, recorded as `pcs-commit`,
    /// `pcs-open`, `pcs-verify`). A phase may rely on the earlier ones having
    /// run at least once.
    fn phases(&self) -> Vec<(CaseKind, &'static str)>;

    /// Runs phase `i` once.
    fn run(&mut self, i: usize) -> Result<(), Error>;

    /// Items one run of phase `i` processes (points, coefficients, pairs,
    /// operations): the denominator of `ns_per_*` and throughput.
    fn items(&self, i: usize) -> u64;

    /// Extra metrics of phase `i` after it ran (proof size, table size,
    /// cost-model estimate, setup time ...).
    fn metrics(&self, i: usize) -> Metrics;
}

/// The implementations of each kind, with the groups, fields or schemes
/// (`case.hash`) each one has.
pub const SUPPORTED: &[(CaseKind, &str, &[Primitive])] = &[
    (CaseKind::Msm, "zkbench", &[Bn254G1, Bn254G2]),
    (CaseKind::Msm, "arkworks", &[Bn254G1, Bn254G2]),
    (CaseKind::Msm, "halo2curves", &[Bn254G1, Bn254G2]),
    (CaseKind::Fft, "arkworks", &[Bn254Fr]),
    (CaseKind::Fft, "halo2curves", &[Bn254Fr]),
    (CaseKind::Fft, "zkbench", &[Bn254Fr]),
    (CaseKind::Pairing, "arkworks", &[Bn254]),
    (CaseKind::Pairing, "halo2curves", &[Bn254]),
    (CaseKind::Field, "arkworks", &[Bn254Fr, Bn254Fq]),
    (CaseKind::Field, "halo2curves", &[Bn254Fr, Bn254Fq]),
    (CaseKind::PcsCommit, "halo2-axiom", &[KzgBn254, IpaPasta]),
    (
        CaseKind::PcsCommit,
        "plonky3",
        &[FriBabyBear, FriGoldilocks],
    ),
];

/// The kind whose implementations measure `kind` (`pcs-open` and
/// `pcs-verify` are measured by the `pcs-commit` workload).
fn workload_kind(kind: CaseKind) -> CaseKind {
    match kind {
        CaseKind::PcsOpen | CaseKind::PcsVerify => CaseKind::PcsCommit,
        k => k,
    }
}

/// Whether `system` implements `kind` for the group, field or scheme named
/// `object` (a [`Primitive`]'s name; any other name is not supported).
pub fn supported(kind: CaseKind, system: &str, object: &str) -> bool {
    Primitive::from_name(object).is_some_and(|object| implements(kind, system, object))
}

/// Whether `system` implements `kind` for `object`.
fn implements(kind: CaseKind, system: &str, object: Primitive) -> bool {
    let kind = workload_kind(kind);
    SUPPORTED
        .iter()
        .any(|(k, s, o)| *k == kind && *s == system && o.contains(&object))
}

/// Whether any primitive implementation is named `system` (the harness's
/// registry routes such cases here).
pub fn is_system(system: &str) -> bool {
    SUPPORTED.iter().any(|(_, s, _)| *s == system)
}

fn size_of(case: &Case) -> Result<usize, Error> {
    let n = case
        .size
        .ok_or_else(|| Error::Size(format!("{} case without size", case.kind.name())))?;
    usize::try_from(n)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| Error::Size(format!("size {n} out of range")))
}

fn log2_exact(n: usize, what: &str) -> Result<u32, Error> {
    if n.is_power_of_two() && n >= 2 {
        Ok(n.trailing_zeros())
    } else {
        Err(Error::Size(format!(
            "{what} size {n} is not a power of two >= 2"
        )))
    }
}

/// Prepares `case`: makes its inputs (deterministic, seeded) and keys.
pub fn prepare(case: &Case) -> Result<Box<dyn Workload>, Error> {
    let object = match case.hash.primitive() {
        Some(object) if implements(case.kind, &case.system, object) => object,
        _ => {
            return Err(Error::Unsupported(format!(
                "no {} implementation {:?} for {:?} (see zkbench_primitives::SUPPORTED)",
                case.kind.name(),
                case.system,
                case.hash.as_str()
            )))
        }
    };
    let n = size_of(case)?;
    let threads = rayon::current_num_threads();
    Ok(match workload_kind(case.kind) {
        CaseKind::Msm => msm::prepare(&case.system, object, n, threads)?,
        CaseKind::Fft => fft::prepare(&case.system, log2_exact(n, "FFT")?)?,
        CaseKind::Pairing => pairing::prepare(&case.system, n)?,
        CaseKind::Field => field::prepare(&case.system, object, n)?,
        CaseKind::PcsCommit => {
            let k = log2_exact(n, "polynomial")?;
            match object {
                KzgBn254 => Box::new(PcsWorkload(pcs::Kzg::new(k)?)) as Box<dyn Workload>,
                IpaPasta => Box::new(PcsWorkload(pcs::Ipa::new(k)?)),
                FriBabyBear => Box::new(PcsWorkload(fri::FriBabyBear::new(k)?)),
                FriGoldilocks => Box::new(PcsWorkload(fri::FriGoldilocks::new(k)?)),
                s => return Err(Error::Unsupported(format!("no scheme {s}"))),
            }
        }
        k => {
            return Err(Error::Unsupported(format!(
                "{} is not a primitive",
                k.name()
            )))
        }
    })
}

/// Peak memory `case` needs, in bytes (inputs, keys, tables and the
/// largest temporary), an estimate erring on the high side; `None` when the
/// case is not a primitive case or has no size.
pub fn estimate_bytes(case: &Case) -> Option<u64> {
    let n = case.size? as f64;
    let threads = rayon::current_num_threads().max(1) as f64;
    let bytes = match workload_kind(case.kind) {
        CaseKind::Msm => {
            let (ark, h2) = match case.hash.primitive() {
                Some(Bn254G2) => (136.0, 128.0),
                _ => (72.0, 64.0),
            };
            // arkworks' points (kept for every system: they are the common
            // input), scalars (32 B, twice), and the system's own copy
            let own = match case.system.as_str() {
                // tables: n·⌈256/c⌉ affine points (c about 15), built as rows
                // and then flattened (twice the table at the peak)
                "zkbench" => ark * 18.0 * 2.0 * n,
                "halo2curves" => h2 * n + 32.0 * n,
                _ => 32.0 * n,
            };
            ark * n + 64.0 * n + own
        }
        CaseKind::Fft => 32.0 * n * 3.0,
        CaseKind::Pairing => 1e6 + 300.0 * n,
        CaseKind::Field => 1e6,
        CaseKind::PcsCommit => match case.hash.primitive()? {
            // SRS (64 B affine points), polynomial, quotient, the opening's
            // batch polynomial and the MSM's scalar copies
            KzgBn254 => 64.0 * n + 32.0 * n * 5.0 + 96.0 * threads * (1 << 12) as f64 + 1e8,
            // generators and their Lagrange form, the prover's folded copy
            // of the generators, polynomial and folded vectors
            IpaPasta => 64.0 * n * 3.0 + 32.0 * n * 4.0 + 1e8,
            // evaluations, LDE (blowup 2), Merkle digests and nodes,
            // quotient in the extension field and FRI layers: the opening's
            // peak, measured (`zkbench run pcs --profile full`, 2026-11-24:
            // peak RSS of the open phase 12.51 GiB for BabyBear and 13.51
            // GiB for Goldilocks at 2^25, i.e. 400 and 432 bytes per
            // coefficient; 2^26 was killed by the OS at 23.4 GiB) plus 10%
            FriBabyBear => n * 440.0 + 1e8,
            FriGoldilocks => n * 475.0 + 1e8,
            _ => return None,
        },
        _ => return None,
    };
    Some(bytes as u64 + (64 << 20))
}

/// `MemAvailable` of `/proc/meminfo` in bytes (Linux), else `None`.
pub fn mem_available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
