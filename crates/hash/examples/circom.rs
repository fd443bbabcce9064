//! Prints the circom templates of zkbench's GMiMC, Poseidon2 and Neptune Merkle nodes
//! (`zkbench_hash::circom`), generated from this crate's constants:
//!
//! ```text
//! cargo run -p zkbench-hash --example circom > peers/snarkjs/circuits/zkbench_hashes.circom
//! ```

fn main() {
    print!("{}", zkbench_hash::circom::templates());
}
