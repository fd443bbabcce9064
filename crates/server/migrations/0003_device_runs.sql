-- The device page (GET /leaderboard/device/{class}): one row per submission
-- and device class it measured (summary::encode(class)), written with the
-- submission's other summaries (db/runs.rs), and filled here from the
-- entries of the submissions summarized so far (those that are not yet get
-- theirs from db::backfill, which writes every summary).
CREATE TABLE leaderboard_runs (
    class TEXT NOT NULL,
    received_at TEXT NOT NULL,
    submission_id TEXT NOT NULL,
    -- the submission's entries (successful records) on this device class
    entries BIGINT NOT NULL,
    PRIMARY KEY (class, submission_id)
);
CREATE INDEX leaderboard_runs_time ON leaderboard_runs (class, received_at, submission_id);
CREATE INDEX leaderboard_groups_class ON leaderboard_groups (class, case_id, phase);

INSERT INTO leaderboard_runs (class, received_at, submission_id, entries)
SELECT g.class, s.received_at, s.id, COUNT(*)
FROM leaderboard_entries e
JOIN leaderboard_groups g ON g.group_key = e.group_key
JOIN submissions s ON s.id = e.submission_id
GROUP BY g.class, s.received_at, s.id;
