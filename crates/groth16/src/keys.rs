//! Binary key files: proving and verifying keys serialised with
//! ark-serialize, framed so that a damaged file gives a clean error.
//!
//! Layout: 8-byte magic (`ZKBG16PK` / `ZKBG16VK`), format version (u8),
//! flags (u8; bit 0 = test setup), compression (u8; 0 = uncompressed,
//! 1 = compressed), one reserved byte, the XXH3-64 checksum of the body
//! (u64 LE; version 1 had byte-wise FNV-1a-64, 2.3 ms on a 2.4 MB proving
//! key against 0.1 ms), then the body: the key's fields in arkworks order, every vector
//! prefixed by its length (u64 LE). Lengths are checked against the bytes
//! left before anything is allocated (arkworks' own `Vec` decoder trusts the
//! prefix), so neither a truncated nor a bit-flipped file can make the reader
//! panic or allocate absurd amounts.
//!
//! Proving keys are written uncompressed: the verifying key, `beta_g1` and
//! `delta_g1` with ark-serialize, the five queries (tens of thousands of
//! points) as raw Montgomery limbs (4 × u64 LE per base-field element, the
//! layout of [`zkbench_msm::RawCurve`]; the point at infinity as zero
//! bytes), so that reading a query is a copy with a range check per
//! coordinate, not a field conversion (version 1 used ark-serialize's
//! canonical encoding throughout: 2.7 ms to read the 2.4 MB key of the
//! 2^32 membership circuit, now well under 1 ms). Proving keys are read
//! without curve checks (the checksum catches damage; loading stays fast);
//! verifying keys are written compressed and fully validated (on curve, in
//! the prime-order subgroup).

use std::path::Path;

use ark_bn254::{Bn254, G1Affine};
use ark_groth16::{ProvingKey, VerifyingKey};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};

use ark_ec::{short_weierstrass::Affine, AffineRepr};

use zkbench_msm::RawCurve;

use crate::Groth16Error;

/// Version of the key file format (part of the cache key).
pub const FORMAT_VERSION: u8 = 2;

const PK_MAGIC: &[u8; 8] = b"ZKBG16PK";
const HEAD_MAGIC: &[u8; 8] = b"ZKBG16PH";
const VK_MAGIC: &[u8; 8] = b"ZKBG16VK";
const HEADER: usize = 8 + 4 + 8;

/// The body checksum: XXH3-64 (seed 0), a damage check, not a MAC.
fn checksum(data: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(data)
}

struct Writer {
    buf: Vec<u8>,
    compress: Compress,
}

impl Writer {
    fn put<T: CanonicalSerialize>(&mut self, x: &T) {
        x.serialize_with_mode(&mut self.buf, self.compress)
            .expect("writing to a Vec cannot fail");
    }

    fn put_vec<T: CanonicalSerialize>(&mut self, xs: &[T]) {
        self.buf.extend_from_slice(&(xs.len() as u64).to_le_bytes());
        for x in xs {
            self.put(x);
        }
    }

    /// A vector of points as raw Montgomery limbs ([`RawCurve`]), the point
    /// at infinity as all-zero bytes (no curve point has `x = y = 0`).
    fn put_raw_vec<P: RawCurve>(&mut self, xs: &[Affine<P>]) {
        self.buf.extend_from_slice(&(xs.len() as u64).to_le_bytes());
        let start = self.buf.len();
        self.buf.resize(start + xs.len() * P::BYTES, 0);
        for (x, out) in xs.iter().zip(self.buf[start..].chunks_exact_mut(P::BYTES)) {
            if !x.is_zero() {
                P::put(x, out);
            }
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    compress: Compress,
    validate: Validate,
    what: &'a str,
}

impl Reader<'_> {
    fn err(&self, reason: impl ToString) -> Groth16Error {
        Groth16Error::decode(
            self.what,
            format!("at byte {}: {}", self.pos, reason.to_string()),
        )
    }

    fn get<T: CanonicalDeserialize>(&mut self) -> Result<T, Groth16Error> {
        let mut slice = &self.data[self.pos..];
        let before = slice.len();
        let x = T::deserialize_with_mode(&mut slice, self.compress, self.validate)
            .map_err(|e| self.err(e))?;
        self.pos += before - slice.len();
        Ok(x)
    }

    /// A vector's length prefix, checked against the bytes left for
    /// elements of `elem_size` bytes (before anything is allocated).
    fn len_prefix(&mut self, elem_size: usize) -> Result<usize, Groth16Error> {
        let len = self.u64()?;
        let left = (self.data.len() - self.pos) as u64;
        if len > left / elem_size as u64 {
            return Err(self.err(format!(
                "vector of {len} elements does not fit in {left} bytes"
            )));
        }
        Ok(len as usize)
    }

    fn get_vec<T: CanonicalDeserialize>(
        &mut self,
        elem_size: usize,
    ) -> Result<Vec<T>, Groth16Error> {
        let len = self.len_prefix(elem_size)?;
        (0..len).map(|_| self.get()).collect()
    }

    /// A vector written by [`Writer::put_raw_vec`]: every coordinate is
    /// checked to be below the modulus (not on the curve: see the module
    /// docs).
    fn get_raw_vec<P: RawCurve>(&mut self) -> Result<Vec<Affine<P>>, Groth16Error> {
        let len = self.len_prefix(P::BYTES)?;
        let bytes = &self.data[self.pos..self.pos + len * P::BYTES];
        let mut out = Vec::with_capacity(len);
        for (k, b) in bytes.chunks_exact(P::BYTES).enumerate() {
            let p = if b.iter().all(|&x| x == 0) {
                Affine::<P>::zero()
            } else {
                P::get_checked(b).ok_or_else(|| {
                    Groth16Error::decode(
                        self.what,
                        format!(
                            "at byte {}: coordinate not below the modulus",
                            self.pos + k * P::BYTES
                        ),
                    )
                })?
            };
            out.push(p);
        }
        self.pos += bytes.len();
        Ok(out)
    }

    /// A length (u64 LE): a vector's prefix or a query's length.
    fn u64(&mut self) -> Result<u64, Groth16Error> {
        let b = self
            .data
            .get(self.pos..self.pos + 8)
            .ok_or_else(|| self.err("truncated length"))?;
        self.pos += 8;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    fn finish(&self) -> Result<(), Groth16Error> {
        if self.pos != self.data.len() {
            return Err(self.err(format!("{} trailing bytes", self.data.len() - self.pos)));
        }
        Ok(())
    }
}

fn frame(magic: &[u8; 8], test_setup: bool, compress: Compress, body: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(magic);
    out.push(FORMAT_VERSION);
    out.push(test_setup as u8);
    out.push(matches!(compress, Compress::Yes) as u8);
    out.push(0);
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Returns (test_setup, compress, body).
fn unframe<'a>(
    magic: &[u8; 8],
    data: &'a [u8],
    what: &str,
) -> Result<(bool, Compress, &'a [u8]), Groth16Error> {
    if data.len() < HEADER || &data[..8] != magic {
        return Err(Groth16Error::decode(
            what,
            format!(
                "not a zkbench key file (expected magic {:?})",
                std::str::from_utf8(magic).unwrap()
            ),
        ));
    }
    if data[8] != FORMAT_VERSION {
        return Err(Groth16Error::decode(
            what,
            format!(
                "format version {} (this build reads {FORMAT_VERSION})",
                data[8]
            ),
        ));
    }
    let compress = match data[10] {
        0 => Compress::No,
        1 => Compress::Yes,
        c => {
            return Err(Groth16Error::decode(
                what,
                format!("bad compression flag {c}"),
            ))
        }
    };
    if data[9] > 1 || data[11] != 0 {
        return Err(Groth16Error::decode(what, "bad header flags"));
    }
    let body = &data[HEADER..];
    let sum = u64::from_le_bytes(data[12..20].try_into().unwrap());
    if checksum(body) != sum {
        return Err(Groth16Error::decode(
            what,
            "checksum mismatch (file damaged)",
        ));
    }
    Ok((data[9] == 1, compress, body))
}

fn g1_size(c: Compress) -> usize {
    G1Affine::zero().serialized_size(c)
}

fn put_vk(w: &mut Writer, vk: &VerifyingKey<Bn254>) {
    w.put(&vk.alpha_g1);
    w.put(&vk.beta_g2);
    w.put(&vk.gamma_g2);
    w.put(&vk.delta_g2);
    w.put_vec(&vk.gamma_abc_g1);
}

fn get_vk(r: &mut Reader<'_>) -> Result<VerifyingKey<Bn254>, Groth16Error> {
    let c = r.compress;
    Ok(VerifyingKey {
        alpha_g1: r.get()?,
        beta_g2: r.get()?,
        gamma_g2: r.get()?,
        delta_g2: r.get()?,
        gamma_abc_g1: r.get_vec(g1_size(c))?,
    })
}

/// The framed file of the body that `put` writes with `compress`.
fn write_framed(
    magic: &[u8; 8],
    test_setup: bool,
    compress: Compress,
    put: impl FnOnce(&mut Writer),
) -> Vec<u8> {
    let mut w = Writer {
        buf: Vec::new(),
        compress,
    };
    put(&mut w);
    frame(magic, test_setup, compress, w.buf)
}

/// Decodes the key `get` reads from the body of the framed `data` (points
/// checked as `validate` says), which must be used up and whose verifying key
/// (`vk_of`) must have IC points. Returns it and the test-setup flag.
fn read_framed<K>(
    magic: &[u8; 8],
    data: &[u8],
    what: &str,
    validate: Validate,
    get: impl FnOnce(&mut Reader<'_>) -> Result<K, Groth16Error>,
    vk_of: impl FnOnce(&K) -> &VerifyingKey<Bn254>,
) -> Result<(K, bool), Groth16Error> {
    let (test, compress, body) = unframe(magic, data, what)?;
    let mut r = Reader {
        data: body,
        pos: 0,
        compress,
        validate,
        what,
    };
    let key = get(&mut r)?;
    r.finish()?;
    if vk_of(&key).gamma_abc_g1.is_empty() {
        return Err(Groth16Error::decode(what, "no IC points"));
    }
    Ok((key, test))
}

/// Serialises a verifying key (compressed, framed).
pub fn verifying_key_to_bytes(vk: &VerifyingKey<Bn254>, test_setup: bool) -> Vec<u8> {
    write_framed(VK_MAGIC, test_setup, Compress::Yes, |w| put_vk(w, vk))
}

/// Decodes a verifying key (fully validated). Returns it and the test-setup flag.
pub fn verifying_key_from_bytes(data: &[u8]) -> Result<(VerifyingKey<Bn254>, bool), Groth16Error> {
    read_framed(
        VK_MAGIC,
        data,
        "verifying key",
        Validate::Yes,
        get_vk,
        |vk| vk,
    )
}

/// Serialises a proving key (uncompressed, framed).
pub fn proving_key_to_bytes(pk: &ProvingKey<Bn254>, test_setup: bool) -> Vec<u8> {
    write_framed(PK_MAGIC, test_setup, Compress::No, |w| {
        put_vk(w, &pk.vk);
        w.put(&pk.beta_g1);
        w.put(&pk.delta_g1);
        w.put_raw_vec(&pk.a_query);
        w.put_raw_vec(&pk.b_g1_query);
        w.put_raw_vec(&pk.b_g2_query);
        w.put_raw_vec(&pk.h_query);
        w.put_raw_vec(&pk.l_query);
    })
}

/// Decodes a proving key (checksum-verified; points not re-validated).
/// Returns it and the test-setup flag.
pub fn proving_key_from_bytes(data: &[u8]) -> Result<(ProvingKey<Bn254>, bool), Groth16Error> {
    read_framed(
        PK_MAGIC,
        data,
        "proving key",
        Validate::No,
        |r| {
            Ok(ProvingKey {
                vk: get_vk(r)?,
                beta_g1: r.get()?,
                delta_g1: r.get()?,
                a_query: r.get_raw_vec()?,
                b_g1_query: r.get_raw_vec()?,
                b_g2_query: r.get_raw_vec()?,
                h_query: r.get_raw_vec()?,
                l_query: r.get_raw_vec()?,
            })
        },
        |pk| &pk.vk,
    )
}

/// A proving key without its five queries, whose points a key file's
/// prover tables already hold (each table's first row is its bases:
/// [`crate::prover_cache`]); [`crate::prover_cache::Unbound::bind_head`]
/// rebuilds the key from both.
pub struct ProvingKeyHead {
    /// The verifying key.
    pub vk: VerifyingKey<Bn254>,
    /// `β` in G1.
    pub beta_g1: G1Affine,
    /// `δ` in G1.
    pub delta_g1: G1Affine,
    /// The queries' lengths, points at infinity included: `a`, `b_g1`,
    /// `b_g2`, `h`, `l`.
    pub query_lens: [u64; 5],
}

/// Serialises the head of a proving key (framed like a proving key file,
/// magic `ZKBG16PH`): the verifying key, `beta_g1`, `delta_g1` and the
/// five queries' lengths (u64 LE), a few hundred bytes where the queries
/// take megabytes (3.0 MB of the Poseidon membership's).
pub fn proving_key_head_to_bytes(pk: &ProvingKey<Bn254>, test_setup: bool) -> Vec<u8> {
    write_framed(HEAD_MAGIC, test_setup, Compress::No, |w| {
        put_vk(w, &pk.vk);
        w.put(&pk.beta_g1);
        w.put(&pk.delta_g1);
        for len in [
            pk.a_query.len(),
            pk.b_g1_query.len(),
            pk.b_g2_query.len(),
            pk.h_query.len(),
            pk.l_query.len(),
        ] {
            w.buf.extend_from_slice(&(len as u64).to_le_bytes());
        }
    })
}

/// Decodes [`proving_key_head_to_bytes`]' output (checksum-verified;
/// points not re-validated, as a proving key's). Returns it and the
/// test-setup flag.
pub fn proving_key_head_from_bytes(data: &[u8]) -> Result<(ProvingKeyHead, bool), Groth16Error> {
    read_framed(
        HEAD_MAGIC,
        data,
        "proving key head",
        Validate::No,
        |r| {
            let (vk, beta_g1, delta_g1) = (get_vk(r)?, r.get()?, r.get()?);
            let mut query_lens = [0; 5];
            for len in &mut query_lens {
                *len = r.u64()?;
            }
            Ok(ProvingKeyHead {
                vk,
                beta_g1,
                delta_g1,
                query_lens,
            })
        },
        |head| &head.vk,
    )
}

/// Writes a proving key file.
pub fn write_proving_key(
    path: &Path,
    pk: &ProvingKey<Bn254>,
    test_setup: bool,
) -> Result<(), Groth16Error> {
    write_atomic(path, &proving_key_to_bytes(pk, test_setup))
}

/// Reads a proving key file.
pub fn read_proving_key(path: &Path) -> Result<ProvingKey<Bn254>, Groth16Error> {
    let data = std::fs::read(path).map_err(|e| Groth16Error::io(path, e))?;
    Ok(proving_key_from_bytes(&data)?.0)
}

/// Writes `data` to `path` atomically: into a new file of a name no other
/// writer uses (process id and a per-process counter, created with
/// `create_new`, so never an existing inode), flushed (`fsync`), then renamed
/// over `path`. A
/// reader that has the old file open or memory-mapped ([`crate::mapped`])
/// keeps the old bytes; nothing is ever written in place.
pub(crate) fn write_atomic(path: &Path, data: &[u8]) -> Result<(), Groth16Error> {
    use std::io::Write;
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp{}-{n}", std::process::id()));
    let open = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
    };
    let file = match open() {
        // left by a crashed process that had the same id (containers reuse
        // them): never renamed, so nobody has it mapped
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = std::fs::remove_file(&tmp);
            open()
        }
        other => other,
    };
    // flushed to disk before the rename: after a crash the path holds the
    // old file or the whole new one, never a renamed empty one; and no
    // writeback of tens of MiB runs later beside the first proof
    let written = file.and_then(|mut f| {
        f.write_all(data)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(Groth16Error::io(&tmp, e));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Groth16Error::io(path, e)
    })
}

/// Compressed proof bytes (128: A ∈ G1, B ∈ G2, C ∈ G1, arkworks encoding).
pub fn proof_to_bytes(proof: &ark_groth16::Proof<Bn254>) -> Vec<u8> {
    let mut v = Vec::new();
    proof
        .serialize_compressed(&mut v)
        .expect("writing to a Vec cannot fail");
    v
}

/// Decodes and validates a compressed proof.
pub fn proof_from_bytes(data: &[u8]) -> Result<ark_groth16::Proof<Bn254>, Groth16Error> {
    let mut slice = data;
    let p = ark_groth16::Proof::<Bn254>::deserialize_compressed(&mut slice)
        .map_err(|e| Groth16Error::decode("proof", e))?;
    if !slice.is_empty() {
        return Err(Groth16Error::decode(
            "proof",
            format!("{} trailing bytes", slice.len()),
        ));
    }
    Ok(p)
}
