//! How the prover's fixed-base tables hold their points: as the raw
//! Montgomery-form limbs of the coordinates, the same bytes in memory as in
//! the prover cache file (`zkbench_groth16::prover_cache`).
//!
//! A table of a proving key holds `n·⌈256/c⌉` affine points (tens of MiB for
//! a few thousand constraints). Held as `Vec<Affine<P>>`, loading one from
//! disk decoded every point into a freshly allocated vector: a page fault per
//! 4 KiB and a pass over every coordinate, about half of the time of a proof
//! (a key format that loads fast is what a cold proof needs). Held as
//! bytes, loading is one `read` from the file straight into the table's
//! memory, and the prover builds each point it adds from its limbs
//! ([`RawCurve::get`]: eight or sixteen little-endian loads, which is what
//! copying an `Affine` costs anyway).
//!
//! The bytes are either the table's own (`Vec<u8>`: tables built by a setup
//! or decoded from a borrowed byte string) or a range of a shared, read-only
//! backing ([`Backing`]): the whole prover cache file, memory-mapped on Unix
//! (`zkbench_groth16::mapped`) or read into one buffer elsewhere. Mapped, a cold
//! load costs no copy at all: the table points are the page cache's pages,
//! mapped in as the checksum reads them (3 ms for the 47 MB cache of the
//! gnark-Poseidon2 membership key, against 19 ms to read it into fresh
//! memory, where every 4 KiB page is a fault).
//!
//! An anonymous mapping advised to use transparent huge pages
//! (`MADV_HUGEPAGE`) was tried for owned tables and dropped: in a process
//! that had already allocated and freed a lot (the benchmark harness after a
//! setup), filling it took 40–95 ms instead of 31–33 ms, and proving from it
//! was no faster.
//!
//! Layout per point: `x` then `y`, each coordinate as its base-field
//! elements (`Fq`: `c0`; `Fq2`: `c0`, `c1`), each element as 4 × u64 LE
//! limbs of its Montgomery form (`Fp::0.0`, R = 2^256), no infinity flag
//! (tables never hold the point at infinity).

use crate::field::fq_mul;
use ark_bn254::{Fq, Fq2, G1Affine, G2Affine};
use ark_ec::scalar_mul::glv::GLVConfig;
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ff::{BigInt, PrimeField};

/// A curve whose affine points are stored as raw Montgomery limbs (and
/// whose endomorphism splits scalars, [`crate::glv`]).
pub trait RawCurve: SWCurveConfig + GLVConfig<ScalarField = ark_bn254::Fr> {
    /// u64 words per point.
    const WORDS: usize;
    /// Bytes per point.
    const BYTES: usize = Self::WORDS * 8;
    /// Cost of one batched affine addition relative to one in G1 (an `Fq2`
    /// multiplication is about three `Fq` ones): what [`mod@crate::split`]
    /// weighs pieces by.
    const ADD_COST: f64;
    /// Writes the point's limbs into exactly [`Self::BYTES`] bytes.
    fn put(p: &Affine<Self>, out: &mut [u8]);
    /// The point from exactly [`Self::BYTES`] bytes, unchecked: limbs are
    /// taken as they are (the writer wrote reduced ones; a damaged table can
    /// only make the prover's output an invalid proof, never a panic).
    fn get(bytes: &[u8]) -> Affine<Self>;
    /// The point from exactly [`Self::BYTES`] bytes, `None` if a coordinate
    /// is not below the modulus.
    fn get_checked(bytes: &[u8]) -> Option<Affine<Self>>;
    /// The image under the endomorphism `φ(x, y) = (ω·x, y)`
    /// (`GLVConfig::endomorphism_affine`) of the point in `bytes`, into
    /// `out`: the same raw limbs with `x` multiplied by `ω` (the MSM's own
    /// field products, [`crate::field`]: in WebAssembly a third of
    /// ark-ff's time).
    fn put_image(bytes: &[u8], out: &mut [u8]);
}

/// `ω`, the endomorphism's cube root of unity, in `Fq` (G2's is an `Fq2`
/// with no `c1`, checked by the tests).
fn omega<P: GLVConfig>(c0: impl Fn(&P::BaseField) -> Fq) -> Fq {
    c0(&P::ENDO_COEFFS[0])
}

fn put_fq(x: &Fq, out: &mut [u8]) {
    for (l, o) in x.0 .0.iter().zip(out.chunks_exact_mut(8)) {
        o.copy_from_slice(&l.to_le_bytes());
    }
}

#[inline(always)]
fn limbs(b: &[u8]) -> BigInt<4> {
    let w = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    BigInt::new([w(0), w(1), w(2), w(3)])
}

#[inline(always)]
fn get_fq(b: &[u8]) -> Fq {
    Fq::new_unchecked(limbs(b))
}

fn get_fq_checked(b: &[u8]) -> Option<Fq> {
    let l = limbs(b);
    (l < Fq::MODULUS).then(|| Fq::new_unchecked(l))
}

impl RawCurve for ark_bn254::g1::Config {
    const WORDS: usize = 8;
    const ADD_COST: f64 = 1.0;
    fn put(p: &G1Affine, out: &mut [u8]) {
        put_fq(&p.x, &mut out[..32]);
        put_fq(&p.y, &mut out[32..64]);
    }
    #[inline(always)]
    fn get(b: &[u8]) -> G1Affine {
        let b = &b[..64];
        G1Affine::new_unchecked(get_fq(&b[..32]), get_fq(&b[32..]))
    }
    fn get_checked(b: &[u8]) -> Option<G1Affine> {
        Some(G1Affine::new_unchecked(
            get_fq_checked(&b[..32])?,
            get_fq_checked(&b[32..64])?,
        ))
    }
    fn put_image(b: &[u8], out: &mut [u8]) {
        let w = omega::<Self>(|x| *x);
        put_fq(&fq_mul(&get_fq(&b[..32]), &w), &mut out[..32]);
        out[32..64].copy_from_slice(&b[32..64]);
    }
}

impl RawCurve for ark_bn254::g2::Config {
    const WORDS: usize = 16;
    const ADD_COST: f64 = 3.0;
    fn put(p: &G2Affine, out: &mut [u8]) {
        for (c, o) in [&p.x.c0, &p.x.c1, &p.y.c0, &p.y.c1]
            .into_iter()
            .zip(out.chunks_exact_mut(32))
        {
            put_fq(c, o);
        }
    }
    #[inline(always)]
    fn get(b: &[u8]) -> G2Affine {
        let b = &b[..128];
        G2Affine::new_unchecked(
            Fq2::new(get_fq(&b[..32]), get_fq(&b[32..64])),
            Fq2::new(get_fq(&b[64..96]), get_fq(&b[96..])),
        )
    }
    fn get_checked(b: &[u8]) -> Option<G2Affine> {
        let x = Fq2::new(get_fq_checked(&b[..32])?, get_fq_checked(&b[32..64])?);
        let y = Fq2::new(get_fq_checked(&b[64..96])?, get_fq_checked(&b[96..128])?);
        Some(G2Affine::new_unchecked(x, y))
    }
    fn put_image(b: &[u8], out: &mut [u8]) {
        let w = omega::<Self>(|x| x.c0);
        put_fq(&fq_mul(&get_fq(&b[..32]), &w), &mut out[..32]);
        put_fq(&fq_mul(&get_fq(&b[32..64]), &w), &mut out[32..64]);
        out[64..128].copy_from_slice(&b[64..128]);
    }
}

/// Read-only bytes that several tables share (a mapped file, or a file read
/// whole): tables hold an `Arc` of it and a range.
pub trait Backing: AsRef<[u8]> + Send + Sync {}

impl<T: AsRef<[u8]> + Send + Sync> Backing for T {}

/// The bytes of a table's points (see the module docs): owned, or a range of
/// a shared read-only [`Backing`].
pub struct PointBytes(Store);

enum Store {
    Owned(Vec<u8>),
    Shared(std::sync::Arc<dyn Backing>, std::ops::Range<usize>),
}

impl PointBytes {
    /// `len` zero bytes of its own.
    pub fn zeroed(len: usize) -> Self {
        Self(Store::Owned(vec![0; len]))
    }

    /// `bytes`, owned.
    pub fn owned(bytes: Vec<u8>) -> Self {
        Self(Store::Owned(bytes))
    }

    /// The bytes `range` of `backing`, shared (no copy), or `None` if the
    /// range is not within it.
    pub fn shared(
        backing: std::sync::Arc<dyn Backing>,
        range: std::ops::Range<usize>,
    ) -> Option<Self> {
        let len = (*backing).as_ref().len();
        (range.start <= range.end && range.end <= len)
            .then_some(Self(Store::Shared(backing, range)))
    }

    /// Whether the bytes are a range of a shared backing.
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Store::Shared(..))
    }

    /// The bytes, writable: shared bytes are first copied into bytes of the
    /// table's own (the backing is read-only), so this never fails.
    pub fn make_mut(&mut self) -> &mut [u8] {
        if let Store::Shared(..) = self.0 {
            self.0 = Store::Owned(self.to_vec());
        }
        match &mut self.0 {
            Store::Owned(v) => v,
            Store::Shared(..) => unreachable!("made owned above"),
        }
    }
}

impl std::ops::Deref for PointBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Store::Owned(v) => v,
            Store::Shared(b, r) => &(**b).as_ref()[r.clone()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::AffineRepr;
    use ark_ff::UniformRand;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn round_trip<P: RawCurve>(p: Affine<P>) {
        let mut b = vec![0u8; P::BYTES];
        P::put(&p, &mut b);
        assert_eq!(P::get(&b), p);
        assert_eq!(P::get_checked(&b), Some(p));
        // the image in raw limbs is arkworks' endomorphism
        let mut image = vec![0u8; P::BYTES];
        P::put_image(&b, &mut image);
        assert_eq!(P::get(&image), P::endomorphism_affine(&p));
    }

    #[test]
    fn points_round_trip_through_their_limbs() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for _ in 0..20 {
            round_trip(G1Affine::rand(&mut rng));
            round_trip(G2Affine::rand(&mut rng));
        }
        round_trip(G1Affine::generator());
        round_trip(G2Affine::generator());
    }

    #[test]
    fn unreduced_coordinates_are_refused_by_the_checked_read() {
        let mut b = vec![0u8; 64];
        ark_bn254::g1::Config::put(&G1Affine::generator(), &mut b);
        // y := the modulus itself (not a canonical limb vector)
        for (l, o) in Fq::MODULUS.0.iter().zip(b[32..].chunks_exact_mut(8)) {
            o.copy_from_slice(&l.to_le_bytes());
        }
        assert!(ark_bn254::g1::Config::get_checked(&b).is_none());
    }

    #[test]
    fn large_and_small_stores_are_zeroed_and_writable() {
        for len in [0, 1, 100, 5 << 20] {
            let mut s = PointBytes::zeroed(len);
            assert_eq!(s.len(), len);
            assert!(s.iter().all(|&x| x == 0));
            if len > 0 {
                s.make_mut()[len - 1] = 7;
                assert_eq!(s[len - 1], 7);
            }
        }
    }

    #[test]
    fn shared_ranges_read_their_backing_and_copy_on_write() {
        let backing: std::sync::Arc<dyn Backing> =
            std::sync::Arc::new((0..=255u8).collect::<Vec<u8>>());
        let mut s = PointBytes::shared(backing.clone(), 10..20).unwrap();
        assert!(s.is_shared());
        assert_eq!(&s[..], &(10..20).collect::<Vec<u8>>()[..]);
        s.make_mut()[0] = 0;
        assert!(!s.is_shared());
        assert_eq!(s[0], 0);
        assert_eq!((*backing).as_ref()[10], 10, "the backing is never written");
        for bad in [250..257, 300..301] {
            assert!(PointBytes::shared(backing.clone(), bad).is_none());
        }
    }
}
