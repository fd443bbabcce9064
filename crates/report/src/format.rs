//! The report's number and text formatters, shared by every section, the
//! tables and the charts (and the results server's leaderboard).

/// Human-readable seconds (`812 µs`, `41.3 ms`, `1.27 s`).
pub fn fmt_seconds(s: f64) -> String {
    if !s.is_finite() {
        "-".into()
    } else if s == 0.0 {
        "0".into()
    } else if s < 1e-6 {
        format!("{:.0} ns", s * 1e9)
    } else if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// Bytes in B, KiB or MiB (`1.5 MiB`).
pub fn fmt_bytes(b: f64) -> String {
    if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / 1048576.0)
    } else if b >= 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{b:.0} B")
    }
}

/// A count, `k` or `M` above ten thousand (`12.3k`, `1.25M`).
pub fn fmt_count(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// [`fmt_count`] of a value, `-` when absent.
pub fn opt_count(v: Option<f64>) -> String {
    v.map(fmt_count).unwrap_or_else(|| "-".into())
}

/// A ratio with two decimals and `×` (`0.42×`), `-` when absent.
pub fn opt_ratio(v: Option<f64>) -> String {
    v.map(|r| format!("{r:.2}×")).unwrap_or_else(|| "-".into())
}

/// An integer with thousands separators: `188,484` (gas figures are exact).
pub fn fmt_thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// HTML-escapes text (`&`, `<`, `>`, `"`).
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An axis value with an SI suffix and at most two decimals (`2.5k`, `3M`).
pub fn fmt_si(v: f64) -> String {
    let a = v.abs();
    let (x, unit) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else if a >= 1.0 {
        (v, "")
    } else {
        return format!("{v:.2e}");
    };
    // at most two decimals, none trailing: "2k", "2.5k", "10k"
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_labels_are_compact() {
        for (v, want) in [
            (10_000.0, "10k"),
            (2_500.0, "2.5k"),
            (1_000.0, "1k"),
            (999.0, "999"),
            (1.5, "1.5"),
            (3.0e6, "3M"),
            (1.234e9, "1.23G"),
        ] {
            assert_eq!(fmt_si(v), want, "{v}");
        }
    }
}
