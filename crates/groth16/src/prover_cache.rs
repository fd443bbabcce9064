//! The prover cache: everything a cold proof would otherwise recompute after
//! loading a proving key, in a file that loads at memory speed.
//!
//! A warm proof uses the fixed-base tables of [`crate::prover`] and the R1CS
//! matrices; a proof right after reading the proving key from disk had to
//! synthesise the matrices again and prove without tables (building them
//! costs several proofs), so the first proof a user waited for took 2.1–2.3×
//! a warm one. This file stores both next to the proving key
//! (`<key>.prover`), so that a cold proof is a warm proof plus a file read.
//!
//! # Format (version 1)
//!
//! `ZKBG16PC` magic, version (u8), three reserved bytes, the word-wise
//! FNV-1a-64 checksum of the body (u64 LE), then the body, all integers u64
//! LE unless noted:
//!
//! 1. the verifying key, compressed, length-prefixed: the cache is used only
//!    with the proving key whose `vk` is byte-identical (binding);
//! 2. the matrices: instance, witness and constraint counts, then A, B, C,
//!    each as rows of `(length, [(coefficient, variable u32 LE)])`;
//! 3. the five tables (`a`, `b_g1`, `b_g2`, `h`, `l`): window, windows,
//!    number of bases, base indices (u32 LE), then the points.
//!
//! Field elements are written as their **Montgomery-form limbs** (4 × u64 LE
//! per base-field element), so reading needs no field conversion; every limb
//! vector is checked to be below the modulus, and every length, index and
//! window against the proving key before anything is allocated, so a damaged
//! or truncated file gives [`Groth16Error::Decode`], never a panic. Points are
//! not re-checked to be on the curve (that would cost most of what the cache
//! saves): like the proving key itself ([`crate::keys`]), the cache is local,
//! written by zkbench, and protected by the checksum against damage. A wrong
//! table could only make the prover output an invalid proof, which the
//! verifier rejects.

use std::path::{Path, PathBuf};

use ark_bn254::{Fq, Fq2, Fr, G1Affine, G2Affine};
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ff::{BigInt, PrimeField};
use ark_groth16::{ProvingKey, VerifyingKey};
use ark_relations::r1cs::{ConstraintMatrices, Matrix};
use ark_serialize::CanonicalSerialize;

use crate::prover::{num_windows, FixedBaseTable, ProverTables};
use crate::Groth16Error;

const MAGIC: &[u8; 8] = b"ZKBG16PC";
const VERSION: u8 = 1;
const HEADER: usize = 8 + 4 + 8;
const WHAT: &str = "prover cache";

/// Where the prover cache of the proving key at `pk_path` lives.
pub fn cache_path(pk_path: &Path) -> PathBuf {
    pk_path.with_extension("prover")
}

const FNV_PRIME: u64 = 0x100000001b3;

/// Four interleaved word-wise FNV-1a-64 lanes (32 bytes at a time, so the
/// multiplications pipeline), folded into one at the end, then the trailing
/// bytes one by one. A damage check, not a MAC, that runs at memory speed on
/// tens of MiB; incremental, so that the file can be checked while streamed.
struct Checksum {
    lanes: [u64; 4],
    pending: [u8; 32],
    pending_len: usize,
}

impl Checksum {
    fn new() -> Self {
        Checksum {
            lanes: [0xcbf29ce484222325; 4],
            pending: [0; 32],
            pending_len: 0,
        }
    }

    fn block(&mut self, b: &[u8]) {
        for (k, h) in self.lanes.iter_mut().enumerate() {
            *h ^= u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            *h = h.wrapping_mul(FNV_PRIME);
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        if self.pending_len > 0 {
            let k = (32 - self.pending_len).min(data.len());
            self.pending[self.pending_len..self.pending_len + k].copy_from_slice(&data[..k]);
            self.pending_len += k;
            data = &data[k..];
            if self.pending_len < 32 {
                return;
            }
            let p = self.pending;
            self.block(&p);
            self.pending_len = 0;
        }
        let mut blocks = data.chunks_exact(32);
        for b in &mut blocks {
            self.block(b);
        }
        let rest = blocks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    fn finish(&self) -> u64 {
        let mut h = self.lanes[0];
        for l in &self.lanes[1..] {
            h = (h ^ l).wrapping_mul(FNV_PRIME);
        }
        for b in &self.pending[..self.pending_len] {
            h ^= u64::from(*b);
            h = h.wrapping_mul(FNV_PRIME);
        }
        h
    }
}

fn checksum(data: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.update(data);
    c.finish()
}

fn vk_bytes(vk: &VerifyingKey<ark_bn254::Bn254>) -> Vec<u8> {
    let mut v = Vec::new();
    vk.serialize_compressed(&mut v)
        .expect("writing to a Vec cannot fail");
    v
}

/// A curve whose affine points are written as Montgomery limbs.
pub(crate) trait RawCurve: SWCurveConfig {
    /// u64 words per point.
    const WORDS: usize;
    /// Appends the point's limbs.
    fn put(p: &Affine<Self>, out: &mut Vec<u8>);
    /// The point from exactly `8 · WORDS` bytes, `None` if a coordinate is
    /// not below the modulus.
    fn get(bytes: &[u8]) -> Option<Affine<Self>>;
}

fn put_fq(x: &Fq, out: &mut Vec<u8>) {
    for l in x.0 .0 {
        out.extend_from_slice(&l.to_le_bytes());
    }
}

fn limbs(b: &[u8]) -> BigInt<4> {
    let w = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    BigInt::new([w(0), w(1), w(2), w(3)])
}

fn get_fq(b: &[u8]) -> Option<Fq> {
    let l = limbs(b);
    (l < Fq::MODULUS).then(|| Fq::new_unchecked(l))
}

impl RawCurve for ark_bn254::g1::Config {
    const WORDS: usize = 8;
    fn put(p: &G1Affine, out: &mut Vec<u8>) {
        put_fq(&p.x, out);
        put_fq(&p.y, out);
    }
    fn get(b: &[u8]) -> Option<G1Affine> {
        Some(G1Affine::new_unchecked(
            get_fq(&b[..32])?,
            get_fq(&b[32..64])?,
        ))
    }
}

impl RawCurve for ark_bn254::g2::Config {
    const WORDS: usize = 16;
    fn put(p: &G2Affine, out: &mut Vec<u8>) {
        for c in [&p.x.c0, &p.x.c1, &p.y.c0, &p.y.c1] {
            put_fq(c, out);
        }
    }
    fn get(b: &[u8]) -> Option<G2Affine> {
        let x = Fq2::new(get_fq(&b[..32])?, get_fq(&b[32..64])?);
        let y = Fq2::new(get_fq(&b[64..96])?, get_fq(&b[96..128])?);
        Some(G2Affine::new_unchecked(x, y))
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn u64(&mut self, v: usize) {
        self.0.extend_from_slice(&(v as u64).to_le_bytes());
    }
    fn u32(&mut self, v: usize) {
        self.0.extend_from_slice(&(v as u32).to_le_bytes());
    }
    fn fr(&mut self, x: &Fr) {
        for l in x.0 .0 {
            self.0.extend_from_slice(&l.to_le_bytes());
        }
    }
    fn matrix(&mut self, m: &Matrix<Fr>) {
        self.u64(m.len());
        for row in m {
            self.u64(row.len());
            for (c, i) in row {
                self.fr(c);
                self.u32(*i);
            }
        }
    }
    fn table<P: RawCurve>(&mut self, t: &FixedBaseTable<P>) {
        self.u64(t.window);
        self.u64(t.windows);
        self.u64(t.indices.len());
        for i in &t.indices {
            self.u32(*i as usize);
        }
        for p in &t.points {
            P::put(p, &mut self.0);
        }
    }
}

/// The cache file's bytes for `pk` with its `matrices` and `tables`.
pub fn to_bytes(
    pk: &ProvingKey<ark_bn254::Bn254>,
    matrices: &ConstraintMatrices<Fr>,
    tables: &ProverTables,
) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    let vk = vk_bytes(&pk.vk);
    w.u64(vk.len());
    w.0.extend_from_slice(&vk);
    w.u64(matrices.num_instance_variables);
    w.u64(matrices.num_witness_variables);
    w.u64(matrices.num_constraints);
    for m in [&matrices.a, &matrices.b, &matrices.c] {
        w.matrix(m);
    }
    w.table(&tables.a);
    w.table(&tables.b_g1);
    w.table(&tables.b_g2);
    w.table(&tables.h);
    w.table(&tables.l);
    let body = w.0;
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[VERSION, 0, 0, 0]);
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Reads the body from any byte source in pieces (a file is streamed through
/// one reused buffer, never held whole), checksumming as it goes.
struct Reader<R> {
    src: R,
    buf: Vec<u8>,
    /// Body bytes not read yet.
    left: u64,
    /// Body bytes read so far (for error messages).
    pos: u64,
    sum: Checksum,
}

/// Table points are decoded this many bytes at a time (fits in L2 on most CPUs).
const CHUNK_BYTES: usize = 1 << 20;

fn bad(reason: impl ToString) -> Groth16Error {
    Groth16Error::decode(WHAT, reason)
}

impl<R: std::io::Read> Reader<R> {
    fn take(&mut self, n: usize) -> Result<&[u8], Groth16Error> {
        if n as u64 > self.left {
            return Err(bad(format!("truncated at byte {}", self.pos)));
        }
        self.buf.resize(n, 0);
        self.src
            .read_exact(&mut self.buf)
            .map_err(|e| bad(format!("reading at byte {}: {e}", self.pos)))?;
        self.sum.update(&self.buf);
        self.left -= n as u64;
        self.pos += n as u64;
        Ok(&self.buf)
    }
    fn u64(&mut self) -> Result<u64, Groth16Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    /// A count of items of `item_bytes` each that must still fit in the file.
    fn count(&mut self, item_bytes: usize) -> Result<usize, Groth16Error> {
        let n = self.u64()?;
        if n.saturating_mul(item_bytes.max(1) as u64) > self.left {
            return Err(bad(format!(
                "count {n} exceeds the {} bytes left",
                self.left
            )));
        }
        Ok(n as usize)
    }
    fn u32(&mut self) -> Result<u32, Groth16Error> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn fr(&mut self) -> Result<Fr, Groth16Error> {
        let b = limbs(self.take(32)?);
        if b >= Fr::MODULUS {
            return Err(bad("coefficient not below the scalar field modulus"));
        }
        Ok(Fr::new_unchecked(b))
    }
    fn matrix(&mut self, rows: usize, vars: usize) -> Result<Matrix<Fr>, Groth16Error> {
        if self.count(8)? != rows {
            return Err(bad("matrix row count differs from the constraint count"));
        }
        (0..rows)
            .map(|_| {
                let n = self.count(36)?;
                (0..n)
                    .map(|_| {
                        let c = self.fr()?;
                        let i = self.u32()? as usize;
                        if i >= vars {
                            return Err(bad(format!("variable {i} out of range ({vars})")));
                        }
                        Ok((c, i))
                    })
                    .collect()
            })
            .collect()
    }
    fn table<P: RawCurve>(&mut self, bases: usize) -> Result<FixedBaseTable<P>, Groth16Error> {
        let window = self.u64()? as usize;
        let windows = self.u64()? as usize;
        if !(2..=16).contains(&window) || windows != num_windows(window) {
            return Err(bad(format!("bad window {window} / {windows}")));
        }
        let n = self.count(4)?;
        let mut indices = Vec::with_capacity(n);
        for _ in 0..n {
            let i = self.u32()?;
            if (i as usize) >= bases || indices.last().is_some_and(|&l| l >= i) {
                return Err(bad("base indices not increasing or out of range"));
            }
            indices.push(i);
        }
        let total = n
            .checked_mul(windows)
            .ok_or_else(|| bad("table too large"))?;
        let bytes = P::WORDS * 8;
        if (total as u64).saturating_mul(bytes as u64) > self.left {
            return Err(bad(format!("truncated table at byte {}", self.pos)));
        }
        // One allocation, written once (no zero-fill), a buffer-sized piece at
        // a time and in parallel: decoding is bound by memory traffic, so the
        // file's bytes are decoded while they are still in cache.
        let mut points: Vec<Affine<P>> = Vec::with_capacity(total);
        let invalid = std::sync::atomic::AtomicBool::new(false);
        let decode = |c: &[u8]| {
            P::get(c).unwrap_or_else(|| {
                invalid.store(true, std::sync::atomic::Ordering::Relaxed);
                Affine::<P>::identity()
            })
        };
        let per_piece = (CHUNK_BYTES / bytes).max(1);
        while points.len() < total {
            let k = per_piece.min(total - points.len());
            let raw = self.take(k * bytes)?;
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                points.par_extend(raw.par_chunks_exact(bytes).with_min_len(1024).map(decode));
            }
            #[cfg(not(feature = "parallel"))]
            points.extend(raw.chunks_exact(bytes).map(decode));
        }
        if invalid.into_inner() {
            return Err(bad("point coordinate not below the modulus"));
        }
        Ok(FixedBaseTable {
            window,
            windows,
            indices,
            points,
        })
    }
}

/// Decodes a cache file for `pk`: its matrices and tables, or an error if the
/// file is damaged, of another version or made for another key.
pub fn from_bytes(
    pk: &ProvingKey<ark_bn254::Bn254>,
    data: &[u8],
) -> Result<(ConstraintMatrices<Fr>, ProverTables), Groth16Error> {
    let header = data.get(..HEADER).unwrap_or(data);
    let body = data.get(HEADER..).unwrap_or(&[]);
    decode(pk, header, body, body.len() as u64)
}

/// Decodes the header, then streams the body of `body_len` bytes from `src`.
fn decode<R: std::io::Read>(
    pk: &ProvingKey<ark_bn254::Bn254>,
    header: &[u8],
    src: R,
    body_len: u64,
) -> Result<(ConstraintMatrices<Fr>, ProverTables), Groth16Error> {
    if header.len() < HEADER || &header[..8] != MAGIC {
        return Err(bad("not a zkbench prover cache"));
    }
    if header[8] != VERSION {
        return Err(bad(format!("version {} (expected {VERSION})", header[8])));
    }
    let expected_sum = u64::from_le_bytes(header[12..20].try_into().expect("8"));
    let mut r = Reader {
        src,
        buf: Vec::new(),
        left: body_len,
        pos: 0,
        sum: Checksum::new(),
    };
    let n = r.count(1)?;
    if r.take(n)? != vk_bytes(&pk.vk).as_slice() {
        return Err(bad("made for another proving key"));
    }
    let num_instance_variables = r.u64()? as usize;
    let num_witness_variables = r.u64()? as usize;
    let num_constraints = r.u64()? as usize;
    let vars = num_instance_variables.saturating_add(num_witness_variables);
    if num_instance_variables != pk.vk.gamma_abc_g1.len() || vars != pk.a_query.len() {
        return Err(bad("matrix dimensions do not match the proving key"));
    }
    let a = r.matrix(num_constraints, vars)?;
    let b = r.matrix(num_constraints, vars)?;
    let c = r.matrix(num_constraints, vars)?;
    let nnz = |m: &Matrix<Fr>| m.iter().map(Vec::len).sum();
    let matrices = ConstraintMatrices {
        num_instance_variables,
        num_witness_variables,
        num_constraints,
        a_num_non_zero: nnz(&a),
        b_num_non_zero: nnz(&b),
        c_num_non_zero: nnz(&c),
        a,
        b,
        c,
    };
    let tables = ProverTables {
        a: r.table(pk.a_query.len())?,
        b_g1: r.table(pk.b_g1_query.len())?,
        b_g2: r.table(pk.b_g2_query.len())?,
        h: r.table(pk.h_query.len())?,
        l: r.table(pk.l_query.len())?,
    };
    if r.left != 0 {
        return Err(bad(format!("{} trailing bytes", r.left)));
    }
    // the checksum covers every byte, so it is only known at the end; nothing
    // decoded is returned before it matches
    if r.sum.finish() != expected_sum {
        return Err(bad("checksum mismatch (damaged file)"));
    }
    Ok((matrices, tables))
}

/// Writes the cache of `pk` next to the proving key at `pk_path` (atomically).
pub fn write(
    pk_path: &Path,
    pk: &ProvingKey<ark_bn254::Bn254>,
    matrices: &ConstraintMatrices<Fr>,
    tables: &ProverTables,
) -> Result<(), Groth16Error> {
    crate::keys::write_atomic(&cache_path(pk_path), &to_bytes(pk, matrices, tables))
}

/// Reads the cache next to `pk_path`: `Ok(None)` when there is none.
pub fn read(
    pk_path: &Path,
    pk: &ProvingKey<ark_bn254::Bn254>,
) -> Result<Option<(ConstraintMatrices<Fr>, ProverTables)>, Groth16Error> {
    use std::io::Read;
    let path = cache_path(pk_path);
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Groth16Error::io(&path, e)),
    };
    let len = file
        .metadata()
        .map_err(|e| Groth16Error::io(&path, e))?
        .len();
    // small fields are read through the buffer; table pieces (as large as
    // the buffer) go straight from the file into the reused piece buffer
    let mut src = std::io::BufReader::with_capacity(CHUNK_BYTES, file);
    let mut header = [0u8; HEADER];
    if src.read_exact(&mut header).is_err() {
        return Err(bad("shorter than its header"));
    }
    decode(pk, &header, src, len.saturating_sub(HEADER as u64)).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Circuit, CircuitKind, SpendConfig};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;
    use zkbench_hash::HashFamily;

    fn circuit() -> Circuit {
        Circuit::new(&SpendConfig {
            family: HashFamily::Poseidon2Gnark,
            alpha: None,
            arity: 2,
            leaves: 16,
            circuit: CircuitKind::Membership,
        })
        .unwrap()
    }

    #[test]
    fn incremental_checksum_equals_one_shot() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 3) as u8).collect();
        let whole = checksum(&data);
        for split in [vec![1, 31, 32, 33], vec![500], vec![3; 333], vec![64, 0, 7]] {
            let mut c = Checksum::new();
            let mut rest = &data[..];
            for n in split {
                let n = n.min(rest.len());
                c.update(&rest[..n]);
                rest = &rest[n..];
            }
            c.update(rest);
            assert_eq!(c.finish(), whole);
        }
    }

    #[test]
    fn round_trip_proves_the_same_proof() {
        let c = circuit();
        let keys = c.setup(7).unwrap(); // TEST SETUP
        let bytes = to_bytes(&keys.pk, &keys.matrices, keys.prover_tables());
        let (m, t) = from_bytes(&keys.pk, &bytes).unwrap();
        assert_eq!(m, *keys.matrices);
        let loaded = crate::Keys::with_tables(
            keys.pk.clone(),
            keys.pvk.clone(),
            std::sync::Arc::new(m),
            true,
            t,
        );
        let w = c.random_witness(&mut ChaCha20Rng::seed_from_u64(3));
        let a = c.witness(&w).unwrap();
        let p1 = c
            .prove_assignment(&keys, &a, &mut ChaCha20Rng::seed_from_u64(5))
            .unwrap();
        let p2 = c
            .prove_assignment(&loaded, &a, &mut ChaCha20Rng::seed_from_u64(5))
            .unwrap();
        assert_eq!(p1, p2);
    }

    #[test]
    fn damaged_truncated_or_foreign_files_are_errors() {
        let c = circuit();
        let keys = c.setup(7).unwrap(); // TEST SETUP
        let bytes = to_bytes(&keys.pk, &keys.matrices, keys.prover_tables());
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("empty", vec![]),
            ("truncated", bytes[..bytes.len() / 2].to_vec()),
            ("flipped byte", {
                let mut b = bytes.clone();
                let i = b.len() - 5;
                b[i] ^= 1;
                b
            }),
            ("other version", {
                let mut b = bytes.clone();
                b[8] = 99;
                b
            }),
            ("trailing byte", {
                let mut b = bytes.clone();
                b.push(0);
                b
            }),
        ];
        for (name, b) in cases {
            assert!(from_bytes(&keys.pk, &b).is_err(), "{name} accepted");
        }
        let other = c.setup(8).unwrap(); // TEST SETUP, another key
        assert!(
            from_bytes(&other.pk, &bytes).is_err(),
            "cache of another key accepted"
        );
    }

    #[test]
    fn load_or_setup_uses_and_repairs_the_cache() {
        let c = circuit();
        let dir = std::env::temp_dir().join(format!("zkbench-pc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (_, cached) = c.load_or_setup(&dir, 9).unwrap();
        assert!(!cached);
        let path = cache_path(&c.key_path(&dir, 9).unwrap());
        assert!(path.exists(), "setup writes the prover cache");
        let (k, cached) = c.load_or_setup(&dir, 9).unwrap();
        assert!(cached && k.built_tables().is_some());
        // a damaged cache is rebuilt, and the proof still verifies
        let mut b = std::fs::read(&path).unwrap();
        let i = b.len() - 1;
        b[i] ^= 0xff;
        std::fs::write(&path, &b).unwrap();
        let (k, _) = c.load_or_setup(&dir, 9).unwrap();
        let pk = crate::keys::read_proving_key(&c.key_path(&dir, 9).unwrap()).unwrap();
        assert!(read(&c.key_path(&dir, 9).unwrap(), &pk).unwrap().is_some());
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let w = c.random_witness(&mut rng);
        let a = c.witness(&w).unwrap();
        let proof = c.prove_assignment(&k, &a, &mut rng).unwrap();
        assert!(crate::verify(&k.pvk, &a.public_inputs(), &proof).unwrap());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
