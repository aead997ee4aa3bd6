// `npm test`: installs what the tests need when it is missing, then runs every check in order:
// typecheck, lint, unit and workerd tests, the real protocol servers, the build, and the
// end-to-end tests in Chromium.
// Prints one closing line "tests: N passed, M failed" and exits non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const nodeModules = path.join(root, "node_modules");

// A fresh clone: install first, then run again on the project's own Node (24, from node_modules).
if (!existsSync(path.join(nodeModules, ".bin", "wrangler"))) {
  console.log("Installing npm packages (npm ci)…");
  const ci = spawnSync("npm", ["ci"], { cwd: root, stdio: "inherit" });
  if (ci.status !== 0) process.exit(ci.status ?? 1);
}
const projectNode = path.join(nodeModules, ".bin", "node");
if (!process.env.CMS_TEST_REEXEC && existsSync(projectNode)) {
  const again = spawnSync(projectNode, [import.meta.filename, ...process.argv.slice(2)], {
    cwd: root, stdio: "inherit", env: { ...process.env, CMS_TEST_REEXEC: "1" },
  });
  process.exit(again.status ?? 1);
}

const { buildIfNeeded, run, toolEnv } = await import("./lib.mjs");
const { ensureChromium } = await import("./system-packages.mjs");

const only = process.argv.slice(2); // e.g. `npm test -- unit workers`
const wants = (step) => only.length === 0 || only.includes(step);
const reports = path.join(root, "test-results");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const failures = [];
/** What failed, with the first lines of why: printed again at the very end, where a CI log's tail shows it. */
const details = [];
let passed = 0;
let failed = 0;

/**
 * Runs one check. With `keepTail`, its output is also kept, and its last lines are repeated in the
 * closing summary when it fails (typecheck, lint, installs: nothing else reports them).
 */
function step(name, command, args, { keepTail = false } = {}) {
  if (!wants(name) && !name.startsWith("install")) return;
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  let code;
  if (keepTail) {
    const result = spawnSync(command, args, { cwd: root, env: toolEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
    process.stdout.write(output);
    code = result.status ?? 1;
    if (code !== 0) details.push(`  ✖ ${name}\n${output.trimEnd().split("\n").slice(-25).map((line) => `      ${line}`).join("\n")}`);
  } else {
    code = run(command, args, { env: toolEnv });
  }
  console.log(`━━ ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) failures.push(name);
  return code;
}

/** Runs one vitest project with a JSON report and adds its counts to the totals. */
function vitestStep(project) {
  const report = path.join(reports, `${project}.json`);
  const code = step(project, "vitest", ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
  if (code === undefined) return;
  if (existsSync(report)) {
    const result = JSON.parse(readFileSync(report, "utf8"));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    if (result.numTotalTests === 0) failures.push(`${project} (ran no tests)`);
    details.push(...failureDetails(project, result));
  } else if (code !== 0) {
    failed += 1; // the runner itself failed before reporting
  }
}

/** Failed tests, and files that failed outside any test (a hook, an import), from a vitest JSON report. */
function failureDetails(project, result) {
  // eslint-disable-next-line no-control-regex -- terminal colour codes are what is removed
  const firstLines = (text, n = 6) => String(text ?? "").replace(/\x1b\[[0-9;]*m/g, "").split("\n").filter((line) => line.trim()).slice(0, n).map((line) => `      ${line.slice(0, 400)}`).join("\n");
  const out = [];
  for (const file of result.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) out.push(`  ✖ [${project}] ${name} › ${test.fullName}\n${firstLines(test.failureMessages?.[0])}`);
    if (file.status === "failed" && failedTests.length === 0) out.push(`  ✖ [${project}] ${name} (outside any test)\n${firstLines(file.message, 12)}`);
  }
  return out;
}

step("typecheck", "npm", ["run", "--silent", "typecheck"], { keepTail: true });
step("lint", "npm", ["run", "--silent", "lint"], { keepTail: true });
vitestStep("unit");
vitestStep("workers");
if (wants("servers") || wants("agent")) {
  // Real FTP/FTPS, SFTP, S3 and WebDAV servers for the connection agent (Debian packages, as root).
  if (step("install test servers", "node", ["tests/servers/install.mjs"], { keepTail: true }) === 0) {
    if (wants("servers")) vitestStep("servers");
    if (wants("agent")) vitestStep("agent");
  }
}
if (wants("e2e")) {
  ensureChromium();
  buildIfNeeded();
  vitestStep("e2e");
}

if (details.length) console.log(`\n━━ what failed ━━\n${details.join("\n")}`);
console.log(`\n${failures.length ? `✖ failed: ${failures.join(", ")}` : "✔ every check passed"}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
