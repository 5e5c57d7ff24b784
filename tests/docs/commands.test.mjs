// The commands in the README and docs/ run as written on a fresh machine:
// the README's quick start is the two commands, without sudo (a fresh Debian
// has none; the scripts ask for it themselves), and the second is the one
// .ci/run runs; no example calls `foxgeese` or `foxgeese-server` as if it
// were on the PATH (the build does not put it there: examples call
// build/tools/foxgeese and build/service/foxgeese-server), and every program
// they call under build/ is one the build makes.
// Usage: node commands.test.mjs REPO_ROOT BUILD_DIR
import fs from "node:fs";
import path from "node:path";
import { check, run } from "../web/lib.mjs";
import { commandsIn, markdownFiles } from "./markdown.mjs";

const [root, buildDir] = process.argv.slice(2);

// The simple commands of a shell line: split at pipes, &&, ||, ; and $( ,
// without a leading prompt, a comment, subshell parentheses or variable
// assignments.
function simpleCommands(line) {
    return line
        .replace(/^\s*\$\s+/, "")
        .replace(/(^|\s)#\s.*$/, "")
        .split(/\|\||&&|\||;|\$\(|\(/)
        .map((c) => c.trim().replace(/^([A-Z_][A-Z0-9_]*=\S*\s+)+/, ""))
        .filter((c) => c.length > 0);
}

await run("docs commands", async () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const quickStart = readme.split("\n## ").find((s) => s.startsWith("Quick start"));
    check(quickStart, "README.md has no Quick start section");
    const first = commandsIn(quickStart.slice(0, quickStart.indexOf("```", quickStart.indexOf("```") + 3) + 3));
    const programs = first.map((c) => c.trim().split(/\s+/)[0]);
    check(JSON.stringify(programs) === JSON.stringify(["deploy/local/run.sh", "deploy/local/test.sh"]),
          `the quick start's first block is not the two commands: ${JSON.stringify(first)}`);
    const ci = fs.readFileSync(path.join(root, ".ci/run"), "utf8");
    check(/^exec deploy\/local\/test\.sh\b/m.test(ci), ".ci/run does not run deploy/local/test.sh, the README's test command");

    const wrong = [];
    let fromBuild = 0;
    for (const file of markdownFiles(root)) {
        for (const line of commandsIn(fs.readFileSync(path.join(root, file), "utf8"))) {
            for (const command of simpleCommands(line)) {
                const program = command.split(/\s+/)[0];
                if (program === "sudo") wrong.push(`${file}: ${line.trim()}: sudo (the scripts ask for it when they need it)`);
                if (program === "foxgeese" || program === "foxgeese-server") {
                    wrong.push(`${file}: ${line.trim()}: ${program} is not on the PATH; call build/${program === "foxgeese" ? "tools" : "service"}/${program}`);
                }
                if (program.startsWith("build/")) {
                    ++fromBuild;
                    if (!fs.existsSync(path.join(buildDir, program.slice("build/".length)))) {
                        wrong.push(`${file}: ${line.trim()}: the build makes no ${program}`);
                    }
                }
            }
        }
    }
    check(fromBuild >= 5, `only ${fromBuild} commands call a program under build/: the scan read the wrong files`);
    check(wrong.length === 0, `commands that do not work as written:\n  ${wrong.join("\n  ")}`);
});
