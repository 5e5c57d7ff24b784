// The npm packages the web tests use are installed, at exactly the versions
// their lock files pin, and this Node.js is new enough for them (deploy/local/install-deps.sh runs `npm ci` in each
// directory; the tests themselves never install anything).
// Usage: node installed-tools.test.mjs DIR...
import fs from "node:fs";
import path from "node:path";
import { check, run } from "./lib.mjs";

const dirs = process.argv.slice(2);
const nodeMajor = Number(process.versions.node.split(".")[0]);

await run("web tools installed", async () => {
    check(dirs.length > 0, "no directories given");
    for (const dir of dirs) {
        const lock = JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8"));
        const missing = [];
        let checked = 0;
        for (const [where, entry] of Object.entries(lock.packages)) {
            if (where === "" || entry.link) continue;
            const manifest = path.join(dir, where, "package.json");
            if (!fs.existsSync(manifest)) {
                // Optional packages for other platforms are left out.
                if (!entry.optional) missing.push(`${where} (not installed)`);
                continue;
            }
            const installed = JSON.parse(fs.readFileSync(manifest, "utf8")).version;
            if (installed !== entry.version) missing.push(`${where} ${installed}, the lock pins ${entry.version}`);
            // The oldest Node.js major any alternative of engines.node allows.
            const majors = [...(entry.engines?.node ?? "").matchAll(/>=\s*(\d+)/g)].map((m) => Number(m[1]));
            if (majors.length > 0 && nodeMajor < Math.min(...majors)) {
                missing.push(`${where} needs Node.js ${entry.engines.node}; this is ${process.version}`);
            }
            ++checked;
        }
        check(missing.length === 0,
              `${dir} is not installed as its lock file says; run deploy/local/install-deps.sh:\n  ${missing.join("\n  ")}`);
        check(checked > 0, `${dir}/package-lock.json pins no packages`);
    }
});
