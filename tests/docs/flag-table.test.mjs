// The flag table of docs/operations.md is the server's --help: the same
// flags (none missing, none that the server lacks), each with its
// environment variable and its default. The table is the one headed
// "| flag | environment | default |".
// Usage: node flag-table.test.mjs REPO_ROOT SERVER_BINARY
import fs from "node:fs";
import path from "node:path";
import { serverHelp } from "../deploy/server-help.mjs";
import { check, run } from "../web/lib.mjs";

const [root, binary] = process.argv.slice(2);
const tableFile = "docs/operations.md";

// The table's rows: flag -> { env, defaultValue }, cells without backticks.
function flagTable(text) {
    const lines = text.split("\n");
    const header = lines.findIndex((l) => /^\|\s*flag\s*\|\s*environment\s*\|\s*default\s*\|/.test(l));
    check(header >= 0, `${tableFile} has no table headed "| flag | environment | default |"`);
    const rows = new Map();
    for (const line of lines.slice(header + 2)) {
        if (!line.startsWith("|")) break;
        const cells = line.split("|").slice(1, -1).map((c) => c.trim().replace(/`/g, ""));
        check(!rows.has(cells[0]), `${tableFile} lists ${cells[0]} twice`);
        rows.set(cells[0], { env: cells[1], defaultValue: cells[2] });
    }
    return rows;
}

// A default as --help writes it, without what depends on the machine
// ("(here 2)") or on who runs it (the home directory), and without the
// parentheses --help puts around a description: "(empty: embedded)".
function comparable(text, home) {
    return text
        .replace(/\s*\(here [^)]*\)/, "")
        .replace(home, "~")
        .replace(/^\((.*)\)$/, "$1")
        .trim();
}

// Whether a table cell says a value: as a whole, not inside a longer number
// or word ("8" is not in "80").
function says(cell, value) {
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[^\\w.])${escaped}($|[^\\w])`).test(cell);
}

await run("docs flag table", async () => {
    // A known home, so that a user's default data directory reads as ~/...
    const home = "/home/flag-table-test";
    const env = { ...process.env, HOME: home };
    delete env.XDG_DATA_HOME;
    const help = serverHelp(binary, { env });
    const table = flagTable(fs.readFileSync(path.join(root, tableFile), "utf8"));
    const problems = [];
    for (const [flag, { env: variable, defaultValue }] of help.flags) {
        if (!variable) continue; // --help, --version
        const row = table.get(flag);
        if (!row) {
            problems.push(`${flag} (${variable}) is in --help but not in the table`);
            continue;
        }
        if (row.env !== variable) problems.push(`${flag}: the table says ${row.env}, --help says ${variable}`);
        const expected = comparable(defaultValue, home);
        if (!says(row.defaultValue, expected)) {
            problems.push(`${flag}: the table's default "${row.defaultValue}" does not say --help's "${expected}"`);
        }
    }
    for (const flag of table.keys()) {
        if (!help.flags.get(flag)?.env) problems.push(`${flag} is in the table but foxgeese-server has no such flag`);
    }
    check(table.size >= 10, `only ${table.size} rows read from ${tableFile}`);
    check(problems.length === 0, `${tableFile}'s flag table and foxgeese-server --help differ:\n  ${problems.join("\n  ")}`);
});
