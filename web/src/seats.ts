// The seats this device holds. A seat token is shown once (CreateGame,
// JoinGame, a rematch's answer); the proto asks clients to keep it on the
// device for the life of the game, never in a URL.
import type { Seat, Side } from "./api.js";

export interface HeldSeat {
    seat: Seat;
    token: string;
}

const key = (gameId: string) => `foxgeese.seat.${gameId}`;

export function heldSeat(gameId: string): HeldSeat | undefined {
    const stored = localStorage.getItem(key(gameId));
    if (!stored) return undefined;
    try {
        return JSON.parse(stored) as HeldSeat;
    } catch {
        return undefined;
    }
}

export function holdSeat(gameId: string, seat: HeldSeat): void {
    localStorage.setItem(key(gameId), JSON.stringify(seat));
}

export function forgetSeat(gameId: string): void {
    localStorage.removeItem(key(gameId));
}

// The one side a seat plays; undefined for both seats (or none).
export function sideOfSeat(seat: Seat | undefined): Side | undefined {
    return seat === "SEAT_FOX" ? "SIDE_FOX" : seat === "SEAT_GEESE" ? "SIDE_GEESE" : undefined;
}

export function otherSide(side: Side): Side {
    return side === "SIDE_FOX" ? "SIDE_GEESE" : "SIDE_FOX";
}
