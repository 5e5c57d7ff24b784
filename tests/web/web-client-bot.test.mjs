// A person plays the computer in the reference web client, to the end, then
// looks at the game's analysis: from the home page, a game against level 1
// as the fox; the first move by keyboard (the board's cursor and Enter), a
// mistyped move whose refusal shows the API's own message, then every move
// by clicking, the fox taking whatever it can, until the game is over. The
// analysis page draws the evaluation graph (one point a ply) from
// AnalyzeGame and lists each ply's best move, score and mark as the API
// gives them, proved results as "win in N"; the analysis board answers for
// a chosen ply with AnalyzePosition's lines. Screenshot: OUT/web-client-
// analysis.png (and docs/ with FOXGEESE_UPDATE_SCREENSHOTS=1).
// Usage: node web-client-bot.test.mjs --server BIN --pg-state FILE --out DIR --docs DIR
import { api, clientTest, clickMove, gameIdOf, text, waitForMoves, waitForText } from "./client.mjs";
import { check, screenshot, waitFor } from "./lib.mjs";

// The fox's choice: the longest capture, else a quiet move picked by a
// fixed sequence (so that a run is repeatable as far as the bot is).
function choose(legalMoves, turn) {
    const captures = legalMoves.filter((m) => m.includes("x")).sort((a, b) => b.length - a.length);
    return captures[0] ?? legalMoves[(turn * 7) % legalMoves.length];
}

await clientTest("web client bot", async ({ url, person, args }) => {
    const page = await person("person", { viewport: { width: 1200, height: 900 } });

    // --- a game against the computer, level 1, the person as the fox ---------
    await page.goto(`${url}/`);
    await page.locator("#variant option").first().waitFor({ state: "attached" });
    await page.check("#opponent-computer");
    check(await page.locator("#public-field").isHidden(), "a game against the computer offers the lobby");
    check(await page.locator('#seat option[value="SEAT_CHOICE_BOTH"]').isDisabled(), "a game against the computer offers both seats");
    await page.selectOption("#level", "1");
    await page.selectOption("#seat", "SEAT_CHOICE_FOX");
    await page.click("#create");
    await waitForText(page, "status", "Your move (Fox).");
    const gameId = gameIdOf(page);
    await waitForText(page, "presence-geese", "computer, level 1");
    await waitForText(page, "game-facts", "against the computer, level 1");

    // --- a mistyped move: the API's message is shown ---------------------------
    await page.fill("#move-input", "d4-d9");
    await page.click("#move-send");
    const { token } = JSON.parse(await page.evaluate((id) => localStorage.getItem(`foxgeese.seat.${id}`), gameId));
    const refused = await api(url, "POST", `/v1/games/${gameId}/moves`, { move: "d4-d9" }, token);
    check(refused.status === 400 && refused.body.message, `the API answered ${refused.status} to a move off the board`);
    await waitForText(page, "error", refused.body.message);
    check(await page.locator("#error").getAttribute("data-reason") === "INVALID_NOTATION", "the page's error is not INVALID_NOTATION");

    // --- the first move by keyboard: the cursor starts on the fox ----------------
    await page.locator("#board").focus();
    await page.keyboard.press("Enter");  // picks the fox up on d4
    await page.keyboard.press("ArrowUp");  // d5
    check((await page.locator('#board [data-point="d5"]').getAttribute("class")).includes("cursor"), "the cursor did not move up to d5");
    await page.keyboard.press("Enter");
    await waitForMoves(page, 1, { atLeast: true });
    check(!(await text(page, "error")), "the move by keyboard was refused");

    // --- then by clicking, to the end ---------------------------------------------
    for (let turn = 1; ; ++turn) {
        const game = await waitFor("the person's turn or the end", async () => {
            const { body } = await api(url, "GET", `/v1/games/${gameId}`);
            const g = body.game;
            return g.state === "GAME_STATE_FINISHED" || g.sideToMove === "SIDE_FOX" ? g : null;
        }, 60_000);
        if (game.state === "GAME_STATE_FINISHED") break;
        check(turn < 200, "the game does not end");
        await waitForText(page, "status", "Your move (Fox).");
        await clickMove(page, choose(game.legalMoves, turn));
        await waitForMoves(page, game.ply + 1, { atLeast: true });
    }
    const { body: finished } = await api(url, "GET", `/v1/games/${gameId}/moves`);
    await waitForText(page, "status", "Game over");
    await waitForMoves(page, finished.moves.length);

    // --- the analysis page: the graph, the plies, the analysis board ---------------
    await page.click("#analysis-link");
    await waitFor("the analysis to finish", async () => (await page.locator("#analysis-status").getAttribute("data-state")) === "done", 90_000);
    const { body: analysis } = await api(url, "POST", `/v1/games/${gameId}:analyze`, {});
    const plies = analysis.plies;
    check(plies.length === finished.moves.length, `the analysis has ${plies.length} plies for ${finished.moves.length} moves`);
    const graph = await page.evaluate(() => {
        const svg = document.getElementById("eval-graph");
        const box = svg.getBoundingClientRect();
        return {
            segments: (svg.querySelector("path.graph-line")?.getAttribute("d") ?? "").match(/[ML]/g)?.length ?? 0,
            points: svg.querySelectorAll("circle.graph-point").length,
            proved: svg.querySelectorAll("circle.graph-point.proved").length,
            marked: svg.querySelectorAll("circle.win-thrown-away, circle.loss-saved").length,
            width: box.width,
            height: box.height,
        };
    });
    check(graph.segments === plies.length + 1 && graph.points === plies.length + 1,
        `the graph has ${graph.segments} segments and ${graph.points} points for ${plies.length} plies`);
    check(graph.width > 300 && graph.height > 80, `the graph is drawn ${graph.width}x${graph.height}`);
    const provedPlies = plies.filter((p) => p.scoreAfter.winInPlies !== undefined || p.scoreAfter.lossInPlies !== undefined).length
        + (plies[0].scoreBefore.winInPlies !== undefined || plies[0].scoreBefore.lossInPlies !== undefined ? 1 : 0);
    check(graph.proved === provedPlies, `the graph marks ${graph.proved} points as proved, the analysis proves ${provedPlies}`);
    const markedPlies = plies.filter((p) => p.mark !== "MOVE_MARK_UNSPECIFIED").length;
    check(graph.marked === markedPlies, `the graph marks ${graph.marked} moves, the analysis ${markedPlies}`);

    const rows = await page.locator("#ply-table-body tr").evaluateAll((trs) => trs.map((tr) => ({
        played: tr.querySelector(".played").textContent,
        best: tr.querySelector(".best").textContent,
        after: tr.querySelectorAll(".score")[1].textContent,
        mark: tr.querySelector(".mark").dataset.mark,
    })));
    check(rows.length === plies.length, `the table lists ${rows.length} plies`);
    plies.forEach((ply, i) => {
        const row = rows[i];
        check(row.played === ply.move && row.best === ply.bestMove && row.mark === ply.mark,
            `ply ${ply.ply}: the table shows ${JSON.stringify(row)}, the analysis ${ply.move} best ${ply.bestMove} ${ply.mark}`);
        const after = ply.scoreAfter;
        const wanted = after.winInPlies !== undefined ? `win in ${after.winInPlies}` : after.lossInPlies !== undefined ? `loss in ${after.lossInPlies}` : after.text;
        check(row.after === wanted, `ply ${ply.ply}: the table scores ${row.after}, the analysis ${wanted}`);
    });
    if (finished.game.result !== "GAME_RESULT_DRAW") {
        // The winning move wins by the rules: "win in 1" at least.
        check(rows.some((r) => /^win in \d+$/.test(r.after)), "no proved win is shown as \"win in N\"");
    }
    await waitForText(page, "score-explanation", "estimate");

    // A ply chosen on the slider is the analysis board's position.
    await page.locator("#analysis-slider").focus();
    await page.keyboard.press("Home");
    for (let i = 0; i < 4; ++i) await page.keyboard.press("ArrowRight");
    check(await page.inputValue("#position-code") === finished.moves[3].position, "the analysis board does not show ply 4's position");
    await page.click("#analyse-position");
    await waitFor("the best lines of the position", async () => (await page.locator("#position-lines li").count()) > 0, 30_000);
    await waitForText(page, "position-side", "Scores from the view of: Fox.");
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "web-client-analysis.png", args);
});
