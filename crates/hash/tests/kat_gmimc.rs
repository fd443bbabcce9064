//! Known-answer tests for `gmimc` (testdata/gmimc.json).
//!
//! Sources per case (see each case's `source`): permutation and `zklib_compress2`
//! outputs come from hanzeG/zklib_circom's own JS reference (Guo et al.) and agree with
//! the independent Python re-implementation `scripts/gen-testdata/gmimc_neptune.py`;
//! `node` (sponge Merkle node) outputs come from that Python script only.

zklib_kat_tests!(gmimc, GmimcErfBn254, 3, "gmimc");
