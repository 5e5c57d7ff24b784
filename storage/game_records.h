// Plain records of what is stored per game, a game's row in the parts it is
// made of. Small integer codes are enums with the numbers of the API's
// (see migrations/0001_games_moves_repetition.sql).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace foxgeese::storage {

// The codes stored in games.state and moves.state (foxgeese.v1.GameState).
enum class GameState : std::int16_t { kNone = 0, kWaiting = 1, kActive = 2, kFinished = 3 };

// moves.side, seat_presence.side and the games columns that name a side
// (foxgeese.v1.Side); kNone: no side.
enum class Side : std::int16_t { kNone = 0, kFox = 1, kGeese = 2 };

// games.time_control (which oneof of foxgeese.v1.TimeControl).
enum class TimeControl : std::int16_t { kNone = 0, kRealTime = 1, kCorrespondence = 2 };

// games.visibility (foxgeese.v1.Visibility).
enum class Visibility : std::int16_t { kNone = 0, kPrivate = 1, kPublic = 2 };

// A game's result and the reason it ended: the numbers of
// foxgeese.v1.GameResult and foxgeese.v1.EndReason, which the store keeps
// and never reads (0: none yet).
enum class ResultCode : std::int16_t {};
enum class EndReasonCode : std::int16_t {};

// One seat of a game.
struct SeatRow {
    std::string token_hash;  // empty: the seat is open
    // The CreateGame / JoinGame request id that took the seat, and until
    // when a retry with it may hand the seat out again (0: never again).
    // Cleared as soon as the seat's token is used.
    std::string request_hash;
    std::int64_t retry_until_us = 0;
    // In a rematch: the finished game's token the seat is kept for, until
    // its holder takes it.
    std::string reserved_hash;

    bool operator==(const SeatRow&) const = default;
};

struct Seats {
    SeatRow fox;
    SeatRow geese;
    std::string invite_code_hash;

    SeatRow& of(Side side) { return side == Side::kGeese ? geese : fox; }
    const SeatRow& of(Side side) const { return side == Side::kGeese ? geese : fox; }
    bool operator==(const Seats&) const = default;
};

// The time control and the clocks; see
// migrations/0006_clocks_lifecycle_rematch.sql.
struct GameClocks {
    TimeControl time_control = TimeControl::kNone;
    std::int64_t initial_ms = 0;
    std::int64_t increment_ms = 0;
    std::int64_t move_period_ms = 0;
    std::int64_t first_move_ms = 0;
    // Time left on each side's clock when its turn last began.
    std::int64_t fox_ms = 0;
    std::int64_t geese_ms = 0;
    std::int64_t turn_started_us = 0;  // 0: no turn is running
    std::int64_t deadline_us = 0;      // 0: the game never ends by itself

    std::int64_t& of(Side side) { return side == Side::kGeese ? geese_ms : fox_ms; }
    std::int64_t of(Side side) const { return side == Side::kGeese ? geese_ms : fox_ms; }
    bool operator==(const GameClocks&) const = default;
};

// After a game: who offered a rematch, the rematch once accepted, and the
// game this one is a rematch of.
struct RematchLink {
    Side offered_by = Side::kNone;
    std::string game_id;
    std::string of_game_id;

    bool operator==(const RematchLink&) const = default;
};

// A game against the computer (migrations/0009_bot_seats.sql): the bot's
// side (kNone: no bot) and level (1..8), and the client that created the
// game, as a digest of its address (migrations/0013_bot_clients.sql).
struct BotSeat {
    Side side = Side::kNone;
    int level = 0;
    std::string client_key;

    bool operator==(const BotSeat&) const = default;
};

// An imported game (migrations/0008_imported_games.sql): its record's
// TimeControl tag (empty for "-") and dates, if it gave them.
struct ImportedRecord {
    bool imported = false;
    std::string time_control;
    std::optional<std::int64_t> created_us;
    std::optional<std::int64_t> ended_us;

    bool operator==(const ImportedRecord&) const = default;
};

struct GameRow {
    std::string game_id;  // canonical lowercase UUID
    std::string variant;
    std::optional<int> geese_option;
    std::optional<bool> geese_sideways;
    Visibility visibility = Visibility::kNone;
    GameState state = GameState::kNone;
    ResultCode result{};
    EndReasonCode end_reason{};
    std::string start_position;
    int start_geese = 0;
    int start_ply = 0;
    std::string position;
    int ply = 0;
    int quiet_plies = 0;
    Side draw_offered_by = Side::kNone;
    Seats seats;
    std::string create_request_hash;
    GameClocks clocks;
    RematchLink rematch;
    BotSeat bot;
    ImportedRecord record;
    std::int64_t created_us = 0;  // microseconds since the Unix epoch
    std::int64_t updated_us = 0;
    std::int64_t finished_us = 0;  // 0 while not finished
    std::int64_t event_seq = 0;    // number of the game's last recorded event

    bool operator==(const GameRow&) const = default;
};

struct MoveRow {
    std::string game_id;
    int ply = 0;
    std::string notation;
    Side side = Side::kNone;
    std::string captured;  // space-separated points
    std::string position;
    GameState state = GameState::kNone;
    ResultCode result{};
    EndReasonCode end_reason{};
    std::string request_hash;  // empty when the client sent no request_id
    std::string response;      // serialized reply bytes, for retries
    std::int64_t created_us = 0;
    // In a game with a time control: the mover's thinking time and both
    // clocks after the move.
    std::optional<std::int64_t> think_ms;
    std::optional<std::int64_t> fox_clock_ms;
    std::optional<std::int64_t> geese_clock_ms;
    std::string comment;  // an imported move's comment; empty: none
};

// A game with its latest move (absent before the first move).
struct GameWithLastMove {
    GameRow game;
    std::optional<MoveRow> last_move;
};

// A position's place in a game's repetition history: how often it occurred,
// and the ply of its last occurrence.
struct Occurrence {
    int count = 0;
    int last_ply = 0;

    bool operator==(const Occurrence&) const = default;
};

// What MakeMove reads in its one query: the game, the move an earlier try
// with the same request_id made (if any), the occurrences of the positions
// in the current quiet-ply window (keyed by repetition key), and the game
// row's version.
struct MoveContext {
    GameRow game;
    std::optional<MoveRow> earlier_try;
    std::unordered_map<std::string, Occurrence> window_occurrences;
    // The row version (PostgreSQL's xmin of the games row): every update
    // of the row, whatever it changes, gives it a new one, so a write that
    // finds the version it read knows that nothing changed in between.
    std::int64_t version = 0;
};

// Everything one accepted move writes.
struct MoveWrite {
    int previous_ply = 0;               // compare-and-swap: applies only if the game is still here
    std::int64_t previous_version = 0;  // ... and its row is as it was read (MoveContext::version)
    GameRow game_after;  // position, counters, state, result, end reason, draw offer, times
    MoveRow move;
    std::string position_key;  // repetition key of the position after the move
    // The watch events the move makes (serialized WatchGameResponse), 1 to 3:
    // the move, then a declined draw offer and the end when they happen.
    std::vector<std::string> events;
};

// What an applied move left in the database that the writer did not choose:
// the game row's new version, its last event's number, and how often the
// position after the move has now occurred.
struct AppliedMove {
    std::int64_t version = 0;
    std::int64_t event_seq = 0;
    int occurrences = 0;
};

// One move of an imported game as stored: its row, and the repetition key
// of the position after it.
struct ImportedMove {
    MoveRow move;
    std::string position_key;
};

// A bot move a replica has claimed: the game, its ply when claimed (the
// move is made only while the game is still there), and the replica whose
// claim had lapsed before (empty when none had claimed it).
struct BotClaim {
    std::string game_id;
    int ply = 0;
    std::string previous_holder;
};

// A bot move owed and not claimed (PostgresGameStore::owed_bot_moves): the
// game, its ply, the client that created it (bot_client_key), the bot's
// deadline (0: none), since when the game waits, and how many searches the
// client has running on any replica.
struct OwedBotMove {
    std::string game_id;
    int ply = 0;
    std::string client_key;
    std::int64_t deadline_us = 0;
    std::int64_t waiting_since_us = 0;
    int client_searches = 0;
};

// How many games there are, for metrics (PostgresGameStore::count_games).
struct GameCounts {
    std::int64_t waiting = 0;
    std::int64_t active = 0;
    std::int64_t estimated_total = 0;  // the planner's estimate of every game stored
};

// One recorded watch event of a game.
struct GameEvent {
    std::int64_t seq = 0;
    std::string body;  // serialized WatchGameResponse
};

// Whether a seat is being watched by its holder, and since when (connected
// since, or gone since; 0 when never seen).
struct SeatPresence {
    bool connected = false;
    std::int64_t since_us = 0;
};

enum class GameListFilter { kOpen, kActive, kRecent, kImported };

// A page of a listing and where the next one starts.
struct GamePage {
    std::vector<GameWithLastMove> games;
    // The sort key and id of the last row, when more may follow.
    std::optional<std::pair<std::int64_t, std::string>> next_after;
};

}  // namespace foxgeese::storage
