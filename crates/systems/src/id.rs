//! [`SystemId`], its names, and the dispatch from a name to a backend.

use std::{fmt, str::FromStr};

use zkbench_core::ProofSystem;
use zkbench_groth16::Groth16;
use zkbench_halo2::Halo2Kzg;
use zkbench_stark::{SecurityLevel, Stark};

/// One of zkbench's own provers. The names are the `case.system` values of
/// results files, the `--system` values of the CLI and the `system` of the
/// browser bindings' configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SystemId {
    /// `groth16`: Groth16 on BN254 (arkworks), snarkjs-compatible artifacts.
    Groth16,
    /// `halo2-kzg`: Halo2 (halo2-axiom) with KZG on BN254, Blake2b transcript.
    Halo2Kzg,
    /// `halo2-kzg-keccak`: the same statements with the Keccak (EVM)
    /// transcript and the chip folded for the EVM verifier
    /// (`ChipLayout::evm`), the proofs an on-chain verifier checks.
    Halo2KzgKeccak,
    /// `stark-babybear`: a STARK over BabyBear (Plonky3, hiding FRI,
    /// Poseidon2 tree), about 100 conjectured bits.
    StarkBabyBear,
    /// `stark-babybear-128`: the same AIR with FRI parameters for about 128
    /// conjectured bits.
    StarkBabyBear128,
}

impl SystemId {
    /// Every system, in the order `zkbench list` and the harness show them.
    pub const ALL: [SystemId; 5] = [
        SystemId::Groth16,
        SystemId::Halo2Kzg,
        SystemId::Halo2KzgKeccak,
        SystemId::StarkBabyBear,
        SystemId::StarkBabyBear128,
    ];

    /// The name (`groth16`, `halo2-kzg`, `halo2-kzg-keccak`, `stark-babybear`,
    /// `stark-babybear-128`).
    pub const fn name(self) -> &'static str {
        match self {
            SystemId::Groth16 => "groth16",
            SystemId::Halo2Kzg => "halo2-kzg",
            SystemId::Halo2KzgKeccak => "halo2-kzg-keccak",
            SystemId::StarkBabyBear => "stark-babybear",
            SystemId::StarkBabyBear128 => "stark-babybear-128",
        }
    }

    /// Whether this is one of the Halo2-KZG systems (same circuits and
    /// artifact format, two transcripts).
    pub const fn is_halo2(self) -> bool {
        matches!(self, SystemId::Halo2Kzg | SystemId::Halo2KzgKeccak)
    }

    /// The names of [`SystemId::ALL`], comma-separated (for messages).
    pub fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// The backend of this system as a concrete type.
    pub fn prover(self) -> Prover {
        match self {
            SystemId::Groth16 => Prover::Groth16(Groth16),
            SystemId::Halo2Kzg => Prover::Halo2(Halo2Kzg::default()),
            SystemId::Halo2KzgKeccak => Prover::Halo2(Halo2Kzg::keccak()),
            SystemId::StarkBabyBear => Prover::Stark(Stark::new(SecurityLevel::Bits100)),
            SystemId::StarkBabyBear128 => Prover::Stark(Stark::new(SecurityLevel::Bits128)),
        }
    }

    /// Runs `job` with this system's prover (the one place where a name
    /// becomes a backend type for generic code).
    pub fn dispatch<W: WithSystem>(self, job: W) -> W::Output {
        match self.prover() {
            Prover::Groth16(p) => job.run(p),
            Prover::Halo2(p) => job.run(p),
            Prover::Stark(p) => job.run(p),
        }
    }
}

/// Code generic over the proof system, run by [`SystemId::dispatch`] with the
/// prover of a chosen system.
pub trait WithSystem {
    /// What the job returns.
    type Output;

    /// Runs the job with `system`.
    fn run<P: ProofSystem>(self, system: P) -> Self::Output;
}

/// A [`SystemId`]'s backend, for code that needs the concrete type (e.g. to
/// use a trait a front end implements for each backend).
#[derive(Clone, Copy, Debug)]
pub enum Prover {
    /// Groth16 (`groth16`).
    Groth16(Groth16),
    /// Halo2-KZG with its transcript (`halo2-kzg`, `halo2-kzg-keccak`).
    Halo2(Halo2Kzg),
    /// The STARK at a security level (`stark-babybear`, `stark-babybear-128`).
    Stark(Stark),
}

/// A name that is not one of zkbench's proof systems.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown proof system {given:?}; available: {}", SystemId::names())]
pub struct UnknownSystem {
    /// The name given.
    pub given: String,
}

impl FromStr for SystemId {
    type Err = UnknownSystem;

    fn from_str(s: &str) -> Result<Self, UnknownSystem> {
        Self::ALL
            .into_iter()
            .find(|id| id.name() == s)
            .ok_or_else(|| UnknownSystem {
                given: s.to_string(),
            })
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for SystemId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for SystemId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_from_str_display_and_serde() {
        for id in SystemId::ALL {
            assert_eq!(id.name().parse::<SystemId>(), Ok(id));
            assert_eq!(id.to_string(), id.name());
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, format!("\"{}\"", id.name()));
            assert_eq!(serde_json::from_str::<SystemId>(&json).unwrap(), id);
        }
    }

    #[test]
    fn names_are_the_backends_own() {
        struct Name;
        impl WithSystem for Name {
            type Output = &'static str;
            fn run<P: ProofSystem>(self, p: P) -> &'static str {
                p.name()
            }
        }
        for id in SystemId::ALL {
            assert_eq!(id.dispatch(Name), id.name());
            assert_eq!(id.is_halo2(), id.name().starts_with("halo2"));
        }
    }

    #[test]
    fn unknown_names_say_what_is_accepted() {
        for bad in ["", "Groth16", "halo2", "gnark-groth16", "snarkjs-groth16"] {
            let e = bad.parse::<SystemId>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "unknown proof system {bad:?}; available: groth16, halo2-kzg, halo2-kzg-keccak, stark-babybear, stark-babybear-128"
                )
            );
        }
        let e = serde_json::from_str::<SystemId>("\"plonk\"").unwrap_err();
        assert!(
            e.to_string().contains("unknown proof system \"plonk\""),
            "{e}"
        );
    }
}
