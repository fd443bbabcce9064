//! Security as data: one table, in code, of what each configuration's
//! security rests on, every entry with its source.
//!
//! - [`HASHES`]: each hash family of `zkbench-hash` (keyed by the name in
//!   `case.hash`): the level its parameters claim, where the parameters come
//!   from, and the published attacks on the family's parameter sets;
//! - [`CURVES`]: the estimated security of the pairing curve the proof
//!   systems run on — BN254 at about 100 bits since the exTNFS variant of
//!   the number field sieve (Kim–Barbulescu, CRYPTO 2016, eprint 2015/1027),
//!   as estimated by Barbulescu–Duquesne, *Updating Key Size Estimations for
//!   Pairings*, J. Cryptology 32 (2019) 1298–1336, eprint 2017/334;
//! - [`FRI`]: the conjectured security of the FRI commitments measured (the
//!   ethSTARK conjecture: `queries · log2(blowup) + proof-of-work bits`,
//!   StarkWare, *ethSTARK Documentation*, eprint 2021/582), where a STARK-style
//!   commitment is present.
//!
//! [`configuration_bits`] combines them: a proof of a Merkle statement is
//! only as strong as its weakest part, so a configuration's level is the
//! minimum of its hash's claimed level and its curve's (or FRI's) estimate;
//! an unknown part makes the level unknown. `zkbench list` prints the table,
//! the report shows it and `zkbench recommend --min-security` filters by it.

use serde::Serialize;

/// A published attack on a family's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Attack {
    /// Authors, title, venue and eprint number.
    pub citation: &'static str,
    /// What the attack reaches, and whether it touches the instances here.
    pub result: &'static str,
    /// Whether it breaks the claimed level of the instances zkbench uses.
    pub breaks_claim: bool,
}

/// A hash family's row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HashSecurity {
    /// The family's name as in `case.hash` (`zkbench-hash`'s registry name).
    pub family: &'static str,
    /// The security level the parameters were derived for, bits; `None`
    /// when the parameter source states none.
    pub claimed_bits: Option<u32>,
    /// The instances zkbench uses and where their parameters come from.
    pub parameters: &'static str,
    /// Published attacks on the family's parameter sets.
    pub attacks: &'static [Attack],
}

/// A curve's row: the estimated security of its discrete logarithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CurveSecurity {
    /// Curve name (`bn254`).
    pub curve: &'static str,
    /// Estimated security, bits.
    pub estimated_bits: u32,
    /// Why, with its source.
    pub source: &'static str,
    /// Proof systems (`case.system`) and commitment schemes (`case.hash` of
    /// primitive cases) whose soundness rests on this curve.
    pub used_by: &'static [&'static str],
}

/// A FRI commitment's row: its conjectured security.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FriSecurity {
    /// Scheme name as in `case.hash` of `pcs-*` cases (`fri-babybear`).
    pub scheme: &'static str,
    /// Conjectured security, bits.
    pub conjectured_bits: u32,
    /// Parameters and the conjecture, with sources.
    pub source: &'static str,
}

const BARIANT_2022: &str = "Bariant, Bouvier, Leurent, Perrin, Algebraic Attacks against Some Arithmetization-Oriented Primitives, ToSC 2022(3), eprint 2022/367";
const FREELUNCH_2024: &str = "Bariant, Boeuf, Lemoine, Manterola Ayala, Øygarden, Perrin, Raddum, The Algebraic FreeLunch: Efficient Gröbner Basis Attacks Against Arithmetization-Oriented Primitives, CRYPTO 2024, eprint 2024/347";
const RESULTANT_2025: &str = "Bariant, Boeuf, Briaud, Hostettler, Øygarden, Raddum, Improved Resultant Attack against Arithmetization-Oriented Primitives, eprint 2025/259";
const ABM_2023: &str = "Ashur, Buschman, Mahzoun, Algebraic Cryptanalysis of HADES Design Strategy: Application to Poseidon and Poseidon2, eprint 2023/537";
const GKR_2025: &str = "Grassi, Koschatko, Rechberger, Poseidon and Neptune: Gröbner Basis Cryptanalysis Exploiting Subspace Trails, eprint 2025/954";

const POSEIDON_ATTACKS: &[Attack] = &[
    Attack {
        citation: BARIANT_2022,
        result: "CICO solutions for the round-reduced Poseidon instances of the Ethereum Foundation's bounty; full-round instances untouched",
        breaks_claim: false,
    },
    Attack {
        citation: ABM_2023,
        result: "a Gröbner-basis bound that made the round calculator add a binomial bound; for BN254, alpha = 5 the round numbers are unchanged (crates/hash rounds.rs checks both generations give the same R_F, R_P)",
        breaks_claim: false,
    },
    Attack {
        citation: GKR_2025,
        result: "Gröbner attacks with subspace trails through partial rounds: the original analysis under- or over-estimates rounds depending on the instance; no break of full-round BN254 instances claimed",
        breaks_claim: false,
    },
];

const FEISTEL_MIMC_ATTACKS: &[Attack] = &[
    Attack {
        citation: BARIANT_2022,
        result: "CICO solutions for the round-reduced Feistel-MiMC instances of the Ethereum Foundation's bounty; full rounds untouched",
        breaks_claim: false,
    },
    Attack {
        citation: "Bonnetain, Collisions on Feistel-MiMC and univariate GMiMC, eprint 2019/951",
        result: "generic collision attack on Feistel-MiMC and univariate GMiMC exploiting their structure; concerns the hash modes' capacity, not the round count",
        breaks_claim: false,
    },
];

const GMIMC_ATTACKS: &[Attack] = &[
    Attack {
        citation: "Beyne, Canteaut, Dinur, Eichlseder, Leander, Leurent, Naya-Plasencia, Perrin, Sasaki, Todo, Wiemer, Out of Oddity: New Cryptanalytic Techniques against Symmetric Primitives Optimized for Integrity Proof Systems, CRYPTO 2020, eprint 2020/188",
        result: "attacks on GMiMC's original parameter sets; the designers raised the round numbers afterwards (the 226-round t = 3 instance here is the later HorizenLabs one)",
        breaks_claim: false,
    },
    Attack {
        citation: "Bonnetain, Collisions on Feistel-MiMC and univariate GMiMC, eprint 2019/951",
        result: "collisions for univariate GMiMC hash instances of the original proposal",
        breaks_claim: false,
    },
];

const NEPTUNE_ATTACKS: &[Attack] = &[Attack {
    citation: GKR_2025,
    result: "Neptune's inverse external rounds keep the forward degree: its security in compression mode cannot be reduced to CICO as its analysis did; round numbers to be revisited",
    breaks_claim: false,
}];

const GRIFFIN_ATTACKS: &[Attack] = &[
    Attack {
        citation: FREELUNCH_2024,
        result: "challenges the security of full-round Griffin instances; a CICO solution for 7 of 10 rounds found in practice",
        breaks_claim: true,
    },
    Attack {
        citation: RESULTANT_2025,
        result: "resultant-based CICO attacks improving on the FreeLunch and resultant attacks of 2024 on permutations whose S-boxes have a low-degree inverse",
        breaks_claim: false,
    },
];

const ANEMOI_ATTACKS: &[Attack] = &[
    Attack {
        citation: FREELUNCH_2024,
        result: "challenges the security of full-round Anemoi instances (complexity estimates, confirmed experimentally)",
        breaks_claim: true,
    },
    Attack {
        citation: "Campa, Roy, Groebner Basis Cryptanalysis of Anemoi, eprint 2025/814",
        result: "a structured Gröbner basis (ACICO) with proven complexity for Anemoi over F_p",
        breaks_claim: false,
    },
];

/// The hash families, in `zkbench-hash`'s registry order.
pub const HASHES: &[HashSecurity] = &[
    HashSecurity {
        family: "poseidon",
        claimed_bits: Some(128),
        parameters: "circomlib: alpha = 5, R_F = 8, R_P from hadeshash calc_round_numbers.py (M = 128, with its security margin) rounded up to a multiple of t; Grassi et al., Poseidon, USENIX Security 2021, eprint 2019/458",
        attacks: POSEIDON_ATTACKS,
    },
    HashSecurity {
        family: "poseidon2",
        claimed_bits: Some(128),
        parameters: "HorizenLabs poseidon2_rust_params.sage (M = 128, R_F = 8, R_P = 56/57 for alpha = 5); alpha = 7: the round calculator, zkOS's t = 8 with R_P = 48; Grassi, Khovratovich, Schofnegger, Poseidon2, AFRICACRYPT 2023, eprint 2023/323",
        attacks: POSEIDON_ATTACKS,
    },
    HashSecurity {
        family: "poseidon2-gnark",
        claimed_bits: None,
        parameters: "gnark-crypto v0.22.0 GetDefaultParameters: t = 2, R_F = 6, R_P = 50 (below the Poseidon2 paper's 8 and 56 with its margin at 128 bits); no level stated with the parameters",
        attacks: POSEIDON_ATTACKS,
    },
    HashSecurity {
        family: "mimc-sponge",
        claimed_bits: None,
        parameters: "circomlib MiMCSponge (Tornado Cash): Feistel MiMC-2n/n, x^5, 220 rounds (2·ceil(log_5 r)); Albrecht et al., MiMC, ASIACRYPT 2016, eprint 2016/492; circomlib states no level",
        attacks: FEISTEL_MIMC_ATTACKS,
    },
    HashSecurity {
        family: "mimc7",
        claimed_bits: None,
        parameters: "circomlib MiMC-7: x^7, 91 rounds (ceil(log_7 r)); Albrecht et al., MiMC, ASIACRYPT 2016, eprint 2016/492; circomlib states no level",
        attacks: &[Attack {
            citation: "Eichlseder, Grassi, Lüftenegger, Øygarden, Rechberger, Schofnegger, Wang, An Algebraic Attack on Ciphers with Low-Degree Round Functions: Application to Full MiMC, ASIACRYPT 2020, eprint 2020/182",
            result: "higher-order differential attack on the full-round MiMC block cipher over binary fields; not claimed for prime-field instances",
            breaks_claim: false,
        }],
    },
    HashSecurity {
        family: "gmimc",
        claimed_bits: Some(128),
        parameters: "GMiMC-erf t = 3, 226 rounds: HorizenLabs GMIMC_BN_3_PARAMS as benchmarked at the 128-bit level in eprint 2023/323, constants from hanzeG/zklib_circom; Albrecht et al., Feistel Structures for MPC, and More, ESORICS 2019, eprint 2019/397",
        attacks: GMIMC_ATTACKS,
    },
    HashSecurity {
        family: "neptune",
        claimed_bits: Some(128),
        parameters: "Neptune t = 4, 6 external + 68 internal rounds: HorizenLabs NEPTUNE_BN_PARAMS as benchmarked at the 128-bit level in eprint 2023/323, constants from hanzeG/zklib_circom; Grassi et al., eprint 2021/1695",
        attacks: NEPTUNE_ATTACKS,
    },
    HashSecurity {
        family: "rescue-prime",
        claimed_bits: Some(128),
        parameters: "Marvellous rescue_prime.sage with security level 128 (N = 20 for m = 2, 14 for m = 3); Szepieniec, Ashur, Dhooghe, Rescue-Prime, eprint 2020/1143",
        attacks: &[],
    },
    HashSecurity {
        family: "griffin",
        claimed_bits: Some(128),
        parameters: "zkfriendlyhashzoo GriffinParams / noir-griffin (t = 3: 14, t = 4: 11, t = 8: 9 rounds, d = 5) at 128 bits; Grassi et al., Griffin, CRYPTO 2023, eprint 2022/403",
        attacks: GRIFFIN_ATTACKS,
    },
    HashSecurity {
        family: "anemoi",
        claimed_bits: Some(128),
        parameters: "anemoi.sage get_n_rounds(128, l, 5): 21 rounds (l = 1), 14 (l = 2, noah AnemoiJive254); Bouvier et al., Anemoi, CRYPTO 2023, eprint 2022/840",
        attacks: ANEMOI_ATTACKS,
    },
];

/// The curves of the proof systems and commitments measured.
pub const CURVES: &[CurveSecurity] = &[
    CurveSecurity {
        curve: "bn254",
        estimated_bits: 100,
        source: "about 100 bits after the exTNFS number field sieve (Kim, Barbulescu, CRYPTO 2016, eprint 2015/1027), as estimated by Barbulescu, Duquesne, Updating Key Size Estimations for Pairings, J. Cryptology 32 (2019), eprint 2017/334 (designed for 128)",
        used_by: &[
            "groth16",
            "halo2-kzg",
            "halo2-kzg-keccak",
            "gnark-groth16",
            "snarkjs",
            "snarkjs-groth16",
            "snarkjs-plonk",
            "snarkjs-fflonk",
            "kzg-bn254",
        ],
    },
    CurveSecurity {
        curve: "pasta",
        estimated_bits: 126,
        source: "Pallas/Vesta: 255-bit prime-order groups, about 126 bits against Pollard rho (zcash/pasta README; Hopwood, Bowe, Grigg, Halo 2 design)",
        used_by: &["ipa-pasta"],
    },
];

/// The FRI commitments measured (crates/primitives fri.rs) and the STARK
/// proof systems (crates/stark params.rs; their records also carry Plonky3's
/// per-AIR conjectured level in `metrics.security_bits`).
pub const FRI: &[FriSecurity] = &[
    FriSecurity {
        scheme: "stark-babybear",
        conjectured_bits: 102,
        source: "hiding FRI over BabyBear (quintic extension), Keccak-256 commitments, blowup 4, 48 queries, 8 proof-of-work bits: 48·1.968 + 8 = 102 under the random-words conjecture (eprint 2025/2010 §1.5, Plonky3's calculator, per record; 2·48 + 8 = 104 under ethSTARK's, eprint 2021/582)",
    },
    FriSecurity {
        scheme: "stark-babybear-128",
        conjectured_bits: 128,
        source: "hiding FRI over BabyBear (quintic extension), blowup 8, 41 queries, 8 proof-of-work bits: 41·2.959 + 8 = 129 under the random-words conjecture (eprint 2025/2010 §1.5; 3·41 + 8 = 131 under ethSTARK's, eprint 2021/582), capped at 128 by the Keccak-256 commitments' collision resistance (crates/stark params.rs)",
    },
    FriSecurity {
        scheme: "fri-babybear",
        conjectured_bits: 116,
        source: "Plonky3 0.8.0, blowup 2, 100 queries, 16 proof-of-work bits: 100·1 + 16 under the ethSTARK conjecture (eprint 2021/582), below the degree-4 extension's 124 bits",
    },
    FriSecurity {
        scheme: "fri-goldilocks",
        conjectured_bits: 116,
        source: "Plonky3 0.8.0, blowup 2, 100 queries, 16 proof-of-work bits: 100·1 + 16 under the ethSTARK conjecture (eprint 2021/582), below the quadratic extension's 128 bits",
    },
];

/// The row of hash family `family` (`case.hash`), if the table has it.
pub fn hash(family: &str) -> Option<&'static HashSecurity> {
    HASHES.iter().find(|h| h.family == family)
}

/// The curve whose security `system` (`case.system`, or `case.hash` of a
/// commitment case) rests on.
pub fn curve_of(system: &str) -> Option<&'static CurveSecurity> {
    CURVES.iter().find(|c| c.used_by.contains(&system))
}

/// The FRI row of `scheme`, if it is one.
pub fn fri(scheme: &str) -> Option<&'static FriSecurity> {
    FRI.iter().find(|f| f.scheme == scheme)
}

/// What limits a configuration's security.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// Bits: the minimum of the parts; `None` when a part is unknown.
    pub bits: Option<u32>,
    /// The part that sets it (`bn254 (curve)`, `griffin (hash)`), or the
    /// part whose level is unknown.
    pub limited_by: String,
    /// Whether a published attack challenges the hash's claimed level.
    pub attacked: bool,
}

/// The security of a proof of `system` over hash family `hash`: the
/// minimum of the hash's claimed level and the curve's (or FRI's) estimate.
pub fn configuration_bits(system: &str, hash: &str) -> Level {
    let Some(h) = self::hash(hash) else {
        return unknown(format!("{hash} (hash not in the security table)"));
    };
    let Some(hb) = h.claimed_bits else {
        return unknown(format!("{hash} (hash: no claimed level)"));
    };
    let attacked = h.attacks.iter().any(|a| a.breaks_claim);
    let base = match (curve_of(system), fri(system)) {
        (Some(c), _) => (c.estimated_bits, format!("{} (curve)", c.curve)),
        (None, Some(f)) => (f.conjectured_bits, format!("{} (FRI)", f.scheme)),
        (None, None) => {
            return Level {
                attacked,
                ..unknown(format!("{system} (proof system not in the security table)"))
            }
        }
    };
    let (bits, limited_by) = if hb < base.0 {
        (hb, format!("{hash} (hash)"))
    } else {
        base
    };
    Level {
        bits: Some(bits),
        limited_by,
        attacked,
    }
}

fn unknown(limited_by: String) -> Level {
    Level {
        bits: None,
        limited_by,
        attacked: false,
    }
}

/// The table as text lines (`zkbench list`): hashes, curves, FRI.
pub fn text_lines() -> Vec<String> {
    let mut out = vec![];
    for h in HASHES {
        let bits = h
            .claimed_bits
            .map_or("no claimed level".into(), |b| format!("{b} bits claimed"));
        out.push(format!("  {:<16} {bits}; {}", h.family, h.parameters));
        for a in h.attacks {
            let mark = if a.breaks_claim { "ATTACK" } else { "analysis" };
            out.push(format!(
                "  {:<16}   {mark}: {} ({})",
                "", a.result, a.citation
            ));
        }
    }
    for c in CURVES {
        out.push(format!(
            "  {:<16} {} bits estimated; {} (used by {})",
            c.curve,
            c.estimated_bits,
            c.source,
            c.used_by.join(", ")
        ));
    }
    for f in FRI {
        out.push(format!(
            "  {:<16} {} bits conjectured; {}",
            f.scheme, f.conjectured_bits, f.source
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_cites_a_source() {
        for h in HASHES {
            assert!(
                h.parameters.contains("eprint") || h.parameters.contains("gnark-crypto"),
                "{} has no source",
                h.family
            );
            for a in h.attacks {
                assert!(a.citation.contains("eprint"), "{}", a.citation);
            }
        }
        for c in CURVES {
            assert!(!c.source.is_empty() && !c.used_by.is_empty());
        }
        assert!(FRI.iter().all(|f| f.source.contains("2021/582")));
    }

    #[test]
    fn configuration_level_is_the_weakest_part() {
        let l = configuration_bits("groth16", "poseidon2");
        assert_eq!(l.bits, Some(100));
        assert_eq!(l.limited_by, "bn254 (curve)");
        assert!(!l.attacked);
        let g = configuration_bits("halo2-kzg", "griffin");
        assert_eq!(g.bits, Some(100));
        assert!(g.attacked);
        assert_eq!(configuration_bits("groth16", "mimc-sponge").bits, None);
        assert_eq!(configuration_bits("groth16", "sha256").bits, None);
        assert_eq!(configuration_bits("unknown-system", "poseidon").bits, None);
        assert_eq!(
            configuration_bits("fri-babybear", "poseidon2").bits,
            Some(116)
        );
        let stark = configuration_bits("stark-babybear-128", "poseidon2");
        assert_eq!(stark.bits, Some(128));
        assert_eq!(stark.limited_by, "stark-babybear-128 (FRI)");
    }
}
