//! FRI polynomial commitments of Plonky3 (`case.system` = `plonky3`,
//! crates.io release 0.8.0), set up as `p3-fri`'s own tests set up a
//! `TwoAdicFriPcs`:
//!
//! * `fri-babybear`: BabyBear values, challenges in its degree-4 extension,
//!   Merkle trees of `p3-merkle-tree` hashing with Poseidon2 (width 16,
//!   `PaddingFreeSponge` rate 8, 8-element digests, `TruncatedPermutation`
//!   compression), the parallel radix-2 DIT DFT of `p3-dft`;
//! * `fri-goldilocks`: the same over Goldilocks (quadratic extension,
//!   Poseidon2 width 8, 4-element digests).
//!
//! Both use blowup 2 (`log_blowup` 1), binary folding down to a constant,
//! 100 queries and 16 bits of proof-of-work before the queries. A
//! polynomial of `size` coefficients is one column of `size` evaluations on
//! the two-adic subgroup; commit is its low-degree extension and Merkle tree,
//! open evaluates it at a challenge point outside the domain with a FRI proof,
//! verify checks that proof. `proof_bytes` is the proof's postcard encoding
//! plus the commitment.

use std::time::Instant;

use p3_baby_bear::{default_babybear_poseidon2_16, BabyBear, Poseidon2BabyBear};
use p3_challenger::{CanObserve, DuplexChallenger, FieldChallenger};
use p3_commit::{ExtensionMmcs, Pcs};
use p3_dft::Radix2DitParallel;
use p3_field::{extension::BinomialExtensionField, Field, PrimeCharacteristicRing};
use p3_fri::{FriParameters, TwoAdicFriPcs};
use p3_goldilocks::{default_goldilocks_poseidon2_8, Goldilocks, Poseidon2Goldilocks};
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkbench_core::Metrics;

use crate::{pcs::Pcs as ZkPcs, Error};

/// FRI parameters of both fields (see the module documentation).
fn fri_parameters<M>(mmcs: M) -> FriParameters<M> {
    FriParameters {
        log_blowup: 1,
        log_final_poly_len: 0,
        max_log_arity: 1,
        num_queries: 100,
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: 0,
        query_proof_of_work_bits: 16,
        mmcs,
    }
}

macro_rules! fri_scheme {
    (
        $(#[$doc:meta])* $name:ident, mod $m:ident, val = $val:ty, challenge = $ch:ty,
        perm = $perm:ty, new_perm = $new_perm:path, width = $w:literal, rate = $rate:literal,
        digest = $digest:literal
    ) => {
        mod $m {
            use super::*;
            pub type Val = $val;
            pub type Challenge = $ch;
            pub type Perm = $perm;
            pub type Hash = PaddingFreeSponge<Perm, $w, $rate, $digest>;
            pub type Compress = TruncatedPermutation<Perm, 2, $digest, $w>;
            pub type ValMmcs = MerkleTreeMmcs<
                <Val as Field>::Packing,
                <Val as Field>::Packing,
                Hash,
                Compress,
                2,
                $digest,
            >;
            pub type ChallengeMmcs = ExtensionMmcs<Val, Challenge, ValMmcs>;
            pub type Dft = Radix2DitParallel<Val>;
            pub type Challenger = DuplexChallenger<Val, Perm, $w, $rate>;
            pub type MyPcs = TwoAdicFriPcs<Val, Dft, ValMmcs, ChallengeMmcs>;
            pub type Commitment = <MyPcs as Pcs<Challenge, Challenger>>::Commitment;
            pub type Data = <MyPcs as Pcs<Challenge, Challenger>>::ProverData;
            pub type Proof = <MyPcs as Pcs<Challenge, Challenger>>::Proof;
            pub type Domain = <MyPcs as Pcs<Challenge, Challenger>>::Domain;

            pub fn setup() -> (MyPcs, Challenger) {
                let perm: Perm = $new_perm();
                let val_mmcs = ValMmcs::new(Hash::new(perm.clone()), Compress::new(perm.clone()), 0);
                let challenge_mmcs = ChallengeMmcs::new(val_mmcs.clone());
                let pcs = MyPcs::new(Dft::default(), val_mmcs, fri_parameters(challenge_mmcs));
                (pcs, Challenger::new(perm))
            }
        }

        $(#[$doc])*
        pub struct $name {
            k: u32,
            pcs: $m::MyPcs,
            challenger: $m::Challenger,
            domain: $m::Domain,
            values: Vec<$m::Val>,
            committed: Option<($m::Commitment, $m::Data)>,
            opened: Option<($m::Challenge, $m::Proof)>,
            setup_s: f64,
        }

        impl $name {
            /// A polynomial of `2^k` random evaluations.
            pub fn new(k: u32) -> Result<Self, Error> {
                let t = Instant::now();
                let (pcs, challenger) = $m::setup();
                let n = 1usize << k;
                let domain = <$m::MyPcs as Pcs<$m::Challenge, $m::Challenger>>::natural_domain_for_degree(&pcs, n);
                let mut rng = ChaCha20Rng::seed_from_u64(13);
                let values: Vec<$m::Val> =
                    (0..n).map(|_| <$m::Val>::from_u64(rng.gen())).collect();
                Ok(Self {
                    k,
                    pcs,
                    challenger,
                    domain,
                    values,
                    committed: None,
                    opened: None,
                    setup_s: t.elapsed().as_secs_f64(),
                })
            }

            /// Commits (low-degree extension and Merkle tree) to a copy of
            /// the evaluations (`commit` takes them by value; the copy is a
            /// memcpy, inside the timing).
            pub fn commit(&mut self) -> Result<(), Error> {
                let m = RowMajorMatrix::new(self.values.clone(), 1);
                // drop the previous commitment first: peak memory of one
                self.committed = None;
                let c = <$m::MyPcs as Pcs<$m::Challenge, $m::Challenger>>::commit(
                    &self.pcs,
                    [(self.domain, m)],
                )
                .map_err(|e| Error::Run(format!("commit: {e:?}")))?;
                self.committed = Some(c);
                Ok(())
            }

            fn challenger_after(&self, c: &$m::Commitment) -> ($m::Challenger, $m::Challenge) {
                let mut ch = self.challenger.clone();
                ch.observe(c.clone());
                let zeta: $m::Challenge = ch.sample_algebra_element();
                (ch, zeta)
            }

            /// Opens the committed polynomial at a challenge point.
            pub fn open(&mut self) -> Result<(), Error> {
                let (c, data) = self
                    .committed
                    .as_ref()
                    .ok_or_else(|| Error::Run("open before commit".into()))?;
                let (mut ch, zeta) = self.challenger_after(c);
                let (opened, proof) = <$m::MyPcs as Pcs<$m::Challenge, $m::Challenger>>::open(
                    &self.pcs,
                    vec![(data, vec![vec![zeta]]).into()],
                    &mut ch,
                )
                .map_err(|e| Error::Run(format!("open: {e:?}")))?;
                self.opened = Some((opened[0][0][0][0], proof));
                Ok(())
            }

            /// Verifies the opening; with `wrong_eval`, against the claimed
            /// value plus one (must be rejected).
            pub fn check(&self, wrong_eval: bool) -> Result<bool, Error> {
                let ((c, _), (value, proof)) = self
                    .committed
                    .as_ref()
                    .zip(self.opened.as_ref())
                    .ok_or_else(|| Error::Run("verify before open".into()))?;
                let (mut ch, zeta) = self.challenger_after(c);
                let mut value = *value;
                if wrong_eval {
                    value += <$m::Challenge>::ONE;
                }
                let claims = vec![(self.domain, vec![(zeta, vec![value])])];
                Ok(<$m::MyPcs as Pcs<$m::Challenge, $m::Challenger>>::verify(
                    &self.pcs,
                    vec![(c.clone(), claims).into()],
                    proof,
                    &mut ch,
                )
                .is_ok())
            }

            fn proof_bytes(&self) -> usize {
                let c = self
                    .committed
                    .as_ref()
                    .and_then(|(c, _)| postcard::to_allocvec(c).ok())
                    .map_or(0, |v| v.len());
                let p = self
                    .opened
                    .as_ref()
                    .and_then(|(_, p)| postcard::to_allocvec(p).ok())
                    .map_or(0, |v| v.len());
                c + p
            }
        }

        impl ZkPcs for $name {
            fn log_size(&self) -> u32 {
                self.k
            }

            fn setup_s(&self) -> f64 {
                self.setup_s
            }

            fn commit(&mut self) -> Result<(), Error> {
                $name::commit(self)
            }

            fn open(&mut self) -> Result<(), Error> {
                $name::open(self)
            }

            fn check(&self, wrong_eval: bool) -> Result<bool, Error> {
                $name::check(self, wrong_eval)
            }

            fn proof_bytes(&self) -> usize {
                $name::proof_bytes(self)
            }

            fn parameters(&self) -> Metrics {
                Metrics::from([
                    ("num_queries".into(), 100.0),
                    ("log_blowup".into(), 1.0),
                    ("query_pow_bits".into(), 16.0),
                ])
            }
        }
    };
}

fri_scheme!(
    /// FRI over BabyBear with Poseidon2 Merkle trees (Plonky3).
    FriBabyBear,
    mod babybear,
    val = BabyBear,
    challenge = BinomialExtensionField<BabyBear, 4>,
    perm = Poseidon2BabyBear<16>,
    new_perm = default_babybear_poseidon2_16,
    width = 16,
    rate = 8,
    digest = 8
);

fri_scheme!(
    /// FRI over Goldilocks with Poseidon2 Merkle trees (Plonky3).
    FriGoldilocks,
    mod goldilocks,
    val = Goldilocks,
    challenge = BinomialExtensionField<Goldilocks, 2>,
    perm = Poseidon2Goldilocks<8>,
    new_perm = default_goldilocks_poseidon2_8,
    width = 8,
    rate = 4,
    digest = 4
);
