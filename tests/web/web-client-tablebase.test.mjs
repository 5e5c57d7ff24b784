// The tablebase in the reference web client: a server started with
// --tablebase-dir (a table of 4 to 6 geese that `foxgeese tablebase build`
// makes first, in seconds). The analysis board answers a position it holds
// exactly: the best lines as "win in N" / "loss in N" played to the end, a
// note that they come from the tablebase, and every move with the value
// GET /v1/tablebase gives it. A game whose geese threw a win in 1 away is
// analysed with that ply marked and every ply judged exactly.
// Screenshot: OUT/web-client-tablebase.png (and docs/ with
// FOXGEESE_UPDATE_SCREENSHOTS=1).
// Usage: node web-client-tablebase.test.mjs --server BIN --foxgeese BIN --pg-state FILE --out DIR --docs DIR
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { api, clientTest, text, waitForText } from "./client.mjs";
import { check, options, screenshot, waitFor } from "./lib.mjs";

// Six geese, the geese to move: c4-d5 shuts the fox in; c4-b5 lets it out.
const position = "GFG/GGG/7/2G4/7/3/3 g 0 0";

const args = options("foxgeese", "out");
const tableDir = path.join(args.out, "web-tablebase");
fs.rmSync(tableDir, { recursive: true, force: true });
execFileSync(args.foxgeese, ["tablebase", "build", "--geese", "6", "--dir", tableDir], { stdio: "ignore" });

await clientTest("web client tablebase", async ({ url, person, args: shared }) => {
    const page = await person("person", { viewport: { width: 1200, height: 1000 } });

    // --- the analysis board: exact lines and every move's value -----------------
    await page.goto(`${url}/#board=standard`);
    await page.locator("#board-variant option").first().waitFor({ state: "attached" });
    await page.fill("#position-code", position);
    await page.click("#analyse-position");
    await waitFor("the exact lines", async () => (await page.locator("#position-lines li").count()) === 3, 30_000);
    const lines = await page.locator("#position-lines li").allTextContents();
    check(lines[0].startsWith("c4-d5 win in 1 to the end"), `the first line reads "${lines[0]}"`);
    check(/loss in \d+ to the end/.test(lines[1]), `the second line reads "${lines[1]}"`);
    await waitForText(page, "position-source", "from the tablebase");

    const { status, body: table } = await api(url, "GET", `/v1/tablebase?variant=standard&position=${encodeURIComponent(position)}`);
    check(status === 200, `GET /v1/tablebase answered ${status}`);
    await waitFor("every move's value", async () => (await page.locator("#tablebase-moves li.tablebase-move").count()) === table.moves.length);
    const shown = await page.locator("#tablebase-moves li.tablebase-move").evaluateAll((items) => items.map((li) => ({
        text: li.textContent, category: li.dataset.category,
    })));
    table.moves.forEach((move, i) => {
        check(shown[i].text === `${move.move} ${move.text}` && shown[i].category === move.category,
            `move ${i}: the page shows ${JSON.stringify(shown[i])}, the API ${move.move} ${move.text} ${move.category}`);
    });

    // --- a game that threw the win away, analysed exactly ----------------------------
    const { body: created } = await api(url, "POST", "/v1/games", { variant: "standard", seat: "SEAT_CHOICE_BOTH", startPosition: position });
    const gameId = created.game.gameId;
    const token = created.seatToken;
    check((await api(url, "POST", `/v1/games/${gameId}/moves`, { move: "c4-b5" }, token)).status === 200, "c4-b5 was refused");
    const { body: after } = await api(url, "GET", `/v1/games/${gameId}`);
    const { body: foxView } = await api(url, "GET", `/v1/tablebase?variant=standard&position=${encodeURIComponent(after.game.position)}`);
    check(foxView.category === "TABLEBASE_CATEGORY_WIN", `after c4-b5 the fox has ${foxView.category}`);
    check((await api(url, "POST", `/v1/games/${gameId}/moves`, { move: foxView.moves[0].move }, token)).status === 200, "the fox's move was refused");
    check((await api(url, "POST", `/v1/games/${gameId}:resign`, {}, token)).status === 200, "the geese could not resign");

    await page.goto(`${url}/#analysis=${gameId}`);
    await waitFor("the analysis to finish", async () => (await page.locator("#analysis-status").getAttribute("data-state")) === "done", 60_000);
    await waitForText(page, "analysis-status", "2 of them judged exactly by the tablebase");
    const rows = await page.locator("#ply-table-body tr").evaluateAll((trs) => trs.map((tr) => ({
        exact: tr.classList.contains("exact"),
        mark: tr.querySelector(".mark").dataset.mark,
        before: tr.querySelectorAll(".score")[0].textContent,
    })));
    check(rows.length === 2, `the table lists ${rows.length} plies`);
    check(rows.every((r) => r.exact), "a ply is not shown as judged exactly");
    check(rows[0].mark === "MOVE_MARK_WIN_THROWN_AWAY" && rows[0].before === "win in 1",
        `the first ply shows ${JSON.stringify(rows[0])}`);
    check(rows[1].mark === "MOVE_MARK_UNSPECIFIED", `the fox's best move is marked ${rows[1].mark}`);
    check((await text(page, "ply-detail")) !== null, "no ply detail");
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "web-client-tablebase.png", shared);
}, { flags: ["--tablebase-dir", tableDir] });
