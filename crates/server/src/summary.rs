//! Leaderboard summaries: what the leaderboard needs from a submission,
//! computed once when it is stored (`docs/server.md`, "Summaries").
//!
//! A submission's successful records with a median time become [`Entry`]s,
//! each in one [`GroupKey`] (case, phase, device class and the case's
//! attributes the filters read). The database keeps per group the count,
//! the best time, the two middle entries of the group's medians (so the
//! median of medians is exact and is kept up to date in `O(log n)` per
//! insert, one index read per group and batch at most, see [`middle`]), the latest entry's device details and the
//! ten latest submissions ([`Recent`]). [`board_from_documents`] computes the
//! same [`Board`] from the stored documents directly: it is what the server
//! did before summaries, and the tests hold the summaries to it.
//!
//! Text in the summary tables goes through [`encode`] (PostgreSQL text
//! cannot hold U+0000), so every value a document may carry is stored exactly
//! on both databases.

use std::{
    borrow::Cow,
    cmp::Ordering,
    collections::{BTreeMap, BTreeSet},
};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zkbench_results::{
    results::ResultsFile,
    stats::{median, Summary},
    Environment, Status,
};

/// How many latest submissions the leaderboard links per group.
pub const RECENT: usize = 10;

/// Text for a summary column: `\` becomes `\\` and U+0000 becomes `\0`, so
/// that PostgreSQL (whose text cannot hold U+0000) and SQLite store the same.
pub fn encode(s: &str) -> Cow<'_, str> {
    if !s.contains(['\\', '\0']) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The inverse of [`encode`].
pub fn decode(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('0') => out.push('\0'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The device class of a record: CPU model, logical CPUs, architecture.
pub fn device_class(e: &Environment) -> String {
    let cpu = if e.cpu_model.trim().is_empty() {
        "unknown CPU"
    } else {
        e.cpu_model.trim()
    };
    format!("{cpu} · {} CPUs · {}", e.logical_cpus, e.arch)
}

/// The group of an entry: one leaderboard row is one `(case_id, phase, class)`;
/// the other fields are what the filters and later views select on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct GroupKey {
    /// The record's `case_id` (or the case's id when empty).
    pub case_id: String,
    /// Phase (`prove`, ...).
    pub phase: String,
    /// [`device_class`] of the record's environment.
    pub class: String,
    /// Proof system.
    pub system: String,
    /// Hash family.
    pub hash: String,
    /// Hash family with its exponent (`poseidon2-a5`).
    pub hash_label: String,
    /// Merkle arity.
    pub arity: Option<i64>,
    /// Leaves of the tree, decimal.
    pub leaves: Option<String>,
    /// Circuit name (`spend`, ...).
    pub circuit: Option<String>,
    /// The case's thread setting (0: all).
    pub threads: i64,
}

impl GroupKey {
    /// The group's primary key: 128 bits of SHA-256 over the fields, hex.
    pub fn id(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        hex::encode(&Sha256::digest(text.as_bytes())[..16])
    }
}

/// Device details the leaderboard shows for a group's latest entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Details {
    /// `env.memory_bytes`.
    pub memory_bytes: Option<u64>,
    /// `env.os`.
    pub os: String,
    /// `env.build_profile`.
    pub build_profile: String,
    /// `env.zkbench_version`.
    pub zkbench_version: String,
}

/// One successful record of a submission.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its group.
    pub key: GroupKey,
    /// Index of the record in the document.
    pub seq: i64,
    /// The record's median time, seconds.
    pub median: f64,
    /// Its fastest sample (the summary's `min`), seconds.
    pub best: f64,
    /// Number of samples.
    pub samples: i64,
    /// Device details.
    pub details: Details,
}

/// Every value the filters can offer (taken from every record, failed ones too).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterValues {
    /// Proof systems.
    pub systems: BTreeSet<String>,
    /// Hash labels.
    pub hashes: BTreeSet<String>,
    /// Arities.
    pub arities: BTreeSet<usize>,
    /// Phases.
    pub phases: BTreeSet<String>,
}

/// What kind of filter value a `leaderboard_values` row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A proof system.
    System,
    /// A hash label.
    Hash,
    /// An arity.
    Arity,
    /// A phase.
    Phase,
}

impl ValueKind {
    /// The name stored in the `kind` column.
    pub fn name(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Hash => "hash",
            Self::Arity => "arity",
            Self::Phase => "phase",
        }
    }

    /// The kind a stored name stands for.
    pub fn parse(s: &str) -> Option<Self> {
        [Self::System, Self::Hash, Self::Arity, Self::Phase]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

impl FilterValues {
    /// `(kind, value)` pairs, as stored.
    pub fn pairs(&self) -> Vec<(ValueKind, String)> {
        let mut out = Vec::new();
        out.extend(self.systems.iter().map(|v| (ValueKind::System, v.clone())));
        out.extend(self.hashes.iter().map(|v| (ValueKind::Hash, v.clone())));
        out.extend(
            self.arities
                .iter()
                .map(|v| (ValueKind::Arity, v.to_string())),
        );
        out.extend(self.phases.iter().map(|v| (ValueKind::Phase, v.clone())));
        out
    }

    /// Adds a stored pair (an unparseable arity is skipped).
    pub fn add(&mut self, kind: ValueKind, value: String) {
        match kind {
            ValueKind::System => {
                self.systems.insert(value);
            }
            ValueKind::Hash => {
                self.hashes.insert(value);
            }
            ValueKind::Arity => {
                if let Ok(a) = value.parse() {
                    self.arities.insert(a);
                }
            }
            ValueKind::Phase => {
                self.phases.insert(value);
            }
        }
    }
}

/// `-0.0` as `0.0`, so that Rust's and SQL's orders of medians agree.
fn plain(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// The entries and filter values of a document.
pub fn entries(file: &ResultsFile) -> (Vec<Entry>, FilterValues) {
    let mut values = FilterValues::default();
    let mut out = Vec::new();
    for (seq, r) in file.records.iter().enumerate() {
        values.systems.insert(r.case.system.clone());
        values.hashes.insert(r.case.hash_label());
        if let Some(a) = r.case.arity {
            values.arities.insert(a);
        }
        values.phases.insert(r.phase.clone());
        if r.status != Status::Ok {
            continue;
        }
        let summary = r.summary.or_else(|| Summary::of(&r.samples_s));
        let Some(s) = summary else { continue };
        let case_id = if r.case_id.is_empty() {
            r.case.id()
        } else {
            r.case_id.clone()
        };
        let key = GroupKey {
            case_id,
            phase: r.phase.clone(),
            class: device_class(&r.env),
            system: r.case.system.clone(),
            hash: r.case.hash.to_string(),
            hash_label: r.case.hash_label(),
            arity: r.case.arity.map(|a| a as i64),
            leaves: r.case.leaves.map(|l| l.to_string()),
            circuit: r.case.circuit.map(|c| c.name().to_string()),
            threads: r.case.threads as i64,
        };
        out.push(Entry {
            key,
            seq: seq as i64,
            median: plain(s.median),
            best: plain(s.min),
            samples: r.samples_s.len() as i64,
            details: Details {
                memory_bytes: r.env.memory_bytes,
                os: r.env.os.clone(),
                build_profile: r.env.build_profile.clone(),
                zkbench_version: r.env.zkbench_version.clone(),
            },
        });
    }
    (out, values)
}

/// An entry's place in its group's order of medians: `(median, submission, seq)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pos {
    /// The entry's median.
    pub median: f64,
    /// Its submission.
    pub sub: String,
    /// Its record index.
    pub seq: i64,
}

impl Pos {
    /// Order of medians, ties broken by submission and record.
    pub fn order(&self, o: &Pos) -> Ordering {
        self.median
            .total_cmp(&o.median)
            .then_with(|| self.sub.cmp(&o.sub))
            .then_with(|| self.seq.cmp(&o.seq))
    }
}

/// Where a group's middle pair is after new entries were added to it.
#[derive(Debug, PartialEq)]
pub enum Middle {
    /// Known without reading the database: `(lo, hi)`.
    Known(Pos, Pos),
    /// Needs one read of the group's entries (the new ones included), [`Seek`].
    Seek(Seek),
}

/// One index read that finds a group's new middle pair: up to two entries,
/// starting `offset` places from `from` in the order of medians, upwards
/// (`from` included) or downwards (`from` excluded).
#[derive(Clone, Debug, PartialEq)]
pub struct Seek {
    /// The old lower middle.
    pub from: Pos,
    /// Upwards from `from` (included), or downwards (excluded).
    pub ascending: bool,
    /// Entries skipped before the two read.
    pub offset: i64,
    /// Place of the new lower middle relative to `from` (see [`middle`]).
    shift: i64,
    /// Whether the group now holds an odd number of entries.
    odd: bool,
}

impl Seek {
    /// The new middle pair from the entries read (in the read's order), or
    /// `None` when fewer than needed came back.
    pub fn pick(&self, rows: &[Pos]) -> Option<(Pos, Pos)> {
        let pair = |lo: &Pos, hi: &Pos| Some((lo.clone(), if self.odd { lo } else { hi }.clone()));
        match (self.ascending, self.shift, rows) {
            (true, _, [lo, ..]) if self.odd => pair(lo, lo),
            (true, _, [lo, hi, ..]) => pair(lo, hi),
            (false, -1, [lo, ..]) => pair(lo, &self.from),
            (false, _, [hi, lo, ..]) => pair(lo, hi),
            _ => None,
        }
    }
}

/// The middle pair (entries at indices `⌊(N-1)/2⌋` and `⌊N/2⌋` of the sorted
/// medians, `N = n + fresh.len()`) after adding the entries `fresh` to a
/// group of `n >= 1` entries whose middle pair was `(lo, hi)`. The old lower
/// middle sits at index `⌊(n-1)/2⌋ + a` of the new order (`a` new entries
/// come before it), so the new middle is `shift = ⌊(N-1)/2⌋ - ⌊(n-1)/2⌋ - a`
/// places from it, `|shift| <= fresh.len()`. Upwards from `lo` the new order
/// is known up to the old upper middle (`lo`'s old successor when `n` is
/// even): when the pair falls there it is [`Middle::Known`], else one read
/// of at most two entries finds it ([`Middle::Seek`]). Adding entries one at
/// a time this needs a read for about half of them; a batch needs at most one
/// per group, whatever its size.
pub fn middle(n: i64, lo: &Pos, hi: &Pos, fresh: &[Pos]) -> Middle {
    let total = n + fresh.len() as i64;
    let odd = total % 2 == 1;
    let before = fresh
        .iter()
        .filter(|x| x.order(lo) == Ordering::Less)
        .count() as i64;
    let shift = (total - 1) / 2 - (n - 1) / 2 - before;
    if shift >= 0 {
        let mut known = vec![lo];
        if n % 2 == 0 {
            let mut above: Vec<&Pos> = fresh
                .iter()
                .filter(|x| x.order(lo) == Ordering::Greater && x.order(hi) == Ordering::Less)
                .collect();
            above.sort_by(|a, b| a.order(b));
            known.extend(above);
            known.push(hi);
        }
        let s = shift as usize;
        let upper = if odd { s } else { s + 1 };
        if upper < known.len() {
            return Middle::Known(known[s].clone(), known[upper].clone());
        }
    }
    Middle::Seek(Seek {
        from: lo.clone(),
        ascending: shift >= 0,
        offset: if shift >= 0 {
            shift
        } else {
            (-shift - 2).max(0)
        },
        shift,
        odd,
    })
}

/// The middle pair of a new group's entries (`fresh` not empty).
pub fn first_middle(fresh: &[Pos]) -> Option<(Pos, Pos)> {
    let mut sorted: Vec<&Pos> = fresh.iter().collect();
    sorted.sort_by(|a, b| a.order(b));
    let k = sorted.len();
    Some((
        (*sorted.get(k.checked_sub(1)? / 2)?).clone(),
        (*sorted.get(k / 2)?).clone(),
    ))
}

/// A submission linked from a group: its id and its median there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recent {
    /// Submission id.
    pub id: String,
    /// Its median in the group (of its last record there).
    pub median: f64,
    /// When it was received.
    pub at: String,
    /// Record index of that median.
    pub seq: i64,
}

impl Recent {
    fn order(&self) -> (&str, &str, i64) {
        (&self.at, &self.id, self.seq)
    }
}

/// Adds `r` to the latest-first list of distinct submissions (at most [`RECENT`]).
pub fn push_recent(list: &mut Vec<Recent>, r: Recent) {
    if let Some(i) = list.iter().position(|e| e.id == r.id) {
        if list[i].order() >= r.order() {
            return;
        }
        list.remove(i);
    }
    let at = list
        .iter()
        .position(|e| e.order() < r.order())
        .unwrap_or(list.len());
    list.insert(at, r);
    list.truncate(RECENT);
}

/// One row of the leaderboard: a case and phase on one device class.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupRow {
    /// Case id.
    pub case_id: String,
    /// Phase.
    pub phase: String,
    /// Device class.
    pub class: String,
    /// Number of entries (submissions' records).
    pub n: i64,
    /// Fastest of the entries' medians.
    pub best: f64,
    /// Median of the entries' medians.
    pub median: f64,
    /// Device details of the latest entry.
    pub latest: Details,
    /// The latest submissions, latest first.
    pub recent: Vec<Recent>,
}

/// Everything the leaderboard page shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    /// Stored submissions.
    pub submissions: i64,
    /// What the filters offer.
    pub values: FilterValues,
    /// Rows matching the filters, by case id, phase and class.
    pub rows: Vec<GroupRow>,
}

/// The leaderboard's filters (query parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Filters {
    /// Proof system (`groth16`, ...).
    pub system: Option<String>,
    /// Hash family, with or without its exponent (`poseidon2` or `poseidon2-a5`).
    pub hash: Option<String>,
    /// Merkle arity.
    pub arity: Option<usize>,
    /// Phase; `None` means every phase.
    pub phase: Option<String>,
}

impl Filters {
    /// Whether entries of group `k` pass.
    pub fn admits(&self, k: &GroupKey) -> bool {
        self.system.as_ref().is_none_or(|s| *s == k.system)
            && self
                .hash
                .as_ref()
                .is_none_or(|h| *h == k.hash || *h == k.hash_label)
            && self.arity.is_none_or(|a| Some(a as i64) == k.arity)
            && self.phase.as_ref().is_none_or(|p| *p == k.phase)
    }
}

/// A stored submission as [`board_from_documents`] reads it.
pub struct StoredDoc<'a> {
    /// Content id.
    pub id: &'a str,
    /// When it was received.
    pub received_at: &'a str,
    /// Canonical document.
    pub document: &'a str,
}

/// The board computed from the documents themselves (every document read on
/// every call: the reference the summaries are tested against, and what the
/// leaderboard did before them).
pub fn board_from_documents(docs: &[StoredDoc<'_>], f: &Filters) -> Board {
    type Acc = (Vec<f64>, Details, Vec<Recent>, (String, String, i64));
    let mut groups: BTreeMap<(String, String, String), Acc> = BTreeMap::new();
    let mut values = FilterValues::default();
    for d in docs {
        let Ok(file) = serde_json::from_str::<ResultsFile>(d.document) else {
            continue;
        };
        let (es, v) = entries(&file);
        values.systems.extend(v.systems);
        values.hashes.extend(v.hashes);
        values.arities.extend(v.arities);
        values.phases.extend(v.phases);
        for e in es.into_iter().filter(|e| f.admits(&e.key)) {
            let k = (e.key.case_id, e.key.phase, e.key.class);
            let acc = groups.entry(k).or_default();
            acc.0.push(e.median);
            let order = (d.received_at.to_string(), d.id.to_string(), e.seq);
            if acc.0.len() == 1 || order > acc.3 {
                acc.1 = e.details;
                acc.3 = order;
            }
            let (at, id) = (d.received_at.to_string(), d.id.to_string());
            push_recent(
                &mut acc.2,
                Recent {
                    id,
                    median: e.median,
                    at,
                    seq: e.seq,
                },
            );
        }
    }
    let rows = groups
        .into_iter()
        .map(
            |((case_id, phase, class), (ms, latest, recent, _))| GroupRow {
                case_id,
                phase,
                class,
                n: ms.len() as i64,
                best: ms.iter().copied().fold(f64::INFINITY, f64::min),
                median: median(&ms).unwrap_or(f64::NAN),
                latest,
                recent,
            },
        )
        .collect();
    Board {
        submissions: docs.len() as i64,
        values,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_round_trips() {
        for s in ["", "plain", "a\0b", "\\0", "\\", "x\\\0\\\\0y", "\0"] {
            let e = encode(s);
            assert!(!e.contains('\0'), "{s:?}");
            assert_eq!(decode(&e), s, "{s:?}");
        }
        assert!(matches!(encode("plain"), Cow::Borrowed(_)));
    }

    /// What `Seek` reads, done on a sorted list: up to two entries from
    /// `from`, upwards (included) or downwards (excluded), after `offset`.
    fn read(set: &[Pos], s: &Seek) -> Vec<Pos> {
        let i = set.iter().position(|p| *p == s.from).unwrap();
        let o = s.offset as usize;
        if s.ascending {
            set[i..].iter().skip(o).take(2).cloned().collect()
        } else {
            set[..i].iter().rev().skip(o).take(2).cloned().collect()
        }
    }

    /// The middle pair found by `middle` (and `Seek::pick`) is that of the
    /// sorted medians, for batches of 1 to 6 new entries added to groups of 1
    /// to 12 entries, with ties; one entry at a time it reads the database
    /// for at most about half of the entries, as a step-by-step update would.
    #[test]
    fn middle_matches_sorting() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let (mut seeks, mut singles) = (0, 0);
        for case in 0..3000 {
            let (n, k) = (1 + next() % 12, 1 + next() % 6);
            let pos = |i: usize, m: usize| Pos {
                median: (m % 7) as f64,
                sub: format!("{:02}", m % 3),
                seq: i as i64,
            };
            let mut set: Vec<Pos> = (0..n).map(|i| pos(i, next())).collect();
            set.sort_by(|a, b| a.order(b));
            let (lo, hi) = first_middle(&set).unwrap();
            assert_eq!((&lo, &hi), (&set[(n - 1) / 2], &set[n / 2]));
            let fresh: Vec<Pos> = (n..n + k).map(|i| pos(i, next())).collect();
            set.extend(fresh.iter().cloned());
            set.sort_by(|a, b| a.order(b));
            let got = match middle(n as i64, &lo, &hi, &fresh) {
                Middle::Known(a, b) => (a, b),
                Middle::Seek(s) => {
                    seeks += usize::from(k == 1);
                    s.pick(&read(&set, &s)).unwrap()
                }
            };
            singles += usize::from(k == 1);
            let t = set.len();
            assert_eq!(got.0, set[(t - 1) / 2], "case {case}: n {n}, k {k}");
            assert_eq!(got.1, set[t / 2], "case {case}: n {n}, k {k}");
        }
        assert!(
            singles > 300 && seeks * 10 < singles * 6,
            "{seeks} reads for {singles} single entries"
        );
    }

    #[test]
    fn recent_keeps_latest_distinct() {
        let mut l = Vec::new();
        let r = |id: &str, at: &str, seq| Recent {
            id: id.into(),
            median: seq as f64,
            at: at.into(),
            seq,
        };
        for i in 0..15 {
            push_recent(&mut l, r(&format!("s{i:02}"), &format!("t{i:02}"), 0));
        }
        push_recent(&mut l, r("s14", "t14", 3));
        push_recent(&mut l, r("s14", "t14", 1));
        push_recent(&mut l, r("old", "t00", 9));
        assert_eq!(l.len(), RECENT);
        assert_eq!((l[0].id.as_str(), l[0].seq), ("s14", 3));
        assert_eq!(l[9].id, "s05");
    }
}
