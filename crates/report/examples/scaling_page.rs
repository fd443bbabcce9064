//! The scaling section of results files as an HTML page, for a quick look at
//! its table and charts without the rest of the report:
//!
//! `cargo run -p zkbench-report --example scaling_page -- docs/data/scaling-16core-vm.json > scaling.html`

use zkbench_results::ResultsFile;

fn main() {
    let files: Vec<ResultsFile> = std::env::args()
        .skip(1)
        .map(|p| ResultsFile::read(std::path::Path::new(&p)).expect("a results file"))
        .collect();
    let section = zkbench_report::scaling::html(&files)
        .unwrap_or_else(|| "<p>No case was run at two or more thread counts.</p>".into());
    println!("<!doctype html><meta charset=utf-8><title>zkbench scaling</title><style>body{{font-family:sans-serif}} td.num{{text-align:right}} td,th{{padding:2px 8px}}</style>{section}");
}
