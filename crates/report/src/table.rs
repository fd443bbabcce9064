//! One table type for every table of the report, rendered as a Markdown pipe
//! table (the summary printed after a run) or as HTML (the report file).

use crate::format::esc;

/// Column alignment (Markdown `---` / `---:`; HTML tables are styled by the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text columns.
    Left,
    /// Number columns.
    Right,
}

/// One cell: its text, whether it is emphasised, and optionally other HTML
/// and attributes of its HTML `<td>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    text: String,
    bold: bool,
    html: Option<String>,
    attrs: String,
}

impl Cell {
    /// A plain cell.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            bold: false,
            html: None,
            attrs: String::new(),
        }
    }

    /// An emphasised cell (`**x**`, `<b>x</b>`).
    pub fn bold(text: impl Into<String>) -> Self {
        Self {
            bold: true,
            ..Self::new(text)
        }
    }

    /// The cell's HTML, already escaped, when it differs from its escaped text.
    pub fn with_html(mut self, html: impl Into<String>) -> Self {
        self.html = Some(html.into());
        self
    }

    /// The number a sortable table sorts this cell's column by (HTML
    /// `data-v`; a cell without a value sorts as -1).
    pub fn sort_value(mut self, v: f64) -> Self {
        self.attrs += &format!(" data-v=\"{v}\"");
        self
    }

    /// A tooltip (HTML `title`, escaped).
    pub fn tooltip(mut self, text: &str) -> Self {
        self.attrs += &format!(" title=\"{}\"", esc(text));
        self
    }

    fn markdown(&self) -> String {
        if self.bold {
            format!("**{}**", self.text)
        } else {
            self.text.clone()
        }
    }

    fn to_html(&self) -> String {
        let inner = self.html.clone().unwrap_or_else(|| esc(&self.text));
        if self.bold {
            format!("<b>{inner}</b>")
        } else {
            inner
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Cell::new(text)
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Cell::new(text)
    }
}

/// A titled table with typed columns; [`Table::markdown`] and [`Table::html`]
/// render the same rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    title: String,
    html_title: Option<String>,
    note: Option<String>,
    about: Option<String>,
    columns: Vec<(String, Align, bool)>,
    rows: Vec<(Option<String>, Vec<Cell>)>,
    sortable: Option<String>,
}

impl Table {
    /// An empty table titled `title` (Markdown `###`, HTML `<h2>`).
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            html_title: None,
            note: None,
            about: None,
            columns: vec![],
            rows: vec![],
            sortable: None,
        }
    }

    /// Makes the HTML table sortable by the page's `sortBy(column)` script:
    /// the `<table>` gets `id`, each header an `onclick` (cells sort by their
    /// [`Cell::sort_value`], else their text).
    pub fn sortable(mut self, id: &str) -> Self {
        self.sortable = Some(id.into());
        self
    }

    /// A shorter title for the HTML heading (the note then says the rest).
    pub fn html_title(mut self, title: impl Into<String>) -> Self {
        self.html_title = Some(title.into());
        self
    }

    /// A paragraph under the HTML heading, already HTML.
    pub fn note(mut self, html: impl Into<String>) -> Self {
        self.note = Some(html.into());
        self
    }

    /// A paragraph of plain text under the heading, in Markdown as it is and
    /// in HTML escaped (the HTML note).
    pub fn about(mut self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.note = Some(esc(&text));
        self.about = Some(text);
        self
    }

    /// Adds a column.
    pub fn column(mut self, header: impl Into<String>, align: Align) -> Self {
        self.columns.push((header.into(), align, false));
        self
    }

    /// Adds a column whose Markdown header is bold (the figure the table is about).
    pub fn key_column(mut self, header: impl Into<String>, align: Align) -> Self {
        self.columns.push((header.into(), align, true));
        self
    }

    /// Adds text columns (left-aligned) then number columns (right-aligned).
    pub fn columns(mut self, text: &[&str], numbers: &[&str]) -> Self {
        for h in text {
            self = self.column(*h, Align::Left);
        }
        for h in numbers {
            self = self.column(*h, Align::Right);
        }
        self
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push((None, cells));
    }

    /// Appends a row with an HTML class (`ok`, `bad`).
    pub fn row_with_class(&mut self, class: &str, cells: Vec<Cell>) {
        self.rows.push((Some(class.into()), cells));
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown: `### title`, a pipe table and a blank line.
    pub fn markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.title);
        if let Some(a) = &self.about {
            out += &format!("{a}\n\n");
        }
        out.push('|');
        for (h, _, key) in &self.columns {
            out += &if *key {
                format!(" **{h}** |")
            } else {
                format!(" {h} |")
            };
        }
        out += "\n|";
        for (_, align, _) in &self.columns {
            out += match align {
                Align::Left => "---|",
                Align::Right => "---:|",
            };
        }
        out += "\n";
        for (_, cells) in &self.rows {
            let cells: Vec<String> = cells.iter().map(Cell::markdown).collect();
            out += &format!("| {} |\n", cells.join(" | "));
        }
        out + "\n"
    }

    /// The table as HTML: `<h2>`, the note, and a `<table>` with a head.
    pub fn html(&self) -> String {
        let title = self.html_title.as_deref().unwrap_or(&self.title);
        let mut h = format!("<h2>{}</h2>", esc(title));
        if let Some(n) = &self.note {
            h += &format!("<p class=meta>{n}</p>");
        }
        h + &self.html_table()
    }

    /// The table as a subsection of a report section: `<h3>` with the
    /// (Markdown) title, then the `<table>`, no note.
    pub fn html_subsection(&self) -> String {
        format!("<h3>{}</h3>{}", esc(&self.title), self.html_table())
    }

    /// The `<table>` alone, with a head (no heading, no note).
    pub fn html_table(&self) -> String {
        let mut h = match &self.sortable {
            Some(id) => format!("<table id={id}><thead><tr>"),
            None => String::from("<table><thead><tr>"),
        };
        for (i, (c, _, _)) in self.columns.iter().enumerate() {
            let click = match self.sortable {
                Some(_) => format!(" onclick=\"sortBy({i})\""),
                None => String::new(),
            };
            h += &format!("<th{click}>{}</th>", esc(c));
        }
        h += "</tr></thead><tbody>";
        for (class, cells) in &self.rows {
            h += &match class {
                Some(c) => format!("<tr class={c}>"),
                None => "<tr>".into(),
            };
            for c in cells {
                h += &format!("<td{}>{}</td>", c.attrs, c.to_html());
            }
            h += "</tr>";
        }
        h + "</tbody></table>"
    }
}

/// `table` rendered by `render` ([`Table::markdown`], [`Table::html`]), or
/// nothing when it has no rows.
pub fn non_empty(table: Table, render: fn(&Table) -> String) -> String {
    if table.is_empty() {
        String::new()
    } else {
        render(&table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_two_renderings() {
        let mut t = Table::new("Speed <fast>")
            .html_title("Speed")
            .note("in <i>seconds</i>")
            .column("system", Align::Left)
            .key_column("time", Align::Right);
        t.row(vec!["a&b".into(), Cell::bold("1 s")]);
        t.row_with_class(
            "bad",
            vec!["c".into(), Cell::new("x").with_html("<i>x</i>")],
        );
        assert_eq!(
            t.markdown(),
            "### Speed <fast>\n\n| system | **time** |\n|---|---:|\n| a&b | **1 s** |\n| c | x |\n\n"
        );
        assert_eq!(
            t.html(),
            "<h2>Speed</h2><p class=meta>in <i>seconds</i></p><table><thead><tr><th>system</th><th>time</th></tr></thead><tbody><tr><td>a&amp;b</td><td><b>1 s</b></td></tr><tr class=bad><td>c</td><td><i>x</i></td></tr></tbody></table>"
        );
        assert!(!t.is_empty());
        assert!(t
            .html_subsection()
            .starts_with("<h3>Speed &lt;fast&gt;</h3><table><thead>"));
        let mut s = Table::new("S").sortable("t").column("n", Align::Right);
        s.row(vec![Cell::new("1 s").sort_value(1.0).tooltip("a\"b")]);
        assert_eq!(
            s.html_table(),
            "<table id=t><thead><tr><th onclick=\"sortBy(0)\">n</th></tr></thead><tbody><tr><td data-v=\"1\" title=\"a&quot;b\">1 s</td></tr></tbody></table>"
        );
        let mut a = Table::new("T").about("a < b").column("x", Align::Left);
        a.row(vec!["1".into()]);
        assert_eq!(a.markdown(), "### T\n\na < b\n\n| x |\n|---|\n| 1 |\n\n");
        assert!(a
            .html()
            .starts_with("<h2>T</h2><p class=meta>a &lt; b</p><table>"));
    }
}
