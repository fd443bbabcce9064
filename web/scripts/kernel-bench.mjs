#!/usr/bin/env node
// The MSM's vector kernel on its own, in a headless browser: the fixed-base MSM of random BN254
// points (G1 and G2) with the kernel on and off in turn, in one page, through the module's
// `benchMsmKernel` (crates/wasm/src/kernel_bench.rs). For judging a kernel change by a ratio
// taken in one run rather than by whole proofs on a noisy machine.
//
//   node web/scripts/kernel-bench.mjs [--module web/public/pkg-mt-fma] [--browser chromium|firefox]
//        [--log2 14] [--rounds 3] [--repeat 4] [--threads 1]
//
// --module: a wasm-bindgen `--target web` output directory of zkbench-wasm (default the
// relaxed-SIMD threaded build of scripts/build-web.sh); a threaded one runs on --threads
// workers (the page is served cross-origin isolated; its main thread drives the module, so
// times at more than one thread are no scaling figure). G1 runs 2^log2 points, G2 2^(log2-2).
// Each of --repeat page-side calls times --rounds MSMs each way, alternating, and keeps the
// fastest; the output is the fastest over all calls, and their ratio (kernel / scalar).
// Exit status: 0 on success, 1 on an error, 2 on a bad argument, 3 when the browser or the
// module is missing.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchBrowser, missingBrowser } from "./launch.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function args() {
  const o = { module: path.join(repo, "web/public/pkg-mt-fma"), browser: "chromium", log2: 14, rounds: 3, repeat: 4, threads: 1 };
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) {
    const [k, v] = [a[i], a[i + 1]];
    const int = (lo, hi) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < lo || n > hi) {
        console.error(`${k} ${v}: an integer from ${lo} to ${hi}`);
        process.exit(2);
      }
      return n;
    };
    if (k === "--module") o.module = path.resolve(v);
    else if (k === "--browser") o.browser = v;
    else if (k === "--log2") o.log2 = int(6, 20);
    else if (k === "--rounds") o.rounds = int(1, 100);
    else if (k === "--repeat") o.repeat = int(1, 100);
    else if (k === "--threads") o.threads = int(1, 64);
    else {
      console.error(`unknown argument ${k}; accepted: --module, --browser, --log2, --rounds, --repeat, --threads`);
      process.exit(2);
    }
  }
  return o;
}

const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

/** `/` is the generated page, `/m/...` the module directory; cross-origin isolated. */
function serve(dir, page) {
  const server = http.createServer((req, res) => {
    const headers = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
    const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (url === "/") return res.writeHead(200, { ...headers, "Content-Type": "text/html" }).end(page);
    const file = path.join(dir, path.normalize(url.replace(/^\/m\//, "/")));
    if (!url.startsWith("/m/") || !file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile())
      return res.writeHead(404, headers).end();
    res.writeHead(200, { ...headers, "Content-Type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const PAGE = (threads) => `<!doctype html><meta charset="utf-8"><script type="module">
const m = await import("/m/zkbench_wasm.js");
await m.default();
if (m.initThreadPool) await m.initThreadPool(${threads});
window.kernel = { build: JSON.parse(m.buildInfo()), run: (log2, g2, rounds) => JSON.parse(m.benchMsmKernel(log2, g2, rounds)) };
</script>`;

async function main() {
  const o = args();
  const why = missingBrowser(o.browser);
  if (why || !fs.existsSync(path.join(o.module, "zkbench_wasm.js"))) {
    console.error(why ?? `no zkbench-wasm module at ${o.module} (bash scripts/build-web.sh builds it)`);
    process.exit(3);
  }
  const server = await serve(o.module, PAGE(o.threads));
  const browser = await launchBrowser(o.browser);
  try {
    const page = await browser.newPage();
    page.on("pageerror", (e) => console.error(`[page error] ${e.message}`));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction("window.kernel !== undefined", { timeout: 120000 });
    const build = await page.evaluate(() => window.kernel.build);
    console.log(`${await browser.version()} · module ${path.relative(repo, o.module)} (msm_kernel ${build.msm_kernel}, parallel ${build.parallel}) · ${o.threads} thread(s)`);
    for (const [curve, log2] of [["G1", o.log2], ["G2", o.log2 - 2]]) {
      let best = { kernel_ms: Infinity, scalar_ms: Infinity };
      for (let i = 0; i < o.repeat; i++) {
        const r = await page.evaluate((a, b, c) => window.kernel.run(a, b, c), log2, curve === "G2", o.rounds);
        best = { kernel_ms: Math.min(best.kernel_ms, r.kernel_ms), scalar_ms: Math.min(best.scalar_ms, r.scalar_ms) };
      }
      const ratio = (best.kernel_ms / best.scalar_ms).toFixed(3);
      console.log(`${curve} 2^${log2} points: kernel ${best.kernel_ms.toFixed(1)} ms, scalar ${best.scalar_ms.toFixed(1)} ms, kernel / scalar ${ratio}`);
    }
  } finally {
    await browser.close().catch(() => {});
    server.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
