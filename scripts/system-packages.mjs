// Debian packages the tests need, installed with apt when missing (CI and fresh machines run as root).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";
let aptUpdated = false;

export function aptInstall(packages) {
  const run = (args) => spawnSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (!aptUpdated) {
    run(["update", "-qq"]);
    aptUpdated = true;
  }
  const result = run(["install", "-y", "-qq", "--no-install-recommends", ...packages]);
  if (result.status !== 0) throw new Error(`apt-get install ${packages.join(" ")} failed; run it as root or install the packages by hand.`);
}

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log("Installing Chromium for the end-to-end tests…");
  aptInstall(["chromium", "fonts-dejavu-core"]);
}
