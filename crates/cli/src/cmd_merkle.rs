//! `zkbench merkle build | path | verify`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
};

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use zkbench_bench::case::{format_leaves, parse_leaves};
use zkbench_hash::{field::fr_to_decimal, parse_fr, Fr, HashFamily, NodeHasher};
use zkbench_merkle::{
    serde_fr, tornado_zero_value, IncrementalMerkleTree, MerklePath, SparseMerkleTree,
};

/// `zkbench merkle` subcommands.
#[derive(Subcommand, Debug)]
pub enum MerkleCmd {
    /// Build a tree from leaves (placed at indexes 0, 1, ...) and print its root.
    Build(TreeArgs),
    /// Build a tree and print the membership path of one leaf as JSON.
    Path {
        /// Tree parameters and leaves.
        #[command(flatten)]
        tree: TreeArgs,
        /// Index of the leaf whose path to print.
        #[arg(long)]
        index: u64,
    },
    /// Verify a path JSON file written by `zkbench merkle path`; exits 1 if invalid.
    Verify {
        /// Path file.
        file: PathBuf,
        /// Check against this root instead of the one in the file.
        #[arg(long)]
        root: Option<String>,
        /// Check this leaf instead of the one in the file.
        #[arg(long)]
        leaf: Option<String>,
    },
}

/// Tree parameters shared by `build` and `path`.
#[derive(Args, Debug)]
pub struct TreeArgs {
    /// Hash family of the nodes.
    #[arg(long, default_value = "poseidon")]
    pub hash: String,
    /// S-box exponent (poseidon2: 5 or 7).
    #[arg(long)]
    pub alpha: Option<u64>,
    /// Children per node, 2..=16.
    #[arg(long, default_value_t = 2)]
    pub arity: usize,
    /// Tree capacity: decimal or 2^K (height = ceil(log_arity(leaves))).
    #[arg(long, default_value = "2^36")]
    pub leaves: String,
    /// Tree kind: sparse (any capacity, memory ∝ inserted leaves) or incremental (Tornado Cash style).
    #[arg(long, default_value = "sparse")]
    pub tree: String,
    /// Value of an empty leaf: a field element, or `tornado` for keccak256("tornado") mod r.
    #[arg(long, default_value = "0")]
    pub empty_leaf: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Leaf values (decimal or 0x-hex field elements).
    #[arg(allow_hyphen_values = true)]
    pub values: Vec<String>,
}

/// The JSON written by `zkbench merkle path` and read by `verify`.
#[derive(Serialize, Deserialize)]
struct PathFile {
    hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    alpha: Option<u64>,
    arity: usize,
    leaves: String,
    #[serde(with = "serde_fr")]
    root: Fr,
    #[serde(with = "serde_fr")]
    leaf: Fr,
    path: MerklePath,
}

struct Built {
    hasher: Arc<dyn NodeHasher>,
    root: Fr,
    height: u32,
    capacity: u64,
    tree: Tree,
}

/// The tree a command works on (the incremental tree is boxed: it holds its
/// root history inline, a kilobyte).
enum Tree {
    Sparse(SparseMerkleTree),
    Incremental(Box<IncrementalMerkleTree>),
}

fn build(a: &TreeArgs) -> anyhow::Result<Built> {
    let fam: HashFamily = a.hash.parse()?;
    let hasher = fam.node_hasher(a.arity, a.alpha)?;
    let capacity = parse_leaves(&a.leaves).map_err(anyhow::Error::msg)?;
    let empty = if a.empty_leaf == "tornado" {
        tornado_zero_value()
    } else {
        parse_fr(&a.empty_leaf)?
    };
    let values = a
        .values
        .iter()
        .map(|s| parse_fr(s))
        .collect::<Result<Vec<_>, _>>()?;
    if values.len() as u128 > capacity as u128 {
        bail!(
            "{} leaves given but the tree holds {} (--leaves)",
            values.len(),
            format_leaves(capacity)
        );
    }
    let height = zkbench_merkle::height_for(capacity as u128, a.arity);
    let tree = match a.tree.as_str() {
        "sparse" => {
            let mut t = SparseMerkleTree::new(hasher.clone(), capacity as u128, empty)?;
            let batch: Vec<(u64, Fr)> = values
                .iter()
                .enumerate()
                .map(|(i, v)| (i as u64, *v))
                .collect();
            t.insert_batch(&batch)?;
            Tree::Sparse(t)
        }
        "incremental" => {
            let mut t = IncrementalMerkleTree::new(hasher.clone(), height, empty)?;
            t.insert_many(&values)?;
            Tree::Incremental(Box::new(t))
        }
        other => bail!("unknown tree kind {other:?}; accepted: sparse, incremental"),
    };
    let root = match &tree {
        Tree::Sparse(t) => t.root(),
        Tree::Incremental(t) => t.root(),
    };
    Ok(Built {
        hasher,
        root,
        height,
        capacity,
        tree,
    })
}

/// Runs a `zkbench merkle` subcommand.
pub fn run(cmd: MerkleCmd) -> anyhow::Result<ExitCode> {
    match cmd {
        MerkleCmd::Build(a) => run_build(&a),
        MerkleCmd::Path { tree, index } => run_path(&tree, index),
        MerkleCmd::Verify { file, root, leaf } => run_verify(&file, root, leaf),
    }
}

/// `zkbench merkle build`: prints the root (as JSON with the tree's
/// parameters under `--json`).
fn run_build(a: &TreeArgs) -> anyhow::Result<ExitCode> {
    let b = build(a)?;
    if a.json {
        let v = serde_json::json!({
            "hash": a.hash, "alpha": a.alpha, "arity": a.arity, "tree": a.tree,
            "leaves": format_leaves(b.capacity), "height": b.height,
            "inserted": a.values.len(), "root": fr_to_decimal(&b.root),
            "node_hasher": b.hasher.params(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{}", fr_to_decimal(&b.root));
    }
    Ok(ExitCode::SUCCESS)
}

/// `zkbench merkle path`: prints the [`PathFile`] of the leaf at `index`
/// (an empty leaf where no value was given there).
fn run_path(tree: &TreeArgs, index: u64) -> anyhow::Result<ExitCode> {
    let b = build(tree)?;
    let path = match &b.tree {
        Tree::Sparse(t) => t.path(index)?,
        Tree::Incremental(t) => t.path(index)?,
    };
    let leaf = tree
        .values
        .get(index as usize)
        .map(|s| parse_fr(s))
        .transpose()?
        .unwrap_or_else(|| match &b.tree {
            Tree::Sparse(t) => t.empty_leaf(),
            Tree::Incremental(t) => t.zero_hashes()[0],
        });
    let f = PathFile {
        hash: tree.hash.clone(),
        alpha: tree.alpha,
        arity: tree.arity,
        leaves: format_leaves(b.capacity),
        root: b.root,
        leaf,
        path,
    };
    println!("{}", serde_json::to_string_pretty(&f)?);
    Ok(ExitCode::SUCCESS)
}

/// `zkbench merkle verify`: checks the path in `file` (against `root` and
/// `leaf` where given); exits with failure when it is invalid.
fn run_verify(file: &Path, root: Option<String>, leaf: Option<String>) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let f: PathFile = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a path file written by `zkbench merkle path`",
            file.display()
        )
    })?;
    let fam: HashFamily = f.hash.parse()?;
    let hasher = fam.node_hasher(f.arity, f.alpha)?;
    let root = root.map(|r| parse_fr(&r)).transpose()?.unwrap_or(f.root);
    let leaf = leaf.map(|l| parse_fr(&l)).transpose()?.unwrap_or(f.leaf);
    f.path.check_shape(f.arity).context("malformed path")?;
    if f.path.verify(&leaf, &root, hasher.as_ref()) {
        println!(
            "valid: leaf {} is at index {} under root {}",
            fr_to_decimal(&leaf),
            f.path.leaf_index,
            fr_to_decimal(&root)
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!("INVALID: the path does not lead from the leaf to the root");
        Ok(ExitCode::FAILURE)
    }
}
