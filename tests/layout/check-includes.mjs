// The include directions of docs/architecture.md, checked: each folder
// includes only itself and the folders below it, so a dependency that runs
// back up (the rules needing the search, the core needing a transport) fails
// here instead of growing unseen.
// Usage: node check-includes.mjs ROOT
import fs from "node:fs";
import path from "node:path";

// Each folder and what it may include besides itself.
const allowed = {
    "engine/rules": [],
    "engine/search": ["engine/rules"],
    "engine/record": ["engine/rules"],
    "engine/tablebase": ["engine/rules"],
    "storage": ["engine/rules"],
    "service/runtime": [],
    "service/core": ["engine/rules", "engine/search", "engine/record", "engine/tablebase", "storage",
                     "service/runtime"],
    "service/watch": ["engine/rules", "storage", "service/runtime", "service/core"],
    "service/call": ["service/runtime", "service/core"],
    "service/preview": ["engine/rules", "service/runtime", "service/core"],
    "service/grpc": ["engine/rules", "engine/search", "engine/record", "engine/tablebase", "storage", "service/runtime",
                     "service/core", "service/watch", "service/call"],
    "service/rest": ["engine/rules", "engine/search", "engine/record", "engine/tablebase", "storage", "service/runtime",
                     "service/core", "service/watch", "service/call", "service/preview"],
    "service/app": ["engine/rules", "engine/search", "engine/record", "engine/tablebase", "storage", "service/runtime",
                    "service/core", "service/watch", "service/call", "service/preview", "service/grpc",
                    "service/rest"],
};
// The folders an include can name; anything else (the generated protos,
// libraries) is not checked here.
const known = [...Object.keys(allowed), "tools", "bench", "tests"];

const root = process.argv[2];
if (!root) throw new Error("usage: node check-includes.mjs ROOT");

function* sources(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* sources(full);
        else if (/\.(h|cpp)$/.test(entry.name)) yield full;
    }
}

const problems = [];
let checked = 0;
for (const [folder, below] of Object.entries(allowed)) {
    for (const file of sources(path.join(root, folder))) {
        const lines = fs.readFileSync(file, "utf8").split("\n");
        lines.forEach((line, i) => {
            const match = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
            if (!match) return;
            checked++;
            const target = known.find((k) => match[1].startsWith(`${k}/`));
            if (!target || target === folder || below.includes(target)) return;
            problems.push(`${path.relative(root, file)}:${i + 1} includes ${match[1]}: ${folder} may include only ${[folder, ...below].join(", ")}`);
        });
    }
}
if (checked === 0) throw new Error(`no includes found under ${root}: wrong root?`);
if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
}
console.log(`${checked} includes checked, every one points down`);
