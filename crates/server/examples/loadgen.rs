//! Load generator for `POST /api/results`: requests per second and p50 / p99
//! latency at 1, 10 and 100 concurrent clients, against SQLite and
//! PostgreSQL, in one run.
//!
//! ```sh
//! cargo run --release -p zkbench-server --example loadgen -- [--seconds 5] [--records 30] [--samples 10] [--clients 1,10,100] [--db sqlite|postgres|both]
//! ```
//!
//! With `--fill N` it first stores N submissions (`--records`, `--samples`
//! each; say `--records 100` for default-suite size) directly through
//! `Db::insert`, then measures the leaderboard as it was computed before
//! summaries (every document read and aggregated: `Db::all_documents` and
//! `summary::board_from_documents`, in process) and as served now
//! (`GET /leaderboard`, default and filtered, `GET /api/results?limit=100`
//! and its next page by cursor, the device page of one class and the
//! comparison of two stored runs, at each `--clients` level), with the
//! process's peak RSS (`VmHWM`, reset before each part), then the `POST`
//! levels (`--gets off`: the `POST` levels only). The server runs without a
//! rate limit.
//!
//! For each database it starts a server in this process (its own tokio
//! runtime, so the server's threads are not the clients' threads) on a fresh
//! database: a SQLite file in a temporary directory, and a throwaway
//! PostgreSQL cluster (`zkbench_server::pgtemp`). Each client has its own
//! connection and posts distinct documents (every request stores a new row,
//! 201) back to back for the given time (a closed loop: the server's
//! throughput, latency ≈ clients / throughput). With `--interval-ms T` every
//! level is run a second time with each client posting once every T ms on a
//! fixed schedule (staggered over the clients: an offered load of
//! `clients · 1000 / T` submissions a second), a request's latency counted
//! from its scheduled time, so a server that falls behind is charged the
//! wait (no coordinated omission). Prints a Markdown table.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use zkbench_server::{pgtemp::TempPostgres, sample, Server, ServerConfig};

#[path = "loadgen/fill.rs"]
mod fill;

struct Args {
    seconds: f64,
    records: usize,
    samples: usize,
    clients: Vec<usize>,
    fill: u64,
    db: String,
    /// Whether `--fill` also measures the GET pages (`--gets off`: only the `POST` levels).
    gets: bool,
    /// `--interval-ms`: each client's posting period (`None`: back to back).
    interval: Option<Duration>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        seconds: 5.0,
        records: 30,
        samples: 10,
        clients: vec![1, 10, 100],
        fill: 0,
        db: "both".into(),
        gets: true,
        interval: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let v = it.next().ok_or(format!("{flag} needs a value"))?;
        let num = |v: &str| {
            v.parse::<f64>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag.as_str() {
            "--seconds" => a.seconds = num(&v)?,
            "--records" => a.records = num(&v)? as usize,
            "--samples" => a.samples = num(&v)? as usize,
            "--fill" => a.fill = num(&v)? as u64,
            "--db" if ["sqlite", "postgres", "both"].contains(&v.as_str()) => a.db = v,
            "--gets" if ["on", "off"].contains(&v.as_str()) => a.gets = v == "on",
            "--interval-ms" if num(&v)? > 0.0 => {
                a.interval = Some(Duration::from_secs_f64(num(&v)? / 1e3))
            }
            "--clients" => {
                a.clients = v
                    .split(',')
                    .map(|c| c.trim().parse().map_err(|_| format!("--clients: {c}")))
                    .collect::<Result<_, _>>()?
            }
            _ => {
                return Err(format!(
                    "unknown flag or value {flag} {v}; accepted: --seconds, --records, --samples, --clients, --fill N, --db sqlite|postgres|both, --gets on|off, --interval-ms T (> 0)"
                ))
            }
        }
    }
    Ok(a)
}

/// A document body with a unique suite name, from a template split once.
struct Bodies {
    head: String,
    tail: String,
}

impl Bodies {
    fn new(records: usize, samples: usize) -> Self {
        let text =
            serde_json::to_string(&sample::document(7, records, samples)).expect("serialise");
        let marker = "\"suite\":\"sample\"";
        let i = text.find(marker).expect("suite field");
        Self {
            head: text[..i].to_string(),
            tail: text[i + marker.len()..].to_string(),
        }
    }
    fn body(&self, n: u64) -> String {
        format!("{}\"suite\":\"load-{n}\"{}", self.head, self.tail)
    }
}

struct Level {
    clients: usize,
    /// Each client's posting period (`None`: back to back).
    interval: Option<Duration>,
    requests: usize,
    errors: usize,
    rps: f64,
    p50: Duration,
    p99: Duration,
}

/// The `p`-th percentile of `sorted` (nearest rank).
pub fn nearest_rank(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// One client's schedule: back to back, or every `interval` from `offset`.
#[derive(Clone, Copy)]
struct Pace {
    interval: Option<Duration>,
    offset: Duration,
}

/// One client of a level: its latencies and its failed requests.
async fn client(
    url: String,
    bodies: Arc<Bodies>,
    counter: Arc<std::sync::atomic::AtomicU64>,
    start: Instant,
    deadline: Instant,
    pace: Pace,
) -> (Vec<Duration>, usize) {
    let client = reqwest::Client::new();
    let (mut lat, mut errors) = (Vec::new(), 0usize);
    let mut due = start + pace.offset;
    loop {
        let scheduled = match pace.interval {
            Some(iv) => {
                tokio::time::sleep_until(due.into()).await;
                let at = due;
                due += iv;
                at
            }
            None => Instant::now(),
        };
        if scheduled >= deadline {
            break;
        }
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let r = client
            .post(format!("{url}/api/results"))
            .header("content-type", "application/json")
            .body(bodies.body(n))
            .send()
            .await;
        match r {
            Ok(resp) if resp.status() == reqwest::StatusCode::CREATED => {
                let _ = resp.bytes().await;
                lat.push(scheduled.elapsed());
            }
            _ => errors += 1,
        }
    }
    (lat, errors)
}

async fn run_level(
    url: &str,
    clients: usize,
    seconds: f64,
    bodies: Arc<Bodies>,
    first: u64,
    interval: Option<Duration>,
) -> Level {
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let counter = Arc::new(std::sync::atomic::AtomicU64::new(first));
    let mut tasks = Vec::new();
    for i in 0..clients {
        let pace = Pace {
            interval,
            offset: interval.map_or(Duration::ZERO, |iv| iv * i as u32 / clients as u32),
        };
        let (url, bodies, counter) = (url.to_string(), bodies.clone(), counter.clone());
        tasks.push(tokio::spawn(client(
            url, bodies, counter, start, deadline, pace,
        )));
    }
    let (mut all, mut errors) = (Vec::new(), 0);
    for t in tasks {
        let (l, e) = t.await.expect("client task");
        all.extend(l);
        errors += e;
    }
    let elapsed = start.elapsed().as_secs_f64();
    all.sort();
    Level {
        clients,
        interval,
        requests: all.len(),
        errors,
        rps: all.len() as f64 / elapsed,
        p50: nearest_rank(&all, 50.0),
        p99: nearest_rank(&all, 99.0),
    }
}

/// How a level's clients post, in words.
fn pace_text(interval: Option<Duration>) -> String {
    match interval {
        None => "back to back".into(),
        Some(iv) => format!("every {:.0} ms", iv.as_secs_f64() * 1e3),
    }
}

/// Milliseconds, one decimal.
pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("server")
        .build()
        .expect("runtime");
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("client")
        .build()
        .expect("runtime");
    let bodies = Arc::new(Bodies::new(args.records, args.samples));
    let body_len = bodies.body(0).len();
    let dir = tempfile::tempdir().expect("tempdir");
    let pg = match (args.db != "sqlite").then(TempPostgres::start) {
        None => None,
        Some(pg) => match pg {
            Ok(pg) => Some(pg),
            Err(e) => {
                eprintln!("PostgreSQL rows skipped: {e}");
                None
            }
        },
    };
    let mut dbs = Vec::new();
    if args.db != "postgres" {
        dbs.push((
            "SQLite (WAL, synchronous=FULL)".to_string(),
            format!("sqlite://{}", dir.path().join("load.db").display()),
        ));
    }
    if let Some(pg) = &pg {
        let version = pg.version();
        let version = version
            .trim_start_matches("pg_ctl (PostgreSQL) ")
            .split_whitespace()
            .next()
            .unwrap_or("");
        dbs.push((format!("PostgreSQL {version}"), pg.url()));
    }
    let mut rows = Vec::new();
    let mut first = 0u64;
    for (name, url) in &dbs {
        let mut ids = Vec::new();
        if args.fill > 0 {
            let fill = fill::Fill {
                n: args.fill,
                records: args.records,
                samples: args.samples,
            };
            ids = server_rt.block_on(fill.store(url));
            if args.gets {
                fill::measure_documents(&server_rt, url, args.fill);
            }
        }
        let config = ServerConfig {
            addr: "127.0.0.1:0".into(),
            db_url: url.clone(),
            web_dir: dir.path().join("no-web"),
            request_timeout: Duration::from_secs(60),
            rate_limit: None,
            submit_token: None,
            write_queue: zkbench_server::writer::WRITE_QUEUE,
        };
        let server = server_rt.block_on(Server::bind(&config)).expect("server");
        let base = server.url();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let handle = server_rt.spawn(server.run_until(async move {
            let _ = rx.await;
        }));
        if args.fill > 0 && args.gets {
            fill::measure_gets(&client_rt, &base, name, &args.clients, args.seconds, &ids);
        }
        let paces = std::iter::once(None).chain(args.interval.map(Some));
        for (interval, &c) in paces.flat_map(|p| args.clients.iter().map(move |c| (p, c))) {
            let level = client_rt.block_on(run_level(
                &base,
                c,
                args.seconds,
                bodies.clone(),
                first,
                interval,
            ));
            first += 10_000_000;
            eprintln!(
                "{name}: {c} clients, {}: {} requests, {:.0}/s, p50 {}, p99 {}, {} errors",
                pace_text(interval),
                level.requests,
                level.rps,
                ms(level.p50),
                ms(level.p99),
                level.errors
            );
            rows.push((name.clone(), level));
        }
        let _ = tx.send(());
        let _ = server_rt.block_on(handle);
    }
    println!(
        "POST /api/results, {} records x {} samples per document ({:.1} KiB), {} s per level, every request a new row (201); paced levels count latency from the scheduled time\n",
        args.records,
        args.samples,
        body_len as f64 / 1024.0,
        args.seconds
    );
    println!(
        "| database | clients | each client posts | requests | requests/s | p50 | p99 | errors |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
    for (name, l) in &rows {
        println!(
            "| {name} | {} | {} | {} | {:.0} | {} | {} | {} |",
            l.clients,
            pace_text(l.interval),
            l.requests,
            l.rps,
            ms(l.p50),
            ms(l.p99),
            l.errors
        );
    }
}
