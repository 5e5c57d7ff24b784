// The docs page (/docs, Redoc) in headless Chromium: it renders every
// operation of the server's OpenAPI document and no other, the sidebar lists
// them by name, no table is cut off in a 1400 px window (the error reasons'
// last column included), it asks no other origin for anything and reports
// no error (no Content-Security-Policy violation either), and the document it
// shows is the one the build wrote.
// Usage: node docs-page.test.mjs --server BIN --pg-state FILE --openapi FILE --out DIR
import fs from "node:fs";
import { check, launchChromium, options, run, startServer, waitFor, watchForErrors } from "./lib.mjs";

const args = options("server", "pg-state", "openapi", "out");

await run("web docs page", async (cleanup) => {
    const url = await startServer({ binary: args.server, pgState: args["pg-state"], logDir: args.out, name: "docs-page" }, cleanup);

    const served = await (await fetch(`${url}/openapi.json`)).json();
    const built = JSON.parse(fs.readFileSync(args.openapi, "utf8"));
    check(JSON.stringify(served) === JSON.stringify(built), "/openapi.json differs from the build's openapi/openapi.json");
    const operations = Object.values(served.paths).flatMap((methods) => Object.values(methods));
    check(operations.length > 0, "the document has no operations");

    const browser = await launchChromium(cleanup);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    watchForErrors(page, "docs", errors);
    const elsewhere = [];
    page.on("request", (request) => {
        const target = request.url();
        if (!target.startsWith(`${url}/`) && !target.startsWith("blob:") && !target.startsWith("data:")) elsewhere.push(target);
    });

    await page.goto(`${url}/docs`);
    // Redoc gives each operation's section the id tag/<tag>/operation/<id>.
    const sections = await waitFor("Redoc to render every operation", () =>
        page.evaluate((ids) => {
            const found = [...document.querySelectorAll('[data-section-id*="/operation/"]')]
                .map((node) => node.getAttribute("data-section-id").split("/operation/")[1]);
            return ids.every((id) => found.includes(id)) ? found : null;
        }, operations.map((op) => op.operationId)), 30_000);
    const rendered = [...new Set(sections)].sort();
    const documented = operations.map((op) => op.operationId).sort();
    check(JSON.stringify(rendered) === JSON.stringify(documented), `Redoc shows ${rendered} but the document has ${documented}`);

    // Each operation's section shows its summary and its path.
    for (const op of operations) {
        const text = await page.locator(`[data-section-id$="/operation/${op.operationId}"]`).first().innerText();
        check(text.includes(op.summary), `the section of ${op.operationId} lacks its summary "${op.summary}"`);
    }
    await page.screenshot({ path: `${args.out}/docs.png` });

    // The sidebar names each operation by its RPC, not by a sentence.
    const labels = await page.evaluate(() =>
        [...document.querySelectorAll(".menu-content label")]
            .filter((label) => label.querySelector(".operation-type"))
            .map((label) => label.querySelector("span:not(.operation-type)").innerText.trim()));
    check(JSON.stringify([...labels].sort()) === JSON.stringify(documented),
        `the sidebar lists ${labels} instead of the operations' names`);

    // Every table fits its panel at 1400 px: none scrolls sideways, and the
    // last column of the error reasons at the top ends inside the table.
    const tables = await page.evaluate(() =>
        [...document.querySelectorAll(".api-content table")]
            .filter((table) => table.offsetParent !== null)
            .map((table) => ({
                head: table.querySelector("tr").innerText.replace(/\s+/g, " ").slice(0, 60),
                width: table.clientWidth,
                content: table.scrollWidth,
                lastColumnEnd: Math.max(...[...table.querySelectorAll("tr")]
                    .map((row) => row.lastElementChild.getBoundingClientRect().right)),
                tableEnd: table.getBoundingClientRect().right,
            })));
    const reasons = tables.filter((t) => t.head.startsWith("reason gRPC code HTTP meaning"));
    check(reasons.length >= 1, "no table of error reasons on the page");
    const cut = tables.filter((t) => t.content > t.width || t.lastColumnEnd > t.tableEnd + 1);
    check(cut.length === 0, `tables cut off at 1400 px: ${JSON.stringify(cut.slice(0, 3))}`);

    // Nothing from elsewhere: not even Redoc's logo, which the page's policy
    // would block with an error in the console.
    check(elsewhere.length === 0, `the page asked other origins for ${elsewhere}`);
    const policy = errors.filter((e) => e.includes("Content Security Policy"));
    check(policy.length === 0, `Content-Security-Policy errors:\n${policy.join("\n")}`);
    check(errors.length === 0, `the page reported errors:\n${errors.join("\n")}`);
});
