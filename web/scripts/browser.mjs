#!/usr/bin/env node
// Drives the browser page headless: starts `zkbench serve` (or uses --url), opens
// /?autorun=1 in the system's Chromium through puppeteer-core (never a downloaded browser),
// waits until document.body.dataset.zkbenchStatus is `done` or `failed`, and writes what the
// page published (window.zkbenchResults, window.zkbenchProofs).
//
//   node web/scripts/browser.mjs [--browser chromium|firefox] [--profile quick|full|smoke]
//        [--url http://HOST:PORT] [--timeout-s 1200] [--out results-browser.json]
//        [--proofs proofs.json] [--screenshot page.png] [--jsonl] [--form-check form.json]
//        [--simd on|off] [--relaxed on|off] [--threads N] [--key-cache opfs|idb] [--stream on|off]
//
// --relaxed off: the SIMD128 threaded build even where the browser validates relaxed SIMD
// (?relaxed=0; the default loads the relaxed-SIMD build there, with the MSM's fused multiply-add
// kernel): how a browser without relaxed SIMD runs.
// --threads N: the page's worker pool (?threads=N; ZKBENCH_THREADS sets it, as `zkbench run
// browser --threads N` does): the threaded build at every N, one included, with a pool of N
// workers or of the device's cores if fewer (env.wasm_threads), and the records' case.threads
// is N. In Chromium every warm proof record carries cpu_s, the renderer process's
// CPU time per proof (DevTools' ProcessTime, read before and after each proof): with
// `zkbench run browser --threads 1,2,16` the report's scaling table gives the browser's work
// overhead. --key-cache idb: the page caches key files in IndexedDB instead
// of the origin-private file system (?keycache=idb; ZKBENCH_KEY_CACHE sets it).
//
// --browser: Debian's chromium (default; DevTools protocol) or firefox-esr (WebDriver BiDi),
// launched by launch.mjs; ZKBENCH_BROWSER sets the default (`zkbench run browser --browser`).
//
// --form-check: after the suite, submits the page's form with a bad configuration (hash
// sha256) and writes the error it shows ({text, visible}).
// --jsonl: print the records one JSON object per line, each with the page's `env` (the
// external-runner protocol of docs/external-runners.md; suites/browser.toml runs it so).
// Environment: ZKBENCH_BIN (the zkbench binary to serve with; default target/release/zkbench), CHROMIUM / FIREFOX (the
// browser's executable; default: chromium, chromium-browser or google-chrome / firefox-esr or
// firefox on PATH), ZKBENCH_PROFILE (a suite
// profile JSON: its case_timeout_seconds bounds the wait, and without --profile the page
// runs its `smoke` profile when that profile takes one sample, `full` (ten warm proofs per
// case) when it takes at least ten, `quick` otherwise).
// Exit status: 0 when the page reached `done`, 1 when `failed` or on an error, 3 when the
// browser or the built page (web/dist) is missing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { launchBrowser, missingBrowser } from "./launch.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");

function args() {
  const a = process.argv.slice(2);
  const o = { browser: process.env.ZKBENCH_BROWSER || "chromium", profile: null, url: null, timeout: 1200, out: null, proofs: null, screenshot: null, jsonl: false,
    // `zkbench run browser --threads N` runs this script with ZKBENCH_THREADS=N: the page's pool
    // then has N workers (oversubscribed when N is above the cores), as the native cases have
    threads: process.env.ZKBENCH_THREADS || null,
    // where the page caches keys: opfs (default, IndexedDB where the browser has no OPFS) or idb
    keyCache: process.env.ZKBENCH_KEY_CACHE || null };
  for (let i = 0; i < a.length; i++) {
    const v = a[i + 1];
    switch (a[i]) {
      case "--browser": o.browser = v; i++; break;
      case "--profile": o.profile = v; i++; break;
      case "--url": o.url = v.replace(/\/$/, ""); i++; break;
      case "--timeout-s": o.timeout = Number(v); i++; break;
      case "--out": o.out = v; i++; break;
      case "--proofs": o.proofs = v; i++; break;
      case "--screenshot": o.screenshot = v; i++; break;
      case "--threads": o.threads = v; i++; break;
      case "--simd":
        if (v !== "on" && v !== "off") { console.error(`--simd ${v}: accepted: on, off`); process.exit(2); }
        o.simd = v; i++; break;
      case "--relaxed":
        if (v !== "on" && v !== "off") { console.error(`--relaxed ${v}: accepted: on, off`); process.exit(2); }
        o.relaxed = v; i++; break;
      case "--key-cache": o.keyCache = v; i++; break;
      case "--network-mbps":
        if (!(Number(v) > 0)) { console.error(`--network-mbps ${v}: a throughput in Mbit/s`); process.exit(2); }
        o.networkMbps = v; i++; break;
      case "--stream":
        if (v !== "on" && v !== "off") { console.error(`--stream ${v}: accepted: on, off`); process.exit(2); }
        o.stream = v; i++; break;
      case "--form-check": o.formCheck = v; i++; break;
      case "--jsonl": o.jsonl = true; break;
      default: console.error(`unknown argument ${a[i]}`); process.exit(2);
    }
  }
  if (process.env.ZKBENCH_PROFILE) {
    const p = JSON.parse(process.env.ZKBENCH_PROFILE);
    // finish (and report) before the suite runner kills this process
    if (p.case_timeout_seconds) o.timeout = Math.max(60, p.case_timeout_seconds - 30);
    // the page's profiles (web/suite.json): smoke takes one sample, quick a few, full ten
    if (!o.profile) o.profile = p.max_samples <= 1 ? "smoke" : p.min_samples >= 10 ? "full" : "quick";
  }
  if (!o.profile) o.profile = "quick";
  return o;
}

const o = args();

function failRecord(error) {
  if (o.jsonl) {
    console.log(JSON.stringify({ case: { kind: "proof", system: "browser", hash: "-", threads: 0 }, phase: "all", status: "error", error: String(error).slice(0, 800), samples_s: [], threads: 0, metrics: {} }));
  }
}

function startServer() {
  const bin = process.env.ZKBENCH_BIN || path.join(repo, "target", "release", "zkbench");
  if (!fs.existsSync(bin)) throw new Error(`no zkbench binary at ${bin} (set ZKBENCH_BIN)`);
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "zkbench-browser-")), "results.db");
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", `sqlite://${db}`, "--web", path.join(repo, "web", "dist")], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || "warn" },
  });
  return new Promise((resolve, reject) => {
    let buf = "";
    const timer = setTimeout(() => reject(new Error("zkbench serve did not start within 30 s")), 30000);
    child.stdout.on("data", (d) => {
      buf += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child });
      }
    });
    child.stderr.on("data", (d) => process.stderr.write(`[serve] ${d}`));
    child.on("exit", (code) => reject(new Error(`zkbench serve exited (${code}) before listening: ${buf.trim()}`)));
  });
}

async function main() {
  const missing = missingBrowser(o.browser);
  if (missing) {
    failRecord(missing);
    console.error(missing);
    return 3;
  }
  if (!o.url && !fs.existsSync(path.join(repo, "web", "dist", "index.html"))) {
    const msg = "the browser page is not built (web/dist is missing): run bash scripts/build-web.sh";
    failRecord(msg);
    console.error(msg);
    return 3;
  }
  let server = null;
  let browser = null;
  try {
    let base = o.url;
    if (!base) {
      server = await startServer();
      base = server.url;
    }
    browser = await launchBrowser(o.browser, { protocolTimeoutMs: (o.timeout + 60) * 1000 });
    const page = await browser.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warn") console.error(`[page ${m.type()}] ${m.text()}`);
    });
    page.on("pageerror", (e) => console.error(`[page error] ${e.message}`));
    const cdp = o.browser === "chromium" ? await page.createCDPSession() : null;
    if (cdp) {
      // the renderer process's CPU time (all its threads: the page, its prover worker, the
      // thread pool's workers) for the page's proof records' cpu_s: DevTools' ProcessTime.
      // Firefox's WebDriver BiDi has no such reading: its records carry no CPU time.
      await cdp.send("Performance.enable");
      await page.exposeFunction("zkbenchProcessCpuS", async () => {
        const { metrics } = await cdp.send("Performance.getMetrics");
        return metrics.find((m) => m.name === "ProcessTime")?.value ?? null;
      });
    }
    if (o.networkMbps) {
      if (!cdp) throw new Error("--network-mbps: Chromium only (DevTools network emulation)");
      // DevTools network emulation: the page's and its workers' requests at this throughput
      await cdp.send("Network.enable");
      const bytesPerS = (Number(o.networkMbps) * 1e6) / 8;
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false, latency: 0, downloadThroughput: bytesPerS, uploadThroughput: bytesPerS,
      });
    }
    const q = new URLSearchParams({ autorun: "1", profile: o.profile });
    if (o.threads) q.set("threads", o.threads);
    // --simd on / off: the threaded module's MSM vector kernel on (?simd=1) or off (?simd=0),
    // for before/after runs; without it the module's default (the relaxed-SIMD build's fused
    // multiply-add kernel on, the SIMD128 build's kernel off)
    if (o.simd === "on") q.set("simd", "1");
    else if (o.simd === "off") q.set("simd", "0");
    // --relaxed off: the SIMD128 threaded build (?relaxed=0)
    if (o.relaxed === "off") q.set("relaxed", "0");
    // --key-cache idb: keys cached in IndexedDB even where OPFS is there (?keycache=idb)
    if (o.keyCache === "idb") q.set("keycache", "idb");
    // --stream off: a first visit fetches the whole compact key file before proving (?stream=0)
    if (o.stream === "off") q.set("stream", "0");
    const url = `${base}/?${q}`;
    console.error(`browser: ${o.browser} → ${url}`);
    const t0 = Date.now();
    await page.goto(url, { waitUntil: "load" });
    let last = "";
    const progress = setInterval(async () => {
      try {
        const t = await page.$eval("#progress-text", (e) => e.textContent);
        if (t && t !== last) console.error(`  [${((Date.now() - t0) / 1000).toFixed(0)} s] ${(last = t)}`);
      } catch {}
    }, 2000);
    try {
      await page.waitForFunction(() => ["done", "failed"].includes(document.body.dataset.zkbenchStatus), { timeout: o.timeout * 1000, polling: 500 });
    } finally {
      clearInterval(progress);
    }
    // as JSON text: WebDriver BiDi (Firefox) hands an object reached twice (the records share
    // their case objects) back once, and puppeteer leaves the other places empty
    const got = JSON.parse(
      await page.evaluate(() =>
        JSON.stringify({
          status: document.body.dataset.zkbenchStatus,
          error: document.body.dataset.zkbenchError || null,
          results: window.zkbenchResults || null,
          proofs: window.zkbenchProofs || null,
        }),
      ),
    );
    if (o.formCheck) {
      // a bad configuration in the form must give a visible error, not a hang
      await page.$eval("input[name=hash]", (e) => (e.value = "sha256"));
      await page.click("#prove-form button[type=submit]");
      await page.waitForFunction(() => document.querySelector("#form-result").className === "error", { timeout: 120000 });
      const text = await page.$eval("#form-result", (e) => e.textContent);
      const visible = await page.$eval("#form-result", (e) => e.offsetParent !== null && e.getBoundingClientRect().height > 0);
      fs.writeFileSync(o.formCheck, JSON.stringify({ text, visible }));
    }
    if (o.screenshot) await page.screenshot({ path: o.screenshot, fullPage: true });
    console.error(`browser: ${got.status} after ${((Date.now() - t0) / 1000).toFixed(1)} s${got.error ? `: ${got.error}` : ""}`);
    if (o.out && got.results) fs.writeFileSync(o.out, JSON.stringify(got.results, null, 2));
    if (o.proofs && got.proofs) fs.writeFileSync(o.proofs, JSON.stringify(got.proofs, null, 2));
    if (o.jsonl) {
      // each record carries the page's environment (user agent, cross-origin isolation, wasm
      // build): without one, the suite runner would give it the native process's
      if (got.results) for (const r of got.results.records) console.log(JSON.stringify({ ...r, env: r.env ?? got.results.env }));
      else failRecord(`page ${got.status} without results: ${got.error}`);
    }
    return got.status === "done" ? 0 : 1;
  } catch (e) {
    failRecord(e.message || e);
    console.error(`browser: ${e.stack || e}`);
    return 1;
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (server) server.child.kill();
  }
}

process.exit(await main());
