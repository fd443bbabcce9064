//! One device class's runs over time, for the device page: the
//! `leaderboard_runs` table (migration `0003_device_runs.sql`), one row per
//! submission and device class it measured, written with the submission's
//! other summaries ([`write`]), and what the page reads ([`device`]): the
//! latest runs by an index range scan, their entries by primary key, and the
//! class's leaderboard rows. Nothing here reads a document, so the page's
//! cost does not grow with the number of stored submissions.

use std::collections::BTreeMap;

use sqlx::{AnyConnection, Row};

use super::summaries::{filter_values, group_rows, placeholders, Marks};
use crate::summary::{decode, encode, Entry, FilterValues, Filters, GroupRow};

/// How many of a device class's latest runs the device page shows.
pub const RUNS: i64 = 60;

/// How many cases (series) the device page's chart draws: those with the
/// most drawable points (positive medians) among the latest runs.
pub const SERIES: usize = 8;

/// One submission's run on a device class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Submission id.
    pub id: String,
    /// When it was received (RFC 3339).
    pub received_at: String,
    /// Its suite.
    pub suite: String,
    /// Its entries (successful records) on this device class.
    pub entries: i64,
}

/// One entry of a run: a case's median time in one submission.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Case id.
    pub case_id: String,
    /// Phase.
    pub phase: String,
    /// Submission id.
    pub id: String,
    /// When the submission was received (RFC 3339).
    pub received_at: String,
    /// The record's median time, seconds.
    pub median: f64,
}

/// What the device page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Device {
    /// The device class.
    pub class: String,
    /// All its runs.
    pub runs_total: i64,
    /// The latest [`RUNS`] runs, latest first.
    pub runs: Vec<Run>,
    /// The entries of those runs that pass the filters and belong to the
    /// [`SERIES`] cases charted, oldest first.
    pub points: Vec<Point>,
    /// Cases with a drawable point (a positive median) among those runs
    /// that pass the filters, charted or not.
    pub series_total: usize,
    /// The class's leaderboard rows that pass the filters (all its runs).
    pub rows: Vec<GroupRow>,
    /// What the filters offer.
    pub values: FilterValues,
}

/// Writes the runs of submission `id` (received at `at`): one row per device
/// class among its entries `es`.
pub(super) async fn write(
    conn: &mut AnyConnection,
    id: &str,
    at: &str,
    es: &[Entry],
) -> Result<(), sqlx::Error> {
    let mut per: BTreeMap<&str, i64> = BTreeMap::new();
    for e in es {
        *per.entry(e.key.class.as_str()).or_default() += 1;
    }
    if per.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO leaderboard_runs (class, received_at, submission_id, entries) VALUES {} \
         ON CONFLICT (class, submission_id) DO NOTHING",
        placeholders(Marks::of(conn), per.len(), 4)
    );
    let mut q = sqlx::query(&sql);
    for (class, n) in per {
        q = q.bind(encode(class).into_owned()).bind(at).bind(id).bind(n);
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

/// The device page's data for `class`, or `None` when it has no run.
pub(super) async fn device(
    conn: &mut AnyConnection,
    class: &str,
    f: &Filters,
) -> Result<Option<Device>, sqlx::Error> {
    let enc = encode(class).into_owned();
    let runs_total: i64 = sqlx::query("SELECT COUNT(*) FROM leaderboard_runs WHERE class = $1")
        .bind(&enc)
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    if runs_total == 0 {
        return Ok(None);
    }
    let mut runs = Vec::new();
    for r in sqlx::query(
        "SELECT r.submission_id, r.received_at, r.entries, s.suite, s.text_escaped \
         FROM leaderboard_runs r JOIN submissions s ON s.id = r.submission_id \
         WHERE r.class = $1 ORDER BY r.received_at DESC, r.submission_id DESC LIMIT $2",
    )
    .bind(&enc)
    .bind(RUNS)
    .fetch_all(&mut *conn)
    .await?
    {
        let suite: String = r.try_get(3)?;
        runs.push(Run {
            id: r.try_get(0)?,
            received_at: r.try_get(1)?,
            entries: r.try_get(2)?,
            suite: if r.try_get::<i64, _>(4)? != 0 {
                decode(&suite)
            } else {
                suite
            },
        });
    }
    let (points, series_total) = points(conn, &enc, &runs, f).await?;
    let rows = group_rows(conn, f, Some(class)).await?;
    let values = filter_values(conn).await?;
    Ok(Some(Device {
        class: class.to_string(),
        runs_total,
        runs,
        points,
        series_total,
        rows,
        values,
    }))
}

/// The class's groups (by key: case id and phase) that pass `f`, by the
/// class index.
async fn class_groups(
    conn: &mut AnyConnection,
    enc: &str,
    f: &Filters,
) -> Result<BTreeMap<String, (String, String)>, sqlx::Error> {
    let fenc = |s: &Option<String>| s.as_deref().map(|s| encode(s).into_owned());
    let mut groups = BTreeMap::new();
    for r in sqlx::query(
        "SELECT group_key, case_id, phase FROM leaderboard_groups WHERE class = $1 \
         AND ($2 IS NULL OR system = $2) AND ($3 IS NULL OR hash = $3 OR hash_label = $3) \
         AND ($4 IS NULL OR arity = $4) AND ($5 IS NULL OR phase = $5)",
    )
    .bind(enc)
    .bind(fenc(&f.system))
    .bind(fenc(&f.hash))
    .bind(f.arity.map(|a| a.min(i64::MAX as usize) as i64))
    .bind(fenc(&f.phase))
    .fetch_all(&mut *conn)
    .await?
    {
        groups.insert(
            r.try_get(0)?,
            (
                decode(&r.try_get::<String, _>(1)?),
                decode(&r.try_get::<String, _>(2)?),
            ),
        );
    }
    Ok(groups)
}

/// The [`SERIES`] charted groups of `runs` and the count of drawable ones:
/// the groups among `groups` with the most positive medians in those runs
/// (ties by the chart's label, case then phase), counted by the database
/// (one row per group, not one per entry).
async fn charted(
    conn: &mut AnyConnection,
    runs: &[Run],
    groups: &BTreeMap<String, (String, String)>,
) -> Result<(Vec<String>, usize), sqlx::Error> {
    // `group_key || ''`: an expression, so that neither planner serves the
    // grouping from the (group_key, median, ...) index, a scan over every
    // stored submission's entries; the runs' ids go through the primary key
    let sql = format!(
        "SELECT group_key || '', COUNT(*) FROM leaderboard_entries \
         WHERE submission_id IN ({}) AND median > 0 GROUP BY group_key || ''",
        Marks::of(conn).list(1, runs.len())
    );
    let mut q = sqlx::query(&sql);
    for r in runs {
        q = q.bind(r.id.as_str());
    }
    let mut counted: Vec<(i64, &(String, String), String)> = Vec::new();
    for r in q.fetch_all(&mut *conn).await? {
        let key: String = r.try_get(0)?;
        if let Some(label) = groups.get(&key) {
            counted.push((r.try_get(1)?, label, key));
        }
    }
    counted.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let total = counted.len();
    Ok((
        counted.into_iter().take(SERIES).map(|c| c.2).collect(),
        total,
    ))
}

/// The charted entries of `runs` on class `enc` (encoded) that pass `f`,
/// oldest run first, and the number of drawable cases ([`charted`]). Three
/// reads bounded by the runs and the class's groups, whatever the number
/// of stored submissions: the class's groups that pass `f`, the runs'
/// positive medians counted per group, then the charted groups' entries of
/// those runs, both by primary key (the group key is compared as an
/// expression, `group_key || ''`, so that the planner does not take the
/// group index, whose rows span every stored submission).
async fn points(
    conn: &mut AnyConnection,
    enc: &str,
    runs: &[Run],
    f: &Filters,
) -> Result<(Vec<Point>, usize), sqlx::Error> {
    if runs.is_empty() {
        return Ok((Vec::new(), 0));
    }
    let groups = class_groups(conn, enc, f).await?;
    let (keys, total) = charted(conn, runs, &groups).await?;
    if keys.is_empty() {
        return Ok((Vec::new(), total));
    }
    let marks = Marks::of(conn);
    let sql = format!(
        "SELECT submission_id, group_key, median FROM leaderboard_entries \
         WHERE submission_id IN ({}) AND group_key || '' IN ({}) AND median > 0",
        marks.list(1, runs.len()),
        marks.list(runs.len() + 1, keys.len())
    );
    let mut q = sqlx::query(&sql);
    for r in runs {
        q = q.bind(r.id.as_str());
    }
    for k in &keys {
        q = q.bind(k.as_str());
    }
    let at: BTreeMap<&str, &str> = runs
        .iter()
        .map(|r| (r.id.as_str(), r.received_at.as_str()))
        .collect();
    let mut out = Vec::new();
    for r in q.fetch_all(&mut *conn).await? {
        let Some((case_id, phase)) = groups.get(&r.try_get::<String, _>(1)?) else {
            continue;
        };
        let id: String = r.try_get(0)?;
        out.push(Point {
            case_id: case_id.clone(),
            phase: phase.clone(),
            received_at: at.get(id.as_str()).copied().unwrap_or("").to_string(),
            id,
            median: r.try_get(2)?,
        });
    }
    out.sort_by(|a, b| {
        (&a.received_at, &a.id, &a.case_id, &a.phase).cmp(&(
            &b.received_at,
            &b.id,
            &b.case_id,
            &b.phase,
        ))
    });
    Ok((out, total))
}

/// Device classes that have runs, in order (at most `limit`).
pub(super) async fn classes(
    conn: &mut AnyConnection,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query("SELECT DISTINCT class FROM leaderboard_groups ORDER BY class LIMIT $1")
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|r| Ok(decode(&r.try_get::<String, _>(0)?)))
        .collect()
}
