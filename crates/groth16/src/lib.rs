//! Groth16 backend (placeholder: being implemented).
