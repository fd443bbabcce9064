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

/// Writes the summaries of submission `id`, received at `at`, on `conn`
/// (inside the caller's transaction). Rows are locked in one global order
/// (filter values, then groups by key), so concurrent writers on PostgreSQL
/// queue instead of deadlocking.
pub(super) async fn write(
    conn: &mut AnyConnection,
    id: &str,
    at: &str,
    file: &ResultsFile,
) -> Result<(), sqlx::Error> {
    let (es, values) = entries(file);
    for (kind, v) in values.pairs() {
        sqlx::query(
            "INSERT INTO leaderboard_values (kind, value) VALUES ($1, $2) \
             ON CONFLICT (kind, value) DO NOTHING",
        )
        .bind(kind.name())
        .bind(encode(&v).into_owned())
        .execute(&mut *conn)
        .await?;
    }
    let mut keyed: Vec<(String, &Entry)> = es.iter().map(|e| (e.key.id(), e)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.seq.cmp(&b.1.seq)));
    for (gk, e) in keyed {
        add_entry(conn, &gk, id, at, e).await?;
    }
    Ok(())
}

/// Counts `e` in its group (creating the group) and stores the entry.
async fn add_entry(
    conn: &mut AnyConnection,
    gk: &str,
    id: &str,
    at: &str,
    e: &Entry,
) -> Result<(), sqlx::Error> {
    let k = &e.key;
    let enc = |s: &str| encode(s).into_owned();
    let recent = vec![Recent {
        id: id.into(),
        median: e.median,
        at: at.into(),
        seq: e.seq,
    }];
    // The upsert counts the entry and (PostgreSQL) locks the group row until
    // commit; RETURNING gives the state before this entry (n already counted).
    let row = sqlx::query(
        "INSERT INTO leaderboard_groups (group_key, case_id, phase, class, system, hash, \
         hash_label, arity, leaves, circuit, threads, n, best, samples, lo_median, lo_sub, \
         lo_seq, hi_median, hi_sub, hi_seq, latest_at, latest_sub, latest_seq, latest_memory, \
         latest_os, latest_profile, latest_version, recent) VALUES ($1, $2, $3, $4, $5, $6, $7, \
         $8, $9, $10, $11, 1, $12, $13, $14, $15, $16, $14, $15, $16, $17, $15, $16, $18, $19, \
         $20, $21, $22) ON CONFLICT (group_key) DO UPDATE SET n = leaderboard_groups.n + 1, \
         samples = leaderboard_groups.samples + excluded.samples \
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
    .bind(e.median)
    .bind(e.samples)
    .bind(e.median)
    .bind(id)
    .bind(e.seq)
    .bind(at)
    .bind(
        e.details
            .memory_bytes
            .map(|b| b.min(i64::MAX as u64) as i64),
    )
    .bind(enc(&e.details.os))
    .bind(enc(&e.details.build_profile))
    .bind(enc(&e.details.zkbench_version))
    .bind(serde_json::to_string(&recent).unwrap_or_default())
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO leaderboard_entries (submission_id, seq, group_key, median, best, samples) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(e.seq)
    .bind(gk)
    .bind(e.median)
    .bind(e.best)
    .bind(e.samples)
    .execute(&mut *conn)
    .await?;
    let n: i64 = row.try_get(0)?;
    if n > 1 {
        update_group(conn, gk, id, at, e, n - 1, &row).await?;
    }
    Ok(())
}

/// Moves the middle pair, the best time, the latest entry and the recent list
/// of group `gk` (which had `before` entries, described by `row`) to include `e`.
async fn update_group(
    conn: &mut AnyConnection,
    gk: &str,
    id: &str,
    at: &str,
    e: &Entry,
    before: i64,
    row: &AnyRow,
) -> Result<(), sqlx::Error> {
    let pos = |i: usize| -> Result<Pos, sqlx::Error> {
        Ok(Pos {
            median: row.try_get(i)?,
            sub: row.try_get(i + 1)?,
            seq: row.try_get(i + 2)?,
        })
    };
    let x = Pos {
        median: e.median,
        sub: id.into(),
        seq: e.seq,
    };
    let (lo, hi) = match step_median(before, pos(2)?, pos(5)?, x) {
        MedianStep::Done(lo, hi) => (lo, hi),
        MedianStep::Before(m) => (neighbour(conn, gk, &m, false).await?, m),
        MedianStep::After(m) => {
            let next = neighbour(conn, gk, &m, true).await?;
            (m, next)
        }
    };
    let best = row.try_get::<f64, _>(1)?.min(e.median);
    let mut recent: Vec<Recent> =
        serde_json::from_str(&row.try_get::<String, _>(11)?).unwrap_or_default();
    push_recent(
        &mut recent,
        Recent {
            id: id.into(),
            median: e.median,
            at: at.into(),
            seq: e.seq,
        },
    );
    let latest: (String, String, i64) = (row.try_get(8)?, row.try_get(9)?, row.try_get(10)?);
    let newer = (at, id, e.seq) > (latest.0.as_str(), latest.1.as_str(), latest.2);
    let sql = if newer {
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
        .bind(best)
        .bind(lo.median)
        .bind(lo.sub)
        .bind(lo.seq)
        .bind(hi.median)
        .bind(hi.sub)
        .bind(hi.seq)
        .bind(serde_json::to_string(&recent).unwrap_or_default());
    if newer {
        let d = &e.details;
        q = q
            .bind(at)
            .bind(id)
            .bind(e.seq)
            .bind(d.memory_bytes.map(|b| b.min(i64::MAX as u64) as i64))
            .bind(encode(&d.os).into_owned())
            .bind(encode(&d.build_profile).into_owned())
            .bind(encode(&d.zkbench_version).into_owned());
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

/// The entry of group `gk` just after (`after`) or just before `m` in the
/// order of medians. It exists: the group holds an entry on that side.
async fn neighbour(
    conn: &mut AnyConnection,
    gk: &str,
    m: &Pos,
    after: bool,
) -> Result<Pos, sqlx::Error> {
    let sql = if after {
        "SELECT median, submission_id, seq FROM leaderboard_entries WHERE group_key = $1 \
         AND (median, submission_id, seq) > ($2, $3, $4) \
         ORDER BY median, submission_id, seq LIMIT 1"
    } else {
        "SELECT median, submission_id, seq FROM leaderboard_entries WHERE group_key = $1 \
         AND (median, submission_id, seq) < ($2, $3, $4) \
         ORDER BY median DESC, submission_id DESC, seq DESC LIMIT 1"
    };
    let r = sqlx::query(sql)
        .bind(gk)
        .bind(m.median)
        .bind(m.sub.as_str())
        .bind(m.seq)
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
pub(super) async fn generation(pool: &AnyPool) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT submissions FROM leaderboard_meta WHERE id = 1")
        .fetch_one(pool)
        .await?
        .try_get(0)
}

/// The leaderboard from the summary tables: filter values, and the groups
/// that pass `f` merged per (case, phase, class).
pub(super) async fn board(pool: &AnyPool, f: &Filters) -> Result<Board, sqlx::Error> {
    let submissions = generation(pool).await?;
    let mut values = FilterValues::default();
    for r in sqlx::query("SELECT kind, value FROM leaderboard_values")
        .fetch_all(pool)
        .await?
    {
        if let Some(kind) = ValueKind::parse(&r.try_get::<String, _>(0)?) {
            values.add(kind, decode(&r.try_get::<String, _>(1)?));
        }
    }
    let enc = |s: &Option<String>| s.as_deref().map(|s| encode(s).into_owned());
    let rows = sqlx::query(
        "SELECT group_key, case_id, phase, class, n, best, lo_median, hi_median, latest_at, \
         latest_sub, latest_seq, latest_memory, latest_os, latest_profile, latest_version, recent \
         FROM leaderboard_groups WHERE ($1 IS NULL OR system = $1) \
         AND ($2 IS NULL OR hash = $2 OR hash_label = $2) AND ($3 IS NULL OR arity = $3) \
         AND ($4 IS NULL OR phase = $4)",
    )
    .bind(enc(&f.system))
    .bind(enc(&f.hash))
    .bind(f.arity.map(|a| a.min(i64::MAX as usize) as i64))
    .bind(enc(&f.phase))
    .fetch_all(pool)
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
        out.push(merge(pool, case_id, phase, class, parts).await?);
    }
    Ok(Board {
        submissions,
        values,
        rows: out,
    })
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
    pool: &AnyPool,
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
            .fetch_all(pool)
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
