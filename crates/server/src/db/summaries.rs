//! The summary tables (`migrations/0002_leaderboard_summaries.sql`): written
//! in the submission's transaction ([`write`]), filled for older submissions
//! ([`backfill`]) and read by the leaderboard ([`board`]). What they hold and
//! why: [`crate::summary`].

use std::collections::BTreeMap;

use sqlx::{any::AnyRow, AnyConnection, AnyPool, Row};
use zkbench_results::{results::ResultsFile, stats::median};

use crate::summary::{
    decode, encode, entries, push_recent, step_median, Board, Details, Entry, FilterValues,
    Filters, GroupRow, MedianStep, Pos, Recent, ValueKind,
};

/// Rows per multi-row `INSERT` (6 parameters each, well under both databases' limits).
const CHUNK: usize = 500;

/// Writes the summaries of submission `id`, received at `at`, on `conn`
/// (inside the caller's transaction): its filter values and entries in
/// multi-row inserts, then one upsert and at most one update per group it
/// touches. Rows are locked in one global order (filter values, then groups
/// by key), so concurrent writers on PostgreSQL queue instead of deadlocking.
pub(super) async fn write(
    conn: &mut AnyConnection,
    id: &str,
    at: &str,
    file: &ResultsFile,
) -> Result<(), sqlx::Error> {
    let (es, values) = entries(file);
    let pairs = values.pairs();
    if !pairs.is_empty() {
        let sql = format!(
            "INSERT INTO leaderboard_values (kind, value) VALUES {} \
             ON CONFLICT (kind, value) DO NOTHING",
            placeholders(pairs.len(), 2)
        );
        let mut q = sqlx::query(&sql);
        for (kind, v) in &pairs {
            q = q.bind(kind.name()).bind(encode(v).into_owned());
        }
        q.execute(&mut *conn).await?;
    }
    let mut groups: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for e in &es {
        groups.entry(e.key.id()).or_default().push(e);
    }
    for chunk in es.chunks(CHUNK) {
        let sql = format!(
            "INSERT INTO leaderboard_entries (submission_id, seq, group_key, median, best, \
             samples) VALUES {}",
            placeholders(chunk.len(), 6)
        );
        let mut q = sqlx::query(&sql);
        for e in chunk {
            q = q
                .bind(id)
                .bind(e.seq)
                .bind(e.key.id())
                .bind(e.median)
                .bind(e.best)
                .bind(e.samples);
        }
        q.execute(&mut *conn).await?;
    }
    for (gk, group) in &groups {
        add_group(conn, gk, id, at, group).await?;
    }
    super::runs::write(conn, id, at, &es).await
}

/// `($1, $2), ($3, $4)` for `rows` rows of `cols` values (the `Any` driver
/// has no placeholder syntax of its own; both databases take `$N`).
pub(super) fn placeholders(rows: usize, cols: usize) -> String {
    let row = |r: usize| {
        let cells: Vec<String> = (1..=cols).map(|c| format!("${}", r * cols + c)).collect();
        format!("({})", cells.join(", "))
    };
    (0..rows).map(row).collect::<Vec<_>>().join(", ")
}

/// A group's running summary while a submission's entries are counted in it.
struct State {
    n: i64,
    best: f64,
    lo: Pos,
    hi: Pos,
    recent: Vec<Recent>,
    latest: (String, String, i64),
    /// The new latest entry's details, when one of this submission's entries is it.
    details: Option<Details>,
}

impl State {
    /// The state the upsert wrote for a new group: its first entry alone.
    fn first(id: &str, at: &str, e: &Entry) -> Self {
        let pos = Pos {
            median: e.median,
            sub: id.into(),
            seq: e.seq,
        };
        Self {
            n: 1,
            best: e.median,
            lo: pos.clone(),
            hi: pos,
            recent: vec![recent(id, at, e)],
            latest: (at.into(), id.into(), e.seq),
            details: None,
        }
    }

    /// The state the upsert returned (before this submission's entries).
    fn read(row: &AnyRow, n: i64) -> Result<Self, sqlx::Error> {
        let pos = |i: usize| -> Result<Pos, sqlx::Error> {
            Ok(Pos {
                median: row.try_get(i)?,
                sub: row.try_get(i + 1)?,
                seq: row.try_get(i + 2)?,
            })
        };
        Ok(Self {
            n,
            best: row.try_get(1)?,
            lo: pos(2)?,
            hi: pos(5)?,
            latest: (row.try_get(8)?, row.try_get(9)?, row.try_get(10)?),
            recent: serde_json::from_str(&row.try_get::<String, _>(11)?).unwrap_or_default(),
            details: None,
        })
    }
}

fn recent(id: &str, at: &str, e: &Entry) -> Recent {
    Recent {
        id: id.into(),
        median: e.median,
        at: at.into(),
        seq: e.seq,
    }
}

/// Counts `group` (this submission's entries of one group, by record index)
/// in group `gk`, creating the group with the first of them if it is new.
async fn add_group(
    conn: &mut AnyConnection,
    gk: &str,
    id: &str,
    at: &str,
    group: &[&Entry],
) -> Result<(), sqlx::Error> {
    let e = group[0];
    let k = &e.key;
    let enc = |s: &str| encode(s).into_owned();
    let samples: i64 = group.iter().map(|e| e.samples).sum();
    // The upsert counts the entries and (PostgreSQL) locks the group row until
    // commit; RETURNING gives the state before them (with n already counted).
    let row = sqlx::query(
        "INSERT INTO leaderboard_groups (group_key, case_id, phase, class, system, hash, \
         hash_label, arity, leaves, circuit, threads, n, best, samples, lo_median, lo_sub, \
         lo_seq, hi_median, hi_sub, hi_seq, latest_at, latest_sub, latest_seq, latest_memory, \
         latest_os, latest_profile, latest_version, recent) VALUES ($1, $2, $3, $4, $5, $6, $7, \
         $8, $9, $10, $11, $12, $13, $14, $13, $15, $16, $13, $15, $16, $17, $15, $16, $18, \
         $19, $20, $21, $22) ON CONFLICT (group_key) DO UPDATE SET \
         n = leaderboard_groups.n + excluded.n, samples = leaderboard_groups.samples + excluded.samples \
         RETURNING n, best, lo_median, lo_sub, lo_seq, hi_median, hi_sub, hi_seq, latest_at, \
         latest_sub, latest_seq, recent",
    )
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
    .bind(group.len() as i64)
    .bind(e.median)
    .bind(samples)
    .bind(id)
    .bind(e.seq)
    .bind(at)
    .bind(memory(&e.details))
    .bind(enc(&e.details.os))
    .bind(enc(&e.details.build_profile))
    .bind(enc(&e.details.zkbench_version))
    .bind(serde_json::to_string(&[recent(id, at, e)]).unwrap_or_default())
    .fetch_one(&mut *conn)
    .await?;
    let before = row.try_get::<i64, _>(0)? - group.len() as i64;
    let (mut state, rest) = if before == 0 {
        (State::first(id, at, e), &group[1..])
    } else {
        (State::read(&row, before)?, group)
    };
    if rest.is_empty() {
        return Ok(());
    }
    for e in rest {
        count(conn, gk, id, at, &mut state, e).await?;
    }
    store(conn, gk, &state).await
}

/// `env.memory_bytes` as a BIGINT (at most 2^50 after validation).
fn memory(d: &Details) -> Option<i64> {
    d.memory_bytes.map(|b| b.min(i64::MAX as u64) as i64)
}

/// Counts entry `e` of submission `id` in `state`.
async fn count(
    conn: &mut AnyConnection,
    gk: &str,
    id: &str,
    at: &str,
    state: &mut State,
    e: &Entry,
) -> Result<(), sqlx::Error> {
    let x = Pos {
        median: e.median,
        sub: id.into(),
        seq: e.seq,
    };
    let (lo, hi) = match step_median(state.n, state.lo.clone(), state.hi.clone(), x) {
        MedianStep::Done(lo, hi) => (lo, hi),
        MedianStep::Before(m) => (neighbour(conn, gk, &m, false, id, e.seq).await?, m),
        MedianStep::After(m) => {
            let next = neighbour(conn, gk, &m, true, id, e.seq).await?;
            (m, next)
        }
    };
    state.n += 1;
    (state.lo, state.hi) = (lo, hi);
    state.best = state.best.min(e.median);
    push_recent(&mut state.recent, recent(id, at, e));
    let key = (at.to_string(), id.to_string(), e.seq);
    if key > state.latest {
        state.latest = key;
        state.details = Some(e.details.clone());
    }
    Ok(())
}

/// Writes `state` back to group `gk` (its device details only when a new
/// entry is the latest).
async fn store(conn: &mut AnyConnection, gk: &str, state: &State) -> Result<(), sqlx::Error> {
    let sql = if state.details.is_some() {
        "UPDATE leaderboard_groups SET best = $2, lo_median = $3, lo_sub = $4, lo_seq = $5, \
         hi_median = $6, hi_sub = $7, hi_seq = $8, recent = $9, latest_at = $10, \
         latest_sub = $11, latest_seq = $12, latest_memory = $13, latest_os = $14, \
         latest_profile = $15, latest_version = $16 WHERE group_key = $1"
    } else {
        "UPDATE leaderboard_groups SET best = $2, lo_median = $3, lo_sub = $4, lo_seq = $5, \
         hi_median = $6, hi_sub = $7, hi_seq = $8, recent = $9 WHERE group_key = $1"
    };
    let mut q = sqlx::query(sql)
        .bind(gk)
        .bind(state.best)
        .bind(state.lo.median)
        .bind(state.lo.sub.as_str())
        .bind(state.lo.seq)
        .bind(state.hi.median)
        .bind(state.hi.sub.as_str())
        .bind(state.hi.seq)
        .bind(serde_json::to_string(&state.recent).unwrap_or_default());
    if let Some(d) = &state.details {
        q = q
            .bind(state.latest.0.as_str())
            .bind(state.latest.1.as_str())
            .bind(state.latest.2)
            .bind(memory(d))
            .bind(encode(&d.os).into_owned())
            .bind(encode(&d.build_profile).into_owned())
            .bind(encode(&d.zkbench_version).into_owned());
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

/// The entry of group `gk` just after (`after`) or just before `m` in the
/// order of medians, among those counted so far: every stored entry but this
/// submission's (`id`) later records (`seq` above `upto`), not yet counted.
/// It exists: the group holds a counted entry on that side.
async fn neighbour(
    conn: &mut AnyConnection,
    gk: &str,
    m: &Pos,
    after: bool,
    id: &str,
    upto: i64,
) -> Result<Pos, sqlx::Error> {
    let sql = if after {
        "SELECT median, submission_id, seq FROM leaderboard_entries WHERE group_key = $1 \
         AND (median, submission_id, seq) > ($2, $3, $4) \
         AND NOT (submission_id = $5 AND seq > $6) \
         ORDER BY median, submission_id, seq LIMIT 1"
    } else {
        "SELECT median, submission_id, seq FROM leaderboard_entries WHERE group_key = $1 \
         AND (median, submission_id, seq) < ($2, $3, $4) \
         AND NOT (submission_id = $5 AND seq > $6) \
         ORDER BY median DESC, submission_id DESC, seq DESC LIMIT 1"
    };
    let r = sqlx::query(sql)
        .bind(gk)
        .bind(m.median)
        .bind(m.sub.as_str())
        .bind(m.seq)
        .bind(id)
        .bind(upto)
        .fetch_one(&mut *conn)
        .await?;
    Ok(Pos {
        median: r.try_get(0)?,
        sub: r.try_get(1)?,
        seq: r.try_get(2)?,
    })
}

/// Fills the summaries of submissions stored before they existed
/// (`summarized = 0`), a batch per loop, one transaction per submission.
/// Returns how many were filled. Safe to run from several servers at once:
/// a submission is claimed by the update that sets `summarized`.
pub(super) async fn backfill(pool: &AnyPool) -> Result<u64, sqlx::Error> {
    let mut done = 0u64;
    loop {
        let rows = sqlx::query(
            "SELECT id, received_at, document FROM submissions WHERE summarized = 0 \
             ORDER BY received_at, id LIMIT 32",
        )
        .fetch_all(pool)
        .await?;
        if rows.is_empty() {
            return Ok(done);
        }
        for r in rows {
            let (id, at, doc): (String, String, String) =
                (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
            let mut tx = pool.begin().await?;
            let claimed = sqlx::query(
                "UPDATE submissions SET summarized = 1 WHERE id = $1 AND summarized = 0",
            )
            .bind(&id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if claimed {
                // A stored document that no longer parses has no entries (as before).
                if let Ok(file) = serde_json::from_str::<ResultsFile>(&doc) {
                    write(&mut tx, &id, &at, &file).await?;
                }
            }
            tx.commit().await?;
            done += u64::from(claimed);
            if done > 0 && done.is_multiple_of(500) && claimed {
                tracing::info!(done, "leaderboard summaries filled for stored submissions");
            }
        }
    }
}

/// The number of stored submissions (changes with every new submission: the
/// leaderboard's version).
pub(super) async fn generation(conn: &mut AnyConnection) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT CAST(SUM(submissions) AS BIGINT) FROM leaderboard_meta")
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)
}

/// Shards of the submission count: an insert adds 1 to one of them (chosen
/// by its id), so concurrent inserts on PostgreSQL rarely wait on one row.
pub(super) const COUNT_SHARDS: u8 = 16;

/// Adds submission `id` to the count.
pub(super) async fn count_submission(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<(), sqlx::Error> {
    let shard = u8::from_str_radix(&id[..id.len().min(2)], 16).unwrap_or(0) % COUNT_SHARDS;
    sqlx::query("UPDATE leaderboard_meta SET submissions = submissions + 1 WHERE id = $1")
        .bind(i64::from(shard))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The leaderboard from the summary tables: filter values, and the groups
/// that pass `f` merged per (case, phase, class).
pub(super) async fn board(conn: &mut AnyConnection, f: &Filters) -> Result<Board, sqlx::Error> {
    let submissions = generation(conn).await?;
    let values = filter_values(conn).await?;
    let rows = group_rows(conn, f, None).await?;
    Ok(Board {
        submissions,
        values,
        rows,
    })
}

/// Every value the filters offer.
pub(super) async fn filter_values(conn: &mut AnyConnection) -> Result<FilterValues, sqlx::Error> {
    let mut values = FilterValues::default();
    for r in sqlx::query("SELECT kind, value FROM leaderboard_values")
        .fetch_all(&mut *conn)
        .await?
    {
        if let Some(kind) = ValueKind::parse(&r.try_get::<String, _>(0)?) {
            values.add(kind, decode(&r.try_get::<String, _>(1)?));
        }
    }
    Ok(values)
}

/// The leaderboard rows (groups that pass `f`, merged per case, phase and
/// class), of device class `class` only when given.
pub(super) async fn group_rows(
    conn: &mut AnyConnection,
    f: &Filters,
    class: Option<&str>,
) -> Result<Vec<GroupRow>, sqlx::Error> {
    let enc = |s: &Option<String>| s.as_deref().map(|s| encode(s).into_owned());
    let rows = sqlx::query(
        "SELECT group_key, case_id, phase, class, n, best, lo_median, hi_median, latest_at, \
         latest_sub, latest_seq, latest_memory, latest_os, latest_profile, latest_version, recent \
         FROM leaderboard_groups WHERE ($1 IS NULL OR system = $1) \
         AND ($2 IS NULL OR hash = $2 OR hash_label = $2) AND ($3 IS NULL OR arity = $3) \
         AND ($4 IS NULL OR phase = $4) AND ($5 IS NULL OR class = $5)",
    )
    .bind(enc(&f.system))
    .bind(enc(&f.hash))
    .bind(f.arity.map(|a| a.min(i64::MAX as usize) as i64))
    .bind(enc(&f.phase))
    .bind(class.map(|c| encode(c).into_owned()))
    .fetch_all(&mut *conn)
    .await?;
    let mut merged: BTreeMap<(String, String, String), Vec<Part>> = BTreeMap::new();
    for r in &rows {
        let part = Part::read(r)?;
        let k = (
            decode(&r.try_get::<String, _>(1)?),
            decode(&r.try_get::<String, _>(2)?),
            decode(&r.try_get::<String, _>(3)?),
        );
        merged.entry(k).or_default().push(part);
    }
    let mut out = Vec::with_capacity(merged.len());
    for ((case_id, phase, class), parts) in merged {
        out.push(merge(conn, case_id, phase, class, parts).await?);
    }
    Ok(out)
}

/// One stored group, as the board reads it.
struct Part {
    key: String,
    n: i64,
    best: f64,
    mid: (f64, f64),
    latest: (String, String, i64),
    details: Details,
    recent: Vec<Recent>,
}

impl Part {
    fn read(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let text =
            |i: usize| -> Result<String, sqlx::Error> { Ok(decode(&r.try_get::<String, _>(i)?)) };
        Ok(Self {
            key: r.try_get(0)?,
            n: r.try_get(4)?,
            best: r.try_get(5)?,
            mid: (r.try_get(6)?, r.try_get(7)?),
            latest: (r.try_get(8)?, r.try_get(9)?, r.try_get(10)?),
            details: Details {
                memory_bytes: r.try_get::<Option<i64>, _>(11)?.map(|b| b as u64),
                os: text(12)?,
                build_profile: text(13)?,
                zkbench_version: text(14)?,
            },
            recent: serde_json::from_str(&r.try_get::<String, _>(15)?).unwrap_or_default(),
        })
    }
}

/// One leaderboard row from its stored groups. One group (the rule: a case
/// id names one case) is read as stored; several (records that share a
/// `case_id` but differ in system, hash or shape) need their medians.
async fn merge(
    conn: &mut AnyConnection,
    case_id: String,
    phase: String,
    class: String,
    mut parts: Vec<Part>,
) -> Result<GroupRow, sqlx::Error> {
    if parts.len() == 1 {
        let p = parts.remove(0);
        return Ok(GroupRow {
            case_id,
            phase,
            class,
            n: p.n,
            best: p.best,
            median: median(&[p.mid.0, p.mid.1]).unwrap_or(f64::NAN),
            latest: p.details,
            recent: p.recent,
        });
    }
    let mut ms = Vec::new();
    for p in &parts {
        for r in sqlx::query("SELECT median FROM leaderboard_entries WHERE group_key = $1")
            .bind(&p.key)
            .fetch_all(&mut *conn)
            .await?
        {
            ms.push(r.try_get::<f64, _>(0)?);
        }
    }
    let mut recent = Vec::new();
    for r in parts.iter().flat_map(|p| p.recent.iter()) {
        push_recent(&mut recent, r.clone());
    }
    let latest = parts
        .iter()
        .max_by(|a, b| a.latest.cmp(&b.latest))
        .map(|p| p.details.clone())
        .unwrap_or_default();
    Ok(GroupRow {
        case_id,
        phase,
        class,
        n: parts.iter().map(|p| p.n).sum(),
        best: parts.iter().map(|p| p.best).fold(f64::INFINITY, f64::min),
        median: median(&ms).unwrap_or(f64::NAN),
        latest,
        recent,
    })
}
