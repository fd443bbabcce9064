// Launches the system's browser for the headless scripts (browser.mjs, the zkbench-prover
// example's test) through puppeteer-core — never a downloaded browser:
//   chromium: Debian's chromium (or CHROMIUM=...), over the DevTools protocol;
//   firefox:  Debian's firefox-esr (or FIREFOX=...), over WebDriver BiDi.
import { spawnSync } from "node:child_process";

/** The browsers the scripts drive. */
export const BROWSERS = ["chromium", "firefox"];

const candidates = {
  chromium: () => [process.env.CHROMIUM, "chromium", "chromium-browser", "google-chrome"],
  firefox: () => [process.env.FIREFOX, "firefox-esr", "firefox"],
};

const install = {
  chromium: "apt-get install chromium; or set CHROMIUM",
  firefox: "apt-get install firefox-esr; or set FIREFOX",
};

/** The executable of `kind` on PATH, or null. */
export function findBrowser(kind) {
  for (const name of candidates[kind]().filter(Boolean)) {
    const r = spawnSync("sh", ["-c", `command -v "${name}"`], { encoding: "utf8" });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return null;
}

/** Why `kind` cannot be launched (not one of BROWSERS, or not installed), or null. */
export function missingBrowser(kind) {
  if (!BROWSERS.includes(kind)) return `unknown browser ${JSON.stringify(kind)}; accepted: ${BROWSERS.join(", ")}`;
  return findBrowser(kind) ? null : `no ${kind} found (${install[kind]})`;
}

/** `name=value` pairs, space-separated, as Firefox preferences (`true`, `false` and integers
 * typed; anything else a string); an entry without `=` is an error that says so. */
export function firefoxPrefs(text) {
  const prefs = {};
  for (const entry of text.split(/\s+/).filter(Boolean)) {
    const at = entry.indexOf("=");
    if (at <= 0) throw new Error(`ZKBENCH_FIREFOX_PREFS: ${JSON.stringify(entry)} is not name=value`);
    const v = entry.slice(at + 1);
    prefs[entry.slice(0, at)] = v === "true" ? true : v === "false" ? false : /^-?\d+$/.test(v) ? Number(v) : v;
  }
  return prefs;
}

/** puppeteer-core's Browser for `kind` (headless); `protocolTimeoutMs` bounds one call. */
export async function launchBrowser(kind, { protocolTimeoutMs = 600000 } = {}) {
  const why = missingBrowser(kind);
  if (why) throw new Error(why);
  process.env.PUPPETEER_SKIP_DOWNLOAD = "1";
  const { default: puppeteer } = await import("puppeteer-core");
  const executablePath = findBrowser(kind);
  if (kind === "firefox") {
    return puppeteer.launch({
      browser: "firefox",
      executablePath,
      headless: true,
      protocol: "webDriverBiDi",
      protocolTimeout: protocolTimeoutMs,
      // no update checks, telemetry or other traffic out of this machine
      extraPrefsFirefox: {
        "app.update.enabled": false,
        "browser.shell.checkDefaultBrowser": false,
        "datareporting.policy.dataSubmissionEnabled": false,
        "network.captive-portal-service.enabled": false,
        // ZKBENCH_FIREFOX_PREFS: more preferences, space-separated name=value (experiments,
        // e.g. javascript.options.wasm_wide_arithmetic=true)
        ...firefoxPrefs(process.env.ZKBENCH_FIREFOX_PREFS || ""),
      },
    });
  }
  return puppeteer.launch({
    executablePath,
    headless: true,
    // root in containers has no user namespaces for the sandbox; no traffic out of the machine
    args: [
      "--no-sandbox",
      "--disable-dev-shm-usage",
      "--enable-features=SharedArrayBuffer",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      // ZKBENCH_CHROMIUM_FLAGS: more switches, space-separated (experiments, e.g.
      // --js-flags=--experimental-wasm-wide-arithmetic)
      ...(process.env.ZKBENCH_CHROMIUM_FLAGS || "").split(/\s+/).filter(Boolean),
    ],
    protocolTimeout: protocolTimeoutMs,
  });
}
