// The reference web client (/) in headless Chromium, played by two browser
// pages with their own storage, as two people on two devices: every
// variant's board is drawn from its ListVariants geometry on the home page;
// the fox's player creates a game and reads its share link; the geese's
// player opens the link (in its old /play/ form, which redirects to /) and
// joins; both see each other online and count the spectators who come and
// go; a spectator copies the share page's link, and the picture (and, once
// the game is over, the animation) links load; they play a whole game by clicking
// points (clicks that make no legal move change nothing, the fox's double
// jump is entered point by point), each following the other's moves live;
// then the finished game is replayed with the slider and the buttons. A
// screenshot of the fox's page at the end is OUT/web-client.png (and
// docs/web-client.png with FOXGEESE_UPDATE_SCREENSHOTS=1).
// Usage: node web-client-game.test.mjs --server BIN --pg-state FILE --out DIR --docs DIR
// (ctest also passes --openapi FILE, which this test does not need)
import { classesOf, clientTest, gameIdOf, movesListed, pieceAt, piecesOfCode, piecesShown, point, text, waitForMoves, waitForText } from "./client.mjs";
import { check, screenshot, waitFor } from "./lib.mjs";

// Five geese, the fox to move: the fox wins in three plies, the last a
// double jump (which could go on to a third) that leaves the geese below four.
const START = "3/F2/7/2G4/G2G2G/3/1G1 f 0 0";

// Fetches what the link `selector` points at and checks its content type;
// returns its address.
async function loads(page, selector, type) {
    await page.locator(selector).waitFor({ state: "visible" });
    const href = new URL(await page.locator(selector).getAttribute("href"), page.url()).href;
    const reply = await fetch(href);
    check(reply.ok && reply.headers.get("content-type") === type && (await reply.arrayBuffer()).byteLength > 0,
        `${selector} points at ${href}, which answered ${reply.status} ${reply.headers.get("content-type")}`);
    return href;
}

await clientTest("web client game", async ({ url, person, args }) => {
    const { variants } = await (await fetch(`${url}/v1/variants`)).json();
    check(variants.length > 1, "the server lists fewer than two variants");

    // --- the home page's form draws every variant's board -----------------
    const fox = await person("fox");
    await fox.goto(`${url}/`);
    await waitFor("the variants in the form", async () => (await fox.locator("#variant option").count()) === variants.length);
    for (const variant of variants) {
        await fox.selectOption("#variant", variant.name);
        const drawn = await waitFor(`the board of ${variant.name}`, () => fox.evaluate((name) => {
            const svg = document.getElementById("preview");
            if (svg.getAttribute("data-board") !== name) return null;
            return {
                points: [...svg.querySelectorAll("[data-point]")].map((n) => n.getAttribute("data-point")).sort(),
                links: svg.querySelectorAll("line.link").length,
                pen: svg.querySelectorAll("rect.pen").length,
            };
        }, variant.board.name));
        const points = variant.board.points.map((p) => p.name).sort();
        check(JSON.stringify(drawn.points) === JSON.stringify(points), `${variant.name}: the board shows points ${drawn.points}, not ${points}`);
        check(drawn.links === variant.board.links.length, `${variant.name}: ${drawn.links} links drawn, ${variant.board.links.length} listed`);
        check(drawn.pen === variant.pen.length, `${variant.name}: ${drawn.pen} pen points drawn, ${variant.pen.length} listed`);
    }

    // --- the fox's player creates a game and gets its share link ----------
    await fox.selectOption("#variant", "standard");
    await fox.selectOption("#seat", "SEAT_CHOICE_FOX");
    await fox.locator("details summary").click();
    await fox.fill("#start-position", START);
    await fox.click("#create");
    await fox.locator("#share").waitFor({ state: "visible" });
    const link = await fox.inputValue("#share-link");
    const hash = new URLSearchParams(new URL(link).hash.slice(1));
    check(link.startsWith(`${url}/#`) && hash.get("game") && hash.get("invite"), `the share link ${link} lacks the game or the invite`);
    await waitForText(fox, "status", "Waiting for an opponent");
    check(await fox.locator("#join").isHidden(), "the creator is offered to join their own game");

    // --- the geese's player opens the link where the client used to be ----
    const geese = await person("geese");
    await geese.goto(link.replace(`${url}/#`, `${url}/play/#`));
    check(new URL(geese.url()).pathname === "/", `/play/ led to ${geese.url()}, not to /`);
    await waitForText(geese, "status", "A seat is open: join to play.");
    check(await geese.locator("#share").isHidden(), "a page without a seat shows the share link");
    await geese.click("#join");
    await waitForText(geese, "status", "Your opponent's move (Fox).");
    await waitForText(fox, "status", "Your move (Fox).");
    // Each follows the game live with the seat token, so each sees the other.
    await waitForText(fox, "presence-geese", "online");
    await waitForText(geese, "presence-fox", "online");
    await waitForText(fox, "name-fox", "Fox (you)");
    await waitForText(geese, "name-geese", "Geese (you)");
    check(await geese.locator("#connection").getAttribute("data-state") === "live", "the geese's page is not following the game live");

    // --- spectators: counted on the players' pages, the players themselves not ---
    await waitForText(fox, "spectators", "0 watching");
    const gameId = gameIdOf(fox);
    const watcher = await person("watcher");
    await watcher.goto(`${url}/#game=${gameId}`);
    await waitForText(watcher, "spectators", "1 watching");
    await waitForText(fox, "spectators", "1 watching");
    const second = await person("second watcher");
    await second.goto(`${url}/#game=${gameId}`);
    await waitForText(fox, "spectators", "2 watching");
    await waitForText(watcher, "spectators", "2 watching");
    await second.close();
    await waitForText(fox, "spectators", "1 watching");

    // --- sharing: the share page's link, the position's picture -----------------
    await watcher.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
    await watcher.click("#copy-share");
    await waitForText(watcher, "copy-share", "Link copied");
    const copied = await watcher.evaluate(() => navigator.clipboard.readText());
    check(copied === `${url}/g/${gameId}`, `the share link copied is ${copied}`);
    const sharePage = await fetch(copied);
    check(sharePage.ok && (await sharePage.text()).includes('property="og:image"'), `the share page ${copied} answered ${sharePage.status} without og:image`);
    check(await fox.locator("#share-animation").isHidden(), "a game in progress offers its animation");
    await loads(fox, "#share-picture", "image/png");

    // --- ply 1, the fox: c6-c5 -------------------------------------------------
    // Clicks that make no legal move change nothing: a goose, for the fox;
    // anything, for the side not to move.
    await point(fox, "c4").click();
    check(!(await classesOf(fox, "c4")).includes("selected"), "the fox's page selected a goose");
    await point(geese, "d1").click();
    check(!(await classesOf(geese, "d1")).includes("selected"), "the geese's page selected a goose on the fox's turn");
    await point(fox, "c6").click();
    check((await classesOf(fox, "c6")).includes("selected"), "clicking the fox did not select it");
    const targets = await fox.locator("#board .point.target").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-point")).sort());
    check(targets.includes("c5") && !targets.includes("c4"), `the fox's targets are ${targets}`);
    await point(fox, "e1").click();  // not a target: still only c6 selected
    check((await classesOf(fox, "c6")).includes("selected"), "a click off the targets dropped the selection");
    await point(fox, "c5").click();
    await waitForMoves(geese, 1);
    await waitFor("the fox on c5 on the geese's page", async () => (await pieceAt(geese, "c5")) === "F");
    await waitForText(geese, "status", "Your move (Geese).");

    // --- ply 2, the geese: d1-d2 -----------------------------------------------
    await point(geese, "d1").click();
    await point(geese, "d2").click();
    await waitForMoves(fox, 2);
    await waitFor("the goose on d2 on the fox's page", async () => (await pieceAt(fox, "d2")) === "G");
    await waitForText(fox, "status", "Your move (Fox).");

    // --- ply 3, the fox: the double jump c5xc3xe3, point by point ----------------
    await point(fox, "c5").click();
    await point(fox, "c3").click();
    // Landed on c3 with the jump to e3 still open: nothing is sent yet.
    check((await classesOf(fox, "c3")).includes("on-path"), "c3 is not shown on the move's path");
    check((await classesOf(fox, "e3")).includes("target"), "e3 is not offered as the next landing point");
    check((await movesListed(geese)).length === 2, "the jump was sent before it was finished");
    // From e3 the jump could go on over d2 to c1; clicking e3 again ends it.
    await point(fox, "e3").click();
    await waitForText(fox, "status", "Jump on, or click the piece again to stop here.");
    check((await classesOf(fox, "c1")).includes("target"), "c1 is not offered as the jump's next landing point");
    check((await movesListed(geese)).length === 2, "the jump was sent while it could go on");
    await point(fox, "e3").click();
    for (const page of [fox, geese]) {
        const moves = await waitForMoves(page, 3);
        check(JSON.stringify(moves.map((m) => m.trim())) === JSON.stringify(["c6-c5", "d1-d2", "c5xc3xe3"]), `the move list is ${moves}`);
        await waitForText(page, "status", "Game over. Winner: Fox (too few geese are left).");
    }
    check((await pieceAt(geese, "c4")) === "" && (await pieceAt(geese, "d3")) === "", "the jumped geese are still on the board");
    check(await fox.locator("#resign").isHidden(), "a finished game offers to resign");
    check(await fox.locator("#analysis-link").isVisible(), "a finished game offers no analysis");
    const record = await fetch(await fox.locator("#export-link").getAttribute("href").then((href) => new URL(href, url).href));
    check(record.ok && (await record.text()).includes("c5xc3xe3"), "the record link does not give the game's record");
    // The finished game's animation, and the picture of its last position.
    await loads(fox, "#share-animation", "image/gif");
    const picture = await loads(fox, "#share-picture", "image/png");
    check(new URL(picture).searchParams.get("ply") === "3", `the picture's address ${picture} is not of ply 3`);
    await waitForText(fox, "spectators", "1 watching");
    await screenshot(fox, "web-client.png", args);
    await watcher.close();

    // --- the geese's player replays the game ---------------------------------------
    const replay = await (await fetch(`${url}/v1/games/${gameIdOf(geese)}/moves`)).json();
    const board = variants.find((v) => v.name === "standard").board;
    const expected = (position) => piecesOfCode(position, board);
    await waitForText(geese, "replay-ply", "3 / 3");
    await geese.click("#replay-first");
    await waitForText(geese, "replay-ply", "0 / 3");
    await waitForText(geese, "status", "Replay: ply 0 of 3.");
    check(await piecesShown(geese) === expected(replay.startPosition), "the replay's start is not the game's start");
    for (let ply = 1; ply <= replay.moves.length; ++ply) {
        await geese.click("#replay-forward");
        await waitForText(geese, "replay-ply", `${ply} / 3`);
        const shown = await piecesShown(geese);
        const wanted = expected(replay.moves[ply - 1].position);
        check(shown === wanted, `after ply ${ply} the replay shows ${shown}, the server lists ${wanted}`);
        check((await classesOf(geese, replay.moves[ply - 1].to)).includes("last-to"), `ply ${ply}'s move is not marked`);
    }
    // The slider, by keyboard: Home goes to the start, an arrow one ply on.
    await geese.locator("#replay-slider").focus();
    await geese.keyboard.press("Home");
    await waitForText(geese, "replay-ply", "0 / 3");
    await geese.keyboard.press("ArrowRight");
    await waitForText(geese, "replay-ply", "1 / 3");
    check(await piecesShown(geese) === expected(replay.moves[0].position), "the slider's ply 1 shows another position");
    await geese.click("#replay-live");
    await waitForText(geese, "replay-ply", "3 / 3");
    await waitForText(geese, "status", "Game over");

    // --- a game that ended with no result says so -----------------------------
    const created = await (await fetch(`${url}/v1/games`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ variant: "standard", seat: "SEAT_CHOICE_FOX" }),
    })).json();
    const cancelled = await fetch(`${url}/v1/games/${created.game.gameId}:cancel`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${created.seatToken}` },
        body: "{}",
    });
    check(cancelled.ok, `CancelGame answered ${cancelled.status}`);
    const spectator = await person("spectator");
    await spectator.goto(`${url}/#game=${created.game.gameId}`);
    await waitForText(spectator, "status", "Game over, no result (cancelled before anyone joined).");
});
