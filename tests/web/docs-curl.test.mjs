// The curl commands in the README and docs/ that send a body also send
// `content-type: application/json`: without it curl sends its form type and
// the server answers 415 UNSUPPORTED_MEDIA_TYPE, not what the example shows.
// Usage: node docs-curl.test.mjs REPO_ROOT
import fs from "node:fs";
import path from "node:path";
import { check, run } from "./lib.mjs";

const root = process.argv[2];

// Each command in the fenced code blocks of a Markdown file, with its
// backslash-continued lines joined.
function commandsIn(text) {
    const commands = [];
    let inBlock = false;
    let pending = "";
    for (const line of text.split("\n")) {
        if (line.trimStart().startsWith("```")) {
            inBlock = !inBlock;
            pending = "";
            continue;
        }
        if (!inBlock) continue;
        const joined = pending + line;
        if (joined.endsWith("\\")) {
            pending = joined.slice(0, -1) + " ";
            continue;
        }
        pending = "";
        commands.push(joined);
    }
    return commands;
}

await run("docs curl examples", async () => {
    const files = ["README.md", ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    let withBody = 0;
    const wrong = [];
    for (const file of files) {
        for (const command of commandsIn(fs.readFileSync(path.join(root, file), "utf8"))) {
            if (!/\bcurl\s/.test(command) || !/\s(-d|--data(-binary|-raw)?)\s/.test(command)) continue;
            ++withBody;
            if (!/content-type:\s*application\/json/i.test(command)) wrong.push(`${file}: ${command.trim()}`);
        }
    }
    // The README shows a whole game over REST: a scan that finds no body read the wrong files.
    check(withBody >= 5, `only ${withBody} curl commands with a body were found`);
    check(wrong.length === 0, `curl commands with a body but no JSON content type:\n${wrong.join("\n")}`);
});
