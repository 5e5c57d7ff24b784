// Checks the Dockerfile's runtime packages against Debian 12's archive: each
// has an install candidate, and together (with what every Debian image has)
// they hold every shared library the built server links. Needs this machine's
// apt metadata to be Debian 12's; skips otherwise.
// Usage: node check-debian-packages.mjs SERVER_BINARY
import fs from "node:fs";
import { Checks, expect, readDockerfile, run, runtimePackages, skip } from "./lib.mjs";

const binary = process.argv[2];
const osRelease = fs.existsSync("/etc/os-release") ? fs.readFileSync("/etc/os-release", "utf8") : "";
if (!/^VERSION_CODENAME=bookworm$/m.test(osRelease)) skip("this machine is not Debian 12, so its apt metadata says nothing about Debian 12");
const probe = run("apt-cache", ["policy", "libc6"]);
if (!probe.found) skip("apt-cache is not installed");
if (!/Candidate: (?!\(none\))/.test(probe.stdout)) skip("no apt metadata (run apt-get update)");

const packages = runtimePackages(readDockerfile().at(-1));
const checks = new Checks("Debian 12 runtime packages");

// One apt-cache call for all (each costs about a second): "name:" then
// "  Candidate: version" per known package.
const candidates = new Map();
let current = null;
for (const line of run("apt-cache", ["policy", ...packages]).stdout.split("\n")) {
  const header = line.match(/^(\S+):$/);
  if (header) current = header[1];
  const candidate = line.match(/^ {2}Candidate: (\S+)/);
  if (candidate && current) candidates.set(current, candidate[1]);
}
for (const name of packages) {
  checks.check(`${name} has an install candidate in Debian 12`, () => {
    const candidate = candidates.get(name);
    expect(candidate && candidate !== "(none)", `apt-cache policy ${name}: ${candidate ?? "unknown package"}`);
  });
}

// Every package those pull in; "apt" stands for the base image, which always
// has it and so also libc6, libstdc++6 and libgcc-s1.
function closure(names) {
  const result = run("apt-cache", [
    "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
    "--no-breaks", "--no-replaces", "--no-enhances", ...names,
  ]);
  return new Set(result.stdout.split("\n").filter((l) => /^\S/.test(l)).map((l) => l.trim()));
}

checks.check("the packages hold every library foxgeese-server links", () => {
  const dynamic = run("readelf", ["-d", binary]);
  expect(dynamic.found && dynamic.status === 0, `readelf -d ${binary} failed: ${dynamic.stderr ?? dynamic.error}`);
  const needed = [...dynamic.stdout.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);
  expect(needed.length, "the binary needs no shared library? (static build)");
  const available = closure([...packages, "apt"]);
  // The packages holding each library on this (build) machine, in one dpkg
  // call: "libfmt9:amd64: /usr/lib/x86_64-linux-gnu/libfmt.so.9". A soname
  // can have several (lib32 copies); one of them must be installed.
  const owners = new Map(needed.map((so) => [so, []]));
  for (const line of run("dpkg", ["-S", ...needed.map((so) => `*/${so}`)]).stdout.split("\n")) {
    const match = line.match(/^([^:,\s]+)[^ ]*: (\S+)$/);
    owners.get(match?.[2].split("/").at(-1))?.push(match[1]);
  }
  const missing = needed
    .filter((so) => !owners.get(so).some((p) => available.has(p)))
    .map((so) => `${so} (${owners.get(so).join(" or ") || "no package"})`);
  expect(!missing.length, `not installed by the runtime stage: ${missing.join(", ")}`);
});

checks.finish();
