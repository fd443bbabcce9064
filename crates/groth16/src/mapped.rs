//! A read-only memory map of a prover cache file (Unix): one call into
//! `memmap2`, one of the workspace's three modules allowed `unsafe` (the
//! others are the MSM's x86-64 kernels, `avx512` and `avx2`).
//!
//! Why a map: the prover cache of a proving key is mostly fixed-base table
//! points (41 of the 47 MB for the gnark-Poseidon2 membership key). Read
//! into fresh memory, every 4 KiB page of it costs a page fault (19 ms on
//! this project's 2-core machine); mapped from the page cache, the kernel
//! maps the same pages in sixteen at a time as they are first read (3 ms with
//! the checksum pass that reads them all), and there is no copy: fixed-base
//! tables in a key format that loads fast, a cold proof close to a warm one.
//!
//! # Safety
//!
//! `memmap2::Mmap::map` is `unsafe` because the bytes of a mapped file can
//! change, or disappear (truncation: `SIGBUS` on access), under the `&[u8]`
//! that Rust believes immutable, if the file is written in place while it is
//! mapped. zkbench never does that: a prover cache is only ever written by
//! `keys::write_atomic` (a new file, then `rename`), which replaces
//! the directory entry and leaves the mapped inode as it was. What remains
//! is another program writing the file in place while keys loaded from it
//! are alive, which the docs of [`crate::prover_cache`] ask users not to do,
//! as every program that maps its data files does. Even then no invalid
//! value can be formed: the mapped bytes are only ever read as `u8` and
//! `u64` limbs (every bit pattern valid), so a change is a wrong proof,
//! which the verifier rejects, not memory unsafety beyond the map itself.
#![allow(unsafe_code)]

use std::fs::File;

/// A whole file mapped read-only.
pub struct MappedFile(memmap2::Mmap);

impl MappedFile {
    /// Maps `file` read-only (see the module's safety note).
    pub fn map(file: &File) -> std::io::Result<Self> {
        // SAFETY: see the module docs: zkbench never writes a mapped cache
        // file in place (only atomic replacement), and the bytes are only
        // read as plain integers.
        let map = unsafe { memmap2::Mmap::map(file) }?;
        Ok(Self(map))
    }
}

impl AsRef<[u8]> for MappedFile {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
