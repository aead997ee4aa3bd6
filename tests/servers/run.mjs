// Test servers by hand (as root; install them first with tests/servers/install.mjs):
//
//   node tests/servers/run.mjs start [ftp ftps sftp s3 webdav] [--base-dir DIR]
//       starts the named servers (default: all), prints how to reach them as JSON on stdout and
//       runs until Ctrl+C (or SIGTERM), then stops them and removes their scratch folder.
//   node tests/servers/run.mjs stop [--base-dir DIR]
//       stops every `run.mjs start` of this machine, and cleans up after runs whose owner died
//       without stopping its servers. Servers owned by another live process (a test run) are left alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setInterval, clearInterval } from "node:timers";
import { setTimeout as sleep } from "node:timers/promises";
import { readProcStat, SCRATCH_PREFIX, SERVER_NAMES, startServers, STATE_FILE } from "./servers.mjs";

const [command, ...rest] = process.argv.slice(2);
const baseDirAt = rest.indexOf("--base-dir");
const baseDir = baseDirAt >= 0 ? rest[baseDirAt + 1] : os.tmpdir();
const names = baseDirAt >= 0 ? rest.filter((_, i) => i !== baseDirAt && i !== baseDirAt + 1) : rest;
const usage = `usage: node tests/servers/run.mjs start [${SERVER_NAMES.join(" ")}] [--base-dir DIR] | stop [--base-dir DIR]`;

if (command === "start") await start();
else if (command === "stop") await stop();
else {
  console.error(usage);
  process.exit(2);
}

async function start() {
  const started = Date.now();
  let servers;
  try {
    servers = await startServers({ which: names.length ? names : SERVER_NAMES, baseDir });
  } catch (error) {
    console.error(`✖ ${error.message}`);
    process.exit(1);
  }
  console.log(JSON.stringify(servers, null, 2));
  console.error(`✔ ${Object.keys(servers).filter((key) => SERVER_NAMES.includes(key)).join(", ")} running `
    + `(started in ${((Date.now() - started) / 1000).toFixed(1)} s; scratch folder ${servers.dir}). Ctrl+C stops them.`);
  const keepAlive = setInterval(() => {}, 1 << 30);
  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the test servers…`);
    try {
      await servers.stop();
      console.error("✔ stopped");
    } catch (error) {
      console.error(`✖ ${error.message}`);
      process.exitCode = 1;
    }
    clearInterval(keepAlive);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => shutdown(signal));
}

/** The process is the one that was recorded (a PID can be reused after it exits). */
function isAlive(pid, startTime) {
  return readProcStat(pid)?.startTime === startTime;
}

async function stop() {
  const dirs = fs.readdirSync(baseDir).filter((name) => name.startsWith(SCRATCH_PREFIX)).map((name) => path.join(baseDir, name));
  if (dirs.length === 0) console.log(`No test servers in ${baseDir}.`);
  for (const dir of dirs) {
    const stateFile = path.join(dir, STATE_FILE);
    if (!fs.existsSync(stateFile)) {
      console.log(`${dir}: no ${STATE_FILE}, skipped (a start in progress?)`);
      continue;
    }
    const { owner, groups } = JSON.parse(fs.readFileSync(stateFile, "utf8"));
    if (isAlive(owner.pid, owner.startTime)) {
      if (!String(owner.argv[1]).endsWith(path.join("tests", "servers", "run.mjs"))) {
        console.log(`${dir}: in use by process ${owner.pid} (${owner.argv.slice(1).join(" ")}), left alone`);
        continue;
      }
      console.log(`${dir}: stopping run.mjs (pid ${owner.pid})`);
      process.kill(owner.pid, "SIGTERM");
      const deadline = Date.now() + 15_000;
      while (fs.existsSync(dir) && Date.now() < deadline) await sleep(50);
      console.log(fs.existsSync(dir) ? `✖ ${dir} still there after 15 s` : "✔ stopped");
      continue;
    }
    // The owner died without stopping its servers: end what is left of the groups it recorded (only
    // processes started after the group's leader, so a reused process group ID is never hit).
    for (const group of groups) {
      for (const entry of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
        const stat = readProcStat(Number(entry));
        if (stat && stat.state !== "Z" && stat.pgrp === group.pgid && Number(stat.startTime) >= Number(group.startTime)) {
          console.log(`${dir}: killing leftover ${group.name} process ${entry} (${stat.command})`);
          try {
            process.kill(Number(entry), "SIGKILL");
          } catch (error) {
            if (error.code !== "ESRCH") throw error;
          }
        }
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(`✔ removed ${dir}`);
  }
}
