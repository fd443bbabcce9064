//! snarkjs powers-of-tau files (`.ptau`, BN254 only): reading real ceremony
//! files (Perpetual Powers of Tau, Hermez) and writing **test** files whose
//! τ, α, β come from a public seed.
//!
//! Format (snarkjs 0.7.6, `src/powersoftau_new.js`, `powersoftau_utils.js`,
//! `powersoftau_preparephase2.js`, `@iden3/binfileutils`): magic `ptau`,
//! version `1` (u32 LE), number of sections (u32 LE), then sections
//! `type (u32 LE) · size (u64 LE) · bytes`:
//!
//! | id | contents |
//! |---|---|
//! | 1 | header: `n8 = 32` (u32), the base-field modulus q (32 bytes LE), `power` (u32), `ceremonyPower` (u32) |
//! | 2 | τ^i·G1, i < 2·2^power − 1 |
//! | 3 | τ^i·G2, i < 2^power |
//! | 4 | α·τ^i·G1, i < 2^power |
//! | 5 | β·τ^i·G1, i < 2^power |
//! | 6 | β·G2 |
//! | 7 | contributions (count, then per contribution: τG1, τG2, αG1, βG1, βG2, the public key, a 216-byte partial BLAKE2b state, the next challenge hash, type, parameters (name ...)) |
//! | 12..15 | phase-2 preparation: for each p = 0..=power (section 12 also p = power + 1), the inverse FFT of sections 2..5's first 2^p points (the Lagrange basis at τ, times α or β) |
//!
//! Points are affine, each coordinate in Montgomery form, 32 bytes little
//! endian; G2 coordinates are `c0 ‖ c1`; (0, 0) is the point at infinity.
//!
//! [`write_test_ptau`] computes all of that from known scalars: the Lagrange
//! evaluations are inverse FFTs over scalars, then fixed-base batch
//! multiplications, so a power-16 file takes seconds instead of the 40+ minutes
//! of `snarkjs powersoftau new` + `prepare phase2` on two cores. Its one
//! contribution is a valid one (proofs of knowledge, hash chain), so
//! `snarkjs powersoftau verify` accepts the file; its name says
//! [`TEST_CONTRIBUTION_NAME`]: **τ is derivable from the seed; never use it
//! for anything but tests and benchmarks.**

use std::{
    io::{BufWriter, Read, Seek, SeekFrom, Write},
    path::Path,
};

use ark_bn254::{Fq, Fq2, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::{scalar_mul::BatchMulPreprocessing, AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{BigInt, BigInteger, Field, One, PrimeField, UniformRand, Zero};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use blake2::{Blake2b512, Digest};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Name of the contribution in files written by [`write_test_ptau`] (at most 64 bytes, snarkjs's limit).
pub const TEST_CONTRIBUTION_NAME: &str =
    "zkbench TEST SETUP: tau is public, never use in production";

/// Largest power accepted (BN254's scalar field has 2-adicity 28; section 12 needs power + 1).
pub const MAX_POWER: u32 = 27;

/// What is wrong with a `.ptau` file or a request.
#[derive(Debug, thiserror::Error)]
pub enum PtauError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// File.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// The file is not a well-formed BN254 powers-of-tau file.
    #[error("{path}: not a valid snarkjs .ptau file: {reason}")]
    Malformed {
        /// File.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The points do not form powers of one τ (damaged or forged file).
    #[error("{path}: the powers of tau are inconsistent: {reason}")]
    Inconsistent {
        /// File.
        path: String,
        /// Which check failed.
        reason: String,
    },
    /// A parameter is out of range.
    #[error("{0}")]
    Parameter(String),
}

/// One contribution's record (what zkbench uses of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contribution {
    /// The contributor's name, if given.
    pub name: Option<String>,
    /// 0 = contribution, 1 = random beacon.
    pub kind: u32,
}

/// The points of a `.ptau` file up to some power.
#[derive(Clone, Debug)]
pub struct Ptau {
    /// Power of the file's header (the file holds 2^power powers of τ in G2).
    pub power: u32,
    /// Power of the ceremony the file was cut from.
    pub ceremony_power: u32,
    /// Power of the points read (≤ `power`; see [`read_ptau`]'s `max_power`).
    pub read_power: u32,
    /// τ^i·G1, i < 2·2^read_power − 1.
    pub tau_g1: Vec<G1Affine>,
    /// τ^i·G2, i < 2^read_power.
    pub tau_g2: Vec<G2Affine>,
    /// α·τ^i·G1, i < 2^read_power.
    pub alpha_tau_g1: Vec<G1Affine>,
    /// β·τ^i·G1, i < 2^read_power.
    pub beta_tau_g1: Vec<G1Affine>,
    /// β·G2.
    pub beta_g2: G2Affine,
    /// The contributions, oldest first.
    pub contributions: Vec<Contribution>,
    /// Whether sections 12..15 (phase-2 preparation) are present.
    pub prepared: bool,
}

impl Ptau {
    /// Whether the last contribution is a zkbench test setup (τ public).
    pub fn is_test_setup(&self) -> bool {
        self.contributions
            .iter()
            .any(|c| c.name.as_deref() == Some(TEST_CONTRIBUTION_NAME))
    }

    /// α·G1.
    pub fn alpha_g1(&self) -> G1Affine {
        self.alpha_tau_g1[0]
    }

    /// β·G1.
    pub fn beta_g1(&self) -> G1Affine {
        self.beta_tau_g1[0]
    }

    /// Checks that the points are powers of one τ with the same α and β
    /// (random linear combinations and pairings, as `snarkjs powersoftau
    /// verify` does): a damaged or inconsistent file is rejected.
    pub fn check_consistency(&self, path: &str) -> Result<(), PtauError> {
        use ark_bn254::Bn254;
        use ark_ec::{pairing::Pairing, VariableBaseMSM};
        let bad = |r: &str| PtauError::Inconsistent {
            path: path.into(),
            reason: r.into(),
        };
        let g1 = G1Affine::generator();
        let g2 = G2Affine::generator();
        if self.tau_g1[0] != g1 || self.tau_g2[0] != g2 {
            return Err(bad("the first points are not the generators"));
        }
        let same_ratio = |a1: G1Affine, b1: G1Affine, a2: G2Affine, b2: G2Affine| {
            // e(a1, b2) == e(b1, a2)
            Bn254::multi_pairing([a1, (-b1.into_group()).into_affine()], [b2, a2]).is_zero()
        };
        let tau_g2 = self.tau_g2.get(1).copied().unwrap_or(self.tau_g2[0]);
        if self.tau_g2.len() < 2 {
            return Ok(()); // power 0: nothing to relate
        }
        let mut rng = ChaCha20Rng::from_entropy();
        let fold = |pts: &[G1Affine], rng: &mut ChaCha20Rng| -> (G1Affine, G1Affine) {
            let r: Vec<Fr> = (0..pts.len() - 1).map(|_| Fr::rand(rng)).collect();
            let a = G1Projective::msm(&pts[..pts.len() - 1], &r).expect("same lengths");
            let b = G1Projective::msm(&pts[1..], &r).expect("same lengths");
            (a.into_affine(), b.into_affine())
        };
        for (name, pts) in [
            ("tauG1", &self.tau_g1),
            ("alphaTauG1", &self.alpha_tau_g1),
            ("betaTauG1", &self.beta_tau_g1),
        ] {
            let (a, b) = fold(pts, &mut rng);
            if !same_ratio(a, b, g2, tau_g2) {
                return Err(bad(&format!(
                    "{name}: consecutive points are not in ratio τ"
                )));
            }
        }
        let r: Vec<Fr> = (0..self.tau_g2.len() - 1)
            .map(|_| Fr::rand(&mut rng))
            .collect();
        let a = G2Projective::msm(&self.tau_g2[..self.tau_g2.len() - 1], &r).expect("lengths");
        let b = G2Projective::msm(&self.tau_g2[1..], &r).expect("lengths");
        if !same_ratio(g1, self.tau_g1[1], a.into_affine(), b.into_affine()) {
            return Err(bad("tauG2: consecutive points are not in ratio τ"));
        }
        if !same_ratio(g1, self.beta_g1(), g2, self.beta_g2) {
            return Err(bad("betaG2 does not match betaTauG1[0]"));
        }
        Ok(())
    }
}

// ------------------------------------------------------------------ encoding

fn fq_to_lem(x: &Fq, out: &mut Vec<u8>) {
    for limb in x.0 .0 {
        out.extend_from_slice(&limb.to_le_bytes());
    }
}

fn g1_to_lem(p: &G1Affine, out: &mut Vec<u8>) {
    match p.xy() {
        Some((x, y)) => {
            fq_to_lem(&x, out);
            fq_to_lem(&y, out);
        }
        None => out.extend_from_slice(&[0u8; 64]),
    }
}

fn g2_to_lem(p: &G2Affine, out: &mut Vec<u8>) {
    match p.xy() {
        Some((x, y)) => {
            for c in [x.c0, x.c1, y.c0, y.c1] {
                fq_to_lem(&c, out);
            }
        }
        None => out.extend_from_slice(&[0u8; 128]),
    }
}

/// A G1 point in the `.ptau` encoding (Montgomery limbs, little endian: also
/// halo2curves' raw-bytes encoding).
pub fn g1_raw(p: &G1Affine) -> Vec<u8> {
    let mut v = Vec::with_capacity(64);
    g1_to_lem(p, &mut v);
    v
}

/// A G2 point in the `.ptau` encoding (`x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1`, Montgomery, little endian).
pub fn g2_raw(p: &G2Affine) -> Vec<u8> {
    let mut v = Vec::with_capacity(128);
    g2_to_lem(p, &mut v);
    v
}

/// Big-endian normal form (ffjavascript's `toRprUncompressed` of one coordinate).
fn fq_be(x: &Fq) -> Vec<u8> {
    x.into_bigint().to_bytes_be()
}

/// ffjavascript's uncompressed encoding: G1 `x ‖ y` big endian.
fn g1_uncompressed(p: &G1Affine, out: &mut Vec<u8>) {
    match p.xy() {
        Some((x, y)) => {
            out.extend(fq_be(&x));
            out.extend(fq_be(&y));
        }
        None => out.extend_from_slice(&[0u8; 64]),
    }
}

/// G2: the 64-byte Montgomery-free `c0 ‖ c1` reversed as a whole, i.e. `c1 ‖ c0` big endian.
fn g2_uncompressed(p: &G2Affine, out: &mut Vec<u8>) {
    match p.xy() {
        Some((x, y)) => {
            for c in [x.c1, x.c0, y.c1, y.c0] {
                out.extend(fq_be(&c));
            }
        }
        None => out.extend_from_slice(&[0u8; 128]),
    }
}

fn fq_from_lem(b: &[u8]) -> Option<Fq> {
    let mut limbs = [0u64; 4];
    for (i, l) in limbs.iter_mut().enumerate() {
        *l = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().ok()?);
    }
    let big = BigInt::new(limbs);
    if big >= Fq::MODULUS {
        return None;
    }
    Some(Fq::new_unchecked(big))
}

fn g1_from_lem(b: &[u8]) -> Result<G1Affine, String> {
    if b.iter().all(|&x| x == 0) {
        return Ok(G1Affine::zero());
    }
    let x = fq_from_lem(&b[..32]).ok_or("G1 x coordinate ≥ q")?;
    let y = fq_from_lem(&b[32..64]).ok_or("G1 y coordinate ≥ q")?;
    let p = G1Affine::new_unchecked(x, y);
    if !p.is_on_curve() {
        return Err("G1 point not on the curve".into());
    }
    Ok(p)
}

fn g2_from_lem(b: &[u8], check_subgroup: bool) -> Result<G2Affine, String> {
    if b.iter().all(|&x| x == 0) {
        return Ok(G2Affine::zero());
    }
    let c = |i: usize| fq_from_lem(&b[32 * i..32 * i + 32]).ok_or("G2 coordinate ≥ q");
    let p = G2Affine::new_unchecked(Fq2::new(c(0)?, c(1)?), Fq2::new(c(2)?, c(3)?));
    if !p.is_on_curve() {
        return Err("G2 point not on the twist".into());
    }
    if check_subgroup && !p.is_in_correct_subgroup_assuming_on_curve() {
        return Err("G2 point not in the prime-order subgroup".into());
    }
    Ok(p)
}

// ------------------------------------------------------------------ hashing (snarkjs's transcript)

/// ffjavascript's ChaCha20-based generator (`src/chacha.js`).
struct JsChaCha {
    state: [u32; 16],
    buff: [u32; 16],
    idx: usize,
}

impl JsChaCha {
    fn new(seed: [u32; 8]) -> Self {
        let mut state = [0u32; 16];
        state[..4].copy_from_slice(&[0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]);
        state[4..12].copy_from_slice(&seed);
        Self {
            state,
            buff: [0; 16],
            idx: 16,
        }
    }

    fn update(&mut self) {
        fn qr(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(16);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(12);
            s[a] = s[a].wrapping_add(s[b]);
            s[d] = (s[d] ^ s[a]).rotate_left(8);
            s[c] = s[c].wrapping_add(s[d]);
            s[b] = (s[b] ^ s[c]).rotate_left(7);
        }
        let mut b = self.state;
        for _ in 0..10 {
            qr(&mut b, 0, 4, 8, 12);
            qr(&mut b, 1, 5, 9, 13);
            qr(&mut b, 2, 6, 10, 14);
            qr(&mut b, 3, 7, 11, 15);
            qr(&mut b, 0, 5, 10, 15);
            qr(&mut b, 1, 6, 11, 12);
            qr(&mut b, 2, 7, 8, 13);
            qr(&mut b, 3, 4, 9, 14);
        }
        for ((o, x), st) in self.buff.iter_mut().zip(b).zip(self.state) {
            *o = x.wrapping_add(st);
        }
        self.idx = 0;
        for i in 12..16 {
            self.state[i] = self.state[i].wrapping_add(1);
            if self.state[i] != 0 {
                break;
            }
        }
    }

    fn next_u32(&mut self) -> u32 {
        if self.idx == 16 {
            self.update();
        }
        let v = self.buff[self.idx];
        self.idx += 1;
        v
    }

    fn next_u64(&mut self) -> u64 {
        let hi = self.next_u32() as u64;
        let lo = self.next_u32() as u64;
        (hi << 32) | lo
    }

    /// ffjavascript's wasm `F1.fromRng`: 4 u64 words, masked to 254 bits,
    /// rejected if ≥ q, taken as a **Montgomery** representation.
    fn fq(&mut self) -> Fq {
        loop {
            let mut limbs = [0u64; 4];
            for l in limbs.iter_mut() {
                *l = self.next_u64();
            }
            limbs[3] &= (1u64 << 62) - 1;
            let big = BigInt::new(limbs);
            if big < Fq::MODULUS {
                return Fq::new_unchecked(big);
            }
        }
    }
}

fn is_negative(x: &Fq) -> bool {
    // normal form > (q − 1)/2
    x.into_bigint() > Fq::MODULUS_MINUS_ONE_DIV_TWO
}

/// snarkjs's `keypair.hashToG2`: a G2 point from a 64-byte hash.
fn hash_to_g2(hash: &[u8]) -> G2Affine {
    let mut seed = [0u32; 8];
    for (i, s) in seed.iter_mut().enumerate() {
        *s = u32::from_be_bytes(hash[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    }
    let mut rng = JsChaCha::new(seed);
    let b = ark_bn254::g2::Config::COEFF_B;
    let (x, y, greatest) = loop {
        let x = Fq2::new(rng.fq(), rng.fq());
        let greatest = rng.next_u32() & 1 == 1;
        let x3b = x.square() * x + b;
        if let Some(y) = x3b.sqrt() {
            break (x, y, greatest);
        }
    };
    let s = if y.c1.is_zero() {
        is_negative(&y.c0)
    } else {
        is_negative(&y.c1)
    };
    let y = if greatest ^ s { -y } else { y };
    let cofactor = BigInt::<4>::new([
        0x345f2299c0f9fa8d,
        0x06ceecda572a2489,
        0xb85045b68181585e,
        0x30644e72e131a029,
    ]);
    G2Affine::new_unchecked(x, y)
        .into_group()
        .mul_bigint(cofactor)
        .into_affine()
}

use ark_ec::short_weierstrass::SWCurveConfig;

/// snarkjs's `keypair.getG2sp`.
fn g2_sp(personalization: u8, challenge: &[u8], g1s: &G1Affine, g1sx: &G1Affine) -> G2Affine {
    let mut h = Blake2b512::new();
    h.update([personalization]);
    h.update(challenge);
    let mut b = Vec::with_capacity(128);
    g1_uncompressed(g1s, &mut b);
    g1_uncompressed(g1sx, &mut b);
    h.update(&b);
    hash_to_g2(&h.finalize())
}

/// snarkjs's `calculateFirstChallengeHash`.
fn first_challenge_hash(power: u32) -> [u8; 64] {
    let mut g1 = Vec::new();
    g1_uncompressed(&G1Affine::generator(), &mut g1);
    let mut g2 = Vec::new();
    g2_uncompressed(&G2Affine::generator(), &mut g2);
    let mut h = Blake2b512::new();
    h.update(Blake2b512::new().finalize());
    let n = 1usize << power;
    let block = |h: &mut Blake2b512, p: &[u8], count: usize| {
        let chunk: Vec<u8> = p.repeat(4096);
        for _ in 0..count / 4096 {
            h.update(&chunk);
        }
        for _ in 0..count % 4096 {
            h.update(p);
        }
    };
    block(&mut h, &g1, 2 * n - 1);
    block(&mut h, &g2, n);
    block(&mut h, &g1, n);
    block(&mut h, &g1, n);
    h.update(&g2);
    h.finalize().into()
}

/// The 216-byte partial hash of a fresh BLAKE2b-512 (snarkjs's `toPartialHash`
/// layout: 128-byte buffer, the eight state words as (low, high) u32 pairs,
/// length and position), so that the response hash is BLAKE2b of the public key.
fn fresh_partial_hash() -> [u8; 216] {
    const IV: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    let mut out = [0u8; 216];
    for (i, v) in IV.iter().enumerate() {
        let v = if i == 0 { v ^ 0x01010040 } else { *v };
        out[128 + 8 * i..128 + 8 * i + 4].copy_from_slice(&(v as u32).to_le_bytes());
        out[128 + 8 * i + 4..128 + 8 * i + 8].copy_from_slice(&((v >> 32) as u32).to_le_bytes());
    }
    out
}

// ------------------------------------------------------------------ writing

struct SectionWriter<W: Write + Seek> {
    w: W,
    path: String,
}

impl<W: Write + Seek> SectionWriter<W> {
    fn io(&self, e: std::io::Error) -> PtauError {
        PtauError::Io {
            path: self.path.clone(),
            source: e,
        }
    }

    fn write(&mut self, b: &[u8]) -> Result<(), PtauError> {
        self.w.write_all(b).map_err(|e| self.io(e))
    }

    fn section(&mut self, id: u32, body: &[u8]) -> Result<(), PtauError> {
        self.write(&id.to_le_bytes())?;
        self.write(&(body.len() as u64).to_le_bytes())?;
        self.write(body)
    }

    /// A section written in chunks (large point sections).
    fn section_chunks(
        &mut self,
        id: u32,
        f: impl FnOnce(&mut dyn FnMut(&[u8]) -> Result<(), PtauError>) -> Result<(), PtauError>,
    ) -> Result<(), PtauError> {
        self.write(&id.to_le_bytes())?;
        let size_pos = self.w.stream_position().map_err(|e| self.io(e))?;
        self.write(&0u64.to_le_bytes())?;
        let start = size_pos + 8;
        f(&mut |b: &[u8]| self.write(b))?;
        let end = self.w.stream_position().map_err(|e| self.io(e))?;
        self.w
            .seek(SeekFrom::Start(size_pos))
            .map_err(|e| self.io(e))?;
        self.write(&(end - start).to_le_bytes())?;
        self.w.seek(SeekFrom::Start(end)).map_err(|e| self.io(e))?;
        Ok(())
    }
}

fn batch_g1(base: G1Projective, scalars: &[Fr]) -> Vec<G1Affine> {
    if scalars.is_empty() {
        return vec![];
    }
    let table = BatchMulPreprocessing::new(base, scalars.len());
    table.batch_mul(scalars)
}

fn batch_g2(base: G2Projective, scalars: &[Fr]) -> Vec<G2Affine> {
    if scalars.is_empty() {
        return vec![];
    }
    let table = BatchMulPreprocessing::new(base, scalars.len());
    table.batch_mul(scalars)
}

fn lem_g1(points: &[G1Affine]) -> Vec<u8> {
    let mut v = Vec::with_capacity(points.len() * 64);
    for p in points {
        g1_to_lem(p, &mut v);
    }
    v
}

fn lem_g2(points: &[G2Affine]) -> Vec<u8> {
    let mut v = Vec::with_capacity(points.len() * 128);
    for p in points {
        g2_to_lem(p, &mut v);
    }
    v
}

/// The secrets of a test setup, derived from `seed` (ChaCha20): τ, α, β.
pub fn test_secrets(seed: u64) -> (Fr, Fr, Fr) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x7a6b_7074_6175); // "zkptau"
    (Fr::rand(&mut rng), Fr::rand(&mut rng), Fr::rand(&mut rng))
}

/// Inverse FFT of the first 2^p entries of `t` (the last one replaced by 0
/// when `zero_last`), as snarkjs's `lagrangeEvaluations` does on points.
fn lagrange_scalars(t: &[Fr], p: u32, zero_last: bool) -> Vec<Fr> {
    let m = 1usize << p;
    let mut v: Vec<Fr> = t[..m.min(t.len())].to_vec();
    v.resize(m, Fr::zero());
    if zero_last {
        v[m - 1] = Fr::zero();
    }
    if m == 1 {
        return v;
    }
    let d = Radix2EvaluationDomain::<Fr>::new(m).expect("power ≤ 28");
    d.ifft_in_place(&mut v);
    v
}

/// Writes a phase-2-prepared `.ptau` of `power` for a **test setup** (τ, α, β
/// from `seed`; see the module docs). Returns τ, α, β.
pub fn write_test_ptau(path: &Path, power: u32, seed: u64) -> Result<(Fr, Fr, Fr), PtauError> {
    write_test_ptau_with(path, power, seed, true)
}

/// [`write_test_ptau`], with the phase-2 preparation (sections 12..15) only when
/// `prepare`: fflonk and `zkey` tools that read phase 1 only need no more, and a
/// phase-1 file of power 20 takes a third of the time.
pub fn write_test_ptau_with(
    path: &Path,
    power: u32,
    seed: u64,
    prepare: bool,
) -> Result<(Fr, Fr, Fr), PtauError> {
    if power > MAX_POWER {
        return Err(PtauError::Parameter(format!(
            "power {power} is too large (at most {MAX_POWER})"
        )));
    }
    let (tau, alpha, beta) = test_secrets(seed);
    let n = 1usize << power;
    let mut powers = Vec::with_capacity(2 * n - 1);
    let mut acc = Fr::from(1u64);
    for _ in 0..2 * n - 1 {
        powers.push(acc);
        acc *= tau;
    }
    let points = Phase1::compute(&powers, n, alpha, beta);
    let contrib = test_contribution(&points, power, seed, [tau, alpha, beta]);
    let mut w = write_phase1(path, power, prepare, points, &contrib)?;
    if prepare {
        write_phase2(&mut w, &powers, power, alpha, beta)?;
    }
    w.w.flush().map_err(|e| PtauError::Io {
        path: path.display().to_string(),
        source: e,
    })?;
    Ok((tau, alpha, beta))
}

/// The phase-1 points of a test setup (sections 2 to 6).
struct Phase1 {
    tau_g1: Vec<G1Affine>,
    tau_g2: Vec<G2Affine>,
    alpha_tau_g1: Vec<G1Affine>,
    beta_tau_g1: Vec<G1Affine>,
    beta_g2: G2Affine,
}

impl Phase1 {
    /// The points from the powers of τ (`2n − 1` of them), α and β.
    fn compute(powers: &[Fr], n: usize, alpha: Fr, beta: Fr) -> Self {
        let g1 = G1Projective::generator();
        let g2 = G2Projective::generator();
        let tau_g1 = batch_g1(g1, powers);
        let tau_g2 = batch_g2(g2, &powers[..n]);
        let alpha_s: Vec<Fr> = powers[..n].iter().map(|p| *p * alpha).collect();
        let beta_s: Vec<Fr> = powers[..n].iter().map(|p| *p * beta).collect();
        let alpha_tau_g1 = batch_g1(g1, &alpha_s);
        let beta_tau_g1 = batch_g1(g1, &beta_s);
        let beta_g2 = (g2 * beta).into_affine();
        Phase1 {
            tau_g1,
            tau_g2,
            alpha_tau_g1,
            beta_tau_g1,
            beta_g2,
        }
    }
}

/// The contribution's public key (τ, α, β in `secrets`) with proofs of
/// knowledge bound to the first challenge: its `.ptau` encoding and the
/// response hash (Blake2b-512 of its uncompressed encoding).
fn contribution_key(power: u32, seed: u64, secrets: [Fr; 3]) -> (Vec<u8>, [u8; 64]) {
    let [tau, alpha, beta] = secrets;
    let g1 = G1Projective::generator();
    let first = first_challenge_hash(power);
    let mut krng = ChaCha20Rng::seed_from_u64(seed ^ 0x6b6579); // "key"
    let mut key_g1 = Vec::new();
    let mut key_g2 = Vec::new();
    let mut pubkey_u = Vec::new();
    for (pers, x) in [(0u8, tau), (1, alpha), (2, beta)] {
        let s = Fr::rand(&mut krng);
        let g1s = (g1 * s).into_affine();
        let g1sx = (g1s * x).into_affine();
        let sp = g2_sp(pers, &first, &g1s, &g1sx);
        let spx = (sp * x).into_affine();
        key_g1.push((g1s, g1sx));
        key_g2.push(spx);
    }
    let mut pubkey_lem = Vec::new();
    for (s, sx) in &key_g1 {
        g1_to_lem(s, &mut pubkey_lem);
        g1_to_lem(sx, &mut pubkey_lem);
        g1_uncompressed(s, &mut pubkey_u);
        g1_uncompressed(sx, &mut pubkey_u);
    }
    for spx in &key_g2 {
        g2_to_lem(spx, &mut pubkey_lem);
        g2_uncompressed(spx, &mut pubkey_u);
    }
    (pubkey_lem, Blake2b512::digest(&pubkey_u).into())
}

/// Section 7 of a test setup: its one contribution (secrets τ, α, β), with
/// the public key from `seed` and the hash chain.
fn test_contribution(points: &Phase1, power: u32, seed: u64, secrets: [Fr; 3]) -> Vec<u8> {
    let (pubkey_lem, response) = contribution_key(power, seed, secrets);
    let next_challenge = next_challenge_hash(
        &response,
        &points.tau_g1,
        &points.tau_g2,
        [&points.alpha_tau_g1, &points.beta_tau_g1],
        &points.beta_g2,
    );
    let tau = secrets[0];
    let tau_g1 = &points.tau_g1;
    let mut contrib = Vec::new();
    contrib.extend_from_slice(&1u32.to_le_bytes());
    g1_to_lem(&tau_g1[1.min(tau_g1.len() - 1)], &mut contrib);
    g2_to_lem(
        &(G2Projective::generator() * tau).into_affine(),
        &mut contrib,
    );
    g1_to_lem(&points.alpha_tau_g1[0], &mut contrib);
    g1_to_lem(&points.beta_tau_g1[0], &mut contrib);
    g2_to_lem(&points.beta_g2, &mut contrib);
    contrib.extend_from_slice(&pubkey_lem);
    contrib.extend_from_slice(&fresh_partial_hash());
    contrib.extend_from_slice(&next_challenge);
    contrib.extend_from_slice(&0u32.to_le_bytes()); // type: contribution
    let name = TEST_CONTRIBUTION_NAME.as_bytes();
    let mut params = vec![1u8, name.len() as u8];
    params.extend_from_slice(name);
    contrib.extend_from_slice(&(params.len() as u32).to_le_bytes());
    contrib.extend_from_slice(&params);
    contrib
}

/// Creates the file `path` and writes its header and sections 1 to 7
/// (announcing the 4 phase-2 sections too when `prepare`); the points are
/// dropped once written.
fn write_phase1(
    path: &Path,
    power: u32,
    prepare: bool,
    points: Phase1,
    contrib: &[u8],
) -> Result<SectionWriter<BufWriter<std::fs::File>>, PtauError> {
    let file = std::fs::File::create(path).map_err(|e| PtauError::Io {
        path: path.display().to_string(),
        source: e,
    })?;
    let mut w = SectionWriter {
        w: BufWriter::with_capacity(1 << 20, file),
        path: path.display().to_string(),
    };
    w.write(b"ptau")?;
    w.write(&1u32.to_le_bytes())?;
    w.write(&(if prepare { 11u32 } else { 7 }).to_le_bytes())?;
    let mut header = Vec::new();
    header.extend_from_slice(&32u32.to_le_bytes());
    header.extend_from_slice(&Fq::MODULUS.to_bytes_le());
    header.extend_from_slice(&power.to_le_bytes());
    header.extend_from_slice(&power.to_le_bytes());
    w.section(1, &header)?;
    w.section(2, &lem_g1(&points.tau_g1))?;
    w.section(3, &lem_g2(&points.tau_g2))?;
    w.section(4, &lem_g1(&points.alpha_tau_g1))?;
    w.section(5, &lem_g1(&points.beta_tau_g1))?;
    w.section(6, &lem_g2(&[points.beta_g2]))?;
    w.section(7, contrib)?;
    Ok(w)
}

/// The hash of the contribution's response and its points (uncompressed,
/// Blake2b-512): the challenge a next contributor would build on.
fn next_challenge_hash(
    response: &[u8; 64],
    tau_g1: &[G1Affine],
    tau_g2: &[G2Affine],
    alpha_beta_g1: [&[G1Affine]; 2],
    beta_g2: &G2Affine,
) -> [u8; 64] {
    let mut next = Blake2b512::new();
    next.update(response);
    let mut u = Vec::with_capacity(tau_g1.len() * 64);
    for p in tau_g1 {
        g1_uncompressed(p, &mut u);
    }
    next.update(&u);
    u.clear();
    for p in tau_g2 {
        g2_uncompressed(p, &mut u);
    }
    next.update(&u);
    for pts in alpha_beta_g1 {
        u.clear();
        for p in pts {
            g1_uncompressed(p, &mut u);
        }
        next.update(&u);
    }
    u.clear();
    g2_uncompressed(beta_g2, &mut u);
    next.update(&u);
    next.finalize().into()
}

/// Phase-2 preparation: Lagrange bases at τ for every domain 2^p (sections
/// 12 to 15 of a prepared file).
fn write_phase2<W: Write + Seek>(
    w: &mut SectionWriter<W>,
    powers: &[Fr],
    power: u32,
    alpha: Fr,
    beta: Fr,
) -> Result<(), PtauError> {
    let g1 = G1Projective::generator();
    let g2 = G2Projective::generator();
    w.section_chunks(12, |out| {
        for p in 0..=power + 1 {
            let s = lagrange_scalars(powers, p, p == power + 1);
            out(&lem_g1(&batch_g1(g1, &s)))?;
        }
        Ok(())
    })?;
    w.section_chunks(13, |out| {
        for p in 0..=power {
            out(&lem_g2(&batch_g2(g2, &lagrange_scalars(powers, p, false))))?;
        }
        Ok(())
    })?;
    for (id, k) in [(14u32, alpha), (15, beta)] {
        w.section_chunks(id, |out| {
            for p in 0..=power {
                let s: Vec<Fr> = lagrange_scalars(powers, p, false)
                    .into_iter()
                    .map(|x| x * k)
                    .collect();
                out(&lem_g1(&batch_g1(g1, &s)))?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

// ------------------------------------------------------------------ reading

/// Each section's `(start, size)` in bytes, by id.
type Sections = std::collections::BTreeMap<u32, (u64, u64)>;

/// Opens a `.ptau` file for reading, checks its header (magic, version) and
/// reads its section table (every section inside the file, none twice).
/// Returns the path as errors name it, the file and its sections.
fn open_sections(path: &Path) -> Result<(String, std::fs::File, Sections), PtauError> {
    let p = path.display().to_string();
    let bad = malformed(&p);
    let io = io_error(&p);
    let mut f = std::fs::File::open(path).map_err(io)?;
    let file_len = f.metadata().map_err(io)?.len();
    let mut head = [0u8; 12];
    f.read_exact(&mut head)
        .map_err(|_| bad("shorter than the 12-byte file header".into()))?;
    if &head[..4] != b"ptau" {
        return Err(bad(format!(
            "magic is {:?}, expected \"ptau\"",
            String::from_utf8_lossy(&head[..4])
        )));
    }
    let version = u32::from_le_bytes(head[4..8].try_into().unwrap());
    if version != 1 {
        return Err(bad(format!("version {version}, expected 1")));
    }
    let nsections = u32::from_le_bytes(head[8..12].try_into().unwrap());
    if nsections > 64 {
        return Err(bad(format!("{nsections} sections (at most 64 expected)")));
    }
    let mut sections = Sections::new();
    let mut pos = 12u64;
    for _ in 0..nsections {
        let mut sh = [0u8; 12];
        f.seek(SeekFrom::Start(pos)).map_err(io)?;
        f.read_exact(&mut sh)
            .map_err(|_| bad(format!("truncated section header at byte {pos}")))?;
        let id = u32::from_le_bytes(sh[..4].try_into().unwrap());
        let size = u64::from_le_bytes(sh[4..12].try_into().unwrap());
        let start = pos + 12;
        if size > file_len.saturating_sub(start) {
            return Err(bad(format!(
                "section {id} of {size} bytes runs past the end of the file ({file_len} bytes)"
            )));
        }
        if sections.insert(id, (start, size)).is_some() {
            return Err(bad(format!("section {id} appears twice")));
        }
        pos = start + size;
    }
    Ok((p.clone(), f, sections))
}

/// [`PtauError::Malformed`] for the file `path`.
fn malformed(path: &str) -> impl Fn(String) -> PtauError + '_ {
    move |reason| PtauError::Malformed {
        path: path.to_string(),
        reason,
    }
}

/// [`PtauError::Io`] for the file `path`.
fn io_error(path: &str) -> impl Fn(std::io::Error) -> PtauError + Copy + '_ {
    move |source| PtauError::Io {
        path: path.to_string(),
        source,
    }
}

/// `len` bytes of `f` (the file `path`) from byte `start`.
fn read_bytes(
    f: &mut std::fs::File,
    path: &str,
    start: u64,
    len: u64,
) -> Result<Vec<u8>, PtauError> {
    let io = io_error(path);
    f.seek(SeekFrom::Start(start)).map_err(io)?;
    let mut buf = vec![0u8; len as usize];
    f.read_exact(&mut buf).map_err(io)?;
    Ok(buf)
}

/// The G1 points of `bytes` (64 bytes each), named `what[i]` in errors.
fn g1_points(bytes: &[u8], what: &str) -> Result<Vec<G1Affine>, String> {
    bytes
        .chunks(64)
        .enumerate()
        .map(|(i, c)| g1_from_lem(c).map_err(|e| format!("{what}[{i}]: {e}")))
        .collect()
}

/// The G2 points of `bytes` (128 bytes each, subgroup-checked), named
/// `what[i]` in errors.
fn g2_points(bytes: &[u8], what: &str) -> Result<Vec<G2Affine>, String> {
    bytes
        .chunks(128)
        .enumerate()
        .map(|(i, c)| g2_from_lem(c, true).map_err(|e| format!("{what}[{i}]: {e}")))
        .collect()
}

/// Reads a `.ptau` file's points up to `max_power` (all of them when `None`),
/// validating the structure and every point read (coordinates below q, on
/// the curve, G2 points in the subgroup). A ceremony file much larger than
/// needed is read only as far as `max_power` asks.
pub fn read_ptau(path: &Path, max_power: Option<u32>) -> Result<Ptau, PtauError> {
    let (p, file, sections) = open_sections(path)?;
    let mut r = PtauReader {
        path: p,
        file,
        sections,
    };
    let (power, ceremony_power) = r.header()?;
    let read_power = max_power.map_or(power, |m| m.min(power));
    let n = 1u64 << read_power;
    r.check_point_sections(power)?;
    let tau_g1 = g1_points(&r.read_at(2, 0, (2 * n - 1) * 64)?, "tauG1").map_err(|e| r.bad(e))?;
    let tau_g2 = g2_points(&r.read_at(3, 0, n * 128)?, "tauG2").map_err(|e| r.bad(e))?;
    let alpha_tau_g1 = g1_points(&r.read_at(4, 0, n * 64)?, "alphaTauG1").map_err(|e| r.bad(e))?;
    let beta_tau_g1 = g1_points(&r.read_at(5, 0, n * 64)?, "betaTauG1").map_err(|e| r.bad(e))?;
    let beta_g2 = g2_points(&r.read_at(6, 0, 128)?, "betaG2").map_err(|e| r.bad(e))?[0];
    if tau_g1.iter().chain(&alpha_tau_g1).any(|p| p.is_zero()) || tau_g2.iter().any(|p| p.is_zero())
    {
        return Err(r.bad("a power of tau is the point at infinity".into()));
    }
    let contributions = r.contributions()?;
    let prepared = (12..=15).all(|id| r.sections.contains_key(&id));
    Ok(Ptau {
        power,
        ceremony_power,
        read_power,
        tau_g1,
        tau_g2,
        alpha_tau_g1,
        beta_tau_g1,
        beta_g2,
        contributions,
        prepared,
    })
}

/// A `.ptau` file open for [`read_ptau`], with its section table.
struct PtauReader {
    /// The path, as errors name it.
    path: String,
    file: std::fs::File,
    sections: Sections,
}

impl PtauReader {
    /// [`PtauError::Malformed`] for this file.
    fn bad(&self, reason: String) -> PtauError {
        malformed(&self.path)(reason)
    }

    /// `len` bytes of section `id`, from byte `off` of the section.
    fn read_at(&mut self, id: u32, off: u64, len: u64) -> Result<Vec<u8>, PtauError> {
        let &(start, size) = self
            .sections
            .get(&id)
            .ok_or_else(|| self.bad(format!("section {id} is missing")))?;
        if off + len > size {
            return Err(self.bad(format!(
                "section {id} has {size} bytes, {} needed",
                off + len
            )));
        }
        read_bytes(&mut self.file, &self.path, start + off, len)
    }

    /// The header (section 1), which must be BN254's: (power, ceremony power).
    fn header(&mut self) -> Result<(u32, u32), PtauError> {
        let header = self.read_at(1, 0, 44)?;
        let n8 = u32::from_le_bytes(header[..4].try_into().unwrap());
        if n8 != 32 || header[4..36] != Fq::MODULUS.to_bytes_le()[..] {
            return Err(self.bad(
                "the header's field is not BN254's base field (only bn128/BN254 files are supported)"
                    .into(),
            ));
        }
        let power = u32::from_le_bytes(header[36..40].try_into().unwrap());
        let ceremony_power = u32::from_le_bytes(header[40..44].try_into().unwrap());
        if power > 28 || ceremony_power < power {
            return Err(self.bad(format!(
                "power {power}, ceremony power {ceremony_power}: out of range"
            )));
        }
        Ok((power, ceremony_power))
    }

    /// Checks that the point sections 2 to 6 have the sizes `power` gives them.
    fn check_point_sections(&self, power: u32) -> Result<(), PtauError> {
        let full_n = 1u64 << power;
        for (id, count, size) in [
            (2u32, 2 * full_n - 1, 64u64),
            (3, full_n, 128),
            (4, full_n, 64),
            (5, full_n, 64),
            (6, 1, 128),
        ] {
            let have = self
                .sections
                .get(&id)
                .ok_or_else(|| self.bad(format!("section {id} is missing")))?
                .1;
            if have != count * size {
                return Err(self.bad(format!(
                    "section {id} has {have} bytes; power {power} needs {}",
                    count * size
                )));
            }
        }
        Ok(())
    }

    /// The contributions (section 7: count, then variable-size records);
    /// only names are kept.
    fn contributions(&mut self) -> Result<Vec<Contribution>, PtauError> {
        let &(_, size) = self
            .sections
            .get(&7)
            .ok_or_else(|| self.bad("section 7 (contributions) is missing".into()))?;
        if size > 1 << 24 {
            return Err(self.bad(format!("contributions section of {size} bytes")));
        }
        let b = self.read_at(7, 0, size)?;
        parse_contributions(&b).map_err(|e| self.bad(format!("contributions: {e}")))
    }
}

fn parse_contributions(b: &[u8]) -> Result<Vec<Contribution>, String> {
    let mut pos = 0usize;
    let take = |pos: &mut usize, n: usize| -> Result<&[u8], String> {
        if *pos + n > b.len() {
            return Err(format!("truncated at byte {}", *pos));
        }
        let s = &b[*pos..*pos + n];
        *pos += n;
        Ok(s)
    };
    let count = u32::from_le_bytes(take(&mut pos, 4)?.try_into().unwrap());
    if count > 100_000 {
        return Err(format!("{count} contributions"));
    }
    let mut out = vec![];
    for _ in 0..count {
        // points (64+128+64+64+128) + key (6·64 + 3·128) + partial hash + next challenge
        take(&mut pos, 448 + 768 + 216 + 64)?;
        let kind = u32::from_le_bytes(take(&mut pos, 4)?.try_into().unwrap());
        let plen = u32::from_le_bytes(take(&mut pos, 4)?.try_into().unwrap()) as usize;
        let params = take(&mut pos, plen)?;
        let mut name = None;
        let mut i = 0;
        while i < params.len() {
            let t = params[i];
            i += 1;
            match t {
                1 | 3 => {
                    let l = *params.get(i).ok_or("truncated parameter")? as usize;
                    let v = params.get(i + 1..i + 1 + l).ok_or("truncated parameter")?;
                    if t == 1 {
                        name = Some(String::from_utf8_lossy(v).into_owned());
                    }
                    i += 1 + l;
                }
                2 => i += 1,
                _ => return Err(format!("unknown parameter type {t}")),
            }
        }
        out.push(Contribution { name, kind });
    }
    if pos != b.len() {
        return Err(format!("{} trailing bytes", b.len() - pos));
    }
    Ok(out)
}

/// The phase-2 preparation of one domain size 2^k (sections 12..15 of a prepared file):
/// `L_j(τ)` in G1 and G2 and `α·L_j(τ)`, `β·L_j(τ)` in G1, j < 2^k, for the domain of the
/// 2^k-th roots of unity (BN254's 2-adic generator 5, the same as arkworks').
#[derive(Clone, Debug)]
pub struct LagrangeBasis {
    /// log2 of the domain size.
    pub k: u32,
    /// `L_j(τ)·G1`.
    pub g1: Vec<G1Affine>,
    /// `L_j(τ)·G2`.
    pub g2: Vec<G2Affine>,
    /// `α·L_j(τ)·G1`.
    pub alpha_g1: Vec<G1Affine>,
    /// `β·L_j(τ)·G1`.
    pub beta_g1: Vec<G1Affine>,
}

/// Reads the Lagrange basis of domain 2^k from a phase-2-prepared file.
pub fn read_lagrange(path: &Path, k: u32) -> Result<LagrangeBasis, PtauError> {
    let (p, mut file, sections) = open_sections(path)?;
    let bad = malformed(&p);
    let n = 1u64 << k;
    let mut read = |id: u32, size: u64| -> Result<Vec<u8>, PtauError> {
        let &(start, len) = sections.get(&id).ok_or_else(|| {
            bad(format!(
                "section {id} is missing: the file is not phase-2 prepared (snarkjs powersoftau prepare phase2)"
            ))
        })?;
        let off = (n - 1) * size;
        if off + n * size > len {
            return Err(bad(format!(
                "section {id} has no Lagrange basis for 2^{k} (file too small)"
            )));
        }
        read_bytes(&mut file, &p, start + off, n * size)
    };
    let g1 = g1_points(&read(12, 64)?, "lagrange tauG1").map_err(&bad)?;
    let g2 = g2_points(&read(13, 128)?, "lagrange tauG2").map_err(&bad)?;
    let alpha_g1 = g1_points(&read(14, 64)?, "lagrange alphaTauG1").map_err(&bad)?;
    let beta_g1 = g1_points(&read(15, 64)?, "lagrange betaTauG1").map_err(&bad)?;
    Ok(LagrangeBasis {
        k,
        g1,
        g2,
        alpha_g1,
        beta_g1,
    })
}

/// Groth16 keys for the constraint system `m` (`num_instance` instance variables, the
/// constant one included) from a ceremony's powers of τ and its Lagrange basis: phase 1 is
/// the ceremony's (τ, α, β), phase 2 draws γ and δ from `rng` here (one contribution; use
/// OS randomness and discard it). The keys follow arkworks' `LibsnarkReduction`, so
/// zkbench's and arkworks' provers use them unchanged.
pub fn groth16_keys(
    m: &ark_relations::r1cs::ConstraintMatrices<Fr>,
    ptau: &Ptau,
    lag: &LagrangeBasis,
    rng: &mut impl rand::RngCore,
) -> Result<ark_groth16::ProvingKey<ark_bn254::Bn254>, PtauError> {
    let num_inst = m.num_instance_variables;
    let n = key_domain(m, ptau, lag)?;
    let q = QapQueries::new(m, lag);
    let gamma = Fr::rand(rng);
    let delta = Fr::rand(rng);
    let gi = gamma.inverse().expect("nonzero");
    let di = delta.inverse().expect("nonzero");
    let norm1 = |v: Vec<G1Projective>| G1Projective::normalize_batch(&v);
    let gamma_abc: Vec<G1Projective> = q.abc[..num_inst].iter().map(|p| *p * gi).collect();
    let l: Vec<G1Projective> = q.abc[num_inst..].iter().map(|p| *p * di).collect();
    let h: Vec<G1Projective> = (0..n - 1)
        .map(|i| (ptau.tau_g1[i + n].into_group() - ptau.tau_g1[i]) * di)
        .collect();
    let g1 = G1Projective::generator();
    let g2 = G2Projective::generator();
    let vk = ark_groth16::VerifyingKey {
        alpha_g1: ptau.alpha_g1(),
        beta_g2: ptau.beta_g2,
        gamma_g2: (g2 * gamma).into_affine(),
        delta_g2: (g2 * delta).into_affine(),
        gamma_abc_g1: norm1(gamma_abc),
    };
    Ok(ark_groth16::ProvingKey {
        vk,
        beta_g1: ptau.beta_g1(),
        delta_g1: (g1 * delta).into_affine(),
        a_query: norm1(q.a),
        b_g1_query: norm1(q.b1),
        b_g2_query: G2Projective::normalize_batch(&q.b2),
        h_query: norm1(h),
        l_query: norm1(l),
    })
}

/// The QAP domain size n of `m`, checked against the Lagrange basis (for
/// 2^k = n) and the powers of τ read (at least 2n − 1).
fn key_domain(
    m: &ark_relations::r1cs::ConstraintMatrices<Fr>,
    ptau: &Ptau,
    lag: &LagrangeBasis,
) -> Result<usize, PtauError> {
    let n = (m.num_constraints + m.num_instance_variables).next_power_of_two();
    if n != 1usize << lag.k {
        return Err(PtauError::Parameter(format!(
            "the circuit's QAP domain is 2^{}, the Lagrange basis is for 2^{}",
            n.trailing_zeros(),
            lag.k
        )));
    }
    if ptau.tau_g1.len() < 2 * n - 1 {
        return Err(PtauError::Parameter(format!(
            "the circuit needs powers of tau up to 2^{} (file read up to 2^{})",
            n.trailing_zeros(),
            ptau.read_power
        )));
    }
    Ok(n)
}

/// `p·c`, without the multiplication when `c` is one.
fn mul_g1(p: &G1Affine, c: &Fr) -> G1Projective {
    if c.is_one() {
        p.into_group()
    } else {
        *p * c
    }
}

/// Every variable's QAP polynomials at τ (from the Lagrange basis), in the
/// groups the keys need them.
struct QapQueries {
    /// `a_i(τ)` in G1.
    a: Vec<G1Projective>,
    /// `b_i(τ)` in G1.
    b1: Vec<G1Projective>,
    /// `b_i(τ)` in G2.
    b2: Vec<G2Projective>,
    /// `β·a_i + α·b_i + c_i`, in G1.
    abc: Vec<G1Projective>,
}

impl QapQueries {
    /// The queries of `m`, with the libsnark reduction's extra constraints.
    fn new(m: &ark_relations::r1cs::ConstraintMatrices<Fr>, lag: &LagrangeBasis) -> Self {
        let num_inst = m.num_instance_variables;
        let nvars = num_inst + m.num_witness_variables;
        let zero1 = G1Projective::zero();
        let mut q = QapQueries {
            a: vec![zero1; nvars],
            b1: vec![zero1; nvars],
            b2: vec![G2Projective::zero(); nvars],
            abc: vec![zero1; nvars],
        };
        for j in 0..m.num_constraints {
            for (c, i) in &m.a[j] {
                q.a[*i] += mul_g1(&lag.g1[j], c);
                q.abc[*i] += mul_g1(&lag.beta_g1[j], c);
            }
            for (c, i) in &m.b[j] {
                q.b1[*i] += mul_g1(&lag.g1[j], c);
                q.b2[*i] += if c.is_one() {
                    lag.g2[j].into_group()
                } else {
                    lag.g2[j] * c
                };
                q.abc[*i] += mul_g1(&lag.alpha_g1[j], c);
            }
            for (c, i) in &m.c[j] {
                q.abc[*i] += mul_g1(&lag.g1[j], c);
            }
        }
        // The instance variables' extra constraints of the libsnark reduction: a_i += L_{m + i}.
        for i in 0..num_inst {
            q.a[i] += lag.g1[m.num_constraints + i];
            q.abc[i] += lag.beta_g1[m.num_constraints + i];
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_chacha_matches_the_reference_stream() {
        // RFC 7539 §2.3.2 block function with key 0..31 differs from ffjavascript
        // (no nonce), so check the zero-seed first word against ffjavascript's
        // own output: new ChaCha([0,0,0,0,0,0,0,0]).nextU32() = 0xade0b876.
        let mut r = JsChaCha::new([0; 8]);
        assert_eq!(r.next_u32(), 0xade0b876);
    }

    #[test]
    fn write_then_read_round_trips_and_is_consistent() {
        let dir = std::env::temp_dir().join(format!("zkptau-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.ptau");
        let (tau, alpha, _beta) = write_test_ptau(&path, 3, 7).unwrap();
        let p = read_ptau(&path, None).unwrap();
        assert_eq!(p.power, 3);
        assert!(p.prepared && p.is_test_setup());
        assert_eq!(p.tau_g1.len(), 15);
        assert_eq!(
            p.tau_g1[2],
            (G1Affine::generator() * (tau * tau)).into_affine()
        );
        assert_eq!(p.alpha_g1(), (G1Affine::generator() * alpha).into_affine());
        p.check_consistency("t").unwrap();
        let part = read_ptau(&path, Some(1)).unwrap();
        assert_eq!(part.tau_g1.len(), 3);

        // Malformed files give errors, never panics.
        let bytes = std::fs::read(&path).unwrap();
        let bad = dir.join("bad.ptau");
        for (i, mutate) in [
            Box::new(|b: &mut Vec<u8>| b[0] = b'x') as Box<dyn Fn(&mut Vec<u8>)>,
            Box::new(|b: &mut Vec<u8>| b.truncate(b.len() / 2)),
            Box::new(|b: &mut Vec<u8>| b.truncate(7)),
            Box::new(|b: &mut Vec<u8>| b[12 + 12 + 44 + 12 + 70] ^= 1),
            Box::new(|b: &mut Vec<u8>| b[12 + 12 + 4] ^= 1),
        ]
        .iter()
        .enumerate()
        {
            let mut b = bytes.clone();
            mutate(&mut b);
            std::fs::write(&bad, &b).unwrap();
            let e = read_ptau(&bad, None)
                .and_then(|p| p.check_consistency("bad"))
                .expect_err(&format!("mutation {i} accepted"));
            assert!(
                e.to_string().contains("bad.ptau") || e.to_string().contains("bad"),
                "{e}"
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
