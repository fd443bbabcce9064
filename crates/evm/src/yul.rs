//! Size and gas passes over snark-verifier's straight-line Yul (the body of
//! the Halo2 verifier, [`crate::halo2`]).
//!
//! snark-verifier's `EvmLoader` stores every intermediate value in a fresh
//! memory word (`mstore(P, mulmod(mload(A), mload(B), f_q))`) and writes every
//! verifying-key constant as a 32-byte literal, so the verifier of a circuit
//! with a few dozen columns is over the EIP-170 limit. solc's Yul optimizer
//! cannot help: on this code it stops with "stack too deep". Two passes that
//! keep the program's meaning, checked conservatively (anything they do not
//! recognise makes them fail, never guess):
//!
//! * **forwarding**: a word written once by a top-level statement
//!   `mstore(P, E)`, with `E` pure arithmetic (`mload`, `addmod`, `mulmod`,
//!   `sub`, `f_q`, literals), and read exactly once in the whole program by
//!   `mload(P)`, is computed where it is read: `E` replaces that `mload(P)`,
//!   and the `mstore` is dropped — provided no word `E` reads is written in
//!   between (statements are straight-line; `staticcall` outputs and
//!   `mstore8` count as writes, `keccak256` and `staticcall` inputs as reads
//!   of every word they cover) and the expression nests at most
//!   [`MAX_NESTING`] deep (solc's unoptimised code generator keeps pending
//!   operands on the stack);
//! * **constants to memory**: a literal of more than 8 bytes used at least
//!   `min_uses` times is stored once, at the start, in a word above all
//!   memory the program uses, and read back with `mload` (4 bytes instead of
//!   33). With `min_uses` 1 every such constant moves: the Halo2 verifier
//!   then copies them all from a data contract in one `extcodecopy`
//!   ([`crate::halo2`]) instead of storing them one by one.
//!
//! All memory addresses in the program must be literals; every function it
//! calls must be one of [`KNOWN`].

use std::collections::HashMap;

use crate::EvmError;

/// The deepest parenthesis nesting forwarding may create in one statement.
pub const MAX_NESTING: usize = 12;

/// The functions the passes know the memory effects of (none besides those
/// checked below touch memory).
pub const KNOWN: &[&str] = &[
    "addmod",
    "and",
    "calldataload",
    "calldatasize",
    "callvalue",
    "checked_scalar",
    "eq",
    "gas",
    "iszero",
    "keccak256",
    "lt",
    "mload",
    "mod",
    "mstore",
    "mstore8",
    "mulmod",
    "return",
    "revert",
    "staticcall",
    "sub",
    "validate_ec_point",
];

fn err(what: impl std::fmt::Display) -> EvmError {
    EvmError::UnsupportedKey(format!(
        "snark-verifier's output changed: {what}; the Yul passes cannot run"
    ))
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(String),
    Punct(char),
}

/// Tokens with their byte spans.
fn tokenize(s: &str) -> Result<Vec<(Tok, usize, usize)>, EvmError> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let st = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push((Tok::Ident(s[st..i].to_string()), st, i));
        } else if c.is_ascii_digit() {
            let st = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            out.push((Tok::Num(s[st..i].to_string()), st, i));
        } else if b"(){},:=->".contains(&c) {
            out.push((Tok::Punct(c as char), i, i + 1));
            i += 1;
        } else {
            return Err(err(format!("unexpected character {:?}", c as char)));
        }
    }
    Ok(out)
}

/// The value of a literal that fits 64 bits; None for a larger one.
fn small(lit: &str) -> Option<u64> {
    match lit.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => lit.parse().ok(),
    }
}

/// Whether a literal is wider than 8 bytes (a constant worth hoisting).
fn big(lit: &str) -> bool {
    small(lit).is_none()
}

/// The canonical (lower-case hex) spelling of a literal's value.
fn canonical(lit: &str) -> Result<String, EvmError> {
    if let Some(h) = lit.strip_prefix("0x") {
        let h = h.trim_start_matches('0').to_ascii_lowercase();
        return Ok(if h.is_empty() { "0".into() } else { h });
    }
    // decimal → hex by long division on a byte vector
    let mut digits: Vec<u32> = lit
        .bytes()
        .map(|d| {
            if d.is_ascii_digit() {
                Ok((d - b'0') as u32)
            } else {
                Err(err(format!("bad literal {lit}")))
            }
        })
        .collect::<Result<_, _>>()?;
    let mut hex = Vec::new();
    while digits.iter().any(|&d| d != 0) {
        let mut rem = 0u32;
        for d in digits.iter_mut() {
            let cur = rem * 10 + *d;
            *d = cur / 16;
            rem = cur % 16;
        }
        hex.push(std::char::from_digit(rem, 16).unwrap());
    }
    if hex.is_empty() {
        hex.push('0');
    }
    Ok(hex.into_iter().rev().collect())
}

/// Memory effects of one statement: `(addr, len)` byte ranges.
#[derive(Default, Debug)]
struct Effects {
    /// `mload(addr)` reads.
    loads: Vec<u64>,
    /// Ranged reads (`keccak256`, `staticcall` input, `return`, `revert`).
    ranged: Vec<(u64, u64)>,
    /// Writes (`mstore`, `mstore8`, `staticcall` output).
    writes: Vec<(u64, u64)>,
    /// Every memory-address literal: (token index, address, bytes accessed).
    addrs: Vec<(usize, u64, u64)>,
}

fn effects(toks: &[(Tok, usize, usize)]) -> Result<Effects, EvmError> {
    let mut e = Effects::default();
    // the literal arguments of the call starting at `toks[i]` (name), in
    // order, as long as each is a bare literal; `gas()` reads as no literal
    let lits = |i: usize, n: usize| -> Result<Vec<(u64, usize)>, EvmError> {
        let name = match &toks[i].0 {
            Tok::Ident(s) => s.clone(),
            _ => unreachable!(),
        };
        let mut out = Vec::new();
        let mut j = i + 2;
        if name == "staticcall" {
            // gas ( ) ,
            let ok = matches!(&toks.get(j), Some((Tok::Ident(g), _, _)) if g == "gas")
                && toks.get(j + 1).map(|t| &t.0) == Some(&Tok::Punct('('))
                && toks.get(j + 2).map(|t| &t.0) == Some(&Tok::Punct(')'))
                && toks.get(j + 3).map(|t| &t.0) == Some(&Tok::Punct(','));
            if !ok {
                return Err(err("a staticcall not forwarding gas()"));
            }
            j += 4;
        }
        for _ in 0..n {
            let v = match toks.get(j).map(|t| &t.0) {
                Some(Tok::Num(l)) => {
                    small(l).ok_or_else(|| err(format!("{name}: address {l} too large")))?
                }
                _ => return Err(err(format!("{name} with a computed memory argument"))),
            };
            // the literal is the whole argument
            if !matches!(toks.get(j + 1).map(|t| &t.0), Some(Tok::Punct(')' | ','))) {
                return Err(err(format!("{name} with a computed memory argument")));
            }
            out.push((v, j));
            j += 2;
        }
        Ok(out)
    };
    for (i, (t, _, _)) in toks.iter().enumerate() {
        let Tok::Ident(name) = t else { continue };
        if toks.get(i + 1).map(|t| &t.0) != Some(&Tok::Punct('(')) {
            continue;
        }
        if !KNOWN.contains(&name.as_str()) {
            return Err(err(format!("an unknown function {name}")));
        }
        match name.as_str() {
            "mload" => {
                let (a, t) = lits(i, 1)?[0];
                e.loads.push(a);
                e.addrs.push((t, a, 32));
            }
            "mstore" | "mstore8" => {
                let (a, t) = lits(i, 1)?[0];
                let len = if name == "mstore" { 32 } else { 1 };
                e.writes.push((a, len));
                e.addrs.push((t, a, len));
            }
            "keccak256" | "return" | "revert" => {
                let a = lits(i, 2)?;
                e.ranged.push((a[0].0, a[1].0));
                e.addrs.push((a[0].1, a[0].0, a[1].0));
            }
            "staticcall" => {
                // (address, input, input length, output, output length)
                let a = lits(i, 5)?;
                e.ranged.push((a[1].0, a[2].0));
                e.writes.push((a[3].0, a[4].0));
                e.addrs.push((a[1].1, a[1].0, a[2].0));
                e.addrs.push((a[3].1, a[3].0, a[4].0));
            }
            _ => {}
        }
    }
    Ok(e)
}

fn overlaps((a, la): (u64, u64), (b, lb): (u64, u64)) -> bool {
    a < b + lb && b < a + la
}

/// Top-level statements of a Yul block body (lines grouped by brace depth).
fn statements(body: &str) -> Result<Vec<String>, EvmError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i64;
    for line in body.lines() {
        let t = line.trim();
        if t.is_empty() || (depth == 0 && t.starts_with("//")) {
            continue;
        }
        cur.push_str(t);
        cur.push('\n');
        let code = t.split("//").next().unwrap_or("");
        depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
        if depth < 0 {
            return Err(err("unbalanced braces"));
        }
        if depth == 0 {
            out.push(std::mem::take(&mut cur));
        }
    }
    if depth != 0 || !cur.is_empty() {
        return Err(err("unbalanced braces"));
    }
    Ok(out)
}

/// `mstore(P, E)` as one whole statement: (P, E) when E is pure arithmetic.
fn pure_store(stmt: &str) -> Option<(u64, String)> {
    let s = stmt.trim();
    let inner = s.strip_prefix("mstore(")?.strip_suffix(')')?;
    let (p, e) = inner.split_once(", ")?;
    let p = small(p.trim())?;
    // the closing paren we stripped must match mstore's opening one
    let mut d = 0i64;
    for c in inner.chars() {
        match c {
            '(' => d += 1,
            ')' => {
                d -= 1;
                if d < 0 {
                    return None;
                }
            }
            '{' | '}' | '\n' | ':' => return None,
            _ => {}
        }
    }
    if d != 0 {
        return None;
    }
    let toks = tokenize(e).ok()?;
    let pure = toks.iter().all(|(t, _, _)| match t {
        Tok::Ident(n) => matches!(n.as_str(), "mload" | "addmod" | "mulmod" | "sub" | "f_q"),
        Tok::Num(_) => true,
        Tok::Punct(c) => matches!(c, '(' | ')' | ','),
    });
    pure.then(|| (p, e.to_string()))
}

fn nesting(s: &str) -> usize {
    let (mut m, mut d) = (0usize, 0usize);
    for c in s.chars() {
        match c {
            '(' => {
                d += 1;
                m = m.max(d);
            }
            ')' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    m
}

/// The byte span of the `mload(P)` in `stmt`, if any.
fn find_load(stmt: &str, p: u64) -> Result<Option<(usize, usize)>, EvmError> {
    let toks = tokenize(stmt)?;
    for i in 0..toks.len() {
        if let (Tok::Ident(n), st, _) = &toks[i] {
            if n == "mload" {
                if let (Some((Tok::Num(l), _, _)), Some((Tok::Punct(')'), _, en))) =
                    (toks.get(i + 2), toks.get(i + 3))
                {
                    if small(l) == Some(p) {
                        return Ok(Some((*st, *en)));
                    }
                }
            }
        }
    }
    Ok(None)
}

/// Moves every memory word the program touches (after forwarding, many are
/// no longer used) down to consecutive words from 0, in the same order: a
/// range of bytes keeps its offset in its first word, and the words it
/// covers stay consecutive (they are all in the set). Returns the code and
/// the end of the memory it uses. Memory-expansion gas is quadratic in the
/// highest word, so this saves gas; accesses of zero length keep their
/// literal.
fn compact(stmts: &[String]) -> Result<(Vec<String>, u64), EvmError> {
    let toks: Vec<_> = stmts
        .iter()
        .map(|s| tokenize(s))
        .collect::<Result<_, _>>()?;
    let effs: Vec<Effects> = toks.iter().map(|t| effects(t)).collect::<Result<_, _>>()?;
    let mut words = std::collections::BTreeSet::new();
    for e in &effs {
        for &(_, a, len) in &e.addrs {
            if len > 0 {
                let mut w = a / 32;
                while w * 32 < a + len {
                    words.insert(w);
                    w += 1;
                }
            }
        }
    }
    let new: HashMap<u64, u64> = words
        .iter()
        .enumerate()
        .map(|(k, &w)| (w, k as u64))
        .collect();
    let mut out = Vec::with_capacity(stmts.len());
    for ((s, t), e) in stmts.iter().zip(&toks).zip(&effs) {
        let mut repl: Vec<(usize, usize, u64)> = e
            .addrs
            .iter()
            .filter(|(_, _, len)| *len > 0)
            .map(|&(ti, a, _)| (t[ti].1, t[ti].2, new[&(a / 32)] * 32 + a % 32))
            .collect();
        repl.sort();
        let mut text = String::with_capacity(s.len());
        let mut last = 0;
        for (st, en, v) in repl {
            text.push_str(&s[last..st]);
            text.push_str(&format!("{v:#x}"));
            last = en;
        }
        text.push_str(&s[last..]);
        out.push(text);
    }
    Ok((out, 32 * words.len() as u64))
}

/// Statistics of [`optimize_body`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Words computed where they are read instead of stored.
    pub forwarded: usize,
    /// Distinct constants moved to memory.
    pub hoisted: usize,
    /// Their uses.
    pub hoisted_uses: usize,
    /// The end of the memory the program uses before and after compaction.
    pub memory_end: (u64, u64),
    /// The memory address of the first constant moved to memory.
    pub constants_base: u64,
}

/// Both passes over a straight-line Yul block body (the runtime code's);
/// constants used at least `min_uses` times go to memory. The stores of the
/// constants are the first lines of the result, one `mstore(SLOT, 0xHEX)` a
/// line, at consecutive words from [`PassStats::constants_base`].
pub fn optimize_body(body: &str, min_uses: usize) -> Result<(String, PassStats), EvmError> {
    let mut stmts = statements(body)?;
    let toks: Vec<_> = stmts
        .iter()
        .map(|s| tokenize(s))
        .collect::<Result<_, _>>()?;
    let effs: Vec<Effects> = toks.iter().map(|t| effects(t)).collect::<Result<_, _>>()?;
    let mut stats = PassStats::default();

    // every byte range the program touches, counted
    let word = |p: u64| (p, 32u64);
    let mut end = 0u64;
    for e in &effs {
        for &a in &e.loads {
            end = end.max(a + 32);
        }
        for &(a, l) in e.ranged.iter().chain(&e.writes) {
            end = end.max(a + l);
        }
    }
    let reads_of = |p: u64| -> (usize, usize) {
        // (exact mload(p), any other read overlapping p's word)
        let mut exact = 0;
        let mut other = 0;
        for e in &effs {
            for &a in &e.loads {
                if a == p {
                    exact += 1;
                } else if overlaps(word(a), word(p)) {
                    other += 1;
                }
            }
            for &r in &e.ranged {
                if r.1 > 0 && overlaps(r, word(p)) {
                    other += 1;
                }
            }
        }
        (exact, other)
    };
    let writes_of = |p: u64| -> usize {
        effs.iter()
            .flat_map(|e| e.writes.iter())
            .filter(|&&w| overlaps(w, word(p)))
            .count()
    };

    // forwarding, in program order (a forwarded expression may itself contain
    // expressions forwarded into it before)
    let mut removed = vec![false; stmts.len()];
    for i in 0..stmts.len() {
        let Some((p, _)) = pure_store(&stmts[i]) else {
            continue;
        };
        if reads_of(p) != (1, 0) || writes_of(p) != 1 {
            continue;
        }
        // the current text of the expression (forwarding may have grown it)
        let Some((_, e)) = pure_store(&stmts[i]) else {
            continue;
        };
        let deps = effects(&tokenize(&e)?)?.loads;
        let mut reader = None;
        for (k, s) in stmts.iter().enumerate().skip(i + 1) {
            if let Some(span) = find_load(s, p)? {
                reader = Some((k, span));
                break;
            }
        }
        let Some((j, (st, en))) = reader else {
            continue;
        };
        let clobbered = (i + 1..=j).any(|k| {
            effs[k]
                .writes
                .iter()
                .any(|&w| deps.iter().any(|&q| overlaps(w, word(q))))
        });
        if clobbered {
            continue;
        }
        let new = format!("{}{}{}", &stmts[j][..st], e, &stmts[j][en..]);
        if new.lines().map(nesting).max().unwrap_or(0) > MAX_NESTING {
            continue;
        }
        stmts[j] = new;
        removed[i] = true;
        stats.forwarded += 1;
    }
    let kept: Vec<String> = stmts
        .into_iter()
        .zip(removed)
        .filter(|(_, r)| !r)
        .map(|(s, _)| s)
        .collect();
    let (kept, end_compact) = compact(&kept)?;
    stats.memory_end = (end, end_compact);
    let end = end_compact;
    let body = kept.concat();

    // constants to memory, above everything the program touches
    let toks = tokenize(&body)?;
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (t, _, _) in &toks {
        if let Tok::Num(l) = t {
            if big(l) {
                *counts.entry(canonical(l)?).or_default() += 1;
            }
        }
    }
    let mut hot: Vec<(&String, &usize)> = counts
        .iter()
        .filter(|(_, &n)| n >= min_uses.max(1))
        .collect();
    hot.sort();
    let base = end.div_ceil(32) * 32;
    stats.constants_base = base;
    let slot: HashMap<&String, u64> = hot
        .iter()
        .enumerate()
        .map(|(k, (c, _))| (*c, base + 32 * k as u64))
        .collect();
    let mut out = String::with_capacity(body.len());
    for (c, _) in &hot {
        out.push_str(&format!("mstore({:#x}, 0x{c})\n", slot[c]));
    }
    let mut last = 0;
    for (t, st, en) in &toks {
        if let Tok::Num(l) = t {
            if big(l) {
                if let Some(s) = slot.get(&canonical(l)?) {
                    out.push_str(&body[last..*st]);
                    out.push_str(&format!("mload({s:#x})"));
                    last = *en;
                    stats.hoisted_uses += 1;
                }
            }
        }
    }
    out.push_str(&body[last..]);
    stats.hoisted = hot.len();
    Ok((out, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRE: &str =
        "let f_q := 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001\n";

    #[test]
    fn forwards_a_word_read_once() {
        let body = format!(
            "{PRE}mstore(0x80, calldataload(0x0))\nmstore(0xa0, addmod(mload(0x80), 1, f_q))\nmstore(0xc0, mulmod(mload(0xa0), 2, f_q))\nreturn(0xc0, 0x20)\n"
        );
        let (out, st) = optimize_body(&body, 2).unwrap();
        // 0xa0 goes into 0xc0's expression; 0xc0 is read by return (ranged): kept
        assert_eq!(st.forwarded, 1);
        // (and memory is compacted: 0x80 → 0x0, 0xc0 → 0x20)
        assert!(
            out.contains("mstore(0x20, mulmod(addmod(mload(0x0), 1, f_q), 2, f_q))"),
            "{out}"
        );
        assert_eq!(out.matches("mstore(").count(), 2, "{out}");
    }

    #[test]
    fn does_not_forward_across_a_write_of_its_inputs() {
        let body = format!(
            "{PRE}mstore(0x80, 5)\nmstore(0xa0, addmod(mload(0x80), 1, f_q))\nmstore(0x80, 7)\nmstore(0xc0, mload(0xa0))\nmstore(0xe0, mload(0x80))\nreturn(0xc0, 0x40)\n"
        );
        let (out, _) = optimize_body(&body, 2).unwrap();
        assert!(
            out.contains("mstore(0x20, addmod(mload(0x0), 1, f_q))"),
            "{out}"
        );
        // a staticcall's output is a write too
        let body = format!(
            "{PRE}mstore(0xa0, addmod(mload(0x80), 1, f_q))\nlet ok := staticcall(gas(), 0x7, 0x0, 0x60, 0x80, 0x40)\nmstore(0xc0, mload(0xa0))\nreturn(0xc0, 0x20)\n"
        );
        let (out, st) = optimize_body(&body, 2).unwrap();
        assert_eq!(st.forwarded, 0, "{out}");
    }

    #[test]
    fn keeps_words_read_twice_or_by_ranges() {
        let body = format!(
            "{PRE}mstore(0xa0, addmod(mload(0x80), 1, f_q))\nmstore(0xc0, mload(0xa0))\nmstore(0xe0, mload(0xa0))\nmstore(0x100, addmod(mload(0x80), 2, f_q))\nmstore(0x120, keccak256(0x100, 0x20))\nreturn(0xc0, 0x80)\n"
        );
        let (_, st) = optimize_body(&body, 2).unwrap();
        assert_eq!(st.forwarded, 0);
    }

    #[test]
    fn hoists_repeated_constants_above_used_memory() {
        let body = format!("{PRE}mstore(0x80, mulmod(mload(0x80), f_q, f_q))\nmstore(0xa0, 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001)\nreturn(0x80, 0x40)\n");
        let (out, st) = optimize_body(&body, 2).unwrap();
        assert_eq!((st.hoisted, st.hoisted_uses), (1, 2));
        assert!(out.starts_with("mstore(0x40, 0x30644e72"), "{out}");
        assert!(out.contains("let f_q := mload(0x40)"), "{out}");
    }

    #[test]
    fn compaction_keeps_ranges_contiguous_and_precompile_addresses() {
        let body = "mstore(0x100, 1)\nmstore(0x140, 2)\nmstore8(0x160, 1)\nmstore(0x200, keccak256(0x140, 33))\nlet ok := staticcall(gas(), 0x7, 0x300, 0x60, 0x300, 0x40)\nreturn(0x200, 0x20)\nrevert(0, 0)\n";
        let (out, st) = optimize_body(body, 2).unwrap();
        assert_eq!(st.memory_end, (0x360, 0xe0));
        assert_eq!(
            out,
            "mstore(0x0, 1)\nmstore(0x20, 2)\nmstore8(0x40, 1)\nmstore(0x60, keccak256(0x20, 33))\nlet ok := staticcall(gas(), 0x7, 0x80, 0x60, 0x80, 0x40)\nreturn(0x60, 0x20)\nrevert(0, 0)\n"
        );
    }

    #[test]
    fn hoists_every_constant_with_min_uses_one() {
        let body = format!("{PRE}mstore(0x80, mulmod(mload(0x80), f_q, f_q))\nmstore(0xa0, 0x1234567890abcdef12)\nreturn(0x80, 0x40)\n");
        let (out, st) = optimize_body(&body, 1).unwrap();
        assert_eq!(
            (st.hoisted, st.hoisted_uses, st.constants_base),
            (2, 2, 0x40)
        );
        assert!(
            out.starts_with("mstore(0x40, 0x1234567890abcdef12)\nmstore(0x60, 0x30644e72"),
            "{out}"
        );
        assert!(out.contains("mstore(0x20, mload(0x40))"), "{out}");
    }

    #[test]
    fn canonical_spelling() {
        assert_eq!(canonical("255").unwrap(), "ff");
        assert_eq!(canonical("0x00FF").unwrap(), "ff");
        assert_eq!(
            canonical(
                "21888242871839275222246405745257275088548364400416034343698204186575808495617"
            )
            .unwrap(),
            "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
        );
    }

    #[test]
    fn refuses_unknown_functions_and_computed_addresses() {
        assert!(optimize_body("mcopy(0x0, 0x20, 0x20)\n", 2).is_err());
        assert!(optimize_body("mstore(add(0x0, 0x20), 1)\n", 2).is_err());
    }
}
