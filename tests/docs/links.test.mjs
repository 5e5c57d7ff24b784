// Every relative link in the README and docs/ leads somewhere: the file or
// directory exists, and an anchor (#...) names a heading of the page it
// points into; every path of the tree they name in code exists. Links to
// other sites are not followed.
// Usage: node links.test.mjs REPO_ROOT
import fs from "node:fs";
import path from "node:path";
import { check, run } from "../web/lib.mjs";
import { anchorsOf, linksIn, markdownFiles } from "./markdown.mjs";

const root = process.argv[2];

await run("docs links", async () => {
    const broken = [];
    let followed = 0;
    for (const file of markdownFiles(root)) {
        const text = fs.readFileSync(path.join(root, file), "utf8");
        for (const link of linksIn(text)) {
            if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
            ++followed;
            const [target, anchor] = link.split("#");
            const resolved = target ? path.join(path.dirname(path.join(root, file)), decodeURI(target)) : path.join(root, file);
            if (!fs.existsSync(resolved)) {
                broken.push(`${file}: ${link}: no such file`);
                continue;
            }
            if (anchor === undefined) continue;
            if (!resolved.endsWith(".md")) {
                broken.push(`${file}: ${link}: an anchor into a file that is not Markdown`);
                continue;
            }
            if (!anchorsOf(fs.readFileSync(resolved, "utf8")).has(anchor)) {
                broken.push(`${file}: ${link}: ${path.relative(root, resolved)} has no heading #${anchor}`);
            }
        }
    }
    // Paths of the tree named in code spans (`engine/rules/board.h`) exist too,
    // so that moving a file cannot leave the docs pointing at its old place.
    let named = 0;
    const topLevel = ["bench", "deploy", "docs", "engine", "examples", "migrations", "proto", "service", "storage", "tests", "tools", "web"];
    const pathSpan = new RegExp(`\`((?:${topLevel.join("|")})/[A-Za-z0-9_./-]*)\``, "g");
    for (const file of markdownFiles(root)) {
        for (const [, namedPath] of fs.readFileSync(path.join(root, file), "utf8").matchAll(pathSpan)) {
            ++named;
            if (!fs.existsSync(path.join(root, namedPath))) broken.push(`${file}: \`${namedPath}\`: no such file or directory`);
        }
    }
    check(followed >= 20, `only ${followed} relative links found: the scan read the wrong files`);
    check(named >= 20, `only ${named} paths found in code spans: the scan read the wrong files`);
    check(broken.length === 0, `broken links:\n  ${broken.join("\n  ")}`);
});
