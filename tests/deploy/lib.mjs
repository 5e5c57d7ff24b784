// Shared by the deploy checks: rendering kustomizations, reading the
// Dockerfile and the server's --help, and a small pass/fail reporter.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

export const testsDir = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(testsDir, "../..");
export const k8sDir = path.join(repoRoot, "deploy/k8s");
export const dockerfilePath = path.join(repoRoot, "deploy/docker/Dockerfile");

// CTest's SKIP_RETURN_CODE for these tests.
export const SKIP = 77;

export function skip(reason) {
  console.log(`SKIP: ${reason}`);
  process.exit(SKIP);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 << 20, ...options });
  return { ...result, found: !(result.error && result.error.code === "ENOENT") };
}

// Renders a kustomization (a directory under deploy/k8s) into its objects.
// No kubectl means no render: that skips the test rather than failing it.
export function render(kustomization) {
  const dir = path.join(k8sDir, kustomization);
  const result = run("kubectl", ["kustomize", dir]);
  if (!result.found) skip("kubectl is not installed, so the manifests cannot be rendered");
  if (result.status !== 0) {
    throw new Error(`kubectl kustomize ${dir} failed:\n${result.stderr}`);
  }
  return parseAllDocuments(result.stdout)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`bad YAML from kustomize: ${doc.errors[0].message}`);
      return doc.toJS();
    })
    .filter((object) => object !== null);
}

export const idOf = (o) => `${o.kind}/${o.metadata?.name}`;

// Runs named checks, printing one line each and a closing count; exits 1
// when any failed. A check fails by throwing (or by failing an assertion).
export class Checks {
  constructor(title) {
    this.title = title;
    this.passed = 0;
    this.failed = 0;
  }

  check(name, body) {
    try {
      body();
      this.passed++;
      console.log(`ok - ${name}`);
    } catch (error) {
      this.failed++;
      console.log(`not ok - ${name}\n    ${String(error.message).replaceAll("\n", "\n    ")}`);
    }
  }

  finish() {
    console.log(`${this.title}: ${this.passed} passed, ${this.failed} failed`);
    process.exit(this.failed ? 1 : 0);
  }
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// The server's --help, read into flags and variables (tests/docs reads it too,
// without this file's npm packages).
export { serverHelp } from "./server-help.mjs";

// The Dockerfile as stages of instructions; continuation lines joined and
// comments dropped.
export function readDockerfile(file = dockerfilePath) {
  const lines = [];
  let pending = "";
  for (const raw of fs.readFileSync(file, "utf8").split("\n")) {
    // Docker drops comment lines, also in the middle of a continued RUN.
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(/\s+$/, "");
    if (line.endsWith("\\")) {
      pending += line.slice(0, -1) + " ";
      continue;
    }
    const full = (pending + line).trim();
    pending = "";
    if (full) lines.push(full);
  }
  const stages = [];
  for (const line of lines) {
    const [, keyword, rest] = line.match(/^(\S+)\s*(.*)$/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.replace(/\s+/g, " ") };
    if (instruction.keyword === "FROM") {
      const [, image, name] = rest.match(/^(\S+)(?:\s+AS\s+(\S+))?/i);
      stages.push({ image, name: name ?? null, instructions: [] });
    } else if (stages.length) {
      stages.at(-1).instructions.push(instruction);
    }
  }
  return stages;
}

// The packages the runtime stage installs with apt-get.
export function runtimePackages(stage) {
  const packages = [];
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== "RUN") continue;
    for (const command of args.split(/&&|;/)) {
      const words = command.trim().split(" ");
      const at = words.indexOf("install");
      if (words[0] !== "apt-get" || at < 0) continue;
      packages.push(...words.slice(at + 1).filter((w) => w && !w.startsWith("-")));
    }
  }
  return packages;
}

export function exec(args) {
  // ["a", "b"] (exec form) or a shell string.
  try {
    const parsed = JSON.parse(args);
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // shell form
  }
  return ["/bin/sh", "-c", args];
}
