//! Round-number calculator for Poseidon and Poseidon2 (128-bit security).
