//! `zkbench ptau new | import`: snarkjs powers-of-tau files.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use anyhow::Context;
use clap::Subcommand;
use zkbench_groth16::ptau;

/// `zkbench ptau` subcommands.
#[derive(Subcommand, Debug)]
pub enum PtauCmd {
    /// Write a snarkjs-compatible, phase-2-prepared .ptau in seconds. TEST SETUP: τ, α and β
    /// come from a public seed, so anyone can forge proofs under keys made from it.
    New {
        /// 2^power powers of τ (circuits up to 2^power constraints; PLONK needs its own count, fflonk 9x).
        #[arg(long)]
        power: u32,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        /// Seed of the test secrets (τ, α, β).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Phase 1 only: leave out the phase-2 preparation (sections 12..15; fflonk needs none).
        #[arg(long)]
        no_prepare: bool,
    },
    /// Read a real ceremony .ptau (Perpetual Powers of Tau, Hermez): check it, and write
    /// zkbench's Halo2 KZG SRS from it (use with `zkbench prove --system halo2-kzg --srs FILE`).
    Import {
        /// The .ptau file.
        file: PathBuf,
        /// Read only the powers up to 2^max_power (a large ceremony file is read in part).
        #[arg(long)]
        max_power: Option<u32>,
        /// Directory for the SRS written from the file (default: beside the file).
        #[arg(long)]
        out_dir: Option<PathBuf>,
    },
}

/// Runs `zkbench ptau`.
pub fn run(cmd: PtauCmd) -> anyhow::Result<ExitCode> {
    match cmd {
        PtauCmd::New {
            power,
            out,
            seed,
            no_prepare,
        } => new_ptau(&out, power, seed, no_prepare),
        PtauCmd::Import {
            file,
            max_power,
            out_dir,
        } => import_ptau(&file, max_power, out_dir),
    }
}

/// `zkbench ptau new`: writes a test-setup .ptau from `seed` (phase-2 prepared unless
/// `no_prepare`), then reports the time taken and warns that its secrets are public.
fn new_ptau(out: &Path, power: u32, seed: u64, no_prepare: bool) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    ptau::write_test_ptau_with(out, power, seed, !no_prepare)?;
    println!(
        "wrote {} (power {power}, {}, {:.1} s)",
        out.display(),
        if no_prepare {
            "phase 1 only"
        } else {
            "phase-2 prepared"
        },
        t.elapsed().as_secs_f64()
    );
    println!(
        "WARNING: TEST SETUP: tau is derived from the public seed {seed}; anyone can forge \
         proofs under keys made from this file. Contribution name: {:?}. Use a real ceremony \
         file (zkbench ptau import) for production keys.",
        ptau::TEST_CONTRIBUTION_NAME
    );
    Ok(ExitCode::SUCCESS)
}

/// `zkbench ptau import`: reads and checks a ceremony .ptau (up to 2^`max_power`), describes
/// it, and writes the Halo2 KZG SRS made from its powers into `out_dir` (default: beside it).
fn import_ptau(
    file: &Path,
    max_power: Option<u32>,
    out_dir: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let p = ptau::read_ptau(file, max_power)?;
    p.check_consistency(&file.display().to_string())?;
    describe_import(file, &p, t.elapsed().as_secs_f64());
    let dir = out_dir.unwrap_or_else(|| {
        file.parent()
            .map(|d| d.to_path_buf())
            .unwrap_or_else(|| PathBuf::from("."))
    });
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "ptau".into());
    let k = p.read_power;
    let srs = dir.join(format!("{stem}.halo2-k{k}.params"));
    write_halo2_srs(&srs, &p)?;
    println!(
        "wrote {} (Halo2 KZG SRS, k = {k}): zkbench prove --system halo2-kzg --srs {}",
        srs.display(),
        srs.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Prints what an imported .ptau holds (powers, contributions, preparation) and how long
/// reading and checking it took (`secs`), with a warning when it is a `zkbench ptau new` file.
fn describe_import(file: &Path, p: &ptau::Ptau, secs: f64) {
    println!(
        "{}: BN254 powers of tau, power {} (ceremony power {}), {} contribution(s){}, phase-2 prepared: {}; read and checked up to 2^{} in {:.1} s",
        file.display(),
        p.power,
        p.ceremony_power,
        p.contributions.len(),
        p.contributions
            .last()
            .and_then(|c| c.name.as_ref())
            .map(|n| format!(" (last: {n:?})"))
            .unwrap_or_default(),
        p.prepared,
        p.read_power,
        secs
    );
    if p.is_test_setup() {
        println!(
            "WARNING: TEST SETUP: this file was written by `zkbench ptau new`; tau is public."
        );
    }
}

/// Writes the Halo2 KZG SRS of size 2^`p.read_power` to `srs`: the first τ^i·G1 powers and
/// the G2 generator and τ·G2 of the ceremony.
fn write_halo2_srs(srs: &Path, p: &ptau::Ptau) -> anyhow::Result<()> {
    let k = p.read_power;
    let g: Vec<Vec<u8>> = p.tau_g1[..1 << k].iter().map(ptau::g1_raw).collect();
    zkbench_halo2::params::write_srs_from_powers(
        srs,
        k,
        &g,
        &ptau::g2_raw(&p.tau_g2[0]),
        &ptau::g2_raw(&p.tau_g2[1.min(p.tau_g2.len() - 1)]),
    )?;
    Ok(())
}
