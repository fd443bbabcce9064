//! The leaderboard page (`GET /leaderboard`): for every case and phase, the
//! results across device classes (best and median of the submissions' median
//! times), a bar chart (SVG) of those times per device, device details, and
//! links to each submission. Filters: `system`, `hash`, `arity`, `phase`
//! (default `prove`; empty means any). Every string that came from a
//! submission is HTML-escaped ([`esc`]). The page is drawn from a
//! [`Board`]: the summary tables' rows ([`crate::db::Db::board`]), never the
//! documents.

use std::collections::HashMap;
use std::fmt::Write as _;

use zkbench_report::format::fmt_seconds;

pub use crate::summary::Filters;
use crate::summary::{Board, FilterValues, GroupRow};

/// Escapes text for HTML element content and quoted attribute values
/// (U+0000 becomes U+FFFD).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // U+0000 is not allowed in HTML text; browsers show U+FFFD for it
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

impl Filters {
    /// From query parameters; a missing `phase` means `prove`, an empty one any.
    pub fn from_query(q: &HashMap<String, String>) -> Self {
        let opt = |k: &str| {
            q.get(k)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        Self {
            system: opt("system"),
            hash: opt("hash"),
            arity: opt("arity").and_then(|a| a.parse().ok()),
            phase: match q.get("phase") {
                None => Some("prove".into()),
                Some(_) => opt("phase"),
            },
        }
    }
}

/// The start of a server page titled `title` (already plain text; escaped
/// here), up to and including `<body>`: the pages' one style sheet.
pub fn page_head(title: &str) -> String {
    let mut h = String::with_capacity(64 * 1024);
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>\
         body{{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}}\
         table{{border-collapse:collapse;margin:.5em 0 1.5em}}td,th{{border:1px solid #ccc;padding:.25em .5em;font-size:.9em}}\
         th{{background:#f3f3f3;text-align:left}}td.n{{text-align:right;font-variant-numeric:tabular-nums}}\
         h2{{font-size:1.05em;margin-top:2em;font-family:ui-monospace,monospace}}form label{{margin-right:1em}}\
         tr.regression td{{background:#fde2e1}}tr.improvement td{{background:#e3f4e1}}\
         .muted{{color:#777}}</style></head><body>",
        esc(title)
    );
    h
}

/// The device page's URL of device class `class` (percent-encoded path segment).
pub fn device_href(class: &str) -> String {
    format!(
        "/leaderboard/device/{}",
        percent_encoding::utf8_percent_encode(class, percent_encoding::NON_ALPHANUMERIC)
    )
}

/// The filters as a query string (`?system=…&phase=…`, the device page's
/// links keep the leaderboard's filters); a missing phase is written empty.
pub fn filter_query(f: &Filters) -> String {
    let enc = |v: &str| {
        percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    let mut parts = Vec::new();
    for (k, v) in [("system", &f.system), ("hash", &f.hash)] {
        if let Some(v) = v {
            parts.push(format!("{k}={}", enc(v)));
        }
    }
    if let Some(a) = f.arity {
        parts.push(format!("arity={a}"));
    }
    parts.push(format!("phase={}", enc(f.phase.as_deref().unwrap_or(""))));
    format!("?{}", parts.join("&"))
}

/// Renders the page from the board read with filters `f`.
pub fn render(board: &Board, f: &Filters) -> String {
    let classes: std::collections::BTreeSet<&str> =
        board.rows.iter().map(|r| r.class.as_str()).collect();

    let mut h = page_head("zkbench leaderboard");
    h.push_str("<h1>zkbench leaderboard</h1>");
    let _ = write!(
        h,
        "<p class=\"muted\">{} submissions, {} device classes shown. Times are each submission's median; \
         <b>best</b> is the fastest of them and <b>median</b> their median, per device class \
         (CPU model, logical CPUs, architecture); in the charts the bar is the median and the red tick the best. Raw data: <a href=\"/api/results\">/api/results</a>.</p>",
        board.submissions,
        classes.len()
    );

    // Filters.
    filter_form(&mut h, "/leaderboard", &board.values, f);
    h.push_str("<p class=\"muted\">A device class links to its page: its runs over time.</p>");
    if board.rows.is_empty() {
        h.push_str("<p>No measured results match these filters yet. Submit some with \
                    <code>zkbench run --submit URL</code> or <code>zkbench submit results.json --to URL</code>.</p>");
    }
    for case in board
        .rows
        .chunk_by(|a, b| (&a.case_id, &a.phase) == (&b.case_id, &b.phase))
    {
        let mut rows: Vec<&GroupRow> = case.iter().collect();
        rows.sort_by(|a, b| a.best.total_cmp(&b.best));
        let _ = write!(
            h,
            "<h2>{} · {}</h2>",
            esc(&case[0].case_id),
            esc(&case[0].phase)
        );
        chart(&mut h, &rows);
        h.push_str(
            "<table><tr><th>device class</th><th>submissions</th><th>best</th><th>median</th>\
             <th>device details (latest)</th><th>submissions</th></tr>",
        );
        for r in &rows {
            case_row(&mut h, r);
        }
        h.push_str("</table>");
    }
    h.push_str("</body></html>");
    h
}

/// The filter form (system, hash, arity, phase) posting to `action`, with
/// the values `values` offers and `f` selected.
pub fn filter_form(h: &mut String, action: &str, values: &FilterValues, f: &Filters) {
    let _ = write!(h, "<form method=\"get\" action=\"{}\">", esc(action));
    let select = |h: &mut String,
                  name: &str,
                  label: &str,
                  values: Vec<String>,
                  cur: Option<String>,
                  any: &str| {
        let _ = write!(
            h,
            "<label>{label} <select name=\"{name}\"><option value=\"\">{any}</option>"
        );
        for v in values {
            let sel = if cur.as_deref() == Some(v.as_str()) {
                " selected"
            } else {
                ""
            };
            let _ = write!(h, "<option value=\"{0}\"{sel}>{0}</option>", esc(&v));
        }
        h.push_str("</select></label>");
    };
    select(
        h,
        "system",
        "system",
        values.systems.iter().cloned().collect(),
        f.system.clone(),
        "any",
    );
    select(
        h,
        "hash",
        "hash",
        values.hashes.iter().cloned().collect(),
        f.hash.clone(),
        "any",
    );
    select(
        h,
        "arity",
        "arity",
        values.arities.iter().map(|a| a.to_string()).collect(),
        f.arity.map(|a| a.to_string()),
        "any",
    );
    select(
        h,
        "phase",
        "phase",
        values.phases.iter().cloned().collect(),
        f.phase.clone(),
        "any",
    );
    h.push_str("<button type=\"submit\">filter</button></form>");
}

/// One device class's row of a case's table.
fn case_row(h: &mut String, r: &GroupRow) {
    let latest = &r.latest;
    let mem = latest
        .memory_bytes
        .map(|b| format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64))
        .unwrap_or_else(|| "memory unknown".into());
    let _ = write!(
        h,
        "<tr><td><a href=\"{}\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
         <td>{} · {} · {} build · {}</td><td>",
        esc(&device_href(&r.class)),
        esc(&r.class),
        r.n,
        fmt_seconds(r.best),
        fmt_seconds(r.median),
        esc(&mem),
        esc(&latest.os),
        esc(&latest.build_profile),
        esc(&latest.zkbench_version),
    );
    for e in &r.recent {
        let _ = write!(
            h,
            "<a href=\"/api/results/{0}\" title=\"{1}\">{2}</a> ",
            esc(&e.id),
            fmt_seconds(e.median),
            esc(&e.id[..e.id.len().min(10)])
        );
    }
    h.push_str("</td></tr>");
}

/// Horizontal bars: median per device class, with a tick at the best.
fn chart(h: &mut String, rows: &[&GroupRow]) {
    let (label_w, bar_w, row_h) = (300.0, 420.0, 22.0);
    let max = rows
        .iter()
        .map(|r| r.median.max(r.best))
        .fold(0.0f64, f64::max)
        .max(1e-12);
    let height = row_h * rows.len() as f64 + 8.0;
    let _ = write!(
        h,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" role=\"img\" \
         aria-label=\"median time per device class\" style=\"font:12px system-ui,sans-serif\">",
        w = label_w + bar_w + 90.0
    );
    for (i, r) in rows.iter().enumerate() {
        let (class, best, med) = (&r.class, &r.best, &r.median);
        let y = 4.0 + i as f64 * row_h;
        let short: String = if class.chars().count() > 44 {
            class.chars().take(43).collect::<String>() + "…"
        } else {
            class.to_string()
        };
        let w = (med / max * bar_w).max(1.0);
        let bx = label_w + best / max * bar_w;
        let _ = write!(
            h,
            "<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{w:.1}\" height=\"{bh}\" fill=\"#4e79a7\"><title>{title}: median {m}, best {b}</title></rect>\
             <line x1=\"{bx:.1}\" x2=\"{bx:.1}\" y1=\"{y}\" y2=\"{y2}\" stroke=\"#e15759\" stroke-width=\"2\"/>\
             <text x=\"{vx:.1}\" y=\"{ty}\">{m}</text>",
            tx = label_w - 6.0,
            ty = y + 13.0,
            label = esc(&short),
            bh = row_h - 6.0,
            title = esc(class),
            m = fmt_seconds(*med),
            b = fmt_seconds(*best),
            y2 = y + row_h - 6.0,
            vx = label_w + w + 4.0,
        );
    }
    h.push_str("</svg>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<script>alert('x')</script>&\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"
        );
        assert_eq!(esc("a\0b"), "a\u{FFFD}b");
    }

    #[test]
    fn filters_default_to_prove() {
        let mut q = HashMap::new();
        assert_eq!(Filters::from_query(&q).phase.as_deref(), Some("prove"));
        q.insert("phase".into(), "".into());
        q.insert("arity".into(), "4".into());
        let f = Filters::from_query(&q);
        assert_eq!((f.phase, f.arity), (None, Some(4)));
    }
}
