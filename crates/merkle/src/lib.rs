//! n-ary Merkle trees over zkbench-hash (placeholder: being implemented).
