#include "play_command.h"

#include <array>
#include <chrono>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

#include "client_commands.h"
#include "client_connection.h"
#include "engine_commands.h"

namespace foxgeese::cli {
namespace {

using Stub = ClientConnection::Stub;

// The opponent's moves are found by polling GetGame.
constexpr std::chrono::seconds kPollInterval{1};

constexpr std::string_view kHelp =
    "commands: a move (e.g. d4-d5 or d4xd6xf6), moves (list the legal moves), resign, draw "
    "(offer a draw, or accept the one offered), quit (leave; the game goes on)\n";

std::string trim(const std::string& text) {
    const auto begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) return "";
    return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::size_t side_index(v1::Side side) {
    return side == v1::SIDE_FOX ? 0 : 1;
}

std::string other_side_name(v1::Side side) {
    return side == v1::SIDE_FOX ? "geese" : "fox";
}

// A step between two points of the board that no line joins: well formed,
// never legal. The server checks whose turn it is before legality, so sending
// it tells NOT_YOUR_TURN from ILLEGAL_MOVE without changing the game.
std::optional<std::string> unplayable_move(const v1::Game& game) {
    const Variant* variant = variant_of(game);
    if (variant == nullptr) return std::nullopt;
    const Board& board = variant->board();
    return board.point_name(0) + "-" + board.point_name(board.point_count() - 1);
}

class PlaySession {
  public:
    PlaySession(ClientConnection& connection, std::string game_id, std::istream& in,
                std::ostream& out, std::ostream& err, bool echo_input)
        : connection_(connection),
          game_id_(std::move(game_id)),
          in_(in),
          out_(out),
          err_(err),
          echo_input_(echo_input) {}

    int run() {
        if (auto exit = reload()) return *exit;
        show_game();
        while (true) {
            if (game_.state() == v1::GAME_STATE_FINISHED) {
                out_ << "game over: " << outcome_text(game_) << "\n";
                return 0;
            }
            std::optional<int> exit;
            std::optional<bool>& mine = acts_for_[side_index(game_.side_to_move())];
            if (game_.state() == v1::GAME_STATE_WAITING) {
                exit = wait_for_change("waiting for an opponent to join");
            } else if (!mine) {
                exit = find_out_whether_mine(mine);
            } else if (*mine) {
                exit = take_turn();
            } else {
                exit = wait_for_change("waiting for the " + side_name(game_.side_to_move()) +
                                       " to move");
            }
            if (exit) return *exit;
        }
    }

  private:
    // Reads the game again. Returns an exit status when that fails.
    std::optional<int> reload() {
        v1::GetGameRequest request;
        request.set_game_id(game_id_);
        v1::GetGameResponse response;
        const grpc::Status status = connection_.call(&Stub::GetGame, request, response);
        if (!status.ok()) return report_error(status, connection_.server(), err_);
        game_ = response.game();
        return std::nullopt;
    }

    void show_game() {
        out_ << "\n";
        write_game(game_, out_);
        out_ << std::flush;
    }

    std::optional<int> find_out_whether_mine(std::optional<bool>& mine) {
        const std::optional<std::string> probe = unplayable_move(game_);
        if (!probe) {
            mine = true;  // an unknown board: let the user try, the server decides
            return std::nullopt;
        }
        v1::MakeMoveRequest request;
        request.set_game_id(game_id_);
        request.set_move(*probe);
        request.set_expected_ply(game_.ply());
        v1::MakeMoveResponse response;
        const grpc::Status status = connection_.call(&Stub::MakeMove, request, response, true);
        const std::string reason = status.ok() ? "" : error_reason(status);
        if (reason == "ILLEGAL_MOVE" || reason == "NOT_YOUR_TURN") {
            mine = reason == "ILLEGAL_MOVE";
            if (*mine && !help_shown_) {
                out_ << kHelp;
                help_shown_ = true;
            }
            return std::nullopt;
        }
        // The game moved on in the meantime: look again.
        if (reason == "PLY_MISMATCH" || reason == "GAME_OVER" || reason == "GAME_NOT_STARTED") {
            return reload();
        }
        if (status.ok()) return std::nullopt;
        return report_error(status, connection_.server(), err_);
    }

    // A refused call: the one-line error, then carry on where that makes
    // sense. Returns an exit status for the failures play cannot get past.
    std::optional<int> handle_refusal(const grpc::Status& status) {
        report_error(status, connection_.server(), err_);
        const std::string reason = error_reason(status);
        if (reason == "ILLEGAL_MOVE" || reason == "INVALID_NOTATION" ||
            reason == "INVALID_ARGUMENT" || reason == "NO_DRAW_OFFER") {
            return std::nullopt;
        }
        if (reason == "NOT_YOUR_TURN") acts_for_[side_index(game_.side_to_move())] = false;
        if (reason == "NOT_YOUR_TURN" || reason == "PLY_MISMATCH" || reason == "GAME_OVER") {
            if (auto exit = reload()) return exit;
            show_game();
            return std::nullopt;
        }
        return kServerError;
    }

    std::optional<int> take_turn() {
        const v1::Side side = game_.side_to_move();
        if (game_.draw_offered_by() != v1::SIDE_UNSPECIFIED && game_.draw_offered_by() != side &&
            offer_announced_ply_ != game_.ply()) {
            out_ << "the " << side_name(game_.draw_offered_by())
                 << " side offers a draw: 'draw' accepts it, a move declines it\n";
            offer_announced_ply_ = game_.ply();
        }
        out_ << side_name(side) << " to move> " << std::flush;
        std::string line;
        if (!std::getline(in_, line)) {
            out_ << "\nend of input: leaving the game, which goes on without this session\n";
            return 0;
        }
        if (echo_input_) out_ << line << "\n";
        const std::string command = trim(line);
        if (command.empty()) return std::nullopt;
        if (command == "quit") {
            out_ << "leaving the game, which goes on without this session\n";
            return 0;
        }
        if (command == "help" || command == "?") {
            out_ << kHelp;
            return std::nullopt;
        }
        if (command == "moves") {
            out_ << "legal moves:";
            for (const std::string& move : game_.legal_moves())
                out_ << " " << move;
            out_ << "\n";
            return std::nullopt;
        }
        if (command == "resign") return resign();
        if (command == "draw") return offer_draw();
        return make_move(command);
    }

    std::optional<int> make_move(const std::string& notation) {
        v1::MakeMoveRequest request;
        request.set_game_id(game_id_);
        request.set_move(notation);
        request.set_expected_ply(game_.ply());
        v1::MakeMoveResponse response;
        const grpc::Status status = connection_.call(&Stub::MakeMove, request, response, true);
        if (!status.ok()) return handle_refusal(status);
        game_ = response.game();
        out_ << side_name(response.move().side()) << " played " << response.move().notation()
             << "\n";
        show_game();
        return std::nullopt;
    }

    std::optional<int> resign() {
        v1::ResignGameRequest request;
        request.set_game_id(game_id_);
        v1::ResignGameResponse response;
        const grpc::Status status = connection_.call(&Stub::ResignGame, request, response, true);
        if (!status.ok()) return handle_refusal(status);
        game_ = response.game();
        out_ << side_name(game_.side_to_move()) << " resigned\n";
        return std::nullopt;
    }

    std::optional<int> offer_draw() {
        v1::OfferDrawRequest request;
        request.set_game_id(game_id_);
        v1::OfferDrawResponse response;
        const grpc::Status status = connection_.call(&Stub::OfferDraw, request, response, true);
        if (!status.ok()) return handle_refusal(status);
        game_ = response.game();
        if (game_.state() == v1::GAME_STATE_FINISHED) {
            out_ << "draw agreed\n";
        } else {
            out_ << side_name(game_.draw_offered_by()) << " offers a draw; the "
                 << other_side_name(game_.draw_offered_by())
                 << " may accept it, and a move by them declines it\n";
        }
        return std::nullopt;
    }

    // Polls until the game changes: a join, a move, the end. A draw offer
    // meanwhile is told and the wait goes on.
    std::optional<int> wait_for_change(const std::string& what) {
        out_ << what << " (checking every " << kPollInterval.count() << " s)..." << std::endl;
        const v1::Game before = game_;
        v1::Side offer = game_.draw_offered_by();
        while (true) {
            std::this_thread::sleep_for(kPollInterval);
            if (auto exit = reload()) return exit;
            if (game_.state() != before.state() || game_.ply() != before.ply()) break;
            if (game_.draw_offered_by() != offer) {
                offer = game_.draw_offered_by();
                if (offer != v1::SIDE_UNSPECIFIED) {
                    out_ << "the " << side_name(offer) << " side offers a draw" << std::endl;
                }
            }
        }
        if (game_.ply() != before.ply() && game_.has_last_move()) {
            out_ << side_name(game_.last_move().side()) << " played "
                 << game_.last_move().notation() << "\n";
            show_game();
        } else if (before.state() == v1::GAME_STATE_WAITING) {
            out_ << "the opponent joined\n";
            show_game();
        }
        return std::nullopt;
    }

    ClientConnection& connection_;
    const std::string game_id_;
    std::istream& in_;
    std::ostream& out_;
    std::ostream& err_;
    const bool echo_input_;
    v1::Game game_;
    // Whether the token acts for the fox side and for the geese, once known.
    std::array<std::optional<bool>, 2> acts_for_;
    bool help_shown_ = false;
    int offer_announced_ply_ = -1;
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
        int status = 0;
        if (std::string e = check_server_flags(args->server); !e.empty())
            return usage_error(io.err, e);
        if (wrong_count(args->positional, 1, "play GAME_ID --token TOKEN", io.err, status))
            return status;
        if (args->server.token.empty())
            return usage_error(io.err, "play needs the seat token: --token TOKEN or FOXGEESE_TOKEN");
        ClientConnection connection(args->server);
        return PlaySession(connection, args->positional[0], io.in, io.out, io.err,
                           io.piped_input)
            .run();
    });
    add_server_flags(command, args->server);
}

}  // namespace foxgeese::cli
