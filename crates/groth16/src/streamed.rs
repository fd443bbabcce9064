//! A first proof made while its key file arrives.
//!
//! A first visit to a proving page fetches the key file, then proves; the
//! network and the prover take turns. The key file ([`crate::Keys::to_bytes`])
//! is laid out in the order a prover needs it: the [`crate::prover_cache`]'s
//! constraint matrices (small: the witness map gives `h` while the rest
//! arrives), then its fixed-base tables (the one with the most work per
//! byte first, the cheapest MSM last: [`prover_cache::TABLE_ORDER`]), and
//! last the proving key's head (the key without its queries, whose points
//! are the tables' first rows; its binding checks and the randomisers'
//! terms).
//! So [`prove_streamed`] reads a [`KeyStream`] that another thread fills
//! as the bytes come in, and works on what has arrived: the MSMs of the
//! tables that are there, as one batch (every table, where the file
//! arrived before the witness map was done), while the rest of the file
//! is on the way.
//!
//! The proof is the one [`crate::prover::create_proof`] makes from the same
//! keys and randomness: the same scalars, tables and formulas, each MSM
//! joined from its rounds. Every length, window and base index is checked
//! before it is used, as when the whole file is decoded at once; the
//! checksum of the tables' section is accumulated as they arrive and
//! compared at the end, and a mismatch is an error (no proof). A stream
//! closed early is an error too, never a wait without end.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use ark_bn254::{Bn254, Fr};
use ark_groth16::{prepare_verifying_key, Proof};
// `web_time::Instant` is `std::time::Instant` natively, `performance.now()` in browsers
use web_time::Instant;
use xxhash_rust::xxh3::Xxh3;

use crate::prover::{
    h_scalars, msm_batch, scalars, DeltaMultiples, Job, MsmSums, ProverTables, Scalar, Sum,
};
use crate::prover_cache::{self, Header, HEADER, TABLE_HEADER};
use crate::{keys, Assignment, Groth16Error, Keys};
use ark_bn254::{G1Projective, G2Projective};
use ark_ff::Zero;
use zkbench_msm::{FixedBaseTable, RawCurve};

const WHAT: &str = "streamed keys";

fn bad(reason: impl ToString) -> Groth16Error {
    Groth16Error::decode(WHAT, reason)
}

/// A key file arriving in order: one thread [`KeyStream::push`]es its
/// bytes and [`KeyStream::close`]s it, a prover waits for the ranges it
/// needs.
#[derive(Default)]
pub struct KeyStream {
    state: Mutex<Arrived>,
    more: Condvar,
}

#[derive(Default)]
struct Arrived {
    bytes: Vec<u8>,
    closed: bool,
}

impl KeyStream {
    /// An empty, open stream.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Arrived> {
        // a panic while holding the lock leaves bytes that are still bytes
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Appends the next bytes of the file; ignored once closed.
    pub fn push(&self, chunk: &[u8]) {
        let mut s = self.lock();
        if !s.closed {
            s.bytes.extend_from_slice(chunk);
            self.more.notify_all();
        }
    }

    /// The end of the file (or of the transfer, if it failed): a prover
    /// waiting for bytes past what arrived gets an error.
    pub fn close(&self) {
        self.lock().closed = true;
        self.more.notify_all();
    }

    /// Bytes `start..end` of the file, once they have arrived.
    fn wait(&self, start: usize, end: usize) -> Result<Vec<u8>, Groth16Error> {
        let mut s = self.lock();
        while s.bytes.len() < end && !s.closed {
            s = self.more.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.bytes
            .get(start..end)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| bad(format!("the file ended at byte {}", s.bytes.len())))
    }

    /// How many bytes have arrived so far (never waits).
    fn arrived(&self) -> usize {
        self.lock().bytes.len()
    }

    /// The file's length once it is closed.
    fn wait_closed(&self) -> usize {
        let mut s = self.lock();
        while !s.closed {
            s = self.more.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.bytes.len()
    }

    /// The little-endian u64 length at `at`, as a `usize`, and the end of
    /// the part it prefixes.
    fn length(&self, at: usize) -> Result<(usize, usize), Groth16Error> {
        let b = self.wait(at, at + 8)?;
        let len = usize::try_from(u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .map_err(|_| bad("length out of range"))?;
        let end = (at + 8)
            .checked_add(len)
            .ok_or_else(|| bad("length out of range"))?;
        Ok((len, end))
    }
}

/// When a streamed proof reached each of its milestones, in seconds from
/// its start ([`prove_streamed`]): how much of it the download hid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Milestones {
    /// The matrices arrived and decoded.
    pub matrices: f64,
    /// The witness map done: the H MSM's scalars.
    pub h: f64,
    /// The five MSMs done (A, B in G1 and G2, L over the assignment; H).
    pub msms: f64,
    /// The last byte of the file arrived.
    pub file: f64,
    /// The proof and the keys ready.
    pub proof: f64,
}

impl Milestones {
    /// The milestones by name (`stream_<name>`), in the order they are
    /// reached, as a prover's parts.
    pub fn parts(&self) -> [(&'static str, f64); 5] {
        [
            ("stream_matrices", self.matrices),
            ("stream_h", self.h),
            ("stream_msms", self.msms),
            ("stream_file", self.file),
            ("stream_proof", self.proof),
        ]
    }
}

/// Proves `assignment` with randomness `r`, `s` from the key file arriving
/// in `stream` (the format of [`Keys::to_bytes`], full or compact tables),
/// and returns the proof with the keys decoded on the way, for later
/// proofs, and when it reached each step. See the module docs.
pub fn prove_streamed(
    stream: &KeyStream,
    assignment: &Assignment,
    r: Fr,
    s: Fr,
) -> Result<(Proof<Bn254>, Keys, Milestones), Groth16Error> {
    zkbench_msm::on_cores(|| streamed_on_pool(stream, assignment, r, s))
}

fn streamed_on_pool(
    stream: &KeyStream,
    assignment: &Assignment,
    r: Fr,
    s: Fr,
) -> Result<(Proof<Bn254>, Keys, Milestones), Groth16Error> {
    let start = Instant::now();
    let at = || start.elapsed().as_secs_f64();
    let mut times = Milestones::default();
    let z = scalars(&assignment.full);
    let aux = z
        .get(assignment.num_instance..)
        .ok_or_else(|| bad("the assignment is shorter than its instance"))?;
    // the prover cache: its matrices (the witness map while the tables
    // arrive), then its tables, each table's MSM as soon as it is there
    let (cache_len, cache_end) = stream.length(0)?;
    let header = Header::parse(&stream.wait(8, 8 + HEADER)?)?;
    let matrices_end = usize::try_from(header.matrices_len)
        .ok()
        .and_then(|n| (8 + HEADER).checked_add(n))
        .filter(|&e| e <= 8 + cache_len)
        .ok_or_else(|| bad("matrices' section longer than the file"))?;
    let (vk, matrices) = prover_cache::decode_matrices(
        &stream.wait(8 + HEADER, matrices_end)?,
        header.matrices_sum,
    )?;
    times.matrices = at();
    crate::api::check_assignment(&matrices, assignment)?;
    // the H MSM's scalars, all of them: its table's bases are checked
    // against the key's `h_query` below
    let h = h_scalars(&matrices, &assignment.full, usize::MAX)?;
    times.h = at();
    let mut tables = Tables {
        stream,
        at: matrices_end,
        end: cache_end,
        sum: Xxh3::new(),
    };
    let (b_g2, g1, sums) = table_msms(&mut tables, &z, &h, aux)?;
    let [ht, a, l, b_g1] = g1;
    times.msms = at();
    tables.finish(header.tables_sum)?;
    let (head, test_setup) = proving_key_head(stream, cache_end)?;
    times.file = at();
    let tables = ProverTables {
        a,
        b_g1,
        b_g2,
        h: ht,
        l,
    };
    // the key rebuilt from its head and the tables' bases, bound to the
    // matrices and tables; then the proof
    let (pk, matrices, tables) =
        prover_cache::Unbound::new(vk, matrices, tables).bind_head(head)?;
    let proof = sums.proof(&pk, &DeltaMultiples::new(&pk, r, s), r, s);
    let pvk = prepare_verifying_key(&pk.vk);
    let keys = Keys::with_tables(pk, pvk, Arc::new(matrices), test_setup, tables);
    times.proof = at();
    Ok((proof, keys, times))
}

/// A table in G1, and in G2.
type G1Table = FixedBaseTable<ark_bn254::g1::Config>;
type G2Table = FixedBaseTable<ark_bn254::g2::Config>;

/// The tables of a streamed key file in [`prover_cache::TABLE_ORDER`] (B in
/// G2, then H, A, L, B in G1) and their MSMs: each batch of MSMs
/// ([`msm_batch`], as a proof from loaded keys runs its five) takes the
/// next table, waiting for it, and every following one that has arrived
/// whole. On a fast link that is one batch of five; on a slow one, one
/// table at a time as it comes in. (In a threaded browser build on 2
/// threads the membership's first proof took 222-232 ms this way against
/// 243-250 ms with one MSM per table, three alternating page runs.)
fn table_msms(
    tables: &mut Tables<'_>,
    z: &[Scalar],
    h: &[Scalar],
    aux: &[Scalar],
) -> Result<(G2Table, [G1Table; 4], MsmSums), Groth16Error> {
    // the G1 tables' scalars, in file order: H, A, L, B
    let scalars: [&[Scalar]; 4] = [h, z, aux, z];
    let mut b_g2: Option<G2Table> = None;
    let mut g1: Vec<G1Table> = Vec::with_capacity(4);
    let (mut g2_sum, mut g1_sums) = (G2Projective::zero(), Vec::with_capacity(4));
    let (mut read, mut done) = (0, 0);
    while done < 5 {
        loop {
            match read {
                0 => b_g2 = Some(tables.next(z.len())?),
                i => g1.push(tables.next(scalars[i - 1].len())?),
            }
            read += 1;
            if read == 5 || !tables.ready::<ark_bn254::g1::Config>() {
                break;
            }
        }
        let jobs: Vec<Job<'_>> = (done..read)
            .map(|i| match (i, &b_g2) {
                (0, Some(t)) => Job::G2(t, z),
                (i, _) => Job::G1(&g1[i - 1], scalars[i - 1]),
            })
            .collect();
        for (sum, _) in msm_batch(&jobs) {
            match sum {
                Sum::G2(p) => g2_sum = p,
                Sum::G1(p) => g1_sums.push(p),
            }
        }
        done = read;
    }
    let b_g2 = b_g2.ok_or_else(|| bad("no table in G2"))?;
    let g1: [G1Table; 4] = g1.try_into().map_err(|_| bad("four tables in G1"))?;
    let [h_sum, a_sum, l_sum, b_g1_sum]: [G1Projective; 4] =
        g1_sums.try_into().map_err(|_| bad("four sums in G1"))?;
    let sums = MsmSums {
        a: a_sum,
        b_g1: b_g1_sum,
        b_g2: g2_sum,
        h: h_sum,
        l: l_sum,
    };
    Ok((b_g2, g1, sums))
}

/// The proving key's head after the prover cache ending at `at`, which
/// must end the file; and its test-setup flag.
fn proving_key_head(
    stream: &KeyStream,
    at: usize,
) -> Result<(keys::ProvingKeyHead, bool), Groth16Error> {
    let (_, end) = stream.length(at)?;
    let head = keys::proving_key_head_from_bytes(&stream.wait(at + 8, end)?)?;
    let len = stream.wait_closed();
    if len != end {
        return Err(bad(format!(
            "the file is {len} bytes, its lengths say {end}"
        )));
    }
    Ok(head)
}

/// The tables' section of a streamed key file, read table by table.
struct Tables<'a> {
    stream: &'a KeyStream,
    /// Where the next table starts, and where the section ends.
    at: usize,
    end: usize,
    /// The section's checksum so far.
    sum: Xxh3,
}

impl Tables<'_> {
    /// The next table, once it has arrived, its bytes added to the
    /// checksum, its bases checked to be among the `scalars` of its MSM
    /// (against the key's once it has arrived, by `Unbound::bind`).
    fn next<P: RawCurve>(&mut self, scalars: usize) -> Result<FixedBaseTable<P>, Groth16Error> {
        let left = self.end - self.at;
        let head = self
            .stream
            .wait(self.at, self.at + TABLE_HEADER.min(left))?;
        let len = prover_cache::table_len::<P>(&head, left)?;
        let bytes = Arc::new(self.stream.wait(self.at, self.at + len)?);
        self.at += len;
        self.sum.update(&bytes);
        let table = prover_cache::table_from::<P>(bytes)?;
        if prover_cache::within(&table, scalars).is_err() {
            return Err(bad(format!(
                "a table has more bases than its MSM's {scalars} scalars: keys for another circuit"
            )));
        }
        Ok(table)
    }

    /// Whether the next table (in `P`) has arrived whole, without waiting.
    fn ready<P: RawCurve>(&self) -> bool {
        let (arrived, left) = (self.stream.arrived(), self.end - self.at);
        if self.at >= self.end || arrived < self.at + TABLE_HEADER.min(left) {
            return false;
        }
        let Ok(head) = self.stream.wait(self.at, self.at + TABLE_HEADER.min(left)) else {
            return false;
        };
        // a bad header is reported by `next`
        prover_cache::table_len::<P>(&head, left).is_ok_and(|len| arrived >= self.at + len)
    }

    /// Checks that the tables fill their section and match its checksum.
    fn finish(self, expected: u64) -> Result<(), Groth16Error> {
        if self.at != self.end {
            return Err(bad(format!(
                "{} bytes after the tables",
                self.end - self.at
            )));
        }
        if self.sum.digest() != expected {
            return Err(bad("checksum mismatch (damaged file)"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Circuit, CircuitKind, SpendConfig};
    use ark_ff::UniformRand;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;
    use zkbench_hash::HashFamily;

    fn circuit() -> Circuit {
        Circuit::new(&SpendConfig {
            family: HashFamily::Poseidon2Gnark,
            alpha: None,
            arity: 2,
            leaves: 16,
            circuit: CircuitKind::Spend,
        })
        .unwrap()
    }

    /// The error of a streamed proof that must fail.
    fn fails(bytes: &[u8], a: &Assignment, r: Fr, s: Fr, close_at: usize) -> String {
        match streamed(bytes, a, r, s, close_at) {
            Ok(_) => panic!("a proof from a bad stream (closed at {close_at})"),
            Err(e) => e.to_string(),
        }
    }

    /// `bytes` pushed in chunks of random sizes by another thread while
    /// the prover reads them.
    fn streamed(
        bytes: &[u8],
        a: &Assignment,
        r: Fr,
        s: Fr,
        close_at: usize,
    ) -> Result<(Proof<Bn254>, Keys, Milestones), Groth16Error> {
        let stream = KeyStream::new();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut rng = ChaCha20Rng::seed_from_u64(close_at as u64);
                let mut at = 0;
                while at < close_at {
                    let n = rng.gen_range(1..4096).min(close_at - at);
                    stream.push(&bytes[at..at + n]);
                    at += n;
                    if rng.gen_bool(0.1) {
                        std::thread::yield_now();
                    }
                }
                stream.close();
            });
            prove_streamed(&stream, a, r, s)
        })
    }

    #[test]
    fn streamed_proofs_are_the_prover_s_own() {
        let c = circuit();
        let keys = c.setup(5).unwrap(); // TEST SETUP
        let w = c.random_witness(&mut ChaCha20Rng::seed_from_u64(2));
        let a = c.witness(&w).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let (r, s) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
        let expected = crate::prover::create_proof(
            &keys.pk,
            keys.prover_tables(),
            &keys.matrices,
            &a.full,
            r,
            s,
        )
        .unwrap();
        for rows in [None, Some(4), Some(1)] {
            let file = match rows {
                None => keys.to_bytes(),
                Some(rows) => keys.compacted(rows).to_bytes(),
            };
            let (proof, back, times) = streamed(&file, &a, r, s, file.len()).unwrap();
            let t = times.parts().map(|(_, t)| t);
            assert!(t.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
            assert!(t[0] > 0.0, "{times:?}");
            assert_eq!(proof, expected, "rows {rows:?}");
            // the keys decoded on the way prove the same again and verify
            let again = c
                .prove_assignment(&back, &a, &mut ChaCha20Rng::seed_from_u64(9))
                .unwrap();
            assert_eq!(again, expected, "rows {rows:?}, the returned keys");
            assert!(crate::verify(&back.pvk, &c.public_inputs(&w).unwrap(), &proof).unwrap());
            assert_eq!(back.test_setup, keys.test_setup);
            // the whole file there before the prover starts (one batch of
            // five MSMs), and table by table with pauses (a batch each)
            let whole = KeyStream::new();
            whole.push(&file);
            whole.close();
            assert_eq!(prove_streamed(&whole, &a, r, s).unwrap().0, expected);
            assert_eq!(slowly(&file, &a, r, s).0, expected, "rows {rows:?}, slowly");
        }
    }

    /// A streamed proof whose file arrives table by table, 20 ms apart.
    fn slowly(bytes: &[u8], a: &Assignment, r: Fr, s: Fr) -> (Proof<Bn254>, Keys, Milestones) {
        let (_, end) = {
            let s = KeyStream::new();
            s.push(bytes);
            s.length(0).unwrap()
        };
        let header = Header::parse(&bytes[8..8 + HEADER]).unwrap();
        let mut cuts = vec![8 + HEADER + header.matrices_len as usize];
        while cuts[cuts.len() - 1] < end {
            let at = cuts[cuts.len() - 1];
            let next = match cuts.len() {
                1 => prover_cache::table_len::<ark_bn254::g2::Config>(&bytes[at..], end - at),
                _ => prover_cache::table_len::<ark_bn254::g1::Config>(&bytes[at..], end - at),
            };
            cuts.push(at + next.unwrap());
        }
        cuts.push(bytes.len());
        assert_eq!(cuts.len(), 7, "matrices, five tables, the head");
        let stream = KeyStream::new();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut at = 0;
                for &cut in &cuts {
                    stream.push(&bytes[at..cut]);
                    at = cut;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                stream.close();
            });
            prove_streamed(&stream, a, r, s).unwrap()
        })
    }

    #[test]
    fn damaged_or_cut_streams_are_errors() {
        let c = circuit();
        let keys = c.setup(5).unwrap().compacted(4); // TEST SETUP
        let a = c
            .witness(&c.random_witness(&mut ChaCha20Rng::seed_from_u64(2)))
            .unwrap();
        let (r, s) = (Fr::from(3u64), Fr::from(4u64));
        let file = keys.to_bytes();
        // cut anywhere: an error, not a wait
        for cut in [0, 5, 8, 100, file.len() / 3, file.len() / 2, file.len() - 1] {
            let e = fails(&file, &a, r, s, cut);
            assert!(
                e.to_string().contains("ended") || e.to_string().contains("truncated"),
                "cut at {cut}: {e}"
            );
        }
        // a changed table point: the proof is withheld at the checksum
        let mut bad = file.clone();
        let cache_len = u64::from_le_bytes(file[..8].try_into().unwrap()) as usize;
        let at = 8 + cache_len - 100;
        bad[at] ^= 1;
        let e = fails(&bad, &a, r, s, bad.len());
        assert!(e.to_string().contains("checksum"), "{e}");
        // a byte past the end
        let mut long = file.clone();
        long.push(0);
        let e = fails(&long, &a, r, s, long.len());
        assert!(e.to_string().contains("bytes"), "{e}");
        // another circuit's assignment
        let other = Circuit::new(&SpendConfig {
            circuit: CircuitKind::Membership,
            ..*c.config()
        })
        .unwrap();
        let wrong = other
            .witness(&other.random_witness(&mut ChaCha20Rng::seed_from_u64(2)))
            .unwrap();
        let e = fails(&file, &wrong, r, s, file.len());
        assert!(e.to_string().contains("assignment"), "{e}");
    }
}
