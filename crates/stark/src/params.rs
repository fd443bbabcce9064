//! The STARK configuration: hiding FRI over BabyBear with Poseidon2 Merkle
//! commitments, and the FRI parameters of the two security levels.
//!
//! Commitments are Plonky3's `MerkleTreeHidingMmcs` (rows hashed with the
//! Poseidon2 sponge, rate 8, nodes with the truncated permutation, 8-limb
//! digests, 4 salt limbs per leaf) and the PCS is `HidingFriPcs` (4 random
//! codewords), so a proof reveals nothing of the witness beyond the public
//! values (FRI of Ben-Sasson, Bentov, Horesh and Riabzev, ICALP 2018; the
//! zero-knowledge variant as in Plonky3). Challenges are drawn from the
//! quartic extension of BabyBear (~124 bits).
//!
//! The security level printed with every record (`metrics.security_bits`)
//! is what Plonky3's own calculator (`p3_uni_stark::ConjecturedSecurity`,
//! the "random words" conjecture of ePrint 2025/2010 §1.5, which also caps
//! by the extension field and the commitment hash's collision resistance)
//! gives for this AIR, these parameters and the trace length: it is a
//! conjectured level, not a proven one.

use p3_baby_bear::Poseidon2BabyBear;
use p3_challenger::DuplexChallenger;
use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::{extension::BinomialExtensionField, Field, PrimeField32};
use p3_fri::{FriParameters, HidingFriPcs};
use p3_merkle_tree::MerkleTreeHidingMmcs;
use p3_security::fri::FriRegime;
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};
use p3_uni_stark::{
    ConjecturedSecurity, OpeningShape, StarkConfig, StarkGenericConfig, StarkSecurityParams,
};
use rand_p3::{rngs::StdRng, SeedableRng};

use crate::air::NoteAir;
use crate::native::{permutation, Val, DIGEST};

/// The challenge field: the quintic extension of BabyBear (`x⁵ − 2`, ~154
/// bits; the quartic one, ~123 bits, would cap the AIR-composition and
/// DEEP-ALI terms near 112 bits).
pub type Challenge = BinomialExtensionField<Val, 5>;
type Perm = Poseidon2BabyBear<16>;
type Hash = PaddingFreeSponge<Perm, 16, 8, DIGEST>;
type Compress = TruncatedPermutation<Perm, 2, DIGEST, 16>;
type ValMmcs = MerkleTreeHidingMmcs<
    <Val as Field>::Packing,
    <Val as Field>::Packing,
    Hash,
    Compress,
    StdRng,
    2,
    DIGEST,
    4,
>;
type ChallengeMmcs = ExtensionMmcs<Val, Challenge, ValMmcs>;
type Challenger = DuplexChallenger<Val, Perm, 16, 8>;
type Dft = Radix2DitParallel<Val>;
type Pcs = HidingFriPcs<Val, Dft, ValMmcs, ChallengeMmcs, StdRng>;
/// The STARK configuration (PCS, challenge field, Fiat–Shamir challenger).
pub type Config = StarkConfig<Pcs, Challenge, Challenger>;

/// Random codewords of the hiding PCS (at least the extension degree).
const RANDOM_CODEWORDS: usize = 5;

/// A conjectured security level and its FRI parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SecurityLevel {
    /// About 100 bits: comparable to BN254's pairing-based systems.
    Bits100,
    /// About 128 bits (capped near 123 by the quartic extension field and
    /// the 8-limb digests; see [`security_bits`]).
    Bits128,
}

/// FRI parameters of a [`SecurityLevel`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FriSettings {
    /// log2 of the blowup (rate `2^-log_blowup`).
    pub log_blowup: usize,
    /// Queries.
    pub num_queries: usize,
    /// Proof-of-work bits before the queries.
    pub query_pow_bits: usize,
    /// Proof-of-work bits before each folding challenge.
    pub commit_pow_bits: usize,
}

impl SecurityLevel {
    /// Both levels.
    pub const ALL: [SecurityLevel; 2] = [SecurityLevel::Bits100, SecurityLevel::Bits128];

    /// The level aimed at, in bits.
    pub const fn target_bits(self) -> usize {
        match self {
            SecurityLevel::Bits100 => 100,
            SecurityLevel::Bits128 => 128,
        }
    }

    /// Its FRI parameters: blowup 4 at 100 bits (the AIR's constraints have
    /// degree 3 and the hiding PCS needs the quotient to fit the blowup),
    /// blowup 8 at 128 bits (fewer queries, so that the 128-row trace still
    /// hides what the queries open).
    pub const fn fri(self) -> FriSettings {
        match self {
            SecurityLevel::Bits100 => FriSettings {
                log_blowup: 2,
                num_queries: 44,
                query_pow_bits: 16,
                commit_pow_bits: 0,
            },
            SecurityLevel::Bits128 => FriSettings {
                log_blowup: 3,
                num_queries: 38,
                query_pow_bits: 16,
                commit_pow_bits: 0,
            },
        }
    }
}

fn fri_parameters(level: SecurityLevel, mmcs: ChallengeMmcs) -> FriParameters<ChallengeMmcs> {
    let f = level.fri();
    FriParameters {
        log_blowup: f.log_blowup,
        log_final_poly_len: 0,
        max_log_arity: 1,
        num_queries: f.num_queries,
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: f.commit_pow_bits,
        query_proof_of_work_bits: f.query_pow_bits,
        mmcs,
    }
}

/// The configuration of `level`; `seed` seeds the prover's zero-knowledge
/// randomness (Merkle salts, random codewords); a verifier may pass any seed.
pub fn config(level: SecurityLevel, seed: u64) -> Config {
    let mmcs = mmcs(seed);
    let fri = fri_parameters(level, ChallengeMmcs::new(mmcs.clone()));
    let pcs = Pcs::new(
        Dft::default(),
        mmcs,
        fri,
        RANDOM_CODEWORDS,
        StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15),
    );
    Config::new(pcs, Challenger::new(permutation().clone()))
}

/// Bits of `log2 |F|` for `limbs` base-field elements (rounded down).
fn field_bits(limbs: usize) -> usize {
    (limbs as f64 * (Val::ORDER_U32 as f64).log2()).floor() as usize
}

/// The conjectured security of `air` at `level`, in bits, by Plonky3's
/// calculator (FRI parameters, AIR shape, trace length, extension field,
/// and the commitments' collision resistance, half their digest bits).
pub fn security_bits(level: SecurityLevel, air: &NoteAir) -> usize {
    let degree_bits = air.height().trailing_zeros() as usize + 1;
    ConjecturedSecurity::compute_from_params(&security_params(level, air), degree_bits)
        .security_bits
}

/// The inputs of Plonky3's security calculator for `air` at `level`.
pub fn security_params(level: SecurityLevel, air: &NoteAir) -> StarkSecurityParams {
    let f = level.fri();
    let cfg = config(level, 0);
    let regime = FriRegime {
        log_blowup: f.log_blowup,
        num_queries: f.num_queries,
        log_final_poly_len: 0,
        max_log_arity: 1,
        commit_pow_bits: f.commit_pow_bits,
        query_pow_bits: f.query_pow_bits,
    };
    let domain = <Pcs as p3_commit::Pcs<Challenge, Challenger>>::natural_domain_for_degree(
        cfg.pcs(),
        air.height(),
    );
    let grinding = fri_parameters(level, ChallengeMmcs::new(mmcs(0))).grinding_sites();
    StarkSecurityParams::from_air::<Val, Challenge, _>(
        regime,
        air,
        p3_air::symbolic::AirLayout::from_air(air),
        domain,
        field_bits(5),
        field_bits(DIGEST) / 2,
        2,
        OpeningShape::hiding(RANDOM_CODEWORDS),
        grinding,
    )
}

/// The hiding Merkle commitment with salts from `seed`.
fn mmcs(seed: u64) -> ValMmcs {
    let perm = permutation().clone();
    ValMmcs::new(
        Hash::new(perm.clone()),
        Compress::new(perm),
        0,
        StdRng::seed_from_u64(seed),
    )
}
