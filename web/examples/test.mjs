#!/usr/bin/env node
// The zkbench-prover example, end to end, as a dapp developer would use the package:
//   1. installs the package's tarball (npm pack of web/package) into web/examples/membership;
//   2. writes the example's key files (public/keys/membership.bin and the compact
//      membership-rows1.bin) with the same module in Node (wasm-bindgen --target nodejs output;
//      a test setup, as web/scripts/make-keys.mjs does);
//   3. builds the example with Vite and serves dist/ on 127.0.0.1 (COOP/COEP headers);
//   4. in headless Chromium and/or Firefox (puppeteer-core, the system's browser), types
//      members and an index into the form, proves, and reads the proof the page shows;
//   5. checks it with snarkjs's groth16.verify (Node, snarkjs from web/node_modules): accepted,
//      and rejected for another root; the root is the public signal; the keys came from the
//      compact file's URL, streamed into the first proof (proveWhileLoading), and the full
//      file replaced them behind it.
//
//   node web/examples/test.mjs --tarball PATH.tgz --node-pkg DIR [--browser chromium,firefox]
//        [--screenshot-dir DIR] [--timeout-s 300]
// --browser: one or more, comma-separated (default chromium); the example is built once.
// Exit status 0 when every check passed, 1 otherwise, 3 when a browser is missing.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { launchBrowser, missingBrowser } from "../scripts/launch.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, "..");
const app = path.join(here, "membership");
const require = createRequire(path.join(web, "package.json"));

function args() {
  const a = process.argv.slice(2);
  const o = { tarball: null, nodePkg: null, browsers: ["chromium"], screenshots: null, timeout: 300 };
  for (let i = 0; i < a.length; i++) {
    const v = a[++i];
    switch (a[i - 1]) {
      case "--tarball": o.tarball = path.resolve(v); break;
      case "--node-pkg": o.nodePkg = path.resolve(v); break;
      case "--browser": o.browsers = v.split(",").filter(Boolean); break;
      case "--screenshot-dir": o.screenshots = path.resolve(v); break;
      case "--timeout-s": o.timeout = Number(v); break;
      default: console.error(`unknown argument ${a[i - 1]}`); process.exit(2);
    }
  }
  if (!o.tarball || !o.nodePkg) {
    console.error("usage: test.mjs --tarball zkbench-prover-X.tgz --node-pkg DIR [--browser chromium|firefox]");
    process.exit(2);
  }
  return o;
}

const o = args();
const t0 = Date.now();
const log = (m) => console.error(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${m}`);
let failures = 0;
let passes = 0;
function check(ok, what) {
  console.log(`${ok ? "ok" : "FAILED"}: ${what}`);
  if (ok) passes++;
  else failures++;
}

function run(cmd, argv, cwd) {
  const r = spawnSync(cmd, argv, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} failed (${r.status ?? r.signal})`);
}

const CONFIG = { system: "groth16", hash: "poseidon", arity: 2, leaves: 1024, circuit: "membership" };

function makeKeys() {
  const wasm = require(path.join(o.nodePkg, "zkbench_wasm.js"));
  const p = new wasm.Prover(JSON.stringify(CONFIG));
  try {
    p.setup(1);
    const dir = path.join(app, "public", "keys");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "membership.bin"), p.keysToBytes());
    // the compact key file a first visit loads first (fixed-base tables of 4 rows per base)
    fs.writeFileSync(path.join(dir, "membership-rows1.bin"), p.keysToBytesCompact(1));
  } finally {
    p.free();
  }
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json" };

/** dist/ on a free loopback port, cross-origin isolated (what lets the package use threads)
 * unless `isolated` is false. */
function serve(root, isolated = true) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const file = path.join(root, decodeURIComponent(url.pathname === "/" ? "/index.html" : url.pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end("not found");
      return;
    }
    const headers = { "Content-Type": TYPES[path.extname(file)] || "application/octet-stream" };
    if (isolated) {
      headers["Cross-Origin-Opener-Policy"] = "same-origin";
      headers["Cross-Origin-Embedder-Policy"] = "require-corp";
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function inBrowser(kind, url) {
  const browser = await launchBrowser(kind, { protocolTimeoutMs: (o.timeout + 60) * 1000 });
  try {
    const page = await browser.newPage();
    page.on("console", (m) => ["error", "warn", "warning"].includes(m.type()) && console.error(`[page ${m.type()}] ${m.text()}`));
    page.on("pageerror", (e) => console.error(`[page error] ${e.message}`));
    await page.goto(url, { waitUntil: "load" });
    const status = (want) =>
      page.waitForFunction((w) => w.includes(document.body.dataset.status), { timeout: o.timeout * 1000, polling: 200 }, want);
    await status(["ready", "error"]);
    // a user typing members and an index into the form
    await page.$eval("#members", (e) => (e.value = ""));
    await page.type("#members", "12345\n0x2a\n987654321987654321\n7");
    await page.$eval("#index", (e) => (e.value = ""));
    await page.type("#index", "1");
    await page.click("#prove");
    await status(["done", "error"]);
    // the full key file, loaded behind the compact one
    await page.waitForFunction(() => window.zkbenchExample.fullKeys || document.body.dataset.status === "error", {
      timeout: o.timeout * 1000,
      polling: 200,
    });
    // as JSON text: WebDriver BiDi (Firefox) hands an object reached twice back once
    const got = JSON.parse(
      await page.evaluate(() =>
        JSON.stringify({
          status: document.body.dataset.status,
          text: document.getElementById("status").textContent,
          shown: JSON.parse(document.getElementById("proof").textContent || "null"),
          userAgent: navigator.userAgent,
          ...window.zkbenchExample,
        }),
      ),
    );
    if (o.screenshots) await page.screenshot({ path: path.join(o.screenshots, `example-${kind}.png`), fullPage: true });
    return got;
  } finally {
    await browser.close().catch(() => {});
  }
}

/** The checks of one browser's run: the page's proof, and snarkjs on it; `threaded`: whether
 * the package must have run its threaded module. */
async function checkRun(kind, got, threaded) {
  log(`${kind}: ${got.status}: ${got.text}`);
  console.log(`${kind}: user agent: ${got.userAgent}`);
  console.log(`${kind}: prover ${JSON.stringify(got.init)}; keys: ${got.keySource}; prove ${got.proveMs?.toFixed(0)} ms`);
  check(got.status === "done", `${kind}: the page proved (${got.error ?? got.text})`);
  if (got.status !== "done") return;
  if (threaded) check(got.init.build === "threaded" && got.init.threads > 1, `${kind}: the threaded module ran (${got.init.threads} threads)`);
  else check(got.init.build === "single-threaded" && got.init.threads === 1, `${kind}: the single-threaded module ran (${got.init.reason})`);
  // the wide-arithmetic build runs exactly where it is packed, the page threaded, and the
  // browser validates i64.mul_wide_u (ZKBENCH_CHROMIUM_FLAGS / ZKBENCH_FIREFOX_PREFS turn it on)
  const wide = threaded && got.widePacked === true && got.wideSupported === true;
  check(
    got.init.wideArithmetic === wide,
    `${kind}: wide-arithmetic module ${wide ? "ran" : "not run"} (packed: ${got.widePacked}, browser validates it: ${got.wideSupported})`,
  );
  // the relaxed-SIMD build likewise, where the wide one does not run
  const relaxed = threaded && !wide && got.relaxedPacked === true && got.relaxedSupported === true;
  check(
    got.init.relaxedSimd === relaxed,
    `${kind}: relaxed-SIMD module ${relaxed ? "ran" : "not run"} (packed: ${got.relaxedPacked}, browser validates it: ${got.relaxedSupported})`,
  );
  check(
    got.keySource === "key file keys/membership-rows1.bin (streamed into the first proof), then keys/membership.bin",
    `${kind}: the first proof streamed the compact key file from its URL, then the full one loaded`,
  );
  check(got.fullKeys === "loaded", `${kind}: the full key file replaced the compact one (${got.fullKeys})`);
  check(JSON.stringify(got.shown) === JSON.stringify(got.proof), `${kind}: the page shows the proof it made`);
  check(JSON.stringify(got.publicSignals) === JSON.stringify([got.root]), `${kind}: the public signal is the tree's root`);
  const snarkjs = require("snarkjs");
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const ok = await snarkjs.groth16.verify(got.verificationKey, got.publicSignals, got.proof, silent);
  check(ok === true, `${kind}: snarkjs groth16.verify accepts the proof made in the browser`);
  const other = [(BigInt(got.root) + 1n).toString()];
  const bad = await snarkjs.groth16.verify(got.verificationKey, other, got.proof, silent);
  check(bad === false, `${kind}: snarkjs groth16.verify rejects it for another root`);
}

async function main() {
  for (const kind of o.browsers) {
    const why = missingBrowser(kind);
    if (why) {
      console.error(why);
      return 3;
    }
  }
  log(`installing ${path.basename(o.tarball)} into web/examples/membership`);
  run("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", o.tarball], app);
  log("key file (Node, the same module)");
  makeKeys();
  log("vite build");
  // the example's own Vite (its package.json's devDependency, installed with the tarball)
  run("npm", ["run", "--silent", "build", "--", "--logLevel", "warn"], app);
  if (o.screenshots) fs.mkdirSync(o.screenshots, { recursive: true });
  const server = await serve(path.join(app, "dist"));
  const url = `http://127.0.0.1:${server.address().port}/`;
  // a package packed with the threaded module must use it in a cross-origin isolated page
  // (given more than one core), and fall back to the single-threaded one in a page that is not
  const mt = fs.existsSync(path.join(app, "node_modules", "zkbench-prover", "dist", "wasm-mt"));
  const cores = os.availableParallelism();
  try {
    for (const kind of o.browsers) {
      log(`${kind}: ${url}`);
      await checkRun(kind, await inBrowser(kind, url), mt && cores > 1);
    }
  } finally {
    server.close();
  }
  if (mt) {
    const plain = await serve(path.join(app, "dist"), false);
    const kind = o.browsers[0];
    try {
      log(`${kind}, not cross-origin isolated: http://127.0.0.1:${plain.address().port}/`);
      const got = await inBrowser(kind, `http://127.0.0.1:${plain.address().port}/`);
      await checkRun(`${kind} (not isolated)`, got, false);
      check(/cross-origin isolated/.test(got.init?.reason ?? ""), `${kind} (not isolated): the reason says so`);
    } finally {
      plain.close();
    }
  }
  console.log(`example: ${passes} passed, ${failures} failed`);
  return failures === 0 ? 0 : 1;
}

let code;
try {
  code = await main();
} catch (e) {
  console.error(`example test: ${e.stack || e}`);
  code = 1;
}
process.exit(code);
