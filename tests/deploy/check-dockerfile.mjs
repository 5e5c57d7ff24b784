// Checks deploy/docker/Dockerfile against the repository: it builds with the
// README's scripts (not a recipe of its own), and its runtime stage matches
// the server's --help and the manifests' expectations. Building and running
// it is smoke.sh's job (podman, minutes); this only checks that it is there.
// Usage: node check-dockerfile.mjs SERVER_BINARY
import fs from "node:fs";
import path from "node:path";
import { Checks, exec, expect, readDockerfile, repoRoot, runtimePackages, serverHelp } from "./lib.mjs";

const binary = process.argv[2];
const help = serverHelp(binary);
const stages = readDockerfile();
const checks = new Checks("Dockerfile");
const read = (file) => fs.readFileSync(path.join(repoRoot, file), "utf8");

expect(stages.length >= 2, "expected a build stage and a runtime stage");
const build = stages[0];
const runtime = stages.at(-1);
const all = (stage, keyword) => stage.instructions.filter((i) => i.keyword === keyword);
const last = (stage, keyword) => all(stage, keyword).at(-1)?.args;
const buildRuns = all(build, "RUN").map((i) => i.args);

checks.check("build on Debian 12, run on Debian 12 slim", () => {
  expect(["debian:12", "debian:bookworm"].includes(build.image), `build stage FROM ${build.image}`);
  expect(["debian:12-slim", "debian:bookworm-slim"].includes(runtime.image), `runtime stage FROM ${runtime.image}`);
});

checks.check("the build stage runs the README's scripts and no recipe of its own", () => {
  const commands = buildRuns.flatMap((r) => r.split(/&&|;/).map((c) => c.trim()));
  expect(commands.some((c) => c.startsWith("deploy/local/install-deps.sh")), "install-deps.sh is not run");
  expect(commands.some((c) => c.startsWith("deploy/local/build.sh")), "build.sh is not run");
  const ownRecipe = commands.filter((c) => /^(apt-get|apt|cmake|ninja|make|g\+\+|c\+\+|npm)\b/.test(c));
  expect(!ownRecipe.length, `commands the scripts should own: ${ownRecipe.join("; ")}`);
  // The scripts are the README's: it names install-deps.sh, and its two
  // commands (run.sh, test.sh) build with build.sh.
  expect(read("README.md").includes("deploy/local/install-deps.sh"), "README.md does not mention install-deps.sh");
  for (const script of ["deploy/local/run.sh", "deploy/local/test.sh"]) {
    expect(read(script).includes("deploy/local/build.sh"), `${script} does not use build.sh`);
  }
});

checks.check("build.sh gets only real CMake options, with tests and benchmarks off", () => {
  const command = buildRuns.flatMap((r) => r.split("&&")).find((c) => c.includes("deploy/local/build.sh"));
  const given = Object.fromEntries([...command.matchAll(/-D(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  const declared = new Set([...read("CMakeLists.txt").matchAll(/^\s*option\((\w+)/gm)].map((m) => m[1]));
  for (const name of Object.keys(given)) expect(declared.has(name), `-D${name} is not an option() in CMakeLists.txt`);
  expect(given.FOXGEESE_TESTS === "OFF", "-DFOXGEESE_TESTS=OFF is missing");
  expect(given.FOXGEESE_BENCHMARKS !== "ON", "benchmarks must stay off");
  expect(read("deploy/local/build.sh").includes('"$@"'), "build.sh does not pass extra arguments to cmake");
});

checks.check("the runtime stage copies the binary build.sh produces", () => {
  const buildDir = read("deploy/local/build.sh").match(/FOXGEESE_BUILD_DIR:-([\w.-]+)/)?.[1];
  expect(buildDir, "cannot find build.sh's default build directory");
  expect(buildRuns.some((r) => r.includes(`${buildDir}/service/foxgeese-server`)), `the build stage never touches ${buildDir}/service/foxgeese-server`);
  const copy = all(runtime, "COPY").find((i) => i.args.startsWith("--from="));
  expect(copy, "no COPY --from the build stage");
  const destination = copy.args.split(" ").at(-1);
  const entrypoint = exec(last(runtime, "ENTRYPOINT") ?? "[]");
  expect(entrypoint[0] === destination, `ENTRYPOINT ${entrypoint[0]} is not the copied ${destination}`);
  expect(path.basename(destination) === "foxgeese-server", `copied to ${destination}`);
});

checks.check("ENTRYPOINT foxgeese-server, CMD serve", () => {
  expect(/^\[/.test(last(runtime, "ENTRYPOINT")), "ENTRYPOINT must be exec form so SIGTERM reaches the server");
  expect(JSON.stringify(exec(last(runtime, "CMD"))) === '["serve"]', `CMD ${last(runtime, "CMD")}`);
});

checks.check("runs as a fixed non-root uid:gid", () => {
  const user = last(runtime, "USER");
  expect(/^[1-9]\d*:[1-9]\d*$/.test(user ?? ""), `USER ${user}: want numeric uid:gid (runAsNonRoot needs a number)`);
  const [uid, gid] = user.split(":");
  const setup = all(runtime, "RUN").map((i) => i.args).join(" ");
  expect(setup.includes(`--uid ${uid}`) && setup.includes(`--gid ${gid}`), "the user and group are not created with those ids");
});

checks.check("ENV names are server variables; logs are JSON", () => {
  const envs = all(runtime, "ENV").flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  for (const [name] of envs) expect(help.envs.has(name) || !name.startsWith("FOXGEESE_"), `${name} is not in --help`);
  expect(envs.some(([n, v]) => n === "FOXGEESE_LOG_FORMAT" && v === "json"), "FOXGEESE_LOG_FORMAT=json is not set");
});

checks.check("EXPOSE the server's default gRPC and HTTP ports", () => {
  const exposed = all(runtime, "EXPOSE").flatMap((i) => i.args.split(" ")).map((p) => p.replace(/\/tcp$/, ""));
  for (const flag of ["--grpc-port", "--http-port"]) {
    const port = help.flags.get(flag).defaultValue;
    expect(exposed.includes(port), `${flag} default ${port} is not exposed (${exposed})`);
  }
});

checks.check("HEALTHCHECK asks /healthz with a tool the image installs", () => {
  const healthcheck = last(runtime, "HEALTHCHECK");
  expect(healthcheck?.includes("/healthz"), `HEALTHCHECK ${healthcheck}`);
  const tool = healthcheck.match(/CMD\s+\[?"?(\S+?)"?[\s,]/)?.[1];
  expect(runtimePackages(runtime).includes(tool), `${tool} is not installed in the runtime stage`);
});

checks.check("the runtime stage installs no PostgreSQL and no recommends", () => {
  const packages = runtimePackages(runtime);
  expect(packages.length, "no apt-get install in the runtime stage");
  expect(!packages.some((p) => /^postgresql/.test(p)), "PostgreSQL must not be in the image (it needs DATABASE_URL)");
  const installs = all(runtime, "RUN").filter((i) => / install /.test(i.args));
  expect(installs.every((i) => i.args.includes("--no-install-recommends")), "apt-get install without --no-install-recommends");
});

checks.check(".dockerignore keeps build trees, node_modules and .git out of the context", () => {
  const ignored = read(".dockerignore").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  for (const pattern of [".git", "build", "build-*", "**/node_modules"]) {
    expect(ignored.includes(pattern), `.dockerignore lacks ${pattern}`);
  }
});

checks.check("smoke.sh, which builds and runs the image, is executable and the operations guide says when it passed", () => {
  const smoke = "deploy/docker/smoke.sh";
  const mode = fs.statSync(path.join(repoRoot, smoke)).mode;
  expect(mode & 0o100, `${smoke} is not executable`);
  expect(read(smoke).includes("deploy/docker/Dockerfile"), `${smoke} does not build deploy/docker/Dockerfile`);
  // The image has its section in the operations guide.
  const guide = "docs/operations.md";
  const text = read(guide);
  expect(text.includes(smoke), `${guide} does not name ${smoke}`);
  expect(/last\s+passed[^.]*\d{4}-\d\d-\d\d/.test(text), `${guide} does not date when ${smoke} last passed`);
});

checks.finish();
