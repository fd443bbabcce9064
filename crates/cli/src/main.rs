//! The `zkbench` command-line tool.
fn main() {}
