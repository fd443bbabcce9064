//! The report's security section: `zkbench-results`' security table (each
//! hash family's claimed level, parameter source and published attacks; the
//! curve's and FRI's estimates), shown when the results hold proofs or
//! commitments whose security it describes.

use zkbench_results::{
    case::CaseKind,
    security::{CURVES, FRI, HASHES},
    Record,
};

use crate::table::{Cell, Table};

/// The security table for the hash families, curves and FRI schemes that
/// `recs` use (all families when `recs` is empty).
pub fn table(recs: &[&Record]) -> Table {
    let used = |name: &str| {
        recs.is_empty()
            || recs
                .iter()
                .any(|r| r.case.hash == name || r.case.system == name)
    };
    let mut t = Table::new("Security of the configurations")
        .about("Each hash family's claimed level and parameter source, published attacks on its parameter sets, and the estimated security of the curve (BN254: about 100 bits after exTNFS, Barbulescu–Duquesne 2019) or FRI's conjectured security. A configuration is as strong as its weakest part.")
        .columns(&["part", "bits", "parameters or estimate, with source", "published attacks"], &[]);
    for h in HASHES.iter().filter(|h| used(h.family)) {
        let attacks: Vec<String> = h
            .attacks
            .iter()
            .map(|a| {
                let mark = if a.breaks_claim { "ATTACK: " } else { "" };
                format!("{mark}{} ({})", a.result, a.citation)
            })
            .collect();
        t.row(vec![
            Cell::new(format!("{} (hash)", h.family)),
            Cell::new(
                h.claimed_bits
                    .map_or("not stated".into(), |b| format!("{b} claimed")),
            ),
            Cell::new(h.parameters),
            Cell::new(if attacks.is_empty() {
                "none listed".into()
            } else {
                attacks.join("; ")
            }),
        ]);
    }
    for c in CURVES {
        if recs.is_empty()
            || recs.iter().any(|r| {
                c.used_by.contains(&r.case.system.as_str())
                    || c.used_by.contains(&r.case.hash.as_str())
            })
        {
            t.row(vec![
                Cell::new(format!("{} (curve)", c.curve)),
                Cell::new(format!("≈{} estimated", c.estimated_bits)),
                Cell::new(c.source),
                Cell::new(format!("used by {}", c.used_by.join(", "))),
            ]);
        }
    }
    for f in FRI.iter().filter(|f| used(f.scheme)) {
        t.row(vec![
            Cell::new(format!("{} (FRI)", f.scheme)),
            Cell::new(format!("{} conjectured", f.conjectured_bits)),
            Cell::new(f.source),
            Cell::new(""),
        ]);
    }
    t
}

/// The section's HTML: the table when `recs` hold proof, EVM or commitment
/// records, else nothing.
pub fn html(recs: &[&Record]) -> String {
    let relevant: Vec<&Record> = recs
        .iter()
        .copied()
        .filter(|r| {
            matches!(
                r.case.kind,
                CaseKind::Proof
                    | CaseKind::Evm
                    | CaseKind::PcsCommit
                    | CaseKind::PcsOpen
                    | CaseKind::PcsVerify
            )
        })
        .collect();
    if relevant.is_empty() {
        return String::new();
    }
    table(&relevant).html()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::case::{Case, Circuit};

    #[test]
    fn shows_the_families_and_curve_of_the_records() {
        let case = Case {
            arity: Some(7),
            leaves: Some(1 << 36),
            circuit: Some(Circuit::Spend),
            ..Case::new(CaseKind::Proof, "groth16", "griffin")
        };
        let r = Record::new(&case, "prove", 1, &Default::default());
        let t = table(&[&r]);
        let md = t.markdown();
        assert_eq!(t.len(), 2, "{md}");
        assert!(
            md.contains("griffin (hash)") && md.contains("ATTACK"),
            "{md}"
        );
        assert!(md.contains("bn254 (curve)") && md.contains("≈100"), "{md}");
        assert!(html(&[&r]).contains("Barbulescu"));
        let hash_case = Case::new(CaseKind::Hash, "native", "griffin");
        assert!(html(&[&Record::new(&hash_case, "hash", 1, &Default::default())]).is_empty());
        assert_eq!(table(&[]).len(), HASHES.len() + CURVES.len() + FRI.len());
    }
}
