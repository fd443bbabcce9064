//! `loadgen --fill N`: a database of N submissions, then the leaderboard's
//! cost before summaries (every document read, in process) and now
//! (`GET /leaderboard` and friends over HTTP), with peak RSS.

use std::time::{Duration, Instant};

use zkbench_server::{
    canonical::{content_id, into_canonical_text},
    db::{NewSubmission, Prepared},
    leaderboard, sample,
    summary::{board_from_documents, Filters, StoredDoc},
    Db,
};

use super::{ms, nearest_rank};

/// What `--fill` stores.
pub struct Fill {
    /// Submissions to store.
    pub n: u64,
    /// Records per submission.
    pub records: usize,
    /// Samples per record.
    pub samples: usize,
}

/// `(current, peak)` resident set of this process, MiB (`/proc/self/status`).
pub fn rss_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Restarts the peak-RSS count (`VmHWM`) from the current resident set.
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Submissions per transaction of the fill (the server's group commit
/// writes batches the same way, [`Db::insert_batch`]).
const FILL_BATCH: u64 = 250;

impl Fill {
    /// Submissions `from..to`, prepared as the server prepares a `POST`
    /// (canonical text, content id, zstd, summary entries), with their ids.
    fn prepare(&self, from: u64, to: u64) -> (Vec<String>, Vec<Prepared>, usize) {
        let (mut ids, mut out, mut bytes) = (Vec::new(), Vec::new(), 0);
        for seed in from..to {
            let file = sample::document(seed, self.records, self.samples);
            let canonical = into_canonical_text(serde_json::to_value(&file).expect("JSON"));
            bytes = canonical.len();
            let id = content_id(&canonical);
            let s = NewSubmission {
                id: &id,
                suite: &file.suite,
                cpu_model: &file.env.cpu_model,
                records: file.records.len() as i64,
                document: &canonical,
                file: &file,
            };
            out.push(Prepared::new(&s).expect("prepare"));
            ids.push(id);
        }
        (ids, out, bytes)
    }

    /// Stores `n` distinct sample submissions through [`Db::insert_batch`],
    /// [`FILL_BATCH`] a transaction, the next batch prepared on a blocking
    /// thread while one is written; returns the ids of the first two.
    pub async fn store(&self, url: &str) -> Vec<String> {
        let db = Db::connect(url).await.expect("database");
        let t = Instant::now();
        let this = std::sync::Arc::new(Fill { ..*self });
        let spawn = |from: u64| {
            let this = this.clone();
            let to = (from + FILL_BATCH).min(this.n);
            tokio::task::spawn_blocking(move || this.prepare(from, to))
        };
        let (mut first, mut bytes) = (Vec::new(), 0);
        let mut next = Some(spawn(0));
        let mut from = 0;
        while let Some(job) = next.take() {
            let (ids, batch, b) = job.await.expect("prepare thread");
            from += batch.len() as u64;
            if from < self.n {
                next = Some(spawn(from));
            }
            for r in db.insert_batch(&batch).await {
                r.expect("insert");
            }
            bytes = b;
            first.extend(ids.into_iter().take(2 - first.len().min(2)));
            if from % 5000 < FILL_BATCH {
                eprintln!(
                    "  {from} stored, {:.0}/s",
                    from as f64 / t.elapsed().as_secs_f64()
                );
            }
        }
        let took = t.elapsed().as_secs_f64();
        eprintln!(
            "filled {} submissions of {} records x {} samples ({:.1} KiB each) in {took:.1} s ({:.0}/s, {FILL_BATCH} a transaction)",
            self.n,
            self.records,
            self.samples,
            bytes as f64 / 1024.0,
            self.n as f64 / took
        );
        db.close().await;
        first
    }
}

/// The leaderboard as computed before summaries: every document read and
/// aggregated on each request. Five runs of the default page and of `?phase=`.
pub fn measure_documents(rt: &tokio::runtime::Runtime, url: &str, n: u64) {
    if n > 2000 {
        println!("before (every document read, in process): not measured above 2,000 submissions (it holds every document in memory)");
        return;
    }
    let db = rt.block_on(Db::connect(url)).expect("database");
    for (label, phase) in [
        ("/leaderboard", Some("prove")),
        ("/leaderboard?phase=", None),
    ] {
        let f = Filters {
            phase: phase.map(String::from),
            ..Filters::default()
        };
        reset_peak();
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let stored = rt.block_on(db.all_documents()).expect("read");
            let docs: Vec<StoredDoc<'_>> = stored
                .iter()
                .map(|(i, d)| StoredDoc {
                    id: &i.id,
                    received_at: &i.received_at,
                    document: d,
                })
                .collect();
            size = leaderboard::render(&board_from_documents(&docs, &f), &f).len();
            times.push(t.elapsed());
        }
        times.sort();
        let (_, peak) = rss_mib();
        println!(
            "before (every document read, in process) {label}: p50 {} max {} ({:.0} KiB page), peak RSS {peak:.0} MiB",
            ms(times[2]),
            ms(times[4]),
            size as f64 / 1024.0
        );
    }
    rt.block_on(db.close());
}

/// `GET` levels against a running server: p50, p99 and requests per second
/// for each path and client count, and the peak RSS over all of them.
pub fn measure_gets(
    rt: &tokio::runtime::Runtime,
    base: &str,
    name: &str,
    clients: &[usize],
    seconds: f64,
    ids: &[String],
) {
    let device = leaderboard::device_href(&zkbench_server::summary::device_class(
        &sample::document(0, 1, 1).env,
    ));
    let mut paths = vec![
        "/leaderboard".to_string(),
        "/leaderboard?phase=".into(),
        "/leaderboard?system=groth16&hash=poseidon&arity=4&phase=verify".into(),
        "/api/results?limit=100".into(),
        format!("/api/results?limit=100&after={}", ids[0]),
        device.clone(),
        format!("{device}?phase="),
    ];
    if ids.len() > 1 {
        paths.push(format!("/compare?a={}&b={}", ids[0], ids[1]));
    }
    reset_peak();
    println!("\n{name}: GET, {seconds} s per level\n");
    println!("| path | clients | requests | requests/s | p50 | p99 | page | failed |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for path in &paths {
        for &c in clients {
            let (mut lat, size, rps, failed) =
                rt.block_on(get_level(format!("{base}{path}"), c, seconds));
            lat.sort();
            let shown = if path.len() > 60 {
                format!("{}…", &path[..60])
            } else {
                path.clone()
            };
            println!(
                "| `{shown}` | {c} | {} | {rps:.0} | {} | {} | {:.0} KiB | {failed} |",
                lat.len(),
                ms(nearest_rank(&lat, 50.0)),
                ms(nearest_rank(&lat, 99.0)),
                size as f64 / 1024.0
            );
        }
    }
    let (now, peak) = rss_mib();
    println!("\npeak RSS of the process (server and clients) during the GET levels: {peak:.0} MiB (now {now:.0} MiB)");
}

/// `clients` clients getting `url` back to back for `seconds`: latencies of
/// the 200s, the page size, requests per second, and the requests answered
/// otherwise (another status or no answer).
async fn get_level(
    url: String,
    clients: usize,
    seconds: f64,
) -> (Vec<Duration>, usize, f64, usize) {
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            let (mut lat, mut size, mut failed) = (Vec::new(), 0, 0);
            while Instant::now() < deadline {
                let t = Instant::now();
                match client.get(&url).send().await {
                    Ok(resp) if resp.status().is_success() => {
                        size = resp.bytes().await.map_or(size, |b| b.len());
                        lat.push(t.elapsed());
                    }
                    _ => failed += 1,
                }
            }
            (lat, size, failed)
        }));
    }
    let (mut all, mut size, mut failed) = (Vec::new(), 0, 0);
    for t in tasks {
        let (l, s, f) = t.await.expect("client");
        all.extend(l);
        size = size.max(s);
        failed += f;
    }
    let rps = all.len() as f64 / start.elapsed().as_secs_f64();
    (all, size, rps, failed)
}
