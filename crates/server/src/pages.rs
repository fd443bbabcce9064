//! Two pages beside the leaderboard, drawn from the database as stored:
//!
//! * `GET /leaderboard/device/{class}`: one device class's runs over time
//!   (the class as the leaderboard shows it, `CPU model · N CPUs · arch`,
//!   percent-encoded): a chart of each case's median per run against the
//!   time it was received, the latest runs with links to each document and
//!   to the comparison with the run before, and the class's leaderboard rows.
//!   The leaderboard's filters apply (`system`, `hash`, `arity`, `phase`,
//!   default `prove`). A class with no run is a 404 page naming the classes
//!   that have runs.
//! * `GET /compare?a={id}&b={id}[&threshold=0.1]`: the `zkbench compare`
//!   table of two stored runs (`a` the base, `b` the new one), computed by
//!   the same function (`zkbench_report::compare::compare`), regressions
//!   marked. A missing or malformed parameter is a 400 page, an id that is
//!   not stored a 404 page, each saying what is accepted.
//!
//! Every string that came from a submission is HTML-escaped
//! ([`crate::leaderboard::esc`]); the charts are SVG drawn here, as the
//! leaderboard's are.

mod chart;

use std::{collections::HashMap, fmt::Write as _};

use axum::{
    extract::{rejection::PathRejection, Path, Query, State},
    http::{HeaderMap, StatusCode, Uri},
    response::{Html, IntoResponse, Response},
};
use zkbench_report::{
    compare::{compare, Comparison, Verdict, DEFAULT_THRESHOLD},
    format::fmt_seconds,
};
use zkbench_results::results::ResultsFile;

use crate::{
    app::{db_failure, matches, not_modified, with_validator, AppState, REVALIDATE},
    canonical::is_content_id,
    db::{Device, RUNS},
    leaderboard::{device_href, esc, filter_form, filter_query, page_head, Filters},
};

/// An HTML page with status `status`: heading `title` and the paragraph
/// `message` (plain text; both escaped here), then `extra` (HTML).
fn message_page(status: StatusCode, title: &str, message: &str, extra: &str) -> Response {
    let mut h = page_head(title);
    let _ = write!(
        h,
        "<h1>{}</h1><p>{}</p>{extra}<p><a href=\"/leaderboard\">leaderboard</a></p></body></html>",
        esc(title),
        esc(message)
    );
    (status, Html(h)).into_response()
}

/// `GET /leaderboard/device/{class}`.
pub(crate) async fn device_page(
    State(st): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    class: Result<Path<String>, PathRejection>,
    Query(params): Query<HashMap<String, String>>,
) -> Response {
    let Ok(Path(class)) = class else {
        return message_page(
            StatusCode::NOT_FOUND,
            "No such device class",
            "The device class in this address is not valid percent-encoded UTF-8; \
             accepted: /leaderboard/device/CLASS with CLASS as the leaderboard links it.",
            "",
        );
    };
    let tag = match st.db.generation().await {
        Ok(g) => st.etag("device", g, Some(&uri.to_string())),
        Err(e) => return db_failure(&e, "cannot read a device page", "try again"),
    };
    if matches(&headers, &tag) {
        return not_modified(&tag, REVALIDATE);
    }
    let f = Filters::from_query(&params);
    match st.db.device(&class, &f).await {
        Ok(Some(d)) => with_validator(
            Html(render_device(&d, &f)).into_response(),
            &tag,
            REVALIDATE,
        ),
        Ok(None) => {
            let known = match st.db.classes(100).await {
                Ok(k) => k,
                Err(e) => return db_failure(&e, "cannot read a device page", "try again"),
            };
            unknown_class(&class, &known)
        }
        Err(e) => db_failure(&e, "cannot read a device page", "try again"),
    }
}

/// The 404 page of a class with no run, listing those that have runs.
fn unknown_class(class: &str, known: &[String]) -> Response {
    let mut list = String::new();
    if known.is_empty() {
        list.push_str("<p>No device class has measured runs yet.</p>");
    } else {
        list.push_str("<p>Device classes with runs:</p><ul>");
        for k in known {
            let _ = write!(
                list,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&device_href(k)),
                esc(k)
            );
        }
        list.push_str("</ul>");
    }
    message_page(
        StatusCode::NOT_FOUND,
        "No such device class",
        &format!(
            "No device class named \u{201c}{class}\u{201d} has measured runs on this server; \
             accepted: a class as the leaderboard shows it, CPU model · logical CPUs · \
             architecture (such as \u{201c}AMD EPYC 9454P 48-Core Processor · 2 CPUs · x86_64\u{201d})."
        ),
        &list,
    )
}

/// The device page of `d`, read with filters `f`.
pub fn render_device(d: &Device, f: &Filters) -> String {
    let mut h = page_head(&format!("zkbench · {}", d.class));
    let _ = write!(
        h,
        "<h1>{}</h1><p class=\"muted\">{} runs (submissions with a measured record) on this device \
         class; the chart and the table of runs show the latest {}. A run's time per case is its \
         record's median. <a href=\"/leaderboard{}\">Back to the leaderboard</a>.</p>",
        esc(&d.class),
        d.runs_total,
        d.runs.len().min(RUNS as usize),
        esc(&filter_query(f))
    );
    filter_form(&mut h, &device_href(&d.class), &d.values, f);
    h.push_str("<h2>Median time per run</h2>");
    chart::runs_over_time(&mut h, &d.points, d.series_total);
    h.push_str(
        "<h2>Latest runs</h2><table><tr><th>received (UTC)</th><th>submission</th><th>suite</th>\
         <th>measured records</th><th>against the run before</th></tr>",
    );
    for (i, r) in d.runs.iter().enumerate() {
        let before = d.runs.get(i + 1).map_or_else(
            || "<span class=\"muted\">—</span>".to_string(),
            |p| {
                format!(
                    "<a href=\"/compare?a={}&amp;b={}\">compare</a>",
                    esc(&p.id),
                    esc(&r.id)
                )
            },
        );
        let _ = write!(
            h,
            "<tr><td>{}</td><td><a href=\"/api/results/{}\">{}</a></td><td>{}</td>\
             <td class=\"n\">{}</td><td>{before}</td></tr>",
            esc(&r.received_at),
            esc(&r.id),
            esc(&r.id[..r.id.len().min(10)]),
            esc(&r.suite),
            r.entries
        );
    }
    h.push_str("</table><h2>Cases on this device class (all runs)</h2>");
    if d.rows.is_empty() {
        h.push_str("<p>No measured results of this class match these filters.</p>");
    } else {
        h.push_str(
            "<table><tr><th>case · phase</th><th>runs</th><th>best</th><th>median</th></tr>",
        );
        for r in &d.rows {
            let _ = write!(
                h,
                "<tr><td>{} · {}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td></tr>",
                esc(&r.case_id),
                esc(&r.phase),
                r.n,
                fmt_seconds(r.best),
                fmt_seconds(r.median)
            );
        }
        h.push_str("</table>");
    }
    h.push_str("</body></html>");
    h
}

/// Why a comparison cannot be shown: status and message.
type Refused = (StatusCode, String);

/// The `a`, `b` and `threshold` of a comparison's query.
fn compare_params(q: &HashMap<String, String>) -> Result<(String, String, f64), Refused> {
    let id = |name: &str, role: &str| -> Result<String, Refused> {
        let v = q.get(name).map(|v| v.trim()).unwrap_or("");
        if v.is_empty() {
            return Err((
                StatusCode::BAD_REQUEST,
                format!(
                    "The parameter {name} (the {role} run) is missing; accepted: \
                     /compare?a=ID&b=ID with the ids of two stored submissions \
                     (64 lowercase hex digits, as POST /api/results returns them)."
                ),
            ));
        }
        if !is_content_id(v) {
            return Err((
                StatusCode::BAD_REQUEST,
                format!(
                    "{name}=\u{201c}{v}\u{201d} is not a submission id; accepted: \
                     64 lowercase hex digits, as POST /api/results returns them."
                ),
            ));
        }
        Ok(v.to_string())
    };
    let (a, b) = (id("a", "base")?, id("b", "new")?);
    let threshold = match q.get("threshold").map(|t| t.trim()) {
        None | Some("") => DEFAULT_THRESHOLD,
        Some(t) => t
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && (0.0..=100.0).contains(x))
            .ok_or_else(|| {
                (
                    StatusCode::BAD_REQUEST,
                    format!(
                        "threshold=\u{201c}{t}\u{201d} is not accepted; accepted: a number from 0 \
                         to 100 (relative: 0.1 is 10 %, the default)."
                    ),
                )
            })?,
    };
    Ok((a, b, threshold))
}

/// `GET /compare?a={id}&b={id}`.
pub(crate) async fn compare_page(
    State(st): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let (a, b, threshold) = match compare_params(&q) {
        Ok(p) => p,
        Err((status, msg)) => return message_page(status, "Cannot compare these runs", &msg, ""),
    };
    // both documents are content-addressed: the page changes only with the server
    let tag = st.etag("compare", 0, uri.query());
    if matches(&headers, &tag) {
        return not_modified(&tag, REVALIDATE);
    }
    let mut files = Vec::new();
    for (name, id) in [("a", &a), ("b", &b)] {
        let doc = match st.db.get(id).await {
            Ok(Some(doc)) => doc,
            Ok(None) => {
                return message_page(
                    StatusCode::NOT_FOUND,
                    "Cannot compare these runs",
                    &format!(
                        "{name}={id} names no stored submission; accepted: the id of a stored \
                         submission (see /api/results)."
                    ),
                    "",
                )
            }
            Err(e) => return db_failure(&e, "cannot read a submission", "try again"),
        };
        match serde_json::from_str::<ResultsFile>(&doc) {
            Ok(f) => files.push(f),
            Err(e) => {
                tracing::error!(%id, error = %e, "a stored document does not read as a results file");
                return message_page(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Cannot compare these runs",
                    &format!("The stored submission {id} does not read as a results file."),
                    "",
                );
            }
        }
    }
    let c = compare(&files[0], &files[1], threshold);
    let html = render_compare([(&a, &files[0]), (&b, &files[1])], &c);
    with_validator(Html(html).into_response(), &tag, REVALIDATE)
}

/// The comparison page: `runs` are (id, document) of the base and the new run.
pub fn render_compare(runs: [(&str, &ResultsFile); 2], c: &Comparison) -> String {
    let mut h = page_head("zkbench compare");
    h.push_str("<h1>Comparison of two runs</h1><table><tr><th></th><th>submission</th><th>suite</th><th>device</th><th>zkbench</th></tr>");
    for ((id, f), role) in runs.iter().zip(["base (a)", "new (b)"]) {
        let _ = write!(
            h,
            "<tr><th>{role}</th><td><a href=\"/api/results/{0}\">{1}</a></td><td>{2}</td>\
             <td>{3} · {4} CPUs · {5}</td><td>{6}</td></tr>",
            esc(id),
            esc(&id[..id.len().min(10)]),
            esc(&f.suite),
            esc(&f.env.cpu_model),
            f.env.logical_cpus,
            esc(&f.env.arch),
            esc(&f.env.zkbench_version),
        );
    }
    h.push_str("</table>");
    if runs[0].1.env.cpu_model != runs[1].1.env.cpu_model {
        h.push_str(
            "<p><b>Different machines</b>: the ratios compare machines as well as code.</p>",
        );
    }
    let _ = write!(
        h,
        "<p>Per case and phase, the ratio of the records' medians (new / base). Threshold \
         ±{:.0} %: {} regression(s), {} improvement(s), {} unchanged, {} missing. Regressions \
         are marked <b>REGRESSION</b> on a red row (as <code>zkbench compare</code> marks them).</p>",
        c.threshold * 100.0,
        c.count(Verdict::Regression),
        c.count(Verdict::Improvement),
        c.count(Verdict::Unchanged),
        c.count(Verdict::Missing),
    );
    h.push_str(
        "<table><tr><th>case</th><th>phase</th><th>base (median)</th><th>new (median)</th>\
         <th>new/base</th><th>verdict</th></tr>",
    );
    for r in &c.rows {
        let class = match r.verdict {
            Verdict::Regression => " class=\"regression\"",
            Verdict::Improvement => " class=\"improvement\"",
            Verdict::Unchanged | Verdict::Missing => "",
        };
        let f = |v: Option<f64>| v.map_or_else(|| "-".into(), fmt_seconds);
        let _ = write!(
            h,
            "<tr{class}><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td>{}</td></tr>",
            esc(&r.case_id),
            esc(&r.phase),
            f(r.base),
            f(r.new),
            r.ratio.map_or_else(|| "-".into(), |x| format!("{x:.3}")),
            esc(r.verdict.label()),
        );
    }
    h.push_str("</table></body></html>");
    h
}
