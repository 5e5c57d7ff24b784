// Shared by the web tests: their arguments, a real foxgeese-server on free
// ports against the ctest run's throwaway PostgreSQL, headless Chromium, and
// waiting for conditions (never for a fixed time).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

// --name value pairs from the command line (CMake passes them).
export function options(...required) {
    const out = {};
    const argv = process.argv.slice(2);
    for (let i = 0; i < argv.length; i += 2) {
        if (!argv[i].startsWith("--") || argv[i + 1] === undefined) throw new Error(`bad argument ${argv[i]}`);
        out[argv[i].slice(2)] = argv[i + 1];
    }
    for (const name of required) if (!out[name]) throw new Error(`--${name} is required`);
    return out;
}

export class Failure extends Error {}

export function check(condition, message) {
    if (!condition) throw new Failure(message);
}

// Runs a test body; prints what failed (and the server's log, if any) and
// sets the exit status.
export async function run(name, body) {
    const started = Date.now();
    const cleanups = [];
    try {
        await body((cleanup) => cleanups.push(cleanup));
        console.log(`${name}: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (e) {
        console.error(`${name}: FAILED: ${e instanceof Failure ? e.message : e.stack ?? e}`);
        process.exitCode = 1;
    } finally {
        for (const cleanup of cleanups.reverse()) {
            try {
                await cleanup(process.exitCode === 1);
            } catch (e) {
                console.error(`${name}: cleanup failed: ${e}`);
                process.exitCode = 1;
            }
        }
    }
}

// Polls `condition` (sync or async) until it returns something truthy.
export async function waitFor(what, condition, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = await condition();
        if (value) return value;
        if (Date.now() > deadline) throw new Failure(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}

// A port nothing holds right now (free, not reserved), below the kernel's
// ephemeral range: a port the kernel handed out for port 0 could be handed
// again, to an outgoing connection or another test's server, before the
// server bound it. Below the range only tests picking at random meet.
export async function freePort() {
    let low = 32768;
    try {
        low = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || low;
    } catch {
        // not Linux: the default range
    }
    const from = Math.max(1024, low - 12_000);
    for (let attempt = 0; attempt < 1000; ++attempt) {
        const port = from + Math.floor(Math.random() * (low - from));
        const free = await new Promise((resolve) => {
            const probe = net.createServer();
            probe.once("error", () => resolve(false));
            probe.listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
        });
        if (free) return port;
    }
    throw new Error("no free port found below the ephemeral range");
}

// The URL of the run's database: line 1 of the throwaway_pg state file.
export function databaseUrl(stateFile) {
    const url = fs.readFileSync(stateFile, "utf8").split("\n")[0];
    check(url, `${stateFile} names no database (is the postgres fixture running?)`);
    return url;
}

// A new, empty database on the run's cluster, for one server: the lobby and
// the games being played list every public game in the database, so a test
// must not share one with the tests running beside it. psql comes with the
// PostgreSQL the tests run.
export function scratchDatabaseUrl(stateFile, prefix) {
    const url = databaseUrl(stateFile);
    const name = `${prefix.replace(/[^a-z0-9_]/g, "_")}_${process.pid}_${Date.now()}`;
    execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", `CREATE DATABASE ${name} TEMPLATE template0`]);
    const path = url.indexOf("/", url.indexOf("://") + 3);
    const query = url.indexOf("?", path);
    return url.slice(0, path + 1) + name + (query < 0 ? "" : url.slice(query));
}

// Starts foxgeese-server with the web client on, against a database of its
// own (migrated at start-up), and waits until /readyz
// says ready. `register` gets the cleanup that stops it (and prints its log
// when the test failed).
export async function startServer({ binary, pgState, logDir, name, flags = [] }, register) {
    const grpcPort = await freePort();
    let httpPort = await freePort();
    while (httpPort === grpcPort) httpPort = await freePort();
    fs.mkdirSync(logDir, { recursive: true });
    const logPath = path.join(logDir, `${name}.server.log`);
    const log = fs.openSync(logPath, "w");
    const child = spawn(binary, [
        "serve", `--database-url=${scratchDatabaseUrl(pgState, `web_${name}`)}`, "--migrate-on-start",
        "--listen-address=127.0.0.1",
        `--grpc-port=${grpcPort}`, `--http-port=${httpPort}`, "--web-client=true",
        "--drain-seconds=1", "--log-level=warn", ...flags,
    ], { stdio: ["ignore", log, log] });
    let exited = null;
    const exit = new Promise((resolve) => {
        child.once("exit", (code, signal) => resolve((exited = code ?? signal)));
        // A binary that cannot be started never exits: say why instead.
        child.once("error", (e) => resolve((exited = e.message)));
    });
    register(async (failed) => {
        if (exited === null) {
            child.kill("SIGTERM");
            let timer;
            const late = new Promise((resolve) => (timer = setTimeout(() => resolve("late"), 10_000)));
            if ((await Promise.race([exit, late])) === "late") {
                console.error("foxgeese-server ignored SIGTERM for 10 s; killing it");
                child.kill("SIGKILL");
                await exit;
            }
            clearTimeout(timer);
        }
        fs.closeSync(log);
        if (failed) console.error(`--- ${logPath}\n${fs.readFileSync(logPath, "utf8")}`);
    });
    const url = `http://127.0.0.1:${httpPort}`;
    await waitFor("the server to be ready", async () => {
        check(exited === null, `foxgeese-server exited (${exited}) before it was ready`);
        try {
            return (await fetch(`${url}/readyz`)).ok;
        } catch {
            return false;
        }
    }, 60_000);
    return url;
}

// Debian's Chromium, headless. Playwright adds --headless and a fresh
// --user-data-dir itself; the other flags keep Chromium from calling home,
// which a closed network answers with refusals.
export async function launchChromium(register) {
    const { chromium } = await import("playwright-core");
    const executablePath = process.env.FOXGEESE_CHROMIUM ?? "/usr/bin/chromium";
    check(fs.existsSync(executablePath), `${executablePath} is missing: run deploy/local/install-deps.sh`);
    const browser = await chromium.launch({
        executablePath,
        args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    register(() => browser.close());
    return browser;
}

// A screenshot of `page` as OUT/<name>; with FOXGEESE_UPDATE_SCREENSHOTS=1
// also as DOCS/<name> (the source tree's docs/, --docs), so that the
// pictures in the docs show what the client does now.
export async function screenshot(page, name, { out, docs }) {
    const file = path.join(out, name);
    await page.screenshot({ path: file });
    if (process.env.FOXGEESE_UPDATE_SCREENSHOTS === "1") {
        check(docs && fs.existsSync(docs), `--docs ${docs} is not a directory`);
        fs.copyFileSync(file, path.join(docs, name));
    }
}

// Everything a page reports as going wrong: uncaught errors and console
// errors (but those `expected` says the test asked for), for the test to
// check at the end.
export function watchForErrors(page, label, errors, expected = () => false) {
    page.on("pageerror", (e) => errors.push(`${label}: uncaught ${e.message}`));
    page.on("console", (m) => {
        if (m.type() === "error" && !expected(m)) errors.push(`${label}: console ${m.text()}`);
    });
}
