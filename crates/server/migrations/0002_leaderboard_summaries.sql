-- Leaderboard summaries, written in the same transaction as each submission
-- (crates/server/src/summary.rs). Text columns of these tables hold
-- summary::encode(value) (backslash and U+0000 escaped). Submissions stored
-- before this migration have summarized = 0; the server fills their
-- summaries from the documents when it starts (db::backfill).

-- 1: suite and cpu_model hold summary::encode(value) (they contained U+0000).
ALTER TABLE submissions ADD COLUMN text_escaped BIGINT NOT NULL DEFAULT 0;
-- 1: the submission's entries are in leaderboard_entries and leaderboard_groups.
ALTER TABLE submissions ADD COLUMN summarized BIGINT NOT NULL DEFAULT 0;
CREATE INDEX submissions_summarized ON submissions (summarized, received_at, id);

-- One row per (case, phase, device class, case attributes).
CREATE TABLE leaderboard_groups (
    -- summary::GroupKey::id: 128 bits of SHA-256 of the key fields, hex
    group_key TEXT PRIMARY KEY,
    case_id TEXT NOT NULL,
    phase TEXT NOT NULL,
    class TEXT NOT NULL,
    system TEXT NOT NULL,
    hash TEXT NOT NULL,
    hash_label TEXT NOT NULL,
    arity BIGINT,
    leaves TEXT,
    circuit TEXT,
    threads BIGINT NOT NULL,
    -- number of entries, fastest median, sample count over all entries
    n BIGINT NOT NULL,
    best DOUBLE PRECISION NOT NULL,
    samples BIGINT NOT NULL,
    -- the entries at indices floor((n-1)/2) and floor(n/2) of the sorted medians
    lo_median DOUBLE PRECISION NOT NULL,
    lo_sub TEXT NOT NULL,
    lo_seq BIGINT NOT NULL,
    hi_median DOUBLE PRECISION NOT NULL,
    hi_sub TEXT NOT NULL,
    hi_seq BIGINT NOT NULL,
    -- the latest entry (received_at, submission, record index) and its device details
    latest_at TEXT NOT NULL,
    latest_sub TEXT NOT NULL,
    latest_seq BIGINT NOT NULL,
    latest_memory BIGINT,
    latest_os TEXT NOT NULL,
    latest_profile TEXT NOT NULL,
    latest_version TEXT NOT NULL,
    -- JSON array of summary::Recent, latest first
    recent TEXT NOT NULL
);
CREATE INDEX leaderboard_groups_case ON leaderboard_groups (case_id, phase, class);

-- One row per successful record of a submission.
CREATE TABLE leaderboard_entries (
    submission_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    group_key TEXT NOT NULL,
    median DOUBLE PRECISION NOT NULL,
    best DOUBLE PRECISION NOT NULL,
    samples BIGINT NOT NULL,
    PRIMARY KEY (submission_id, seq)
);
CREATE INDEX leaderboard_entries_order ON leaderboard_entries (group_key, median, submission_id, seq);

-- Every value the filters offer (from every record, failed ones too).
CREATE TABLE leaderboard_values (
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (kind, value)
);

-- The number of stored submissions (the leaderboard's count and ETag) is the
-- sum over 16 shards; an insert adds 1 to shard (first byte of its id) % 16,
-- so concurrent inserts on PostgreSQL rarely wait on one row.
CREATE TABLE leaderboard_meta (
    id BIGINT PRIMARY KEY,
    submissions BIGINT NOT NULL
);
INSERT INTO leaderboard_meta (id, submissions) SELECT 0, COUNT(*) FROM submissions;
INSERT INTO leaderboard_meta (id, submissions) VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0),
    (6, 0), (7, 0), (8, 0), (9, 0), (10, 0), (11, 0), (12, 0), (13, 0), (14, 0), (15, 0);
