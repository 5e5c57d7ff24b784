// The curl commands in the README and docs/ that send a body also send
// `content-type: application/json`: without it curl sends its form type and
// the server answers 415 UNSUPPORTED_MEDIA_TYPE, not what the example shows.
// Usage: node curl.test.mjs REPO_ROOT
import fs from "node:fs";
import path from "node:path";
import { check, run } from "../web/lib.mjs";
import { commandsIn, markdownFiles } from "./markdown.mjs";

const root = process.argv[2];

await run("docs curl examples", async () => {
    const files = markdownFiles(root);
    let withBody = 0;
    const wrong = [];
    for (const file of files) {
        for (const command of commandsIn(fs.readFileSync(path.join(root, file), "utf8"))) {
            if (!/\bcurl\s/.test(command) || !/\s(-d|--data(-binary|-raw)?)\s/.test(command)) continue;
            ++withBody;
            if (!/content-type:\s*application\/json/i.test(command)) wrong.push(`${file}: ${command.trim()}`);
        }
    }
    // The README and the API guide show games over REST: a scan that finds no body read the wrong files.
    check(withBody >= 5, `only ${withBody} curl commands with a body were found`);
    check(wrong.length === 0, `curl commands with a body but no JSON content type:\n${wrong.join("\n")}`);
});
