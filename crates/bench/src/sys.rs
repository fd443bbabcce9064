//! Process measurements (peak resident memory, CPU time) and the machine's
//! environment, read from Linux `/proc` and `getrusage` without `unsafe`;
//! CPU affinity for runs at a given thread count ([`with_cpus`]).
//!
//! Peak RSS is `VmHWM` from `/proc/self/status`; it is reset between phases by
//! writing `5` to `/proc/self/clear_refs` (Linux ≥ 4.0), so that a phase's peak
//! is not polluted by an earlier phase. Each benchmark case also runs in its own
//! child process. On systems without `/proc` the values are `None`.

use std::fs;

pub use zkbench_core::Environment;

/// Peak resident set size of this process since start or the last
/// [`reset_peak_rss`], in bytes.
pub fn peak_rss_bytes() -> Option<u64> {
    status_kib("VmHWM:").map(|k| k * 1024)
}

/// Current resident set size in bytes.
pub fn rss_bytes() -> Option<u64> {
    status_kib("VmRSS:").map(|k| k * 1024)
}

fn status_kib(key: &str) -> Option<u64> {
    let s = fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Resets the peak-RSS counter to the current RSS. Returns whether it worked.
pub fn reset_peak_rss() -> bool {
    fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// User + system CPU time of this process (all threads) in seconds, to the
/// microsecond (`getrusage(RUSAGE_SELF)`; `/proc/self/stat`'s 10 ms ticks
/// elsewhere would round a 40 ms proof to one or two ticks).
pub fn cpu_time_s() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::resource::{getrusage, UsageWho};
        let u = getrusage(UsageWho::RUSAGE_SELF).ok()?;
        let s = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 * 1e-6;
        Some(s(u.user_time()) + s(u.system_time()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The CPUs this process may run on (its affinity mask), in order.
pub fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        use nix::{sched::sched_getaffinity, unistd::Pid};
        if let Ok(set) = sched_getaffinity(Pid::from_raw(0)) {
            return (0..nix::sched::CpuSet::count())
                .filter(|&c| set.is_set(c).unwrap_or(false))
                .collect();
        }
    }
    (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
}

/// Runs `f` (which starts a child process) with the calling thread pinned to
/// the first `n` CPUs it may use, so that the child inherits that affinity
/// (`sched_setaffinity`; a forked child keeps its parent thread's mask), and
/// restores the mask afterwards. With `n` 0 or not below the CPUs allowed,
/// or where affinity cannot be set, `f` runs unpinned. Returns `f`'s value
/// and the number of CPUs the child was pinned to, if it was.
pub fn with_cpus<T>(n: usize, f: impl FnOnce() -> T) -> (T, Option<usize>) {
    let cpus = allowed_cpus();
    if n == 0 || n >= cpus.len() {
        return (f(), None);
    }
    #[cfg(target_os = "linux")]
    {
        use nix::{
            sched::{sched_getaffinity, sched_setaffinity, CpuSet},
            unistd::Pid,
        };
        let me = Pid::from_raw(0);
        if let Ok(old) = sched_getaffinity(me) {
            let mut set = CpuSet::new();
            if cpus[..n].iter().all(|&c| set.set(c).is_ok()) && sched_setaffinity(me, &set).is_ok()
            {
                let out = f();
                let _ = sched_setaffinity(me, &old);
                return (out, Some(n));
            }
        }
    }
    (f(), None)
}

/// Reads the current environment (machine, OS, build facts).
pub fn detect_environment() -> Environment {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu_model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name") || l.starts_with("Model"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let memory_bytes = fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let l = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        l["MemTotal:".len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .ok()
            .map(|k| k * 1024)
    });
    let pretty = fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("PRETTY_NAME="))
                .map(|l| l["PRETTY_NAME=".len()..].trim_matches('"').to_string())
        })
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut crate_versions = std::collections::BTreeMap::new();
    for (k, v) in crate::build_info::CRATE_VERSIONS.iter() {
        crate_versions.insert(k.to_string(), v.to_string());
    }
    Environment {
        cpu_model,
        logical_cpus: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        memory_bytes,
        os: format!("{pretty} (kernel {})", kernel.trim()),
        arch: std::env::consts::ARCH.into(),
        rustc: crate::build_info::RUSTC.into(),
        zkbench_version: env!("CARGO_PKG_VERSION").into(),
        crate_versions,
        git_commit: crate::build_info::GIT_COMMIT.into(),
        build_profile: crate::build_info::PROFILE.into(),
        date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        hostname: fs::read_to_string("/proc/sys/kernel/hostname")
            .unwrap_or_default()
            .trim()
            .into(),
        user_agent: None,
        cross_origin_isolated: None,
        wasm_build: None,
        msm_kernel: Some(zkbench_msm::VectorKernel::here().name().into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_measurements_are_sane() {
        if !std::path::Path::new("/proc/self/status").exists() {
            return;
        }
        let rss = rss_bytes().unwrap();
        let peak = peak_rss_bytes().unwrap();
        assert!(rss > 0 && peak >= rss / 2);
        // Touch 64 MiB, check the peak moves, reset, check it drops back.
        let before = peak_rss_bytes().unwrap();
        let v = vec![1u8; 64 << 20];
        assert!(v.iter().map(|&x| x as u64).sum::<u64>() == 64 << 20);
        let during = peak_rss_bytes().unwrap();
        assert!(during >= before + (60 << 20), "{before} -> {during}");
        drop(v);
        if reset_peak_rss() {
            assert!(peak_rss_bytes().unwrap() < during);
        }
        let t0 = cpu_time_s().unwrap();
        let mut x = 0u64;
        for i in 0..50_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        assert!(x != 1);
        assert!(cpu_time_s().unwrap() >= t0);
    }

    #[test]
    fn environment_has_essentials() {
        let e = detect_environment();
        assert!(e.logical_cpus >= 1);
        assert!(!e.rustc.is_empty() && !e.date.is_empty());
        assert!(e.date.ends_with('Z'));
        let kernel = e.msm_kernel.expect("native runs name the MSM kernel");
        assert!(
            ["avx512-ifma", "avx2-fma", "none"].contains(&kernel.as_str()),
            "{kernel}"
        );
    }
}
