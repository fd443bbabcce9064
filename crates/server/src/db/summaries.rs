//! The summary tables (`migrations/0002_leaderboard_summaries.sql`): written
//! in the submission's transaction ([`write_rows`] per submission,
//! [`write_shared`] once per batch, [`write`] both for one), filled for older submissions
//! ([`backfill`]) and read by the leaderboard ([`board`]). What they hold and
//! why: [`crate::summary`].

use std::collections::BTreeMap;

use sqlx::{any::AnyRow, AnyConnection, AnyPool, Row};
use zkbench_results::{results::ResultsFile, stats::median};

use super::groups::{self, Counted};
use crate::summary::{
    decode, encode, entries, push_recent, Board, Details, Entry, FilterValues, Filters, GroupRow,
    Recent, ValueKind,
};

/// Rows per multi-row `INSERT` (6 parameters each, well under both databases' limits).
const CHUNK: usize = 500;

/// Writes the summaries of submission `id`, received at `at`, on `conn`
/// (inside the caller's transaction): its rows ([`write_rows`]), then its
/// filter values and groups ([`write_shared`]).
pub(super) async fn write(
    conn: &mut AnyConnection,
    id: &str,
    at: &str,
    file: &ResultsFile,
) -> Result<(), sqlx::Error> {
    let (es, values) = entries(file);
    let keys: Vec<String> = es.iter().map(|e| e.key.id()).collect();
    write_rows(conn, id, at, &es, &keys).await?;
    let counted = Counted {
        id,
        at,
        entries: &es,
        keys: &keys,
    };
    write_shared(conn, &[counted], &values).await
}

/// The rows of submission `id` alone: its entries `es` (multi-row inserts;
/// `keys[i]` is the group key of `es[i]`) and its runs. Nothing another submission writes, so a failure here undoes
/// this submission only (the caller's savepoint).
pub(super) async fn write_rows(
    conn: &mut AnyConnection,
    id: &str,
    at: &str,
    es: &[Entry],
    keys: &[String],
) -> Result<(), sqlx::Error> {
    for (chunk, keys) in es.chunks(CHUNK).zip(keys.chunks(CHUNK)) {
        let sql = format!(
            "INSERT INTO leaderboard_entries (submission_id, seq, group_key, median, best, \
             samples) VALUES {}",
            placeholders(Marks::of(conn), chunk.len(), 6)
        );
        let mut q = sqlx::query(&sql);
        for (e, k) in chunk.iter().zip(keys) {
            q = q
                .bind(id)
                .bind(e.seq)
                .bind(k.as_str())
                .bind(e.median)
                .bind(e.best)
                .bind(e.samples);
        }
        q.execute(&mut *conn).await?;
    }
    super::runs::write(conn, id, at, es).await
}

/// The rows that submissions share, for a batch of stored submissions
/// `subs` whose filter values together are `values`: the values (one
/// insert), then the groups ([`groups::write`], a few statements for the
/// whole batch). Rows are locked in one global order (filter values, then
/// groups by key), so concurrent writers on PostgreSQL queue instead of
/// deadlocking.
pub(super) async fn write_shared(
    conn: &mut AnyConnection,
    subs: &[Counted<'_>],
    values: &FilterValues,
) -> Result<(), sqlx::Error> {
    let pairs = values.pairs();
    for chunk in pairs.chunks(CHUNK) {
        let sql = format!(
            "INSERT INTO leaderboard_values (kind, value) VALUES {} \
             ON CONFLICT (kind, value) DO NOTHING",
            placeholders(Marks::of(conn), chunk.len(), 2)
        );
        let mut q = sqlx::query(&sql);
        for (kind, v) in chunk {
            q = q.bind(kind.name()).bind(encode(v).into_owned());
        }
        q.execute(&mut *conn).await?;
    }
    groups::write(conn, subs).await
}

/// How a statement marks its parameters on `conn`'s database.
///
/// PostgreSQL numbers them (`$1, $2`). SQLite gets anonymous `?`, bound in
/// order: sqlx-sqlite looks up the name of every parameter of a statement
/// with `sqlite3_bind_parameter_name`, which scans the statement's list of
/// names from the start, so a statement of `N` numbered parameters (a
/// multi-row `INSERT`: 600 for a default-size submission's entries, 2,200 for
/// its groups) cost O(N²) there. `perf` of the load generator's 100 posting
/// clients put that scan first in the server's profile (6.4% of all CPU
/// time, in the one writer); anonymous parameters have no names to scan.
/// Anonymous marks need every parameter to appear once, in binding order,
/// which is how [`placeholders`] and [`Marks::list`] write them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marks {
    /// `$1, $2, …` (PostgreSQL; the `Any` driver passes SQL through).
    Numbered,
    /// `?, ?, …` (SQLite).
    Anonymous,
}

impl Marks {
    /// The marks `conn`'s database takes.
    pub(super) fn of(conn: &AnyConnection) -> Self {
        if conn.backend_name().eq_ignore_ascii_case("sqlite") {
            Self::Anonymous
        } else {
            Self::Numbered
        }
    }

    /// Parameter number `n` (1-based).
    pub(super) fn mark(self, n: usize) -> String {
        match self {
            Self::Numbered => format!("${n}"),
            Self::Anonymous => "?".into(),
        }
    }

    /// `$from, $from+1, …` for `n` values (a list after `from − 1` others).
    pub(super) fn list(self, from: usize, n: usize) -> String {
        let cells: Vec<String> = (from..from + n).map(|i| self.mark(i)).collect();
        cells.join(", ")
    }
}

/// `($1, $2), ($3, $4)` (or `(?, ?), (?, ?)`) for `rows` rows of `cols` values.
pub(super) fn placeholders(marks: Marks, rows: usize, cols: usize) -> String {
    let row = |r: usize| format!("({})", marks.list(r * cols + 1, cols));
    (0..rows).map(row).collect::<Vec<_>>().join(", ")
}

/// `env.memory_bytes` as a BIGINT (at most 2^50 after validation).
pub(super) fn memory(d: &Details) -> Option<i64> {
    d.memory_bytes.map(|b| b.min(i64::MAX as u64) as i64)
}

/// Entry `e` of submission `id` (received at `at`) as a group's recent link.
pub(super) fn recent(id: &str, at: &str, e: &Entry) -> Recent {
    Recent {
        id: id.into(),
        median: e.median,
        at: at.into(),
        seq: e.seq,
    }
}

/// Fills the summaries of submissions stored before they existed
/// (`summarized = 0`), a batch per loop, one transaction per submission.
/// Returns how many were filled. Safe to run from several servers at once:
/// a submission is claimed by the update that sets `summarized`.
pub(super) async fn backfill(pool: &AnyPool) -> Result<u64, sqlx::Error> {
    let mut done = 0u64;
    loop {
        let rows = sqlx::query(
            "SELECT id, received_at, document, document_zstd FROM submissions \
             WHERE summarized = 0 ORDER BY received_at, id LIMIT 32",
        )
        .fetch_all(pool)
        .await?;
        if rows.is_empty() {
            return Ok(done);
        }
        for r in rows {
            let (id, at): (String, String) = (r.try_get(0)?, r.try_get(1)?);
            let doc = super::batch::document_text(r.try_get(2)?, r.try_get(3)?);
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
                let file = doc
                    .ok()
                    .and_then(|d| serde_json::from_str::<ResultsFile>(&d).ok());
                if let Some(file) = file {
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

/// Adds `n` stored submissions to the count, in the shard of `id` (one of them).
pub(super) async fn count_submissions(
    conn: &mut AnyConnection,
    id: &str,
    n: i64,
) -> Result<(), sqlx::Error> {
    let shard = u8::from_str_radix(&id[..id.len().min(2)], 16).unwrap_or(0) % COUNT_SHARDS;
    sqlx::query("UPDATE leaderboard_meta SET submissions = submissions + $2 WHERE id = $1")
        .bind(i64::from(shard))
        .bind(n)
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

#[cfg(test)]
mod tests {
    use super::{placeholders, Marks};

    #[test]
    fn marks_number_for_postgres_and_are_anonymous_for_sqlite() {
        assert_eq!(
            placeholders(Marks::Numbered, 2, 3),
            "($1, $2, $3), ($4, $5, $6)"
        );
        assert_eq!(placeholders(Marks::Anonymous, 2, 3), "(?, ?, ?), (?, ?, ?)");
        assert_eq!(Marks::Numbered.list(4, 2), "$4, $5");
        assert_eq!(Marks::Anonymous.list(4, 2), "?, ?");
        assert_eq!(placeholders(Marks::Numbered, 0, 3), "");
    }
}
