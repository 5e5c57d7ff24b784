#include "play_command.h"

#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>

#include "client_commands.h"
#include "client_connection.h"
#include "engine_commands.h"
#include "game_follower.h"

namespace foxgeese::cli {
namespace {

using Stub = ClientConnection::Stub;

constexpr std::string_view kHelp =
    "commands: a move (e.g. d4-d5 or d4xd6xf6), moves (list the legal moves), resign, draw "
    "(offer a draw, or accept the one offered), quit (leave; the game goes on)\n";

std::string trim(const std::string& text) {
    const auto begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) return "";
    return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::string other_side_name(v1::Side side) {
    return side == v1::SIDE_FOX ? "geese" : "fox";
}

// Commands that make sense whoever is to move; any other line is a move and
// waits for the session's turn, so a script may pipe its moves in at once.
bool is_anytime_command(const std::string& command) {
    return command.empty() || command == "quit" || command == "help" || command == "?" ||
           command == "moves" || command == "resign" || command == "draw";
}

// What the session reacts to, in order within each kind: events and broken
// streams from the follower's thread, lines from the input's.
class Inbox {
  public:
    struct Break {
        grpc::Status status;
        bool final = false;
        std::chrono::milliseconds retry_in{0};
    };

    void push_event(v1::WatchGameResponse event) {
        {
            std::lock_guard lock(mutex_);
            events_.push_back(std::move(event));
        }
        changed_.notify_all();
    }
    void push_break(Break why) {
        {
            std::lock_guard lock(mutex_);
            breaks_.push_back(std::move(why));
        }
        changed_.notify_all();
    }
    void push_line(std::string line) {
        {
            std::lock_guard lock(mutex_);
            lines_.push_back(std::move(line));
        }
        changed_.notify_all();
    }
    void end_input() {
        {
            std::lock_guard lock(mutex_);
            input_ended_ = true;
        }
        changed_.notify_all();
    }

    // What the session takes next: a stream's news first, then a line (any
    // line on its turn, else only a command that makes sense at any time),
    // then the end of the input (only on its turn).
    struct Next {
        std::optional<v1::WatchGameResponse> event;
        std::optional<Break> broken;
        std::optional<std::string> line;
        bool input_ended = false;
    };
    Next wait(bool my_turn) {
        std::unique_lock lock(mutex_);
        Next next;
        changed_.wait(lock, [&] {
            if (!events_.empty()) {
                next.event = std::move(events_.front());
                events_.pop_front();
            } else if (!breaks_.empty()) {
                next.broken = std::move(breaks_.front());
                breaks_.pop_front();
            } else if (!lines_.empty() && (my_turn || is_anytime_command(trim(lines_.front())))) {
                next.line = std::move(lines_.front());
                lines_.pop_front();
            } else if (lines_.empty() && input_ended_ && my_turn) {
                next.input_ended = true;
            } else {
                return false;
            }
            return true;
        });
        return next;
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<v1::WatchGameResponse> events_;
    std::deque<Break> breaks_;
    std::deque<std::string> lines_;
    bool input_ended_ = false;
};

// Reads the input into the inbox on a thread of its own, so that the session
// can show the opponent's moves while a person types. The thread is left to
// finish on its own: a read from a terminal cannot be interrupted, and
// the process ends when the session does.
void read_input(std::istream& in, const std::shared_ptr<Inbox>& inbox) {
    // An input stream tied to the output flushes it before each read: from
    // this thread, while the session writes, that is a data race (the
    // program's streams are not synchronised with stdio). The session
    // flushes what it shows itself.
    in.tie(nullptr);
    std::thread([&in, inbox] {
        for (std::string line; std::getline(in, line);)
            inbox->push_line(line);
        inbox->end_input();
    }).detach();
}

class PlaySession {
  public:
    PlaySession(ClientConnection& connection, std::string game_id, std::istream& in,
                std::ostream& out, std::ostream& err, bool echo_input)
        : connection_(connection),
          requested_game_id_(std::move(game_id)),
          in_(in),
          out_(out),
          err_(err),
          echo_input_(echo_input) {}

    int run() {
        if (auto exit = find_seat()) return *exit;
        out_ << "you play " << (seat_ == v1::SEAT_BOTH ? "both sides" : "the " + seat_name())
             << " in game " << game_.game_id() << "\n";
        show_game();
        shown_ply_ = game_.ply();
        read_input(in_, inbox_);
        GameFollower follower(
            connection_, game_.game_id(), game_.ply(),
            [inbox = inbox_](const v1::WatchGameResponse& event) { inbox->push_event(event); },
            [inbox = inbox_](const grpc::Status& status, bool final,
                             std::chrono::milliseconds retry_in) {
                inbox->push_break({status, final, retry_in});
            });
        while (true) {
            if (game_.state() == v1::GAME_STATE_FINISHED) {
                say("game over: " + outcome_text(game_) + "\n");
                return 0;
            }
            const bool turn = my_turn();
            show_what_happens_next(turn);
            Inbox::Next next = inbox_->wait(turn);
            std::optional<int> exit;
            if (next.event) {
                on_event(*next.event);
            } else if (next.broken) {
                exit = on_break(*next.broken);
            } else if (next.line) {
                exit = on_line(*next.line);
            } else {
                say("\nend of input: leaving the game, which goes on without this session\n");
                return 0;
            }
            if (exit) return *exit;
        }
    }

  private:
    // Which game and seat the token holds. The game id given, if any, must
    // be that game.
    std::optional<int> find_seat() {
        v1::GetSeatRequest request;
        v1::GetSeatResponse response;
        const grpc::Status status = connection_.call(&Stub::GetSeat, request, response, true);
        if (!status.ok()) return report_error(status, connection_.server(), err_);
        if (!requested_game_id_.empty() && requested_game_id_ != response.game().game_id()) {
            return usage_error(err_, "the token holds a seat in game " + response.game().game_id() +
                                         ", not in " + requested_game_id_);
        }
        game_ = response.game();
        seat_ = response.seat();
        return std::nullopt;
    }

    bool plays(v1::Side side) const {
        return seat_ == v1::SEAT_BOTH || (seat_ == v1::SEAT_FOX && side == v1::SIDE_FOX) ||
               (seat_ == v1::SEAT_GEESE && side == v1::SIDE_GEESE);
    }
    bool my_turn() const {
        return game_.state() == v1::GAME_STATE_ACTIVE && plays(game_.side_to_move());
    }
    std::string seat_name() const { return seat_ == v1::SEAT_FOX ? "fox" : "geese"; }

    // Writes a line of news; a prompt already shown is closed first and
    // shown again afterwards.
    void say(const std::string& text) {
        if (prompt_open_) {
            out_ << "\n";
            prompt_open_ = false;
        }
        out_ << text << std::flush;
    }

    void show_game() {
        std::ostringstream drawn;
        drawn << "\n";
        write_game(game_, drawn);
        say(drawn.str());
    }

    // The prompt on the session's turn (with the opponent's pending draw
    // offer), or once per ply what it waits for.
    void show_what_happens_next(bool turn) {
        if (game_.state() == v1::GAME_STATE_WAITING) {
            if (!waiting_told_) say("waiting for an opponent to join...\n");
            waiting_told_ = true;
            return;
        }
        if (!turn) {
            if (waiting_for_ply_ != game_.ply()) {
                say("waiting for the " + side_name(game_.side_to_move()) + " to move...\n");
                waiting_for_ply_ = game_.ply();
            }
            return;
        }
        if (prompt_open_) return;
        const v1::Side side = game_.side_to_move();
        if (!help_shown_) {
            say(std::string(kHelp));
            help_shown_ = true;
        }
        if (game_.draw_offered_by() != v1::SIDE_UNSPECIFIED && game_.draw_offered_by() != side &&
            offer_announced_ply_ != game_.ply()) {
            say("the " + side_name(game_.draw_offered_by()) +
                " side offers a draw: 'draw' accepts it, a move declines it\n");
            offer_announced_ply_ = game_.ply();
        }
        out_ << side_name(side) << " to move> " << std::flush;
        prompt_open_ = true;
    }

    // A move not told yet: the opponent's as it happens, or one of the
    // session's own that its answer did not show (after a reconnect).
    void tell_move(const v1::Move& move) {
        if (move.ply() <= shown_ply_) return;
        shown_ply_ = move.ply();
        say(side_name(move.side()) + " played " + move.notation() + "\n");
    }

    void on_event(const v1::WatchGameResponse& event) {
        if (reconnecting_) {
            reconnecting_ = false;
            say("reconnected\n");
        }
        if (event.has_snapshot()) {
            const auto& snapshot = event.snapshot();
            const int before = shown_ply_;
            const bool was_waiting = game_.state() == v1::GAME_STATE_WAITING;
            for (const v1::Move& move : snapshot.moves())
                tell_move(move);
            adopt(snapshot.game(), shown_ply_ != before);
            if (was_waiting && game_.state() == v1::GAME_STATE_ACTIVE) {
                say("the opponent joined\n");
                show_game();
            }
        } else if (event.has_seat_joined()) {
            const bool was_waiting = game_.state() == v1::GAME_STATE_WAITING;
            adopt(event.seat_joined().game(), false);
            if (was_waiting && game_.state() == v1::GAME_STATE_ACTIVE) {
                say("the opponent joined\n");
                show_game();
            }
        } else if (event.has_move_made()) {
            const int before = shown_ply_;
            tell_move(event.move_made().move());
            adopt(event.move_made().game(), shown_ply_ != before);
        } else if (event.has_draw_offered()) {
            const v1::Side by = event.draw_offered().by();
            if (game_.state() == v1::GAME_STATE_ACTIVE) game_.set_draw_offered_by(by);
        } else if (event.has_draw_answered()) {
            const auto& answer = event.draw_answered();
            game_.set_draw_offered_by(v1::SIDE_UNSPECIFIED);
            // The bot's answer came with the offer's reply, which told it.
            if (!answer.accepted() && !plays(answer.by()) && answer.by() != game_.bot_side())
                say("the " + side_name(answer.by()) + " declined the draw\n");
        } else if (event.has_game_ended()) {
            adopt(event.game_ended().game(), false);
        } else if (event.has_presence() && seat_ != v1::SEAT_BOTH) {
            const v1::Side opponent = seat_ == v1::SEAT_FOX ? v1::SIDE_GEESE : v1::SIDE_FOX;
            const auto& presence =
                opponent == v1::SIDE_FOX ? event.presence().fox() : event.presence().geese();
            if (opponent_connected_ && *opponent_connected_ != presence.connected()) {
                say("the " + side_name(opponent) +
                    (presence.connected() ? " side is here\n" : " side left; the game goes on\n"));
            }
            opponent_connected_ = presence.connected();
        }
    }

    // Takes a newer state of the game; the board is drawn again if asked.
    void adopt(const v1::Game& game, bool redraw) {
        if (game.ply() < game_.ply()) return;  // older than what a reply showed
        game_ = game;
        if (redraw) show_game();
    }

    std::optional<int> on_break(const Inbox::Break& why) {
        if (why.final) return report_error(why.status, connection_.server(), err_);
        if (!reconnecting_) {
            say("lost the connection to the server (" + error_reason(why.status) +
                "); reconnecting...\n");
            reconnecting_ = true;
        }
        return std::nullopt;
    }

    std::optional<int> on_line(const std::string& line) {
        // Piped input is repeated after its prompt, so that a transcript reads
        // like a session typed at a terminal.
        if (echo_input_) out_ << (prompt_open_ ? "" : "> ") << line << "\n";
        prompt_open_ = false;
        const std::string command = trim(line);
        if (command.empty()) return std::nullopt;
        if (command == "quit") {
            say("leaving the game, which goes on without this session\n");
            return 0;
        }
        if (command == "help" || command == "?") {
            say(std::string(kHelp));
            return std::nullopt;
        }
        if (command == "moves") {
            std::string text = "legal moves:";
            for (const std::string& move : game_.legal_moves())
                text += " " + move;
            say(text + "\n");
            return std::nullopt;
        }
        if (command == "resign") return resign();
        if (command == "draw") return offer_draw();
        return make_move(command);
    }

    // A refused call: the one-line error, then carry on where that makes
    // sense. Returns an exit status for the failures play cannot get past.
    std::optional<int> handle_refusal(const grpc::Status& status) {
        report_error(status, connection_.server(), err_);
        const std::string reason = error_reason(status);
        if (reason == "ILLEGAL_MOVE" || reason == "INVALID_NOTATION" ||
            reason == "INVALID_ARGUMENT" || reason == "NO_DRAW_OFFER" ||
            reason == "NOT_YOUR_TURN" || reason == "RATE_LIMITED") {
            return std::nullopt;
        }
        // The game moved on meanwhile; the stream brings the news.
        if (reason == "PLY_MISMATCH" || reason == "GAME_OVER" || reason == "UNAVAILABLE") {
            return reload();
        }
        return kServerError;
    }

    std::optional<int> reload() {
        v1::GetGameRequest request;
        request.set_game_id(game_.game_id());
        v1::GetGameResponse response;
        const grpc::Status status = connection_.call(&Stub::GetGame, request, response);
        if (!status.ok()) return std::nullopt;  // the stream catches up when it can
        adopt(response.game(), false);
        return std::nullopt;
    }

    std::optional<int> make_move(const std::string& notation) {
        v1::MakeMoveRequest request;
        request.set_game_id(game_.game_id());
        request.set_move(notation);
        request.set_expected_ply(game_.ply());
        v1::MakeMoveResponse response;
        const grpc::Status status = connection_.call(&Stub::MakeMove, request, response, true);
        if (!status.ok()) return handle_refusal(status);
        tell_move(response.move());
        adopt(response.game(), true);
        return std::nullopt;
    }

    std::optional<int> resign() {
        v1::ResignGameRequest request;
        request.set_game_id(game_.game_id());
        v1::ResignGameResponse response;
        const grpc::Status status = connection_.call(&Stub::ResignGame, request, response, true);
        if (!status.ok()) return handle_refusal(status);
        // The loser is the side the token moved for: the one to move, or the
        // token's only side.
        const v1::Side loser = seat_ == v1::SEAT_BOTH  ? game_.side_to_move()
                               : seat_ == v1::SEAT_FOX ? v1::SIDE_FOX
                                                       : v1::SIDE_GEESE;
        adopt(response.game(), false);
        say(side_name(loser) + " resigned\n");
        return std::nullopt;
    }

    std::optional<int> offer_draw() {
        v1::OfferDrawRequest request;
        request.set_game_id(game_.game_id());
        v1::OfferDrawResponse response;
        const grpc::Status status = connection_.call(&Stub::OfferDraw, request, response, true);
        if (!status.ok()) return handle_refusal(status);
        adopt(response.game(), false);
        if (game_.state() == v1::GAME_STATE_FINISHED) {
            say("draw agreed\n");
        } else if (game_.bot_side() != v1::SIDE_UNSPECIFIED) {
            // The bot answers at once, and declines: it plays every game out.
            say("the bot (" + side_name(game_.bot_side()) + ") declined the draw\n");
        } else {
            say(side_name(game_.draw_offered_by()) + " offers a draw; the " +
                other_side_name(game_.draw_offered_by()) +
                " may accept it, and a move by them declines it\n");
        }
        return std::nullopt;
    }

    ClientConnection& connection_;
    const std::string requested_game_id_;
    std::istream& in_;
    std::ostream& out_;
    std::ostream& err_;
    const bool echo_input_;
    std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();
    v1::Game game_;
    v1::Seat seat_ = v1::SEAT_UNSPECIFIED;
    int shown_ply_ = 0;  // the last ply whose move was told
    bool prompt_open_ = false;
    bool help_shown_ = false;
    bool waiting_told_ = false;
    bool reconnecting_ = false;
    int waiting_for_ply_ = -1;
    int offer_announced_ply_ = -1;
    std::optional<bool> opponent_connected_;
};

}  // namespace

void add_play_command(CommandLine& line) {
    struct PlayArgs {
        ServerFlags server;
        std::vector<std::string> positional;
    };
    auto args = std::make_shared<PlayArgs>();
    CLI::App& command = line.add("play", args->positional, [args, &line] {
        Io& io = line.io();
        if (std::string e = check_server_flags(args->server); !e.empty())
            return usage_error(io.err, e);
        if (args->positional.size() > 1)
            return usage_error(io.err, "usage: foxgeese play [GAME_ID] --token TOKEN");
        if (args->server.token.empty())
            return usage_error(io.err,
                               "play needs the seat token: --token TOKEN or FOXGEESE_TOKEN");
        ClientConnection connection(args->server);
        const std::string game_id = args->positional.empty() ? "" : args->positional[0];
        return PlaySession(connection, game_id, io.in, io.out, io.err, io.piped_input).run();
    });
    add_server_flags(command, args->server);
}

}  // namespace foxgeese::cli
