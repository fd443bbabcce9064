//! `zkbench hash`: every family's reference hash definition, or its raw permutation.

use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use zkbench_hash::{
    anemoi, field::fr_to_decimal, mimc7, mimc_sponge, params, parse_fr, poseidon, Fr, HashFamily,
    Params,
};

/// Arguments of `zkbench hash`.
#[derive(Args, Debug)]
pub struct HashArgs {
    /// Hash family: poseidon, poseidon2, mimc-sponge, mimc7, gmimc, neptune, rescue-prime, griffin, anemoi.
    pub family: String,
    /// Apply the raw permutation to a full state (the inputs) instead of hashing.
    #[arg(long)]
    pub permutation: bool,
    /// State width T (default: from the number of inputs).
    #[arg(long)]
    pub width: Option<usize>,
    /// S-box exponent (poseidon2: 5 or 7).
    #[arg(long)]
    pub alpha: Option<u64>,
    /// Key (mimc-sponge, mimc7); default 0.
    #[arg(long)]
    pub key: Option<String>,
    /// Number of outputs (mimc-sponge multiHash); default 1.
    #[arg(long)]
    pub outputs: Option<usize>,
    /// Anemoi: Jive compression of the state x‖y (the inputs), instead of the permutation.
    #[arg(long)]
    pub jive: bool,
    /// Print JSON: {"family", "params", "input", "output"} with decimal strings.
    #[arg(long)]
    pub json: bool,
    /// Field elements: decimal or 0x-hex, each below the BN254 scalar field modulus.
    #[arg(required = true, allow_hyphen_values = true)]
    pub inputs: Vec<String>,
}

/// What `zkbench hash` computed.
pub struct HashOutput {
    /// Family name.
    pub family: &'static str,
    /// All parameters of the instance and mode.
    pub params: Params,
    /// Output elements.
    pub output: Vec<Fr>,
}

/// The parsed, cross-checked arguments of `zkbench hash`.
struct Parsed {
    /// Hash family.
    family: HashFamily,
    /// Input field elements.
    inputs: Vec<Fr>,
    /// Resolved S-box exponent.
    alpha: Option<u64>,
    /// Key (mimc-sponge, mimc7), 0 otherwise.
    key: Fr,
}

/// Computes the output without printing (used by tests too).
pub fn compute(a: &HashArgs) -> anyhow::Result<HashOutput> {
    let parsed = parse_args(a)?;
    let (params, output) = if a.permutation || a.jive {
        permutation_mode(a, &parsed)?
    } else {
        hash_mode(a, &parsed)?
    };
    Ok(HashOutput {
        family: parsed.family.name(),
        params,
        output,
    })
}

/// Parses the family, inputs, alpha and key, and rejects flags that do not apply.
fn parse_args(a: &HashArgs) -> anyhow::Result<Parsed> {
    let family: HashFamily = a.family.parse()?;
    let inputs = a
        .inputs
        .iter()
        .map(|s| parse_fr(s))
        .collect::<Result<Vec<_>, _>>()?;
    let alpha = Some(family.resolve_alpha(a.alpha)?);
    let key = match &a.key {
        Some(k) if matches!(family, HashFamily::MimcSponge | HashFamily::Mimc7) => parse_fr(k)?,
        Some(_) => bail!("--key applies to mimc-sponge and mimc7 only, not {family}"),
        None => Fr::from(0u64),
    };
    if a.jive && family != HashFamily::Anemoi {
        bail!("--jive applies to anemoi only, not {family}");
    }
    if a.outputs.is_some() && (family != HashFamily::MimcSponge || a.permutation) {
        bail!("--outputs applies to mimc-sponge hash mode only");
    }
    if a.jive && a.permutation {
        bail!("--jive and --permutation are exclusive: choose the Jive compression or the raw permutation");
    }
    Ok(Parsed {
        family,
        inputs,
        alpha,
        key,
    })
}

/// Fails unless `--width`, when given, equals the state width `n`.
fn check_width(width: Option<usize>, n: usize) -> anyhow::Result<()> {
    if let Some(w) = width {
        if w != n {
            bail!("--width {w} but {n} input(s) given: give exactly {w} inputs (the full state)");
        }
    }
    Ok(())
}

/// `--permutation` / `--jive`: the raw permutation (or Anemoi's Jive) of the full state.
fn permutation_mode(a: &HashArgs, parsed: &Parsed) -> anyhow::Result<(Params, Vec<Fr>)> {
    let Parsed {
        family,
        ref inputs,
        alpha,
        key,
    } = *parsed;
    check_width(a.width, inputs.len())?;
    let width = inputs.len();
    let out = match family {
        HashFamily::MimcSponge => {
            if width != 2 {
                bail!("mimc-sponge permutation: got {width} input(s), expected exactly 2 (xL xR; key via --key)");
            }
            let (l, r) = mimc_sponge::feistel(inputs[0], inputs[1], key);
            let mut p = family.permutation(Some(2), None)?.params();
            p.insert("key".into(), serde_json::json!(fr_to_decimal(&key)));
            return Ok((p, vec![l, r]));
        }
        HashFamily::Mimc7 => {
            if width != 1 {
                bail!("mimc7 permutation: got {width} input(s), expected exactly 1 (x; key via --key)");
            }
            let out = mimc7::hash(inputs[0], key);
            let mut p = family.permutation(Some(1), None)?.params();
            p.insert("key".into(), serde_json::json!(fr_to_decimal(&key)));
            return Ok((p, vec![out]));
        }
        HashFamily::Anemoi if a.jive => {
            let perm = family.permutation(Some(width), None)?;
            let l = width / 2;
            let out = anemoi::jive(&inputs[..l], &inputs[l..]);
            let mut p = perm.params();
            p.insert(
                "mode".into(),
                serde_json::json!("jive: sum(x,y) + sum(perm(x,y))"),
            );
            return Ok((p, vec![out]));
        }
        _ => {
            let perm = family.permutation(Some(width), alpha)?;
            perm.permute(inputs)?
        }
    };
    let perm = family.permutation(Some(width), alpha)?;
    let mut p = perm.params();
    p.insert("mode".into(), serde_json::json!("permutation"));
    Ok((p, out))
}

/// Hash mode: each reference's own hash definition.
fn hash_mode(a: &HashArgs, parsed: &Parsed) -> anyhow::Result<(Params, Vec<Fr>)> {
    let Parsed {
        family,
        ref inputs,
        alpha,
        key,
    } = *parsed;
    let (p, out): (Params, Vec<Fr>) = match family {
        HashFamily::Poseidon => {
            check_width(a.width, inputs.len() + 1)?;
            let out = poseidon::hash(inputs)?;
            let mut p = family.permutation(Some(inputs.len() + 1), None)?.params();
            p.extend(params! { "mode" => "circomlib Poseidon(n): perm([0, inputs...])[0]" });
            (p, vec![out])
        }
        HashFamily::MimcSponge => {
            let n = a.outputs.unwrap_or(1);
            let out = mimc_sponge::multi_hash(inputs, key, n)?;
            let mut p = family.permutation(Some(2), None)?.params();
            p.extend(params! {
                "mode" => "circomlib MiMCSponge multiHash: R += x_i; (R, C) = F(R, C, key)",
                "key" => fr_to_decimal(&key),
                "outputs" => n,
            });
            (p, out)
        }
        HashFamily::Mimc7 => {
            let out = mimc7::multi_hash(inputs, key);
            let mut p = family.permutation(Some(1), None)?.params();
            p.extend(params! {
                "mode" => "circomlib MiMC7 multiHash: r = key; r = r + x_i + MiMC7(x_i, r)",
                "key" => fr_to_decimal(&key),
            });
            (p, vec![out])
        }
        HashFamily::Poseidon2Gnark => {
            // gnark's own variable-length hash (Merkle-Damgard over Compress).
            use zkbench_hash::FieldHasher;
            let md = zkbench_hash::poseidon2_gnark::GnarkMerkleDamgard;
            (md.params(), vec![md.hash(inputs)?])
        }
        _ => {
            // Families whose reference defines only a permutation: the zkbench sponge
            // (capacity 1 at index 0, rate t-1), width from --width or the default.
            let perm = family.permutation(a.width, alpha)?;
            let sponge = zkbench_hash::Sponge::new(perm);
            use zkbench_hash::FieldHasher;
            let out = sponge.hash(inputs)?;
            (sponge.params(), vec![out])
        }
    };
    Ok((p, out))
}

/// `zkbench hash`.
pub fn run(a: HashArgs) -> anyhow::Result<ExitCode> {
    let out = compute(&a)?;
    if a.json {
        let inputs: Vec<String> = a
            .inputs
            .iter()
            .map(|s| fr_to_decimal(&parse_fr(s).expect("parsed above")))
            .collect();
        let v = serde_json::json!({
            "family": out.family,
            "params": out.params,
            "input": inputs,
            "output": out.output.iter().map(fr_to_decimal).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for o in &out.output {
            println!("{}", fr_to_decimal(o));
        }
    }
    Ok(ExitCode::SUCCESS)
}
