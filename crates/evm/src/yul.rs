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
//! A third pass, [`inplace_msm`], runs before them on snark-verifier's raw
//! output: the final multi-scalar multiplication and pairing reuse five
//! fixed words instead of a fresh area (and four word copies) per term.
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

/// The memory effects of the statement `toks`: every call of a known
/// function, its memory arguments literal (an error otherwise, and for an
/// unknown function).
fn effects(toks: &[(Tok, usize, usize)]) -> Result<Effects, EvmError> {
    let mut e = Effects::default();
    for (i, (t, _, _)) in toks.iter().enumerate() {
        let Tok::Ident(name) = t else { continue };
        if toks.get(i + 1).map(|t| &t.0) != Some(&Tok::Punct('(')) {
            continue;
        }
        if !KNOWN.contains(&name.as_str()) {
            return Err(err(format!("an unknown function {name}")));
        }
        e.add_call(toks, i, name)?;
    }
    Ok(e)
}

impl Effects {
    /// Adds the effects of the call of `name` starting at `toks[i]` (a
    /// memory-accessing builtin; other calls have none).
    fn add_call(
        &mut self,
        toks: &[(Tok, usize, usize)],
        i: usize,
        name: &str,
    ) -> Result<(), EvmError> {
        match name {
            "mload" => {
                let (a, t) = literal_args(toks, i, 1)?[0];
                self.loads.push(a);
                self.addrs.push((t, a, 32));
            }
            "mstore" | "mstore8" => {
                let (a, t) = literal_args(toks, i, 1)?[0];
                let len = if name == "mstore" { 32 } else { 1 };
                self.writes.push((a, len));
                self.addrs.push((t, a, len));
            }
            "keccak256" | "return" | "revert" => {
                let a = literal_args(toks, i, 2)?;
                self.ranged.push((a[0].0, a[1].0));
                self.addrs.push((a[0].1, a[0].0, a[1].0));
            }
            "staticcall" => {
                // (address, input, input length, output, output length)
                let a = literal_args(toks, i, 5)?;
                self.ranged.push((a[1].0, a[2].0));
                self.writes.push((a[3].0, a[4].0));
                self.addrs.push((a[1].1, a[1].0, a[2].0));
                self.addrs.push((a[3].1, a[3].0, a[4].0));
            }
            _ => {}
        }
        Ok(())
    }
}

/// The first `n` arguments of the call starting at `toks[i]` (its name), in
/// order, with their token indices, as long as each is a bare literal (an
/// error otherwise); a `staticcall`'s leading `gas()` reads as no literal.
fn literal_args(
    toks: &[(Tok, usize, usize)],
    i: usize,
    n: usize,
) -> Result<Vec<(u64, usize)>, EvmError> {
    let name = match &toks[i].0 {
        Tok::Ident(s) => s.clone(),
        _ => unreachable!(),
    };
    let mut out = Vec::new();
    let mut j = i + 2;
    if name == "staticcall" {
        j = skip_gas_arg(toks, j)?;
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
}

/// The token index after a `staticcall`'s first argument `gas(),` at
/// `toks[j]`; an error if the call forwards anything but `gas()`.
fn skip_gas_arg(toks: &[(Tok, usize, usize)], j: usize) -> Result<usize, EvmError> {
    // gas ( ) ,
    let ok = matches!(&toks.get(j), Some((Tok::Ident(g), _, _)) if g == "gas")
        && toks.get(j + 1).map(|t| &t.0) == Some(&Tok::Punct('('))
        && toks.get(j + 2).map(|t| &t.0) == Some(&Tok::Punct(')'))
        && toks.get(j + 3).map(|t| &t.0) == Some(&Tok::Punct(','));
    if !ok {
        return Err(err("a staticcall not forwarding gas()"));
    }
    Ok(j + 4)
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
    let (p, e) = store_of(stmt)?;
    let toks = tokenize(&e).ok()?;
    let pure = toks.iter().all(|(t, _, _)| match t {
        Tok::Ident(n) => matches!(n.as_str(), "mload" | "addmod" | "mulmod" | "sub" | "f_q"),
        Tok::Num(_) => true,
        Tok::Punct(c) => matches!(c, '(' | ')' | ','),
    });
    pure.then_some((p, e))
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
    let effs = statement_effects(&stmts)?;
    let mut stats = PassStats::default();
    let end = memory_end(&effs);
    let removed = forward_stores(&mut stmts, &effs, &mut stats)?;
    let kept: Vec<String> = stmts
        .into_iter()
        .zip(removed)
        .filter(|(_, r)| !r)
        .map(|(s, _)| s)
        .collect();
    let (kept, end_compact) = compact(&kept)?;
    stats.memory_end = (end, end_compact);
    let body = kept.concat();
    let out = hoist_constants(&body, end_compact, min_uses, &mut stats)?;
    Ok((out, stats))
}

/// The memory effects of each statement (every statement tokenized first).
fn statement_effects(stmts: &[String]) -> Result<Vec<Effects>, EvmError> {
    let toks: Vec<_> = stmts
        .iter()
        .map(|s| tokenize(s))
        .collect::<Result<_, _>>()?;
    toks.iter().map(|t| effects(t)).collect()
}

/// The byte range of the memory word at `p`.
fn word(p: u64) -> (u64, u64) {
    (p, 32)
}

/// The end of every byte range the program touches.
fn memory_end(effs: &[Effects]) -> u64 {
    let mut end = 0u64;
    for e in effs {
        for &a in &e.loads {
            end = end.max(a + 32);
        }
        for &(a, l) in e.ranged.iter().chain(&e.writes) {
            end = end.max(a + l);
        }
    }
    end
}

/// The reads of the word at `p`: (exact `mload(p)`, any other read
/// overlapping p's word).
fn reads_of(effs: &[Effects], p: u64) -> (usize, usize) {
    let mut exact = 0;
    let mut other = 0;
    for e in effs {
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
}

/// The number of writes overlapping the word at `p`.
fn writes_of(effs: &[Effects], p: u64) -> usize {
    effs.iter()
        .flat_map(|e| e.writes.iter())
        .filter(|&&w| overlaps(w, word(p)))
        .count()
}

/// Forwarding, in program order (a forwarded expression may itself contain
/// expressions forwarded into it before): which statements it removed.
fn forward_stores(
    stmts: &mut [String],
    effs: &[Effects],
    stats: &mut PassStats,
) -> Result<Vec<bool>, EvmError> {
    let mut removed = vec![false; stmts.len()];
    for (i, r) in removed.iter_mut().enumerate() {
        if forward_one(stmts, effs, i)? {
            *r = true;
            stats.forwarded += 1;
        }
    }
    Ok(removed)
}

/// Forwards statement `i` (a pure store of a word read exactly once) into
/// the statement that reads it, when nothing it reads is written in between
/// and the result does not nest too deep: whether it did.
fn forward_one(stmts: &mut [String], effs: &[Effects], i: usize) -> Result<bool, EvmError> {
    // the current text of the expression (forwarding may have grown it)
    let Some((p, e)) = pure_store(&stmts[i]) else {
        return Ok(false);
    };
    if reads_of(effs, p) != (1, 0) || writes_of(effs, p) != 1 {
        return Ok(false);
    }
    let deps = effects(&tokenize(&e)?)?.loads;
    let Some((j, st, en)) = first_reader(stmts, i, p)? else {
        return Ok(false);
    };
    let clobbered = (i + 1..=j).any(|k| {
        effs[k]
            .writes
            .iter()
            .any(|&w| deps.iter().any(|&q| overlaps(w, word(q))))
    });
    if clobbered {
        return Ok(false);
    }
    let new = format!("{}{}{}", &stmts[j][..st], e, &stmts[j][en..]);
    if new.lines().map(nesting).max().unwrap_or(0) > MAX_NESTING {
        return Ok(false);
    }
    stmts[j] = new;
    Ok(true)
}

/// The first statement after `i` that reads `mload(p)`, and the byte span of
/// that read in it: (statement, start, end).
fn first_reader(
    stmts: &[String],
    i: usize,
    p: u64,
) -> Result<Option<(usize, usize, usize)>, EvmError> {
    for (k, s) in stmts.iter().enumerate().skip(i + 1) {
        if let Some((st, en)) = find_load(s, p)? {
            return Ok(Some((k, st, en)));
        }
    }
    Ok(None)
}

/// Constants to memory, above everything the program touches (which ends
/// at `end`): their stores first, then `body` with each use read back.
fn hoist_constants(
    body: &str,
    end: u64,
    min_uses: usize,
    stats: &mut PassStats,
) -> Result<String, EvmError> {
    let toks = tokenize(body)?;
    let hot = hot_constants(&toks, min_uses)?;
    let base = end.div_ceil(32) * 32;
    stats.constants_base = base;
    let slot: HashMap<&String, u64> = hot
        .iter()
        .enumerate()
        .map(|(k, c)| (c, base + 32 * k as u64))
        .collect();
    let mut out = String::with_capacity(body.len());
    for c in &hot {
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
    Ok(out)
}

/// The big literals used at least `min_uses` times (and at least once),
/// canonical, in sorted order.
fn hot_constants(toks: &[(Tok, usize, usize)], min_uses: usize) -> Result<Vec<String>, EvmError> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (t, _, _) in toks {
        if let Tok::Num(l) = t {
            if big(l) {
                *counts.entry(canonical(l)?).or_default() += 1;
            }
        }
    }
    let mut hot: Vec<(String, usize)> = counts
        .into_iter()
        .filter(|&(_, n)| n >= min_uses.max(1))
        .collect();
    hot.sort();
    Ok(hot.into_iter().map(|(c, _)| c).collect())
}

/// A point of the final multi-scalar multiplication: its coordinate
/// expressions and, unless it enters with scalar 1, its scalar expression.
#[derive(Clone, Debug, PartialEq)]
struct Term {
    x: String,
    y: String,
    scalar: Option<String>,
}

/// Where a point computed in the MSM region lives.
#[derive(Clone, Copy, Debug, PartialEq)]
enum PointAt {
    /// The result of the ecMul of term `k`.
    Term(usize),
    /// The running sum.
    Acc,
}

/// `mstore(P, E)` as one whole statement (P a literal): P and E.
fn store_of(stmt: &str) -> Option<(u64, String)> {
    let inner = stmt.trim().strip_prefix("mstore(")?.strip_suffix(')')?;
    let (p, e) = inner.split_once(", ")?;
    // the closing paren we stripped must match mstore's opening one
    let mut d = 0i64;
    for c in e.chars() {
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
    (d == 0).then_some(())?;
    Some((small(p.trim())?, e.to_string()))
}

/// `success := and(eq(staticcall(gas(), PC, IN, LEN, OUT, OLEN), 1), success)`:
/// (PC, IN, LEN, OUT, OLEN).
fn call_of(stmt: &str) -> Option<[u64; 5]> {
    let args = stmt
        .trim()
        .strip_prefix("success := and(eq(staticcall(gas(), ")?
        .strip_suffix("), 1), success)")?;
    let v: Vec<u64> = args.split(", ").map(small).collect::<Option<_>>()?;
    v.try_into().ok()
}

fn precompile_call(pc: u64, input: u64, len: u64, out: u64, out_len: u64) -> String {
    format!(
        "success := and(eq(staticcall(gas(), {pc:#x}, {input:#x}, {len:#x}, {out:#x}, {out_len:#x}), 1), success)\n"
    )
}

/// The final MSM and pairing of snark-verifier's verifier, parsed: the terms
/// in the order they are summed, the pairing's constant G2 words and its
/// right-hand point, and the statements they span with the memory they write.
struct MsmRegion {
    start: usize,
    end: usize,
    terms: Vec<Term>,
    g2: Vec<String>,
    rhs: (String, String),
    neg_s_g2: Vec<String>,
    written: (u64, u64),
}

/// Parses the region (see [`MsmRegion`]): every ecMul and ecAdd call is
/// preceded by the stores of exactly its input words; each ecAdd adds one
/// term to the running sum; the pairing follows.
fn msm_region(stmts: &[String]) -> Result<MsmRegion, EvmError> {
    let first = stmts
        .iter()
        .position(|s| matches!(call_of(s), Some([6 | 7, ..])))
        .ok_or_else(|| err("no ecMul or ecAdd call"))?;
    let start = region_start(stmts, first);
    let mut walk = MsmWalk::new();
    let mut i = start;
    loop {
        let (next, c, e) = call_group(stmts, i)?;
        walk.lo = walk.lo.min(c[1]);
        walk.hi = walk.hi.max(c[1] + c[2]).max(c[3] + c[4]);
        match (c[0], e.len()) {
            (7, 3) if c[3] == c[1] && c[4] == 64 => walk.ec_mul(c[1], &e),
            (6, 4) if c[3] == c[1] && c[4] == 64 => walk.ec_add(c[1], &e)?,
            (8, 12) if c[4] == 32 => return walk.pairing(stmts, start, next, c[3], &e),
            _ => return Err(err("an unexpected precompile call in the MSM")),
        }
        i = next;
    }
}

/// Where the region starts: the first group starts with the stores of the
/// first call's input (at most four statements before it).
fn region_start(stmts: &[String], first: usize) -> usize {
    let first_input = call_of(&stmts[first]).map(|c| c[1]);
    let mut i = first.saturating_sub(4);
    while i < first && store_of(&stmts[i]).map(|(p, _)| p) != first_input {
        i += 1;
    }
    i
}

/// The stores from statement `i` up to the next call, and that call: the
/// statement after the call, the call's arguments and the stored
/// expressions (which must be exactly the call's input words).
fn call_group(stmts: &[String], i: usize) -> Result<(usize, [u64; 5], Vec<String>), EvmError> {
    let mut exprs = Vec::new();
    let mut j = i;
    while let Some((p, e)) = stmts.get(j).and_then(|s| store_of(s)) {
        exprs.push((p, e));
        j += 1;
    }
    let c = stmts
        .get(j)
        .and_then(|s| call_of(s))
        .ok_or_else(|| err("an MSM statement that is neither a store nor a precompile call"))?;
    let n = exprs.len() as u64;
    let consecutive = exprs
        .iter()
        .enumerate()
        .all(|(k, (p, _))| *p == c[1] + 32 * k as u64);
    if c[2] != 32 * n || !consecutive {
        return Err(err(
            "a precompile call whose input is not the stores before it",
        ));
    }
    Ok((j + 1, c, exprs.into_iter().map(|(_, e)| e).collect()))
}

/// [`msm_region`]'s state as it walks the precompile calls.
struct MsmWalk {
    /// The lowest memory address the calls use.
    lo: u64,
    /// The end of the memory the calls use.
    hi: u64,
    /// The points computed so far, by the address of their x word.
    at: HashMap<u64, PointAt>,
    /// Every term seen, in the order of first appearance.
    terms: Vec<Term>,
    /// The terms in the order they are summed.
    order: Vec<usize>,
}

impl MsmWalk {
    /// Nothing walked yet.
    fn new() -> Self {
        MsmWalk {
            lo: u64::MAX,
            hi: 0,
            at: HashMap::new(),
            terms: Vec::new(),
            order: Vec::new(),
        }
    }

    /// The point whose words are (x, y): a computed one, or a new term.
    fn resolve(&mut self, x: &str, y: &str) -> PointAt {
        let from = |e: &str| e.strip_prefix("mload(")?.strip_suffix(')').and_then(small);
        if let (Some(px), Some(py)) = (from(x), from(y)) {
            if py == px + 32 {
                if let Some(p) = self.at.remove(&px) {
                    return p;
                }
            }
        }
        self.terms.push(Term {
            x: x.into(),
            y: y.into(),
            scalar: None,
        });
        PointAt::Term(self.terms.len() - 1)
    }

    /// An ecMul (x, y, scalar) whose product lands at `input`: a new term.
    fn ec_mul(&mut self, input: u64, e: &[String]) {
        self.terms.push(Term {
            x: e[0].clone(),
            y: e[1].clone(),
            scalar: Some(e[2].clone()),
        });
        self.at.insert(input, PointAt::Term(self.terms.len() - 1));
    }

    /// An ecAdd whose sum lands at `input`: it must add one new term to the
    /// running sum (or, the first one, add two new terms).
    fn ec_add(&mut self, input: u64, e: &[String]) -> Result<(), EvmError> {
        let a = self.resolve(&e[0], &e[1]);
        let b = self.resolve(&e[2], &e[3]);
        let fresh = |p: PointAt, order: &[usize]| match p {
            PointAt::Term(k) if !order.contains(&k) => Some(k),
            _ => None,
        };
        let order = &mut self.order;
        match (order.is_empty(), a, fresh(a, order), fresh(b, order)) {
            (true, _, Some(ka), Some(kb)) if ka != kb => order.extend([ka, kb]),
            (false, PointAt::Acc, _, Some(kb)) => order.push(kb),
            _ => {
                return Err(err(
                    "an ecAdd that does not add one term to the running sum",
                ))
            }
        }
        self.at.retain(|_, p| *p != PointAt::Acc);
        self.at.insert(input, PointAt::Acc);
        Ok(())
    }

    /// The pairing (12 input words, result at `out`), which must pair the
    /// MSM and a plain point and be checked by statement `next`: the region.
    fn pairing(
        mut self,
        stmts: &[String],
        start: usize,
        next: usize,
        out: u64,
        e: &[String],
    ) -> Result<MsmRegion, EvmError> {
        let lhs = self.resolve(&e[0], &e[1]);
        if self.order.is_empty() {
            if let PointAt::Term(k) = lhs {
                self.order.push(k);
            }
        }
        let rhs = self.resolve(&e[6], &e[7]);
        let summed = lhs == PointAt::Acc || self.order.len() == 1;
        let plain_rhs = rhs == PointAt::Term(self.terms.len() - 1)
            && self.terms.last().is_some_and(|t| t.scalar.is_none());
        if !summed || !plain_rhs || !self.at.is_empty() || self.order.len() + 1 != self.terms.len()
        {
            return Err(err("a pairing that is not (MSM, G2, point, G2)"));
        }
        let check = format!("success := and(eq(mload({out:#x}), 1), success)");
        if stmts.get(next).map(|s| s.trim()) != Some(check.as_str()) {
            return Err(err("the pairing's result is not checked next"));
        }
        let rhs = self.terms.pop().map(|t| (t.x, t.y)).unwrap_or_default();
        Ok(MsmRegion {
            start,
            end: next + 1,
            terms: self.order.iter().map(|&k| self.terms[k].clone()).collect(),
            g2: e[2..6].to_vec(),
            rhs,
            neg_s_g2: e[8..12].to_vec(),
            written: (self.lo, self.hi),
        })
    }
}

/// **In-place MSM**: snark-verifier computes the final multi-scalar
/// multiplication `Σ sᵢ·Pᵢ` with a fresh memory area per precompile call,
/// copying the running sum and every product into the next one (4 word
/// copies per term, and memory that grows by 7 words per term). This pass
/// rewrites that region to five fixed words: the running sum at `M`, the
/// next term (and its scalar) at `M + 0x40`, where its ecMul leaves the
/// product, so that one ecAdd of `M..M + 0x80` into `M` adds it; the
/// pairing's input then starts at `M` with the sum already in place. Same
/// calls, same order, same inputs: only where the words live changes. An
/// error if the region does not have exactly the expected shape.
pub fn inplace_msm(body: &str) -> Result<String, EvmError> {
    let stmts = statements(body)?;
    let r = msm_region(&stmts)?;
    let (lo, hi) = r.written;
    if hi - lo < 0x180 {
        return Err(err("the MSM region is smaller than the pairing's input"));
    }
    // nothing the new code computes may read the region's memory
    let exprs = r
        .terms
        .iter()
        .flat_map(|t| [Some(&t.x), Some(&t.y), t.scalar.as_ref()])
        .flatten()
        .chain(&r.g2)
        .chain(&r.neg_s_g2)
        .chain([&r.rhs.0, &r.rhs.1]);
    for e in exprs {
        let loads = effects(&tokenize(e)?)?.loads;
        if loads.iter().any(|&a| a + 32 > lo && a < hi) {
            return Err(err("an MSM input read from the MSM's own memory"));
        }
    }
    let m = lo;
    let mut out: String = stmts[..r.start].concat();
    for (k, t) in r.terms.iter().enumerate() {
        let p = if k == 0 { m } else { m + 0x40 };
        out.push_str(&format!(
            "mstore({p:#x}, {})\nmstore({:#x}, {})\n",
            t.x,
            p + 0x20,
            t.y
        ));
        if let Some(s) = &t.scalar {
            out.push_str(&format!("mstore({:#x}, {s})\n", p + 0x40));
            out.push_str(&precompile_call(7, p, 0x60, p, 0x40));
        }
        if k > 0 {
            out.push_str(&precompile_call(6, m, 0x80, m, 0x40));
        }
    }
    let pairing = r.g2.iter().chain([&r.rhs.0, &r.rhs.1]).chain(&r.neg_s_g2);
    for (k, e) in pairing.enumerate() {
        out.push_str(&format!("mstore({:#x}, {e})\n", m + 0x40 + 32 * k as u64));
    }
    out.push_str(&precompile_call(8, m, 0x180, m, 0x20));
    out.push_str(&format!("success := and(eq(mload({m:#x}), 1), success)\n"));
    out.push_str(&stmts[r.end..].concat());
    Ok(out)
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
    /// snark-verifier's final MSM for `P0 + s1·P1 + s2·G` and the pairing
    /// with the point W, as it emits them (a fresh area per call).
    fn raw_msm() -> String {
        let call = |pc: u64, a: u64, l: u64, ol: u64| precompile_call(pc, a, l, a, ol);
        [
            format!("{PRE}mstore(0x300, addmod(mload(0x80), 1, f_q))\n"),
            "mstore(0x400, mload(0xc0))\nmstore(0x420, mload(0xe0))\nmstore(0x440, mload(0x300))\n".into(),
            call(7, 0x400, 0x60, 0x40),
            "mstore(0x460, mload(0x100))\nmstore(0x480, mload(0x120))\nmstore(0x4a0, mload(0x400))\nmstore(0x4c0, mload(0x420))\n".into(),
            call(6, 0x460, 0x80, 0x40),
            "mstore(0x4e0, 0x1)\nmstore(0x500, 0x2)\nmstore(0x520, mulmod(mload(0x80), 3, f_q))\n".into(),
            call(7, 0x4e0, 0x60, 0x40),
            "mstore(0x540, mload(0x460))\nmstore(0x560, mload(0x480))\nmstore(0x580, mload(0x4e0))\nmstore(0x5a0, mload(0x500))\n".into(),
            call(6, 0x540, 0x80, 0x40),
            "mstore(0x5c0, mload(0x540))\nmstore(0x5e0, mload(0x560))\n".into(),
            (0..4).map(|k| format!("mstore({:#x}, 0x{k}1)\n", 0x600 + 32 * k)).collect(),
            "mstore(0x680, mload(0x140))\nmstore(0x6a0, mload(0x160))\n".into(),
            (0..4).map(|k| format!("mstore({:#x}, 0x{k}2)\n", 0x6c0 + 32 * k)).collect(),
            call(8, 0x5c0, 0x180, 0x20),
            "success := and(eq(mload(0x5c0), 1), success)\nreturn(0, 0)\n".into(),
        ]
        .concat()
    }

    #[test]
    fn inplace_msm_keeps_the_calls_and_drops_the_copies() {
        let out = inplace_msm(&raw_msm()).unwrap();
        let call = |pc: u64, a: u64, l: u64, ol: u64| precompile_call(pc, a, l, a, ol);
        // the region starts at its lowest address, 0x400: the sum there, the
        // next term (and its scalar) at 0x440; P0 (scalar 1) is the first term
        let want = [
            format!("{PRE}mstore(0x300, addmod(mload(0x80), 1, f_q))\n"),
            "mstore(0x400, mload(0x100))\nmstore(0x420, mload(0x120))\n".into(),
            "mstore(0x440, mload(0xc0))\nmstore(0x460, mload(0xe0))\nmstore(0x480, mload(0x300))\n"
                .into(),
        ]
        .concat();
        let rest = [
            call(7, 0x440, 0x60, 0x40),
            call(6, 0x400, 0x80, 0x40),
            "mstore(0x440, 0x1)\nmstore(0x460, 0x2)\nmstore(0x480, mulmod(mload(0x80), 3, f_q))\n"
                .into(),
            call(7, 0x440, 0x60, 0x40),
            call(6, 0x400, 0x80, 0x40),
            (0..4)
                .map(|k| format!("mstore({:#x}, 0x{k}1)\n", 0x440 + 32 * k))
                .collect(),
            "mstore(0x4c0, mload(0x140))\nmstore(0x4e0, mload(0x160))\n".into(),
            (0..4)
                .map(|k| format!("mstore({:#x}, 0x{k}2)\n", 0x500 + 32 * k))
                .collect(),
            call(8, 0x400, 0x180, 0x20),
            "success := and(eq(mload(0x400), 1), success)\nreturn(0, 0)\n".into(),
        ]
        .concat();
        assert_eq!(out, format!("{want}{rest}"));
        // same number of precompile calls of each kind
        for pc in ["0x6", "0x7", "0x8"] {
            let n = |s: &str| s.matches(&format!("staticcall(gas(), {pc},")).count();
            assert_eq!(n(&out), n(&raw_msm()), "precompile {pc}");
        }
    }

    #[test]
    fn inplace_msm_refuses_what_it_does_not_recognise() {
        // an ecAdd of two computed points that are not (sum, next term)
        let raw = raw_msm().replace(
            "mstore(0x540, mload(0x460))\nmstore(0x560, mload(0x480))",
            "mstore(0x540, mload(0x4e0))\nmstore(0x560, mload(0x500))",
        );
        assert!(inplace_msm(&raw).is_err());
        // a term read from the MSM's own memory
        let raw = raw_msm().replace("mulmod(mload(0x80), 3, f_q)", "mload(0x4a0)");
        assert!(inplace_msm(&raw).is_err());
        // a statement between the calls that is not a store of their input
        let raw = raw_msm().replace(
            "mstore(0x4e0, 0x1)\n",
            "mstore(0x4e0, 0x1)\nmstore(0x900, 0x1)\n",
        );
        assert!(inplace_msm(&raw).is_err());
        // the pairing's result not checked
        let raw = raw_msm().replace("success := and(eq(mload(0x5c0), 1), success)\n", "");
        assert!(inplace_msm(&raw).is_err());
    }
}
