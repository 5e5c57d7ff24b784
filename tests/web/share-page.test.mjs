// The share page of a game (docs/previews.md) in headless Chromium: /g/{id}
// sends a browser on to the web client's page of the game (its one script
// runs under the page's Content-Security-Policy, no error reported), and
// the card's image, the address og:image names, loads as a PNG.
// Usage: node share-page.test.mjs --server BIN --pg-state FILE --out DIR
import { api, clientTest, gameIdOf, waitForMoves } from "./client.mjs";
import { check, waitFor } from "./lib.mjs";

await clientTest("share page", async ({ url, person }) => {
    const { body: created } = await api(url, "POST", "/v1/games", { variant: "standard", seat: "SEAT_CHOICE_BOTH" });
    const gameId = created.game.gameId;
    const token = created.seatToken;
    check((await api(url, "POST", `/v1/games/${gameId}/moves`, { move: created.game.legalMoves[0] }, token)).status === 200, "the move was refused");

    // What a card reader reads: the tags, and the image they name.
    const page = await (await fetch(`${url}/g/${gameId}`)).text();
    const image = page.match(/<meta property="og:image" content="([^"]*)">/)?.[1]?.replaceAll("&amp;", "&");
    check(image?.startsWith(`${url}/v1/games/${gameId}/image.png?ply=1`), `og:image is ${image}`);
    const png = await fetch(image);
    check(png.status === 200 && png.headers.get("content-type") === "image/png", `the image answered ${png.status}`);

    // A person who opens the link lands on the game's page in the client.
    const visitor = await person("visitor");
    await visitor.goto(`${url}/g/${gameId}`);
    await waitFor("the client's game page", () => gameIdOf(visitor) === gameId);
    check(new URL(visitor.url()).pathname === "/", `the page went to ${visitor.url()}`);
    await waitForMoves(visitor, 1);
});
