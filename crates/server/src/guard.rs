//! What a `POST /api/results` must pass before its body is looked at: a
//! per-client rate limit and, when the server has one, a shared submit token.
//!
//! **Rate limit.** Each client address (the TCP peer's IP) gets a bucket of
//! [`RateLimit::per_minute`] submissions that refills at that rate: the
//! generic cell rate algorithm (GCRA, the ATM Forum's traffic-shaping
//! algorithm, "Traffic Management Specification Version 4.0", 1996), as
//! implemented by the `governor` crate. A client over its limit gets 429 with
//! `Retry-After` (whole seconds until one more submission is allowed). Only
//! `POST` counts; reads are not limited. Default
//! [`RateLimit::DEFAULT_PER_MINUTE`]; `--rate-limit off` turns it off. Behind
//! a reverse proxy every client has the proxy's address: set the limit for
//! all of them together, or off.
//!
//! **Submit token.** With `--submit-token-file F` a submission must carry
//! `Authorization: Bearer <the file's token>`, else 401. Only the token's
//! SHA-256 is kept in memory and the presented token's SHA-256 is compared
//! with it in constant time (`subtle`), so neither the comparison's time nor
//! its length gives the token away; the token is never logged (the request
//! log has no headers).

use std::{
    net::{IpAddr, Ipv4Addr},
    num::NonZeroU32,
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
    time::Duration,
};

use axum::http::{header, HeaderMap};
use governor::{clock::Clock as _, DefaultKeyedRateLimiter, Quota};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

/// Submissions a client may send per minute (and at once, from a full bucket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    per_minute: NonZeroU32,
}

impl RateLimit {
    /// The default: 600 a minute per client address (10 a second sustained,
    /// 600 at once): far above a benchmark run's one submission, low enough
    /// that one client cannot keep the database writing for everyone.
    pub const DEFAULT_PER_MINUTE: u32 = 600;

    /// `n` submissions a minute; `None` for 0.
    pub fn per_minute(n: u32) -> Option<Self> {
        NonZeroU32::new(n).map(|per_minute| Self { per_minute })
    }

    /// Submissions a minute.
    pub fn get(self) -> u32 {
        self.per_minute.get()
    }

    /// Reads the `--rate-limit` value: `N` (submissions a minute per client
    /// address, 1 or more) or `off`.
    pub fn parse_flag(s: &str) -> Result<Option<Self>, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("off") {
            return Ok(None);
        }
        s.parse::<u32>()
            .ok()
            .and_then(Self::per_minute)
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "--rate-limit {s:?} is not accepted; accepted: a whole number of submissions \
                     a minute per client address from 1 to {} (default {}), or off",
                    u32::MAX,
                    Self::DEFAULT_PER_MINUTE
                )
            })
    }
}

impl Default for RateLimit {
    fn default() -> Self {
        Self {
            per_minute: NonZeroU32::new(Self::DEFAULT_PER_MINUTE).expect("non-zero"),
        }
    }
}

/// Longest token accepted, bytes.
pub const MAX_TOKEN_BYTES: usize = 4096;

/// Why a submit token could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The file could not be read.
    #[error("cannot read the submit token file {path}: {cause}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Cause.
        cause: std::io::Error,
    },
    /// The file holds no usable token.
    #[error(
        "the submit token file {path} {why}; accepted: one token of 1 to {MAX_TOKEN_BYTES} \
         visible ASCII characters (no spaces), surrounding whitespace ignored"
    )]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong (never the token itself).
        why: &'static str,
    },
}

/// A shared submit token. Only its SHA-256 is kept; `Debug` shows nothing of it.
#[derive(Clone)]
pub struct SubmitToken {
    digest: [u8; 32],
}

impl std::fmt::Debug for SubmitToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SubmitToken(***)")
    }
}

impl SubmitToken {
    /// The token in `text` (surrounding whitespace ignored); `Err` says what is wrong.
    pub fn new(text: &str) -> Result<Self, &'static str> {
        let t = text.trim();
        if t.is_empty() {
            return Err("is empty");
        }
        if t.len() > MAX_TOKEN_BYTES {
            return Err("holds a token that is too long");
        }
        if !t.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("holds spaces or characters other than visible ASCII");
        }
        Ok(Self {
            digest: Sha256::digest(t.as_bytes()).into(),
        })
    }

    /// The token in file `path`.
    pub fn read(path: &Path) -> Result<Self, TokenError> {
        let text = std::fs::read_to_string(path).map_err(|cause| TokenError::Read {
            path: path.to_path_buf(),
            cause,
        })?;
        Self::new(&text).map_err(|why| TokenError::Invalid {
            path: path.to_path_buf(),
            why,
        })
    }

    /// Whether `presented` is the token (constant time in its content and length).
    pub fn matches(&self, presented: &str) -> bool {
        let d: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        bool::from(d.ct_eq(&self.digest))
    }
}

/// Why a submission was turned away before its body was read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Over the rate limit: retry after this long.
    Limited(Duration),
    /// No `Authorization: Bearer` header, or the wrong token.
    Unauthorized {
        /// Whether a bearer token was sent at all.
        sent: bool,
    },
}

/// The guards of one server.
#[derive(Debug)]
pub(crate) struct Guard {
    limiter: Option<DefaultKeyedRateLimiter<IpAddr>>,
    limit: Option<RateLimit>,
    token: Option<SubmitToken>,
    checks: AtomicU64,
}

/// Every this many checks, buckets that are full again are forgotten (the
/// limiter's memory is bounded by the clients of the last minute).
const RETAIN_EVERY: u64 = 4096;

impl Guard {
    /// Guards with `limit` (none: no limit) and `token` (none: open).
    pub(crate) fn new(limit: Option<RateLimit>, token: Option<SubmitToken>) -> Self {
        Self {
            limiter: limit.map(|l| governor::RateLimiter::keyed(Quota::per_minute(l.per_minute))),
            limit,
            token,
            checks: AtomicU64::new(0),
        }
    }

    /// The limit in force.
    pub(crate) fn limit(&self) -> Option<RateLimit> {
        self.limit
    }

    /// Checks a submission from `peer` (unknown: counted as one shared client)
    /// with `headers`: the rate limit first, so that guessing tokens is limited too.
    pub(crate) fn check(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Result<(), Refusal> {
        if let Some(l) = &self.limiter {
            let key = peer.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
            if self.checks.fetch_add(1, Ordering::Relaxed) % RETAIN_EVERY == RETAIN_EVERY - 1 {
                l.retain_recent();
            }
            if let Err(not_until) = l.check_key(&key) {
                return Err(Refusal::Limited(not_until.wait_time_from(l.clock().now())));
            }
        }
        if let Some(t) = &self.token {
            let presented = bearer(headers);
            if !presented.is_some_and(|p| t.matches(p)) {
                return Err(Refusal::Unauthorized {
                    sent: presented.is_some(),
                });
            }
        }
        Ok(())
    }
}

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = v.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn auth(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(v).unwrap());
        h
    }

    #[test]
    fn rate_limit_flag() {
        assert_eq!(RateLimit::parse_flag("off"), Ok(None));
        assert_eq!(RateLimit::parse_flag(" 30 ").unwrap().unwrap().get(), 30);
        for bad in ["0", "-1", "ten", "", "1.5"] {
            let e = RateLimit::parse_flag(bad).unwrap_err();
            assert!(e.contains("--rate-limit") && e.contains("or off"), "{e}");
        }
        assert_eq!(RateLimit::default().get(), RateLimit::DEFAULT_PER_MINUTE);
    }

    #[test]
    fn tokens() {
        let t = SubmitToken::new("  s3cret-token\n").unwrap();
        assert!(t.matches("s3cret-token"));
        assert!(!t.matches("s3cret-toke"));
        assert!(!t.matches("s3cret-token "));
        assert_eq!(format!("{t:?}"), "SubmitToken(***)");
        assert!(SubmitToken::new(" \n").is_err());
        assert!(SubmitToken::new("two words").is_err());
        assert!(SubmitToken::new(&"x".repeat(MAX_TOKEN_BYTES + 1)).is_err());
    }

    #[test]
    fn guard_checks_limit_then_token() {
        let g = Guard::new(
            RateLimit::per_minute(2),
            Some(SubmitToken::new("tok").unwrap()),
        );
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(g.check(Some(ip), &auth("Bearer tok")), Ok(()));
        assert_eq!(
            g.check(Some(ip), &auth("bearer nope")),
            Err(Refusal::Unauthorized { sent: true })
        );
        match g.check(Some(ip), &auth("Bearer tok")) {
            Err(Refusal::Limited(d)) => assert!(d > Duration::ZERO && d <= Duration::from_secs(30)),
            other => panic!("{other:?}"),
        }
        // another client has its own bucket; no header at all is 401
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        assert_eq!(
            g.check(Some(other), &HeaderMap::new()),
            Err(Refusal::Unauthorized { sent: false })
        );
        let open = Guard::new(None, None);
        for _ in 0..1000 {
            assert_eq!(open.check(None, &HeaderMap::new()), Ok(()));
        }
    }
}
