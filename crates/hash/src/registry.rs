//! The registry of hash families: one entry point for the CLI, the Merkle
//! trees and the benchmarks.

use std::{fmt, str::FromStr, sync::Arc};

use crate::{
    anemoi, gmimc, griffin, mimc7, mimc_sponge, neptune, poseidon, poseidon2, poseidon2_gnark,
    rescue_prime, HashError, NodeHasher, Permutation,
};

/// A hash family of this crate.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum HashFamily {
    /// circomlib Poseidon.
    Poseidon,
    /// HorizenLabs Poseidon2 (α = 5) and the α = 7 instances.
    Poseidon2,
    /// gnark-crypto's default Poseidon2 (`t = 2`, `R_F = 6`, `R_P = 50`, gnark's
    /// `Compress`): the hash of the gnark peer's statement.
    Poseidon2Gnark,
    /// circomlib MiMCSponge (Feistel, 220 rounds).
    MimcSponge,
    /// circomlib MiMC-7 (91 rounds).
    Mimc7,
    /// GMiMC-erf.
    Gmimc,
    /// Neptune.
    Neptune,
    /// Rescue-Prime.
    RescuePrime,
    /// Griffin.
    Griffin,
    /// Anemoi (with Jive compression).
    Anemoi,
}

impl HashFamily {
    /// All families, in a stable order.
    pub const ALL: [HashFamily; 10] = [
        HashFamily::Poseidon,
        HashFamily::Poseidon2,
        HashFamily::Poseidon2Gnark,
        HashFamily::MimcSponge,
        HashFamily::Mimc7,
        HashFamily::Gmimc,
        HashFamily::Neptune,
        HashFamily::RescuePrime,
        HashFamily::Griffin,
        HashFamily::Anemoi,
    ];

    /// The family's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            HashFamily::Poseidon => poseidon::FAMILY,
            HashFamily::Poseidon2 => poseidon2::FAMILY,
            HashFamily::Poseidon2Gnark => poseidon2_gnark::FAMILY,
            HashFamily::MimcSponge => mimc_sponge::FAMILY,
            HashFamily::Mimc7 => mimc7::FAMILY,
            HashFamily::Gmimc => gmimc::FAMILY,
            HashFamily::Neptune => neptune::FAMILY,
            HashFamily::RescuePrime => rescue_prime::FAMILY,
            HashFamily::Griffin => griffin::FAMILY,
            HashFamily::Anemoi => anemoi::FAMILY,
        }
    }

    /// S-box exponents the family has instances for (the first is the default).
    pub fn alphas(self) -> &'static [u64] {
        match self {
            HashFamily::Poseidon2 => &[5, 7],
            HashFamily::Mimc7 => &[7],
            _ => &[5],
        }
    }

    /// Checks `alpha` against [`HashFamily::alphas`] and returns the one to use.
    pub fn resolve_alpha(self, alpha: Option<u64>) -> Result<u64, HashError> {
        let alphas = self.alphas();
        match alpha {
            None => Ok(alphas[0]),
            Some(a) if alphas.contains(&a) => Ok(a),
            Some(a) => Err(HashError::UnsupportedAlpha {
                family: self.name(),
                alpha: a,
                supported: alphas.to_vec(),
            }),
        }
    }

    /// State widths of the permutations this family has for `alpha`.
    pub fn widths(self, alpha: Option<u64>) -> Result<Vec<usize>, HashError> {
        let a = self.resolve_alpha(alpha)?;
        Ok(match self {
            HashFamily::Poseidon => poseidon::supported_widths(),
            HashFamily::Poseidon2 => poseidon2::supported_widths(a),
            HashFamily::Poseidon2Gnark => poseidon2_gnark::supported_widths(),
            HashFamily::MimcSponge => mimc_sponge::supported_widths(),
            HashFamily::Mimc7 => mimc7::supported_widths(),
            HashFamily::Gmimc => gmimc::supported_widths(),
            HashFamily::Neptune => neptune::supported_widths(),
            HashFamily::RescuePrime => rescue_prime::supported_widths(),
            HashFamily::Griffin => griffin::supported_widths(),
            HashFamily::Anemoi => anemoi::supported_widths(),
        })
    }

    /// The permutation of the given width (default: the family's smallest width
    /// that hashes two inputs) and exponent.
    pub fn permutation(
        self,
        width: Option<usize>,
        alpha: Option<u64>,
    ) -> Result<Arc<dyn Permutation>, HashError> {
        let a = self.resolve_alpha(alpha)?;
        let widths = self.widths(Some(a))?;
        let w = match width {
            Some(w) => w,
            None => widths
                .iter()
                .copied()
                .find(|&w| w >= 3)
                .unwrap_or(widths[0]),
        };
        if !widths.contains(&w) {
            return Err(HashError::UnsupportedWidth {
                family: self.name(),
                width: w,
                supported: widths,
            });
        }
        match self {
            HashFamily::Poseidon => poseidon::permutation(w),
            HashFamily::Poseidon2 => poseidon2::permutation(w, a),
            HashFamily::Poseidon2Gnark => poseidon2_gnark::permutation(w),
            HashFamily::MimcSponge => mimc_sponge::permutation(w),
            HashFamily::Mimc7 => mimc7::permutation(w),
            HashFamily::Gmimc => gmimc::permutation(w),
            HashFamily::Neptune => neptune::permutation(w),
            HashFamily::RescuePrime => rescue_prime::permutation(w),
            HashFamily::Griffin => griffin::permutation(w),
            HashFamily::Anemoi => anemoi::permutation(w),
        }
    }

    /// The Merkle node hasher of the given arity (2..=16) and exponent.
    pub fn node_hasher(
        self,
        arity: usize,
        alpha: Option<u64>,
    ) -> Result<Arc<dyn NodeHasher>, HashError> {
        let a = self.resolve_alpha(alpha)?;
        if !(2..=16).contains(&arity) {
            return Err(HashError::UnsupportedArity {
                family: self.name(),
                arity,
                supported: (2..=16).collect(),
            });
        }
        match self {
            HashFamily::Poseidon => poseidon::node_hasher(arity),
            HashFamily::Poseidon2 => poseidon2::node_hasher(arity, a),
            HashFamily::Poseidon2Gnark => poseidon2_gnark::node_hasher(arity),
            HashFamily::MimcSponge => mimc_sponge::node_hasher(arity),
            HashFamily::Mimc7 => mimc7::node_hasher(arity),
            HashFamily::Gmimc => gmimc::node_hasher(arity),
            HashFamily::Neptune => neptune::node_hasher(arity),
            HashFamily::RescuePrime => rescue_prime::node_hasher(arity),
            HashFamily::Griffin => griffin::node_hasher(arity),
            HashFamily::Anemoi => anemoi::node_hasher(arity),
        }
    }
}

impl fmt::Display for HashFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HashFamily {
    type Err = HashError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm = s.to_ascii_lowercase().replace('_', "-");
        let alias = match norm.as_str() {
            "mimcsponge" | "mimc" => "mimc-sponge",
            "rescue" | "rescueprime" | "rescue-prime" => "rescue-prime",
            "mimc-7" => "mimc7",
            other => other,
        };
        HashFamily::ALL
            .into_iter()
            .find(|f| f.name() == alias)
            .ok_or_else(|| HashError::UnknownFamily {
                given: s.to_string(),
                known: HashFamily::ALL
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in HashFamily::ALL {
            assert_eq!(f.name().parse::<HashFamily>().unwrap(), f);
        }
        assert!(matches!(
            "sha256".parse::<HashFamily>(),
            Err(HashError::UnknownFamily { .. })
        ));
    }
}
