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
//! # Format (version 7)
//!
//! `ZKBG16PC` magic, version (u8), three reserved bytes, the XXH3-64
//! checksums of the two sections (matrices, then tables) and the length of
//! the matrices' section (u64 LE each), then the sections, all integers u64
//! LE unless noted:
//!
//! 1. the matrices' section: the verifying key, compressed, length-prefixed
//!    (the cache is used only with the proving key whose `vk` is
//!    byte-identical: binding), then the matrices: instance, witness and
//!    constraint counts, the distinct coefficients (count, then each as
//!    Montgomery limbs), then A, B, C, each as a row count and rows of
//!    `(length u32, [(variable u32, coefficient's index u32)])`. A circuit's
//!    coefficients are few (156 distinct among the 35,961 entries of the
//!    Griffin spend's matrices), so its entries take 8 bytes where their
//!    values would take 36: the spend's matrices 0.3 MB instead of 1.4 MB,
//!    the Poseidon membership's 1.8 MB instead of 7.9 MB;
//! 2. the tables' section: the five tables in the order [`TABLE_ORDER`]
//!    names them: window, rows (points per base: the number of windows in a
//!    full table, fewer in a compact one,
//!    `zkbench_msm::FixedBaseTable::compact`), split (1: the scalars are cut
//!    in halves by the curve's endomorphism, whose images of the points the
//!    reader computes, `zkbench_msm::glv`; 0: not), number of bases, base
//!    indices (u32 LE), then the points.
//!
//! The order is the order a prover reading the file as it arrives needs it
//! ([`crate::streamed`]): the small matrices first, so that the witness map
//! (`h`, its FFTs) runs while the tables come in, then the tables, the one
//! with the most work per byte (`b_g2`) first and the cheapest MSM (`b_g1`)
//! last, so that little is left to do after the last byte. (Version 3 had
//! the matrices first too, written in full: 7.9 MB for the membership, too
//! long a wait before the first table; versions 4 and 5 had the tables
//! first and the matrices after them.)
//!
//! The sections are checked and decoded at the same time (version 1 had one
//! checksum over both, so one thread read the whole file); the proving key
//! is read beside them ([`read_unbound`], then [`Unbound::bind`]).
//!
//! # Reading: memory-mapped
//!
//! On Unix [`read_unbound`] maps the file read-only ([`crate::mapped`]) and
//! the tables keep their points where they are in the map (a shared range,
//! [`PointBytes::shared`]): a cold load copies nothing, and the pages come
//! from the page cache as the checksum pass reads them. Elsewhere the file
//! is read whole into one buffer that the tables share the same way. Keys
//! loaded from a cache file keep it mapped while they live: **do not write
//! a prover cache in place** while a program uses it (zkbench only ever
//! replaces it atomically, [`crate::keys`]' `write_atomic`).
//!
//! Field elements are written as their **Montgomery-form limbs** (4 × u64 LE
//! per base-field element), so reading needs no field conversion. A table's
//! points are exactly the bytes the table holds in memory
//! ([`zkbench_msm::PointBytes`]), so they are used where they lie in the file
//! and never decoded one by one. Every matrix coefficient is checked to be below the modulus, and
//! every length, index and window against the proving key before anything is
//! allocated, so a damaged or truncated file gives [`Groth16Error::Decode`],
//! never a panic. Table points are not checked (neither reduced nor on the
//! curve: that would cost most of what the cache saves): like the proving
//! key itself ([`crate::keys`]), the cache is local, written by zkbench, and
//! protected by the checksum against damage; a wrong table point can only
//! make the prover output an invalid proof, which the verifier rejects (the
//! prover's additions never panic on any limbs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ark_bn254::Fr;
use ark_ff::{BigInt, PrimeField};
use ark_groth16::{ProvingKey, VerifyingKey};
use ark_relations::r1cs::{ConstraintMatrices, Matrix};
use ark_serialize::CanonicalSerialize;

use crate::prover::ProverTables;
use crate::Groth16Error;
use zkbench_msm::{Backing, FixedBaseTable, PointBytes, RawCurve};

const MAGIC: &[u8; 8] = b"ZKBG16PC";
const VERSION: u8 = 7;
/// Magic, version and reserved bytes, the two sections' checksums, the
/// matrices' section's length.
pub(crate) const HEADER: usize = 8 + 4 + 8 + 8 + 8;
/// A table's window, rows, split flag and number of bases (u64 LE each).
pub(crate) const TABLE_HEADER: usize = 8 + 8 + 8 + 8;
/// The tables in the order the file holds them (see the module docs).
pub const TABLE_ORDER: [&str; 5] = ["b_g2", "h", "a", "l", "b_g1"];
const WHAT: &str = "prover cache";

/// Where the prover cache of the proving key at `pk_path` lives.
pub fn cache_path(pk_path: &Path) -> PathBuf {
    pk_path.with_extension("prover")
}

/// The section checksum: XXH3-64 (seed 0), a damage check, not a MAC, that
/// runs at memory speed (version 2's four-lane word-wise FNV-1a took 4.4 ms
/// on a 47 MB cache, XXH3 1.4 ms).
pub(crate) fn checksum(data: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(data)
}

pub(crate) fn vk_bytes(vk: &VerifyingKey<ark_bn254::Bn254>) -> Vec<u8> {
    let mut v = Vec::new();
    vk.serialize_compressed(&mut v)
        .expect("writing to a Vec cannot fail");
    v
}

fn limbs(b: &[u8]) -> BigInt<4> {
    let w = |i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    BigInt::new([w(0), w(1), w(2), w(3)])
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
    /// The matrices' distinct coefficients, in the order of their first
    /// use, then each matrix as rows of (variable, coefficient's index).
    fn matrices(&mut self, ms: [&Matrix<Fr>; 3]) {
        let mut index: HashMap<Fr, usize> = HashMap::new();
        let mut coefficients = Vec::new();
        for (c, _) in ms.iter().flat_map(|m| m.iter().flatten()) {
            index.entry(*c).or_insert_with(|| {
                coefficients.push(*c);
                coefficients.len() - 1
            });
        }
        self.u64(coefficients.len());
        for c in &coefficients {
            self.fr(c);
        }
        for m in ms {
            self.u64(m.len());
            for row in m {
                self.u32(row.len());
                for (c, i) in row {
                    self.u32(*i);
                    self.u32(index[c]);
                }
            }
        }
    }
    fn table<P: RawCurve>(&mut self, t: &FixedBaseTable<P>) {
        self.u64(t.window());
        self.u64(t.rows());
        self.u64(usize::from(t.is_split()));
        self.u64(t.indices().len());
        for i in t.indices() {
            self.u32(*i as usize);
        }
        // the table's stored points are already the file's layout
        self.0.extend_from_slice(t.point_bytes());
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
    w.matrices([&matrices.a, &matrices.b, &matrices.c]);
    let matrices = std::mem::take(&mut w.0);
    // TABLE_ORDER
    w.table(&tables.b_g2);
    w.table(&tables.h);
    w.table(&tables.a);
    w.table(&tables.l);
    w.table(&tables.b_g1);
    let tables = w.0;
    let mut out = Vec::with_capacity(HEADER + tables.len() + matrices.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[VERSION, 0, 0, 0]);
    out.extend_from_slice(&checksum(&matrices).to_le_bytes());
    out.extend_from_slice(&checksum(&tables).to_le_bytes());
    out.extend_from_slice(&(matrices.len() as u64).to_le_bytes());
    out.extend_from_slice(&matrices);
    out.extend_from_slice(&tables);
    out
}

/// Reads one section from its bytes (a mapped file, a file read whole or a
/// caller's byte string), checking every count against what is left.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

fn bad(reason: impl ToString) -> Groth16Error {
    Groth16Error::decode(WHAT, reason)
}

impl<'a> Cursor<'a> {
    fn new(data: &'a [u8]) -> Self {
        Cursor { data, pos: 0 }
    }
    fn left(&self) -> usize {
        self.data.len() - self.pos
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], Groth16Error> {
        if n > self.left() {
            return Err(bad(format!("truncated at byte {}", self.pos)));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }
    fn u64(&mut self) -> Result<u64, Groth16Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    /// A count of items of `item_bytes` each that must still fit.
    fn count(&mut self, item_bytes: usize) -> Result<usize, Groth16Error> {
        let n = self.u64()?;
        if n.saturating_mul(item_bytes.max(1) as u64) > self.left() as u64 {
            return Err(bad(format!(
                "count {n} exceeds the {} bytes left",
                self.left()
            )));
        }
        Ok(n as usize)
    }
    /// The matrices' coefficients, each checked to be below the modulus.
    fn coefficients(&mut self) -> Result<Vec<Fr>, Groth16Error> {
        let n = self.count(32)?;
        self.take(n * 32)?
            .chunks_exact(32)
            .map(|e| {
                let b = limbs(e);
                if b >= Fr::MODULUS {
                    return Err(bad("coefficient not below the scalar field modulus"));
                }
                Ok(Fr::new_unchecked(b))
            })
            .collect()
    }
    /// A matrix of `rows` rows over `vars` variables, its entries' values
    /// among `coefficients`.
    fn matrix(
        &mut self,
        rows: usize,
        vars: usize,
        coefficients: &[Fr],
    ) -> Result<Matrix<Fr>, Groth16Error> {
        if self.count(4)? != rows {
            return Err(bad("matrix row count differs from the constraint count"));
        }
        let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize;
        let mut m = Vec::with_capacity(rows);
        for _ in 0..rows {
            let n = word(self.take(4)?);
            if n.saturating_mul(8) > self.left() {
                return Err(bad(format!("row of {n} entries past the section's end")));
            }
            // an exact allocation per row (collecting into a `Result` would
            // grow the vector by doubling)
            let mut row = Vec::with_capacity(n);
            for e in self.take(n * 8)?.chunks_exact(8) {
                let c = *coefficients
                    .get(word(&e[4..]))
                    .ok_or_else(|| bad("coefficient index out of range"))?;
                let i = word(&e[..4]);
                if i >= vars {
                    return Err(bad(format!("variable {i} out of range ({vars})")));
                }
                row.push((c, i));
            }
            m.push(row);
        }
        Ok(m)
    }
    /// A table; its points are `points(range)` of the section's bytes (a
    /// shared range or a copy; `None`: outside the file), its base indices are checked against the
    /// proving key by [`Unbound::bind`].
    fn table<P: RawCurve>(
        &mut self,
        points: &impl Fn(std::ops::Range<usize>) -> Option<PointBytes>,
    ) -> Result<FixedBaseTable<P>, Groth16Error> {
        let window = self.u64()?;
        let rows = self.u64()?;
        let split = self.u64()?;
        let (window, rows, split) = table_shape::<P>(window, rows, split)?;
        let n = self.count(4)?;
        let indices: Vec<u32> = self
            .take(n * 4)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        if indices.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("base indices not increasing"));
        }
        let bytes = n
            .checked_mul(rows)
            .and_then(|t| t.checked_mul(P::BYTES))
            .filter(|&b| b <= self.left())
            .ok_or_else(|| bad(format!("truncated table at byte {}", self.pos)))?;
        let start = self.pos;
        self.pos += bytes;
        let points = points(start..start + bytes).ok_or_else(|| bad("table outside the file"))?;
        FixedBaseTable::from_parts(window, rows, split, indices, points)
            .ok_or_else(|| bad(format!("table of {bytes} bytes does not match its window")))
    }
}

/// A decoded cache file not yet checked against a proving key: reading it
/// needs no key, so that [`crate::Circuit::load_or_setup`] reads the key and
/// the cache at the same time; [`Unbound::bind`] then checks the binding.
pub struct Unbound {
    vk: Vec<u8>,
    matrices: ConstraintMatrices<Fr>,
    tables: ProverTables,
}

impl Unbound {
    /// A cache decoded by a reader of its own ([`crate::streamed`]): the
    /// verifying key's bytes, the matrices and the tables, to be bound.
    pub(crate) fn new(vk: Vec<u8>, matrices: ConstraintMatrices<Fr>, tables: ProverTables) -> Self {
        Unbound {
            vk,
            matrices,
            tables,
        }
    }

    /// The matrices and tables, if the cache was made for `pk`: the same
    /// verifying key (byte for byte), the same numbers of variables, and
    /// every table's bases within the key's query.
    pub fn bind(
        self,
        pk: &ProvingKey<ark_bn254::Bn254>,
    ) -> Result<(ConstraintMatrices<Fr>, ProverTables), Groth16Error> {
        if self.vk != vk_bytes(&pk.vk) {
            return Err(bad("made for another proving key"));
        }
        let m = &self.matrices;
        if m.num_instance_variables != pk.vk.gamma_abc_g1.len()
            || m.num_instance_variables + m.num_witness_variables != pk.a_query.len()
        {
            return Err(bad("matrix dimensions do not match the proving key"));
        }
        let t = &self.tables;
        within(&t.a, pk.a_query.len())?;
        within(&t.b_g1, pk.b_g1_query.len())?;
        within(&t.b_g2, pk.b_g2_query.len())?;
        within(&t.h, pk.h_query.len())?;
        within(&t.l, pk.l_query.len())?;
        Ok((self.matrices, self.tables))
    }

    /// The proving key of `head` with its five queries rebuilt from the
    /// tables' bases (points at infinity where a table has no base), then
    /// the matrices and tables bound to it ([`Unbound::bind`]). The
    /// queries' lengths are checked against the matrices (and the number of
    /// variables against their entries) before anything is allocated, every
    /// base's coordinates to be below the modulus (as a proving key file's
    /// reader does).
    pub fn bind_head(
        self,
        head: crate::keys::ProvingKeyHead,
    ) -> Result<
        (
            ProvingKey<ark_bn254::Bn254>,
            ConstraintMatrices<Fr>,
            ProverTables,
        ),
        Groth16Error,
    > {
        let m = &self.matrices;
        let vars = m
            .num_instance_variables
            .saturating_add(m.num_witness_variables) as u64;
        // the QAP's domain holds the constraints and one per public input
        let domain = (m.num_constraints.saturating_add(m.num_instance_variables) as u64)
            .checked_next_power_of_two()
            .unwrap_or(u64::MAX);
        // the variables' count is only a number in the file: bounded by the
        // entries (8 bytes each) before it sizes an allocation, as a proving
        // key file's queries were by their bytes (a real circuit has far more
        // entries than variables: the spend 35,961 for 2,490)
        let entries = (m.a_num_non_zero + m.b_num_non_zero + m.c_num_non_zero) as u64;
        if vars > entries + m.num_instance_variables as u64 + 1 {
            return Err(bad("more variables than the matrices have entries"));
        }
        let [a, b_g1, b_g2, h, l] = head.query_lens;
        if a != vars
            || b_g1 != vars
            || b_g2 != vars
            || l != m.num_witness_variables as u64
            || h > domain
        {
            return Err(bad(
                "the proving key's query lengths do not match the matrices",
            ));
        }
        let t = &self.tables;
        let pk = ProvingKey {
            vk: head.vk,
            beta_g1: head.beta_g1,
            delta_g1: head.delta_g1,
            a_query: query(&t.a, a)?,
            b_g1_query: query(&t.b_g1, b_g1)?,
            b_g2_query: query(&t.b_g2, b_g2)?,
            h_query: query(&t.h, h)?,
            l_query: query(&t.l, l)?,
        };
        let (matrices, tables) = self.bind(&pk)?;
        Ok((pk, matrices, tables))
    }
}

/// A proving key's query of `len` points from `table`'s bases.
fn query<P: RawCurve>(
    table: &FixedBaseTable<P>,
    len: u64,
) -> Result<Vec<ark_ec::short_weierstrass::Affine<P>>, Groth16Error> {
    let len = len as usize; // at most the matrices' sizes (checked)
    within(table, len)?;
    let mut q = vec![ark_ec::short_weierstrass::Affine::<P>::identity(); len];
    for (i, bytes) in table.bases() {
        q[i as usize] = P::get_checked(bytes)
            .ok_or_else(|| bad("a base's coordinate not below the modulus"))?;
    }
    Ok(q)
}

/// An error unless every base of `table` is one of the key's `bases`.
pub(crate) fn within<P: RawCurve>(
    table: &FixedBaseTable<P>,
    bases: usize,
) -> Result<(), Groth16Error> {
    match table.indices().last() {
        Some(&i) if i as usize >= bases => {
            Err(bad("table base index out of the proving key's range"))
        }
        _ => Ok(()),
    }
}

/// A table header's window, rows and split flag, or an error naming what
/// is accepted ([`FixedBaseTable::valid_shape`]).
fn table_shape<P: RawCurve>(
    window: u64,
    rows: u64,
    split: u64,
) -> Result<(usize, usize, bool), Groth16Error> {
    let shape = match (usize::try_from(window), usize::try_from(rows), split) {
        (Ok(w), Ok(r), 0 | 1) => Some((w, r, split == 1)),
        _ => None,
    };
    shape
        .filter(|&(w, r, s)| FixedBaseTable::<P>::valid_shape(w, r, s))
        .ok_or_else(|| {
            bad(format!(
                "bad table shape: window {window}, {rows} rows, split {split} (a window of 2 to 16 bits, \
                 15 when split, at most a scalar's windows of rows, split 0 or 1)"
            ))
        })
}

/// The length in bytes of the table whose first [`TABLE_HEADER`] bytes
/// are `head`, if it fits in the `left` bytes of its section: for a reader
/// that gets the file in pieces ([`crate::streamed`]).
pub(crate) fn table_len<P: RawCurve>(head: &[u8], left: usize) -> Result<usize, Groth16Error> {
    let mut c = Cursor::new(head);
    let window = c.u64()?;
    let rows = c.u64()?;
    let split = c.u64()?;
    let n = c.u64()?;
    let (_, rows, _) = table_shape::<P>(window, rows, split)?;
    n.checked_mul(4 + rows as u64 * P::BYTES as u64)
        .and_then(|b| b.checked_add(TABLE_HEADER as u64))
        .and_then(|b| usize::try_from(b).ok())
        .filter(|&b| b <= left)
        .ok_or_else(|| bad(format!("a table of {n} bases does not fit in {left} bytes")))
}

/// The table that is the whole of `bytes` (its points stay in them).
pub(crate) fn table_from<P: RawCurve>(
    bytes: Arc<Vec<u8>>,
) -> Result<FixedBaseTable<P>, Groth16Error> {
    let data: &[u8] = &bytes;
    let mut c = Cursor::new(data);
    let table = c.table(&|r| PointBytes::shared(bytes.clone(), r))?;
    finish(&c)?;
    Ok(table)
}

/// Decodes a cache file for `pk`: its matrices and tables (their points
/// copied out of `data`), or an error if the file is damaged, of another
/// version or made for another key.
pub fn from_bytes(
    pk: &ProvingKey<ark_bn254::Bn254>,
    data: &[u8],
) -> Result<(ConstraintMatrices<Fr>, ProverTables), Groth16Error> {
    unbound_from_bytes(data)?.bind(pk)
}

/// Decodes a cache file (the tables' points copied out of `data`) without
/// its proving key: bind it with [`Unbound::bind`] or
/// [`Unbound::bind_head`].
pub fn unbound_from_bytes(data: &[u8]) -> Result<Unbound, Groth16Error> {
    let (tables, matrices) = sections(data)?;
    join(
        || decode_matrices(matrices.0, matrices.1),
        || {
            decode_tables(tables.0, tables.1, &|r| {
                Some(PointBytes::owned(tables.0.get(r)?.to_vec()))
            })
        },
    )
}

/// Decodes a cache file held by a shared `backing` (a mapped file, or a file
/// read whole): the tables' points stay in it, nothing is copied.
pub fn from_shared(backing: Arc<dyn Backing>) -> Result<Unbound, Groth16Error> {
    let data = (*backing).as_ref();
    let (tables, matrices) = sections(data)?;
    let offset = data.len() - tables.0.len();
    join(
        || decode_matrices(matrices.0, matrices.1),
        || {
            decode_tables(tables.0, tables.1, &|r: std::ops::Range<usize>| {
                PointBytes::shared(backing.clone(), offset + r.start..offset + r.end)
            })
        },
    )
}

/// The header's checked split of `data` into its two sections (tables,
/// matrices), each with its expected checksum.
#[allow(clippy::type_complexity)]
fn sections(data: &[u8]) -> Result<((&[u8], u64), (&[u8], u64)), Groth16Error> {
    let h = Header::parse(data.get(..HEADER).unwrap_or(data))?;
    let body = &data[HEADER..];
    let split = usize::try_from(h.matrices_len)
        .ok()
        .filter(|&n| n <= body.len())
        .ok_or_else(|| bad("matrices' section longer than the file"))?;
    let (matrices, tables) = body.split_at(split);
    Ok(((tables, h.tables_sum), (matrices, h.matrices_sum)))
}

/// The fixed-size header of a cache file.
pub(crate) struct Header {
    pub(crate) matrices_sum: u64,
    pub(crate) tables_sum: u64,
    pub(crate) matrices_len: u64,
}

impl Header {
    pub(crate) fn parse(h: &[u8]) -> Result<Header, Groth16Error> {
        if h.len() < HEADER || &h[..8] != MAGIC {
            return Err(bad("not a zkbench prover cache"));
        }
        if h[8] != VERSION {
            return Err(bad(format!("version {} (expected {VERSION})", h[8])));
        }
        let word = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8"));
        Ok(Header {
            matrices_sum: word(12),
            tables_sum: word(20),
            matrices_len: word(28),
        })
    }
}

/// Runs both section decoders (in parallel with the `parallel` feature) and
/// joins their results.
fn join(
    matrices: impl FnOnce() -> Result<(Vec<u8>, ConstraintMatrices<Fr>), Groth16Error> + Send,
    tables: impl FnOnce() -> Result<ProverTables, Groth16Error> + Send,
) -> Result<Unbound, Groth16Error> {
    let (a, b) = crate::join(matrices, tables);
    let (vk, matrices) = a?;
    Ok(Unbound {
        vk,
        matrices,
        tables: b?,
    })
}

/// Checks a section against its checksum before anything in it is decoded.
fn check(section: &[u8], expected_sum: u64) -> Result<(), Groth16Error> {
    if checksum(section) != expected_sum {
        return Err(bad("checksum mismatch (damaged file)"));
    }
    Ok(())
}

/// Checks that a section was decoded whole.
fn finish(c: &Cursor<'_>) -> Result<(), Groth16Error> {
    match c.left() {
        0 => Ok(()),
        n => Err(bad(format!("{n} trailing bytes"))),
    }
}

/// The matrices' section: the verifying key's bytes and the matrices.
pub(crate) fn decode_matrices(
    section: &[u8],
    sum: u64,
) -> Result<(Vec<u8>, ConstraintMatrices<Fr>), Groth16Error> {
    check(section, sum)?;
    let mut r = Cursor::new(section);
    let n = r.count(1)?;
    let vk = r.take(n)?.to_vec();
    let num_instance_variables = r.u64()? as usize;
    let num_witness_variables = r.u64()? as usize;
    let num_constraints = r.u64()? as usize;
    let vars = num_instance_variables.saturating_add(num_witness_variables);
    let coefficients = r.coefficients()?;
    let a = r.matrix(num_constraints, vars, &coefficients)?;
    let b = r.matrix(num_constraints, vars, &coefficients)?;
    let c = r.matrix(num_constraints, vars, &coefficients)?;
    finish(&r)?;
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
    Ok((vk, matrices))
}

/// The tables' section: the five tables ([`TABLE_ORDER`]), their points
/// `points(range)` of the section.
fn decode_tables(
    section: &[u8],
    sum: u64,
    points: &impl Fn(std::ops::Range<usize>) -> Option<PointBytes>,
) -> Result<ProverTables, Groth16Error> {
    check(section, sum)?;
    let mut r = Cursor::new(section);
    // TABLE_ORDER
    let (b_g2, h, a) = (r.table(points)?, r.table(points)?, r.table(points)?);
    let (l, b_g1) = (r.table(points)?, r.table(points)?);
    let tables = ProverTables {
        a,
        b_g1,
        b_g2,
        h,
        l,
    };
    finish(&r)?;
    Ok(tables)
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
    read_unbound(pk_path)?.map(|u| u.bind(pk)).transpose()
}

/// Reads the cache next to `pk_path` without its proving key (check it
/// with [`Unbound::bind`]): `Ok(None)` when there is none. On Unix the file
/// is memory-mapped and the tables' points stay in the map (see the module
/// docs); elsewhere, or if mapping fails, it is read whole.
pub fn read_unbound(pk_path: &Path) -> Result<Option<Unbound>, Groth16Error> {
    let path = cache_path(pk_path);
    let io = |e| Groth16Error::io(&path, e);
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let len = file.metadata().map_err(io)?.len();
    if len < HEADER as u64 {
        return Err(bad("shorter than its header"));
    }
    #[cfg(unix)]
    if let Ok(map) = crate::mapped::MappedFile::map(&file) {
        return from_shared(Arc::new(map)).map(Some);
    }
    use std::io::Read;
    let mut data = Vec::with_capacity(len as usize);
    let mut file = file;
    file.read_to_end(&mut data).map_err(io)?;
    from_shared(Arc::new(data)).map(Some)
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

    /// The checksum is the standard XXH3-64 (`xxhsum -H3` checks a section):
    /// the reference implementation's value for the empty input.
    #[test]
    fn checksum_is_xxh3_64() {
        assert_eq!(checksum(b""), 0x2D06_8005_38D3_94C2);
        assert_ne!(checksum(b"a"), checksum(b"b"));
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
            ("flipped byte in a table", {
                let mut b = bytes.clone();
                let i = b.len() - 200;
                b[i] ^= 1;
                b
            }),
            ("flipped byte in a matrix", {
                let mut b = bytes.clone();
                b[HEADER + 200] ^= 1;
                b
            }),
            ("matrices' section past the end", {
                let mut b = bytes.clone();
                b[28..36].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
                b
            }),
            ("sections split elsewhere", {
                let mut b = bytes.clone();
                let first = u64::from_le_bytes(b[28..36].try_into().unwrap());
                b[28..36].copy_from_slice(&(first + 8).to_le_bytes());
                b
            }),
            ("version 1", {
                let mut b = bytes.clone();
                b[8] = 1;
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
            let shared = from_shared(Arc::new(b)).and_then(|u| u.bind(&keys.pk));
            assert!(shared.is_err(), "{name} accepted from a shared backing");
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
        #[cfg(unix)]
        assert!(
            k.built_tables().unwrap().a.is_shared(),
            "a loaded cache's tables are the mapped file's bytes"
        );
        // keys loaded from the cache live on while it is atomically replaced
        // (as a repair or another process's setup does): they keep the old
        // mapped bytes and still prove
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let w = c.random_witness(&mut rng);
        let a = c.witness(&w).unwrap();
        crate::keys::write_atomic(&path, b"not a cache").unwrap();
        let proof = c.prove_assignment(&k, &a, &mut rng).unwrap();
        assert!(crate::verify(&k.pvk, &a.public_inputs(), &proof).unwrap());
        let (k2, _) = c.load_or_setup(&dir, 9).unwrap();
        assert!(
            read(&c.key_path(&dir, 9).unwrap(), &k2.pk)
                .unwrap()
                .is_some(),
            "repaired"
        );
        // (mapped keys must be gone before a file is damaged in place below)
        drop((k, k2));
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
