// Reading the README and docs/ as the docs tests need them: the files, the
// commands in their fenced code blocks, their links, and the anchors
// GitHub gives their headings.
import fs from "node:fs";
import path from "node:path";

// README.md and every docs/*.md, as paths relative to the repository root.
export function markdownFiles(root) {
    const docs = fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).sort();
    return ["README.md", ...docs.map((f) => `docs/${f}`)];
}

// Each line of the fenced code blocks of a Markdown text, with its
// backslash-continued lines joined.
export function commandsIn(text) {
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

// The text outside fenced code blocks and inline code spans, where links are.
function prose(text) {
    return text.replace(/^\s*```[^\n]*\n[\s\S]*?^\s*```[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

// [text](target) links; images too. Targets as written.
export function linksIn(text) {
    return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

// The anchor GitHub makes of a heading: lower case, punctuation dropped,
// spaces to hyphens; repeated headings get -1, -2, ...
export function anchorsOf(text) {
    const anchors = new Set();
    const seen = new Map();
    for (const line of prose(text).split("\n")) {
        const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
        if (!heading) continue;
        const base = heading[1]
            .replace(/`/g, "")
            .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
            .toLowerCase()
            .replace(/[^\p{L}\p{N}\s_-]/gu, "")
            .replace(/\s/g, "-");
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    return anchors;
}
