-- One row per distinct results document. Written in SQL that SQLite and
-- PostgreSQL both accept (the server reaches both through sqlx's Any driver).
CREATE TABLE submissions (
    -- lowercase hex SHA-256 of the canonical JSON document
    id TEXT PRIMARY KEY,
    -- RFC 3339 UTC with microseconds; sorts as text
    received_at TEXT NOT NULL,
    suite TEXT NOT NULL,
    cpu_model TEXT NOT NULL,
    record_count BIGINT NOT NULL,
    -- the canonical JSON document (sorted keys, compact)
    document TEXT NOT NULL
);

CREATE INDEX submissions_received_at ON submissions (received_at, id);
