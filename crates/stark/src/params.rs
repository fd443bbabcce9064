//! The STARK configuration: hiding FRI over BabyBear with Keccak-256 Merkle
//! commitments, and the FRI parameters of the two security levels.
//!
//! Commitments are Plonky3's `MerkleTreeHidingMmcs` (a row is hashed as
//! Keccak-256 of its elements' 4-byte encodings, nodes as Keccak-256 of the
//! two child digests, 32-byte digests, 4 salt limbs per leaf) and the PCS is
//! `HidingFriPcs` (5 random codewords), so a proof reveals nothing of the
//! witness beyond the public values (FRI of Ben-Sasson, Bentov, Horesh and
//! Riabzev, ICALP 2018; the zero-knowledge variant as in Plonky3). The
//! Fiat–Shamir transcript is Keccak-256 too (`SerializingChallenger32`).
//! Challenges are drawn from the quintic extension of BabyBear (~154 bits).
//!
//! Why Keccak and not Poseidon2 for the commitments: the statement's own
//! tree hash (inside the AIR) stays Poseidon2, but hashing the committed
//! rows was ~60% of the prover's time with Poseidon2 over scalar BabyBear
//! (this workspace builds without AVX2/AVX-512, which Plonky3's packed
//! BabyBear needs at compile time); Keccak-256 hashes a 333-limb row in ~10
//! permutations instead of 42, and it is the EVM's native hash.
//!
//! The security level printed with every record (`metrics.security_bits`)
//! is what Plonky3's own calculator (`p3_uni_stark::ConjecturedSecurity`,
//! the "random words" conjecture of ePrint 2025/2010 §1.5, which also caps
//! by the extension field and the commitment hash's collision resistance)
//! gives for this AIR, these parameters and the trace length: it is a
//! conjectured level, not a proven one. Its binding term here is the FRI
//! query phase, `q·(−log2(ρ + η)) + pow` bits for `q` queries at rate
//! `ρ = 2^−log_blowup` with `η = ρ·log2(e/ρ)/154` (ethSTARK's older
//! `q·log_blowup + pow` is slightly higher), capped by the commitments'
//! collision resistance (128 bits) — see [`query_phase_bits`].

use p3_challenger::{HashChallenger, SerializingChallenger32};
use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::{extension::BinomialExtensionField, PrimeField32};
use p3_fri::{FriParameters, HidingFriPcs};
use p3_keccak::Keccak256Hash;
use p3_merkle_tree::MerkleTreeHidingMmcs;
use p3_security::fri::FriRegime;
use p3_symmetric::{CompressionFunctionFromHasher, SerializingHasher};
use p3_uni_stark::{
    ConjecturedSecurity, OpeningShape, StarkConfig, StarkGenericConfig, StarkSecurityParams,
};
use rand_p3::{rngs::StdRng, SeedableRng};

use crate::air::NoteAir;
use crate::native::Val;

/// The challenge field: the quintic extension of BabyBear (`x⁵ − 2`, ~154
/// bits; the quartic one, ~123 bits, would cap the AIR-composition and
/// DEEP-ALI terms near 112 bits).
pub type Challenge = BinomialExtensionField<Val, 5>;
/// Bytes of a commitment digest (Keccak-256).
pub const DIGEST_BYTES: usize = 32;
/// Keccak-256 of a row's field elements (4 little-endian bytes each).
type Hash = SerializingHasher<Keccak256Hash>;
/// Keccak-256 of two child digests.
type Compress = CompressionFunctionFromHasher<Keccak256Hash, 2, DIGEST_BYTES>;
type ValMmcs = MerkleTreeHidingMmcs<Val, u8, Hash, Compress, StdRng, 2, DIGEST_BYTES, 4>;
type ChallengeMmcs = ExtensionMmcs<Val, Challenge, ValMmcs>;
type Challenger = SerializingChallenger32<Val, HashChallenger<u8, Keccak256Hash, DIGEST_BYTES>>;
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
    /// About 128 bits (the commitments' collision resistance caps it at
    /// 128; see [`security_bits`]).
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
    /// log2 of the FRI folding arity (1: halve the domain per round).
    pub max_log_arity: usize,
    /// log2 of the length of the final polynomial sent in the clear.
    pub log_final_poly_len: usize,
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
    /// hides what the queries open: `2·(5·2 + q) ≤ 128`). Both grind 8 bits
    /// (256 Keccak tries, well under a millisecond) rather than 16 (tens of
    /// milliseconds on two cores) and pay the 4 bits' difference in queries;
    /// folding by 4 with a final polynomial of 4 coefficients makes proofs
    /// ~7% smaller than folding by 2 down to a constant at the same cost.
    pub const fn fri(self) -> FriSettings {
        match self {
            SecurityLevel::Bits100 => FriSettings {
                log_blowup: 2,
                num_queries: 48,
                query_pow_bits: 8,
                commit_pow_bits: 0,
                max_log_arity: 2,
                log_final_poly_len: 2,
            },
            SecurityLevel::Bits128 => FriSettings {
                log_blowup: 3,
                num_queries: 41,
                query_pow_bits: 8,
                commit_pow_bits: 0,
                max_log_arity: 2,
                log_final_poly_len: 2,
            },
        }
    }
}

fn fri_parameters(f: FriSettings, mmcs: ChallengeMmcs) -> FriParameters<ChallengeMmcs> {
    FriParameters {
        log_blowup: f.log_blowup,
        log_final_poly_len: f.log_final_poly_len,
        max_log_arity: f.max_log_arity,
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
    config_with(level.fri(), seed)
}

/// The configuration with FRI settings `f` (the levels' settings are
/// [`SecurityLevel::fri`]; other settings serve parameter studies).
pub fn config_with(f: FriSettings, seed: u64) -> Config {
    let mmcs = mmcs(seed);
    let fri = fri_parameters(f, ChallengeMmcs::new(mmcs.clone()));
    let pcs = Pcs::new(
        Dft::default(),
        mmcs,
        fri,
        RANDOM_CODEWORDS,
        StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15),
    );
    Config::new(pcs, challenger())
}

/// The Fiat–Shamir challenger: Keccak-256 over the transcript's bytes.
fn challenger() -> Challenger {
    Challenger::from_hasher(Vec::new(), Keccak256Hash)
}

/// The FRI query phase's conjectured bits for settings `f` (the term that
/// binds [`security_bits`] below the collision cap): `q·(−log2(ρ + η)) +
/// pow` with `ρ = 2^−log_blowup` and `η = ρ·log2(e/ρ)/m`, `m` the challenge
/// field's bits (ePrint 2025/2010 §1.5, as `p3_security::fri` computes it).
pub fn query_phase_bits(f: FriSettings) -> f64 {
    let rho = (-(f.log_blowup as f64)).exp2();
    let eta = rho * (std::f64::consts::LOG2_E + f.log_blowup as f64) / field_bits(5) as f64;
    f.num_queries as f64 * -(rho + eta).log2() + f.query_pow_bits as f64
}

/// The commitments' collision resistance in bits (half the digest).
pub const COLLISION_BITS: usize = DIGEST_BYTES * 8 / 2;

/// Bits of `log2 |F|` for `limbs` base-field elements (rounded down).
fn field_bits(limbs: usize) -> usize {
    (limbs as f64 * (Val::ORDER_U32 as f64).log2()).floor() as usize
}

/// The conjectured security of `air` at `level`, in bits, by Plonky3's
/// calculator (FRI parameters, AIR shape, trace length, extension field,
/// and the commitments' collision resistance, half their digest bits).
pub fn security_bits(level: SecurityLevel, air: &NoteAir) -> usize {
    security_bits_with(level.fri(), air)
}

/// The conjectured security of `air` with FRI settings `f`, in bits.
pub fn security_bits_with(f: FriSettings, air: &NoteAir) -> usize {
    let degree_bits = air.height().trailing_zeros() as usize + 1;
    ConjecturedSecurity::compute_from_params(&security_params(f, air), degree_bits).security_bits
}

/// The inputs of Plonky3's security calculator for `air` with FRI settings `f`.
pub fn security_params(f: FriSettings, air: &NoteAir) -> StarkSecurityParams {
    let cfg = config_with(f, 0);
    let regime = FriRegime {
        log_blowup: f.log_blowup,
        num_queries: f.num_queries,
        log_final_poly_len: f.log_final_poly_len,
        max_log_arity: f.max_log_arity,
        commit_pow_bits: f.commit_pow_bits,
        query_pow_bits: f.query_pow_bits,
    };
    let domain = <Pcs as p3_commit::Pcs<Challenge, Challenger>>::natural_domain_for_degree(
        cfg.pcs(),
        air.height(),
    );
    let grinding = fri_parameters(f, ChallengeMmcs::new(mmcs(0))).grinding_sites();
    StarkSecurityParams::from_air::<Val, Challenge, _>(
        regime,
        air,
        p3_air::symbolic::AirLayout::from_air(air),
        domain,
        field_bits(5),
        COLLISION_BITS,
        2,
        OpeningShape::hiding(RANDOM_CODEWORDS),
        grinding,
    )
}

/// The hiding Merkle commitment with salts from `seed`.
fn mmcs(seed: u64) -> ValMmcs {
    ValMmcs::new(
        Hash::new(Keccak256Hash),
        Compress::new(Keccak256Hash),
        0,
        StdRng::seed_from_u64(seed),
    )
}
