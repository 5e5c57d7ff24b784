#include "client_commands.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>
#include <optional>
#include <ostream>

#include "board_render.h"
#include "client_connection.h"
#include "command_input.h"
#include "engine/record/game_record.h"
#include "engine/rules/variant.h"
#include "engine_commands.h"
#include "play_command.h"

namespace foxgeese::cli {
namespace {

using Stub = ClientConnection::Stub;

std::optional<int> parse_int(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// "GAME_RESULT_GEESE_WIN" -> "geese_win"; a value this client does not know
// (a newer server) shows as its number.
std::string enum_text(const std::string& name, std::string_view prefix, int number) {
    if (name.empty() || !name.starts_with(prefix)) return std::to_string(number);
    std::string out = name.substr(prefix.size());
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Draws a position of the game; nothing for a variant this client does not
// know (the "position:" line still gives the code).
void write_position(const v1::Game& game, std::string_view code, std::ostream& out) {
    const Variant* variant = variant_of(game);
    if (variant == nullptr) return;
    Result<std::string> board = render_position_code(*variant, code);
    if (board) out << *board;
}

std::string variant_text(const v1::Game& game) {
    std::string text = game.variant();
    if (game.options().has_geese()) {
        text += " (" + std::to_string(game.options().geese()) + " geese";
        if (game.options().geese_sideways()) text += ", sideways steps";
        text += ")";
    }
    return text;
}

std::string move_text(const v1::Move& move) {
    std::string text = side_name(move.side()) + " " + move.notation();
    if (move.captured_size() > 0) {
        text += " (captured";
        for (const std::string& point : move.captured())
            text += " " + point;
        text += ")";
    }
    return text;
}

void write_seat_lines(const v1::Game& game, v1::Seat seat, const std::string& token,
                      std::ostream& out) {
    out << "game_id: " << game.game_id() << "\n"
        << "seat: " << seat_name(seat) << "\n"
        << "seat_token: " << token << "\n";
}

std::optional<v1::SeatChoice> parse_seat_choice(std::string_view text) {
    if (text == "fox") return v1::SEAT_CHOICE_FOX;
    if (text == "geese") return v1::SEAT_CHOICE_GEESE;
    if (text == "random") return v1::SEAT_CHOICE_RANDOM;
    if (text == "both") return v1::SEAT_CHOICE_BOTH;
    return std::nullopt;
}

// Sends resign, offer-draw or respond-draw: a call for the seat that answers
// with the game, printed after `headline`.
template <class Request, class Response>
int send_seat_action(const std::string& game_id, const ServerFlags& server,
                     grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                     Request& request, std::string (*headline)(const v1::Game&), std::ostream& out,
                     std::ostream& err) {
    request.set_game_id(game_id);
    ClientConnection connection(server);
    Response response;
    const grpc::Status status = connection.call(method, request, response, true);
    if (!status.ok()) return report_error(status, connection.server(), err);
    out << headline(response.game()) << "\n\n";
    write_game(response.game(), out);
    return 0;
}

// The arguments of a client command: --server and --token, its own flags
// (bound by its registration) and its positional arguments.
struct ClientArgs {
    ServerFlags server;
    std::vector<std::string> positional;
};

// Registers a client command: its run gets the parsed arguments after the
// server flags and the count of positional arguments are checked.
template <class Args>
CLI::App& add_client_command(CommandLine& line, const std::string& name, std::size_t positional,
                             const std::string& usage, std::shared_ptr<Args> args,
                             std::function<int(const Args&, Io&)> run) {
    CLI::App& command = line.add(name, args->positional, [&line, args, positional, usage, run] {
        Io& io = line.io();
        int status = 0;
        if (std::string e = check_server_flags(args->server); !e.empty())
            return usage_error(io.err, e);
        if (wrong_count(args->positional, positional, usage, io.err, status)) return status;
        return run(*args, io);
    });
    add_server_flags(command, args->server);
    return command;
}

struct CreateArgs : ClientArgs {
    VariantFlags variant;
    std::string seat;
    bool is_public = false;
    int bot = 0;  // a bot of this level on the other side (0: none)
};

int run_create(const CreateArgs& args, Io& io) {
    if (args.variant.variant.empty())
        return usage_error(io.err, "--variant is required (standard, big_cross or two_foxes)");
    v1::CreateGameRequest request;
    request.set_variant(args.variant.variant);
    VariantOptions options;
    if (std::string e = variant_options(args.variant, options); !e.empty())
        return usage_error(io.err, e);
    if (options.geese) request.mutable_options()->set_geese(*options.geese);
    if (options.geese_sideways) request.mutable_options()->set_geese_sideways(true);
    if (args.variant.position_given->count() > 0) request.set_start_position(args.variant.position);
    request.set_seat(v1::SEAT_CHOICE_RANDOM);
    if (!args.seat.empty()) {
        const auto choice = parse_seat_choice(args.seat);
        if (!choice)
            return usage_error(io.err,
                               "--seat is fox, geese, random or both, not '" + args.seat + "'");
        request.set_seat(*choice);
    }
    request.set_visibility(args.is_public ? v1::VISIBILITY_PUBLIC : v1::VISIBILITY_PRIVATE);
    // The server checks the level: its refusal says the range.
    request.set_bot_level(args.bot);

    ClientConnection connection(args.server);
    v1::CreateGameResponse response;
    const grpc::Status status = connection.call(&Stub::CreateGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    write_seat_lines(response.game(), response.seat(), response.seat_token(), io.out);
    io.out << "invite_code: " << response.invite_code() << "\n\n";
    write_game(response.game(), io.out);
    return 0;
}

struct JoinArgs : ClientArgs {
    std::string invite;
};

int run_join(const JoinArgs& args, Io& io) {
    v1::JoinGameRequest request;
    request.set_game_id(args.positional[0]);
    request.set_invite_code(args.invite);
    ClientConnection connection(args.server);
    v1::JoinGameResponse response;
    const grpc::Status status = connection.call(&Stub::JoinGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    write_seat_lines(response.game(), response.seat(), response.seat_token(), io.out);
    io.out << "\n";
    write_game(response.game(), io.out);
    return 0;
}

int run_show(const ClientArgs& args, Io& io) {
    v1::GetGameRequest request;
    request.set_game_id(args.positional[0]);
    ClientConnection connection(args.server);
    v1::GetGameResponse response;
    const grpc::Status status = connection.call(&Stub::GetGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    io.out << "game_id: " << response.game().game_id() << "\n\n";
    write_game(response.game(), io.out);
    return 0;
}

struct MoveArgs : ClientArgs {
    std::string expected_ply;
    const CLI::Option* expected_ply_given = nullptr;
    std::string request_id;
};

int run_move(const MoveArgs& args, Io& io) {
    v1::MakeMoveRequest request;
    request.set_game_id(args.positional[0]);
    request.set_move(args.positional[1]);
    if (args.expected_ply_given->count() > 0) {
        const auto n = parse_int(args.expected_ply);
        if (!n || *n < 0) {
            return usage_error(io.err, "--expected-ply takes a ply number (0 or more), not '" +
                                           args.expected_ply + "'");
        }
        request.set_expected_ply(*n);
    }
    request.set_request_id(args.request_id);
    ClientConnection connection(args.server);
    v1::MakeMoveResponse response;
    const grpc::Status status = connection.call(&Stub::MakeMove, request, response, true);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    io.out << "move: " << move_text(response.move()) << "\n\n";
    write_game(response.game(), io.out);
    return 0;
}

int run_resign(const ClientArgs& args, Io& io) {
    v1::ResignGameRequest request;
    return send_seat_action(
        args.positional[0], args.server, &Stub::ResignGame, request,
        +[](const v1::Game& game) { return "resigned: " + outcome_text(game); }, io.out, io.err);
}

int run_offer_draw(const ClientArgs& args, Io& io) {
    v1::OfferDrawRequest request;
    return send_seat_action(
        args.positional[0], args.server, &Stub::OfferDraw, request,
        +[](const v1::Game& game) -> std::string {
            // Offering while the other side's offer stands accepts it.
            if (game.state() == v1::GAME_STATE_FINISHED)
                return "draw agreed: " + outcome_text(game);
            return "draw offered by: " + side_name(game.draw_offered_by());
        },
        io.out, io.err);
}

int run_respond_draw(const ClientArgs& args, Io& io) {
    const std::string& answer = args.positional[1];
    if (answer != "accept" && answer != "decline")
        return usage_error(io.err, "respond-draw takes accept or decline, not '" + answer + "'");
    v1::RespondDrawRequest request;
    request.set_accept(answer == "accept");
    return send_seat_action(
        args.positional[0], args.server, &Stub::RespondDraw, request,
        +[](const v1::Game& game) -> std::string {
            if (game.state() == v1::GAME_STATE_FINISHED)
                return "draw accepted: " + outcome_text(game);
            return "draw declined";
        },
        io.out, io.err);
}

// The record exactly as the server writes it.
int run_export(const ClientArgs& args, Io& io) {
    v1::ExportGameRequest request;
    request.set_game_id(args.positional[0]);
    ClientConnection connection(args.server);
    google::api::HttpBody response;
    const grpc::Status status = connection.call(&Stub::ExportGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    io.out << response.data();
    return 0;
}

struct ImportArgs : ClientArgs {
    bool is_public = false;
};

int run_import(const ImportArgs& args, Io& io) {
    CommandInput input(args.positional[0], io.in);
    if (!input.error().empty()) return usage_error(io.err, input.error());
    v1::ImportGameRequest request;
    // The server refuses a longer record; this one is not sent at all.
    if (!read_at_most(input.stream(), kMaxRecordBytes, *request.mutable_record())) {
        return usage_error(io.err, args.positional[0] + " is longer than a record may be (" +
                                       std::to_string(kMaxRecordBytes) + " bytes)");
    }
    request.set_visibility(args.is_public ? v1::VISIBILITY_PUBLIC : v1::VISIBILITY_PRIVATE);
    ClientConnection connection(args.server);
    v1::ImportGameResponse response;
    const grpc::Status status = connection.call(&Stub::ImportGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    io.out << "game_id: " << response.game().game_id() << "\n\n";
    write_game(response.game(), io.out);
    return 0;
}

}  // namespace

int run_game_moves(const std::string& game_id, const ServerFlags& server, Io& io) {
    if (std::string e = check_server_flags(server); !e.empty()) return usage_error(io.err, e);
    v1::ListMovesRequest request;
    request.set_game_id(game_id);
    ClientConnection connection(server);
    v1::ListMovesResponse response;
    const grpc::Status status = connection.call(&Stub::ListMoves, request, response);
    if (!status.ok()) return report_error(status, connection.server(), io.err);
    std::ostream& out = io.out;
    const v1::Game& game = response.game();
    out << "game_id: " << game.game_id() << "\n"
        << "variant: " << variant_text(game) << "\n\n"
        << "start: " << response.start_position() << "\n";
    write_position(game, response.start_position(), out);
    for (const v1::Move& move : response.moves()) {
        out << "\nply " << move.ply() << ": " << move_text(move) << "\n";
        write_position(game, move.position(), out);
        out << "position: " << move.position() << "\n"
            << "status: " << state_name(move.state());
        if (move.state() == v1::GAME_STATE_FINISHED)
            out << ", " << result_name(move.result()) << ", " << end_reason_name(move.end_reason());
        out << "\n";
    }
    // The game may have ended after its last move (a resignation, an agreed draw).
    out << "\nstate: " << state_name(game.state()) << "\n";
    if (game.state() == v1::GAME_STATE_FINISHED) {
        out << "result: " << result_name(game.result()) << "\n"
            << "reason: " << end_reason_name(game.end_reason()) << "\n";
    }
    return 0;
}

void add_client_commands(CommandLine& line) {
    auto create = std::make_shared<CreateArgs>();
    CLI::App& create_command = add_client_command<CreateArgs>(
        line, "create", 0,
        "create --variant V [--geese N] [--sideways] [--position CODE] "
        "[--seat fox|geese|random|both] [--public] [--bot LEVEL]",
        create, run_create);
    add_variant_flags(create_command, create->variant);
    create_command.add_option("--seat", create->seat);
    create_command.add_flag("--public", create->is_public);
    create_command.add_option("--bot", create->bot);

    auto join = std::make_shared<JoinArgs>();
    add_client_command<JoinArgs>(line, "join", 1, "join GAME_ID [--invite CODE]", join, run_join)
        .add_option("--invite", join->invite);

    add_client_command<ClientArgs>(line, "show", 1, "show GAME_ID", std::make_shared<ClientArgs>(),
                                   run_show);

    auto move = std::make_shared<MoveArgs>();
    CLI::App& move_command = add_client_command<MoveArgs>(
        line, "move", 2, "move GAME_ID MOVE [--expected-ply N] [--request-id ID] --token TOKEN",
        move, run_move);
    move->expected_ply_given = move_command.add_option("--expected-ply", move->expected_ply);
    move_command.add_option("--request-id", move->request_id);

    add_client_command<ClientArgs>(line, "resign", 1, "resign GAME_ID --token TOKEN",
                                   std::make_shared<ClientArgs>(), run_resign);
    add_client_command<ClientArgs>(line, "offer-draw", 1, "offer-draw GAME_ID --token TOKEN",
                                   std::make_shared<ClientArgs>(), run_offer_draw);
    add_client_command<ClientArgs>(line, "respond-draw", 2,
                                   "respond-draw GAME_ID accept|decline --token TOKEN",
                                   std::make_shared<ClientArgs>(), run_respond_draw);
    add_play_command(line);

    add_client_command<ClientArgs>(line, "export", 1, "export GAME_ID",
                                   std::make_shared<ClientArgs>(), run_export);
    auto import_args = std::make_shared<ImportArgs>();
    add_client_command<ImportArgs>(line, "import", 1, "import FILE|- [--public]", import_args,
                                   run_import)
        .add_flag("--public", import_args->is_public);
}

const Variant* variant_of(const v1::Game& game) {
    VariantOptions options;
    if (game.options().has_geese()) options.geese = game.options().geese();
    if (game.options().has_geese_sideways())
        options.geese_sideways = game.options().geese_sideways();
    Result<const Variant*> variant = Variant::find(game.variant(), options);
    return variant ? *variant : nullptr;
}

std::string side_name(v1::Side side) {
    return enum_text(v1::Side_Name(side), "SIDE_", side);
}

std::string seat_name(v1::Seat seat) {
    return enum_text(v1::Seat_Name(seat), "SEAT_", seat);
}

std::string state_name(v1::GameState state) {
    return enum_text(v1::GameState_Name(state), "GAME_STATE_", state);
}

std::string result_name(v1::GameResult result) {
    return enum_text(v1::GameResult_Name(result), "GAME_RESULT_", result);
}

std::string end_reason_name(v1::EndReason reason) {
    return enum_text(v1::EndReason_Name(reason), "END_REASON_", reason);
}

std::string outcome_text(const v1::Game& game) {
    std::string text;
    switch (game.result()) {
        case v1::GAME_RESULT_FOX_SIDE_WINS:
            text = "the fox side wins";
            break;
        case v1::GAME_RESULT_GEESE_WIN:
            text = "the geese win";
            break;
        case v1::GAME_RESULT_DRAW:
            text = "a draw";
            break;
        default:
            text = result_name(game.result());
            break;
    }
    std::string reason = end_reason_name(game.end_reason());
    std::replace(reason.begin(), reason.end(), '_', ' ');
    return text + " (" + reason + ")";
}

void write_game(const v1::Game& game, std::ostream& out) {
    write_position(game, game.position(), out);
    out << "\n"
        << "variant: " << variant_text(game) << "\n"
        << "position: " << game.position() << "\n"
        << "state: " << state_name(game.state()) << "\n";
    if (game.state() == v1::GAME_STATE_WAITING) {
        out << "open seat: " << (game.fox_seat_taken() ? "geese" : "fox") << "\n";
    }
    if (game.bot_side() != v1::SIDE_UNSPECIFIED) {
        out << "bot: " << side_name(game.bot_side()) << " (level " << game.bot_level() << ")\n";
    }
    if (game.state() == v1::GAME_STATE_FINISHED) {
        out << "result: " << result_name(game.result()) << "\n"
            << "reason: " << end_reason_name(game.end_reason()) << "\n";
    }
    out << "to move: " << side_name(game.side_to_move()) << "\n"
        << "ply: " << game.ply() << "\n"
        << "geese: " << game.geese_count() << " (" << game.geese_captured() << " captured)\n";
    if (game.has_last_move()) out << "last move: " << move_text(game.last_move()) << "\n";
    if (game.draw_offered_by() != v1::SIDE_UNSPECIFIED) {
        out << "draw offered by: " << side_name(game.draw_offered_by()) << "\n";
    }
    if (game.state() == v1::GAME_STATE_FINISHED) return;
    out << "legal moves:";
    if (game.legal_moves_omitted()) out << " (too many to list)";
    for (const std::string& move : game.legal_moves())
        out << " " << move;
    out << "\n";
}

}  // namespace foxgeese::cli
