//! The `leaderboard_groups` rows of a batch of submissions, in a few
//! statements per batch instead of a few per entry: one multi-row upsert that
//! counts the new entries and returns each group's state before them, one
//! read of at most two entries per group whose new middle pair is not known
//! from that state ([`crate::summary::middle`]), all such reads in one
//! statement, and one multi-row update. Groups are handled in key order
//! (chunks of [`CHUNK`]), so that on PostgreSQL the upsert locks their rows
//! in one global order and concurrent writers (several servers on one
//! database) queue instead of deadlocking.

use std::collections::BTreeMap;

use sqlx::{
    any::{AnyArguments, AnyRow},
    query::Query,
    Any, AnyConnection, Row,
};

use super::summaries::{memory, placeholders, recent, Marks};
use crate::summary::{encode, first_middle, middle, push_recent, Entry, Middle, Pos, Recent};

/// Groups per statement (at most 22 parameters per group).
const CHUNK: usize = 200;

/// One stored submission's entries, to be counted in their groups.
pub(super) struct Counted<'a> {
    /// Submission id.
    pub id: &'a str,
    /// When it was received.
    pub at: &'a str,
    /// Its entries.
    pub entries: &'a [Entry],
    /// The group key of each entry.
    pub keys: &'a [String],
}

/// A new entry of a group, with its submission.
struct Fresh<'a> {
    id: &'a str,
    at: &'a str,
    e: &'a Entry,
}

impl Fresh<'_> {
    fn pos(&self) -> Pos {
        Pos {
            median: self.e.median,
            sub: self.id.into(),
            seq: self.e.seq,
        }
    }
    fn latest(&self) -> (String, String, i64) {
        (self.at.into(), self.id.into(), self.e.seq)
    }
}

/// The latest entry's device details as stored (text encoded).
#[derive(Clone)]
struct Stored {
    memory: Option<i64>,
    os: String,
    profile: String,
    version: String,
}

impl Stored {
    fn of(e: &Entry) -> Self {
        Self {
            memory: memory(&e.details),
            os: encode(&e.details.os).into_owned(),
            profile: encode(&e.details.build_profile).into_owned(),
            version: encode(&e.details.zkbench_version).into_owned(),
        }
    }
}

/// A group's state (before the batch, as the upsert returned it, or after).
struct State {
    n: i64,
    best: f64,
    lo: Pos,
    hi: Pos,
    latest: (String, String, i64),
    details: Stored,
    recent: Vec<Recent>,
}

impl State {
    fn read(row: &AnyRow) -> Result<Self, sqlx::Error> {
        let pos = |i: usize| -> Result<Pos, sqlx::Error> {
            Ok(Pos {
                median: row.try_get(i)?,
                sub: row.try_get(i + 1)?,
                seq: row.try_get(i + 2)?,
            })
        };
        Ok(Self {
            n: row.try_get(1)?,
            best: row.try_get(2)?,
            lo: pos(3)?,
            hi: pos(6)?,
            latest: (row.try_get(9)?, row.try_get(10)?, row.try_get(11)?),
            recent: serde_json::from_str(&row.try_get::<String, _>(12)?).unwrap_or_default(),
            details: Stored {
                memory: row.try_get(13)?,
                os: row.try_get(14)?,
                profile: row.try_get(15)?,
                version: row.try_get(16)?,
            },
        })
    }
}

/// Counts the entries of `subs` in their groups (creating new groups).
pub(super) async fn write(
    conn: &mut AnyConnection,
    subs: &[Counted<'_>],
) -> Result<(), sqlx::Error> {
    let mut groups: BTreeMap<String, Vec<Fresh<'_>>> = BTreeMap::new();
    for s in subs {
        for (e, k) in s.entries.iter().zip(s.keys) {
            groups.entry(k.clone()).or_default().push(Fresh {
                id: s.id,
                at: s.at,
                e,
            });
        }
    }
    let groups: Vec<(String, Vec<Fresh<'_>>)> = groups.into_iter().collect();
    for chunk in groups.chunks(CHUNK) {
        let before = upsert(conn, chunk).await?;
        let mut states = Vec::with_capacity(chunk.len());
        let mut seeks = Vec::new();
        for ((gk, fresh), old) in chunk.iter().zip(before) {
            let (state, m) = count(fresh, old);
            if let Some(Middle::Seek(s)) = &m {
                seeks.push((gk.as_str(), s.clone()));
            }
            states.push((gk.as_str(), state, m));
        }
        let mut read = read_windows(conn, &seeks).await?;
        let mut out = Vec::new();
        for (gk, mut state, m) in states {
            let (lo, hi) = match m {
                None => continue,
                Some(Middle::Known(lo, hi)) => (lo, hi),
                Some(Middle::Seek(s)) => s
                    .pick(&read.remove(gk).unwrap_or_default())
                    .ok_or(sqlx::Error::RowNotFound)?,
            };
            (state.lo, state.hi) = (lo, hi);
            out.push((gk, state));
        }
        update(conn, &out).await?;
    }
    Ok(())
}

/// The group's state after its new entries `fresh`, from its state before
/// them (`None`: a new group, which the upsert wrote with `fresh[0]`), and
/// how to find its middle pair; `None` for the middle when the upsert's row
/// is already right (a new group with one entry).
fn count(fresh: &[Fresh<'_>], old: Option<State>) -> (State, Option<Middle>) {
    let first = &fresh[0];
    let pos: Vec<Pos> = fresh.iter().map(Fresh::pos).collect();
    let (mut state, rest, m) = match old {
        Some(s) => {
            let m = middle(s.n, &s.lo, &s.hi, &pos);
            (s, fresh, Some(m))
        }
        None => {
            let p = first.pos();
            let s = State {
                n: 1,
                best: first.e.median,
                lo: p.clone(),
                hi: p,
                latest: first.latest(),
                details: Stored::of(first.e),
                recent: vec![recent(first.id, first.at, first.e)],
            };
            let m = (fresh.len() > 1)
                .then(|| first_middle(&pos).map(|(lo, hi)| Middle::Known(lo, hi)))
                .flatten();
            (s, &fresh[1..], m)
        }
    };
    for f in rest {
        state.best = state.best.min(f.e.median);
        push_recent(&mut state.recent, recent(f.id, f.at, f.e));
        if f.latest() > state.latest {
            state.latest = f.latest();
            state.details = Stored::of(f.e);
        }
    }
    (state, m)
}

/// Column values of a new group's row, as `$N` offsets of one row's 22
/// parameters (the first entry's median is its best, lower and upper middle).
const UPSERT_ROW: [usize; 28] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 13, 15, 16, 13, 15, 16, 17, 15, 16, 18, 19, 20,
    21, 22,
];

/// Adds each group's new entries to its count (creating it with its first
/// entry when new) and returns its state before them, `None` for a new group.
async fn upsert(
    conn: &mut AnyConnection,
    chunk: &[(String, Vec<Fresh<'_>>)],
) -> Result<Vec<Option<State>>, sqlx::Error> {
    let marks = Marks::of(conn);
    let sql = upsert_sql(marks, chunk.len());
    let mut q = sqlx::query(&sql);
    for (gk, fresh) in chunk {
        q = bind_new_group(q, marks, gk, fresh);
    }
    let mut by_key: BTreeMap<String, State> = BTreeMap::new();
    for row in q.fetch_all(&mut *conn).await? {
        by_key.insert(row.try_get(0)?, State::read(&row)?);
    }
    chunk
        .iter()
        .map(|(gk, fresh)| {
            let s = by_key.remove(gk).ok_or(sqlx::Error::RowNotFound)?;
            let n = s.n - fresh.len() as i64;
            Ok((n > 0).then_some(State { n, ..s }))
        })
        .collect()
}

/// The upsert statement of [`upsert`] for `groups` groups: one row of
/// [`UPSERT_ROW`] marks a group, counts added to an existing group's row,
/// and every group's row returned as [`State::read`] reads it.
fn upsert_sql(marks: Marks, groups: usize) -> String {
    let rows: Vec<String> = (0..groups)
        .map(|r| {
            let cells: Vec<String> = UPSERT_ROW.iter().map(|c| marks.mark(r * 22 + c)).collect();
            format!("({})", cells.join(", "))
        })
        .collect();
    format!(
        "INSERT INTO leaderboard_groups (group_key, case_id, phase, class, system, hash, \
         hash_label, arity, leaves, circuit, threads, n, best, samples, lo_median, lo_sub, \
         lo_seq, hi_median, hi_sub, hi_seq, latest_at, latest_sub, latest_seq, latest_memory, \
         latest_os, latest_profile, latest_version, recent) VALUES {} \
         ON CONFLICT (group_key) DO UPDATE SET n = leaderboard_groups.n + excluded.n, \
         samples = leaderboard_groups.samples + excluded.samples \
         RETURNING group_key, n, best, lo_median, lo_sub, lo_seq, hi_median, hi_sub, hi_seq, \
         latest_at, latest_sub, latest_seq, recent, latest_memory, latest_os, latest_profile, \
         latest_version",
        rows.join(", ")
    )
}

/// Binds the parameters of group `gk`'s row of [`upsert_sql`]: the group as
/// new with its first entry of `fresh`, counting all of `fresh`.
fn bind_new_group<'q>(
    q: Query<'q, Any, AnyArguments<'q>>,
    marks: Marks,
    gk: &'q str,
    fresh: &'q [Fresh<'q>],
) -> Query<'q, Any, AnyArguments<'q>> {
    let enc = |s: &str| encode(s).into_owned();
    let f = &fresh[0];
    let (e, k) = (f.e, &f.e.key);
    let d = Stored::of(e);
    let mut q = q
        .bind(gk)
        .bind(enc(&k.case_id))
        .bind(enc(&k.phase))
        .bind(enc(&k.class))
        .bind(enc(&k.system))
        .bind(enc(&k.hash))
        .bind(enc(&k.hash_label))
        .bind(k.arity)
        .bind(k.leaves.as_deref().map(enc))
        .bind(k.circuit.as_deref().map(enc))
        .bind(k.threads)
        .bind(fresh.len() as i64)
        .bind(e.median)
        .bind(fresh.iter().map(|f| f.e.samples).sum::<i64>());
    // numbered marks name a repeated value once; anonymous ones (SQLite) take
    // every cell of UPSERT_ROW in order, the repeats bound again
    let anonymous = marks == Marks::Anonymous;
    if anonymous {
        q = q.bind(e.median); // lo_median
    }
    q = q.bind(f.id).bind(e.seq);
    if anonymous {
        q = q.bind(e.median).bind(f.id).bind(e.seq); // hi_*
    }
    q = q.bind(f.at);
    if anonymous {
        q = q.bind(f.id).bind(e.seq); // latest_sub, latest_seq
    }
    q.bind(d.memory)
        .bind(d.os)
        .bind(d.profile)
        .bind(d.version)
        .bind(serde_json::to_string(&[recent(f.id, f.at, e)]).unwrap_or_default())
}

/// The entries each [`crate::summary::Seek`] asks for, by group, in one
/// statement (a `UNION ALL` of index range reads of at most two rows).
async fn read_windows(
    conn: &mut AnyConnection,
    seeks: &[(&str, crate::summary::Seek)],
) -> Result<BTreeMap<String, Vec<Pos>>, sqlx::Error> {
    let mut out: BTreeMap<String, Vec<Pos>> = BTreeMap::new();
    if seeks.is_empty() {
        return Ok(out);
    }
    let marks = Marks::of(conn);
    let parts: Vec<String> = seeks
        .iter()
        .enumerate()
        .map(|(i, (_, s))| {
            let m = |k: usize| marks.mark(i * 5 + k);
            let (cmp, order) = if s.ascending {
                (">=", "median, submission_id, seq")
            } else {
                ("<", "median DESC, submission_id DESC, seq DESC")
            };
            format!(
                "SELECT * FROM (SELECT group_key, median, submission_id, seq FROM \
                 leaderboard_entries WHERE group_key = {} AND (median, submission_id, seq) {cmp} \
                 ({}, {}, {}) ORDER BY {order} LIMIT 2 OFFSET {}) AS w{i}",
                m(1),
                m(2),
                m(3),
                m(4),
                m(5)
            )
        })
        .collect();
    let sql = parts.join(" UNION ALL ");
    let mut q = sqlx::query(&sql);
    for (gk, s) in seeks {
        q = q
            .bind(*gk)
            .bind(s.from.median)
            .bind(s.from.sub.as_str())
            .bind(s.from.seq)
            .bind(s.offset);
    }
    for r in q.fetch_all(&mut *conn).await? {
        out.entry(r.try_get(0)?).or_default().push(Pos {
            median: r.try_get(1)?,
            sub: r.try_get(2)?,
            seq: r.try_get(3)?,
        });
    }
    // a union keeps no order: put each group's rows back in its read's order
    for (gk, s) in seeks {
        if let Some(rows) = out.get_mut(*gk) {
            rows.sort_by(|a, b| a.order(b));
            if !s.ascending {
                rows.reverse();
            }
        }
    }
    Ok(out)
}

/// Writes the groups' new states back in one statement.
async fn update(conn: &mut AnyConnection, groups: &[(&str, State)]) -> Result<(), sqlx::Error> {
    if groups.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "UPDATE leaderboard_groups SET best = v.column2, lo_median = v.column3, \
         lo_sub = v.column4, lo_seq = v.column5, hi_median = v.column6, hi_sub = v.column7, \
         hi_seq = v.column8, recent = v.column9, latest_at = v.column10, latest_sub = v.column11, \
         latest_seq = v.column12, latest_memory = v.column13, latest_os = v.column14, \
         latest_profile = v.column15, latest_version = v.column16 \
         FROM (VALUES {}) AS v WHERE leaderboard_groups.group_key = v.column1",
        placeholders(Marks::of(conn), groups.len(), 16)
    );
    let mut q = sqlx::query(&sql);
    for (gk, s) in groups {
        q = q
            .bind(*gk)
            .bind(s.best)
            .bind(s.lo.median)
            .bind(s.lo.sub.as_str())
            .bind(s.lo.seq)
            .bind(s.hi.median)
            .bind(s.hi.sub.as_str())
            .bind(s.hi.seq)
            .bind(serde_json::to_string(&s.recent).unwrap_or_default())
            .bind(s.latest.0.as_str())
            .bind(s.latest.1.as_str())
            .bind(s.latest.2)
            .bind(s.details.memory)
            .bind(s.details.os.as_str())
            .bind(s.details.profile.as_str())
            .bind(s.details.version.as_str());
    }
    q.execute(&mut *conn).await?;
    Ok(())
}
