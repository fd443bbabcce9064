//! # zkbench-hash
//!
//! ZK-friendly hash functions over the BN254 scalar field [`Fr`], each instance
//! matched to its reference implementation by known-answer tests
//! (`testdata/` at the workspace root).
//!
//! | module | construction | reference instance |
//! |---|---|---|
//! | [`poseidon`] | HADES, `x^5`, Cauchy MDS | circomlib / circomlibjs, t = 2..17 |
//! | [`poseidon2`] | Poseidon2, `x^5` and `x^7` | HorizenLabs BN254 (t = 2, 3, 4, 8, 12, 16); α = 7 instances from the paper's bounds |
//! | [`poseidon2_gnark`] | Poseidon2, `x^5`, t = 2, R_F = 6, R_P = 50, Keccak-chain keys | gnark-crypto `GetDefaultParameters` + `Compress` (the gnark peer's hash) |
//! | [`mimc_sponge`] | Feistel MiMC, `x^5`, 220 rounds | circomlib MiMCSponge (Tornado Cash) |
//! | [`mimc7`] | MiMC, `x^7`, 91 rounds | circomlib MiMC7 |
//! | [`gmimc`] | GMiMC-erf, t = 3, 226 rounds | Guo et al. (hanzeG/zklib_circom constants) |
//! | [`neptune`] | Neptune, t = 4, 6 + 68 rounds | Guo et al. (hanzeG/zklib_circom constants) |
//! | [`rescue_prime`] | Rescue-Prime, m = 2, 3 | Marvellous `rescue_prime.sage` |
//! | [`griffin`] | Griffin, t = 3, 4, 8 | zkfriendlyhashzoo / noir-griffin |
//! | [`anemoi`] | Anemoi + Jive, l = 1, 2 | AnemoiJive254 (Findora noah) |
//!
//! Every family implements the layered traits of [`traits`]:
//! [`Permutation`] → [`FieldHasher`] / [`NodeHasher`] → Merkle trees
//! (crate `zkbench-merkle`). [`HashFamily`] is the registry used by the CLI
//! and the benchmarks.
#![deny(missing_docs)]

pub mod error;
pub mod field;
pub mod grain;
pub mod registry;
pub mod rounds;
pub mod sponge;
pub mod traits;

mod cache;
#[cfg(test)]
mod test_support;

pub mod anemoi;
pub mod circom;
pub mod gmimc;
pub mod griffin;
pub mod mimc7;
pub mod mimc_sponge;
pub mod neptune;
pub mod poseidon;
pub mod poseidon2;
pub mod poseidon2_gnark;
pub mod rescue_prime;

pub use error::HashError;
pub use field::{fr_to_decimal, parse_fr, Fr};
pub use registry::HashFamily;
pub use sponge::{Sponge, SpongeNodeHasher};
pub use traits::{FieldHasher, NodeHasher, Params, Permutation};
