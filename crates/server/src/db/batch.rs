//! Storing submissions in batches: every submission of a batch in ONE
//! transaction (one commit, so one fsync or WAL flush for the batch), each
//! behind its own savepoint so that one that fails is undone alone and the
//! others are stored. A submission arrives [`Prepared`]: validated, its
//! document canonical and zstd-compressed, its leaderboard entries computed,
//! all of it in the request handler, so the single writer only writes.
//!
//! In the transaction, submissions go in id order (one lock order for every
//! writer): per submission its `submissions` row, entries and runs (rows of
//! its own); then, once for the batch, the rows submissions share: filter
//! values, groups (`groups`) and the stored-submission count.

use sqlx::{AnyConnection, Connection};

use super::{
    groups::Counted,
    summaries::{count_submissions, write_rows, write_shared},
    DbError, NewSubmission,
};
use crate::summary::{encode, entries, Entry, FilterValues};

/// zstd level of stored documents: zstd's default, about 0.3 ms for a
/// default-suite document (105 KiB of canonical JSON) on this project's
/// machine, to about a fifth of its size.
pub const ZSTD_LEVEL: i32 = 3;

/// A submission ready to store: its document compressed and its
/// leaderboard entries computed ([`Prepared::new`]).
#[derive(Clone, Debug)]
pub struct Prepared {
    id: String,
    suite: String,
    cpu_model: String,
    records: i64,
    /// `suite` and `cpu_model` hold U+0000 and are stored escaped.
    escaped: bool,
    zstd: Vec<u8>,
    entries: Vec<Entry>,
    /// Each entry's group key ([`crate::summary::GroupKey::id`], a hash: computed here, not in the writer).
    keys: Vec<String>,
    values: FilterValues,
}

impl Prepared {
    /// Compresses the document and computes the entries of submission `s`.
    pub fn new(s: &NewSubmission<'_>) -> Result<Self, DbError> {
        let zstd =
            zstd::bulk::compress(s.document.as_bytes(), ZSTD_LEVEL).map_err(DbError::Compress)?;
        let (entries, values) = entries(s.file);
        let keys = entries.iter().map(|e| e.key.id()).collect();
        let escaped = s.suite.contains('\0') || s.cpu_model.contains('\0');
        let text = |v: &str| {
            if escaped {
                encode(v).into_owned()
            } else {
                v.to_string()
            }
        };
        Ok(Self {
            id: s.id.to_string(),
            suite: text(s.suite),
            cpu_model: text(s.cpu_model),
            records: s.records,
            escaped,
            zstd,
            entries,
            keys,
            values,
        })
    }

    /// The content id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Size of the stored (compressed) document, bytes.
    pub fn stored_bytes(&self) -> usize {
        self.zstd.len()
    }
}

/// The text of a stored document from its two columns: `zstd` when set (rows
/// stored since migration `0004`), else the `document` text as stored before.
pub fn document_text(text: String, zstd: Option<Vec<u8>>) -> Result<String, std::io::Error> {
    match zstd {
        None => Ok(text),
        Some(z) => String::from_utf8(zstd::stream::decode_all(&z[..])?)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
    }
}

/// Stores `subs` in one transaction on `conn`. `Err`: nothing was stored
/// (the transaction failed as a whole); `Ok`: committed, with per
/// submission `Ok(true)` (stored), `Ok(false)` (already stored) or the
/// error that undid it alone. A submission whose error says the database is
/// out of reach fails the batch (the connection is gone).
pub(super) async fn write(
    conn: &mut AnyConnection,
    subs: &[&Prepared],
) -> Result<Vec<Result<bool, DbError>>, DbError> {
    let mut order: Vec<usize> = (0..subs.len()).collect();
    order.sort_by(|&a, &b| subs[a].id.cmp(&subs[b].id));
    let mut out: Vec<Option<Result<bool, DbError>>> = (0..subs.len()).map(|_| None).collect();
    let mut stored: Vec<(usize, String)> = Vec::new();
    let mut tx = Connection::begin(conn).await?;
    for i in order {
        let at = humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string();
        let mut savepoint = Connection::begin(&mut *tx).await?;
        match insert_one(&mut savepoint, subs[i], &at).await {
            Ok(inserted) => {
                savepoint.commit().await?;
                if inserted {
                    stored.push((i, at));
                }
                out[i] = Some(Ok(inserted));
            }
            Err(e) if e.is_unavailable() => return Err(e),
            Err(e) => {
                savepoint.rollback().await?;
                tracing::warn!(id = %subs[i].id, error = %e, "submission not stored; the rest of its batch goes on");
                out[i] = Some(Err(e));
            }
        }
    }
    if let Some((first, _)) = stored.first() {
        let mut values = FilterValues::default();
        for (i, _) in &stored {
            for (kind, v) in subs[*i].values.pairs() {
                values.add(kind, v);
            }
        }
        let counted: Vec<Counted<'_>> = stored
            .iter()
            .map(|(i, at)| Counted {
                id: &subs[*i].id,
                at,
                entries: &subs[*i].entries,
                keys: &subs[*i].keys,
            })
            .collect();
        write_shared(&mut tx, &counted, &values).await?;
        count_submissions(&mut tx, &subs[*first].id, stored.len() as i64).await?;
    }
    tx.commit().await?;
    Ok(out.into_iter().map(|r| r.unwrap_or(Ok(false))).collect())
}

/// The submission's own rows: its `submissions` row unless its id is
/// stored already (`false`), then its entries and runs.
async fn insert_one(conn: &mut AnyConnection, s: &Prepared, at: &str) -> Result<bool, DbError> {
    let r = sqlx::query(
        "INSERT INTO submissions (id, received_at, suite, cpu_model, record_count, document, \
         document_zstd, text_escaped, summarized) VALUES ($1, $2, $3, $4, $5, '', $6, $7, 1) \
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(s.id.as_str())
    .bind(at)
    .bind(s.suite.as_str())
    .bind(s.cpu_model.as_str())
    .bind(s.records)
    .bind(s.zstd.as_slice())
    .bind(i64::from(s.escaped))
    .execute(&mut *conn)
    .await?;
    if r.rows_affected() == 0 {
        return Ok(false);
    }
    write_rows(conn, &s.id, at, &s.entries, &s.keys).await?;
    Ok(true)
}
