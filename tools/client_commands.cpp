#include "client_commands.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <ostream>

#include "board_render.h"
#include "client_connection.h"
#include "engine/variant.h"
#include "engine_commands.h"

namespace foxgeese::cli {
namespace {

using Stub = ClientConnection::Stub;

int usage_error(std::ostream& err, std::string_view message) {
    err << "foxgeese: " << message << "\n";
    return kUsageError;
}

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

// Parses the command line of a command that takes exactly `positional_count`
// positional arguments, named in `usage`. Returns an exit status on error.
std::optional<int> parse_command(std::span<const std::string_view> args,
                                 std::span<const FlagSpec> flags, std::size_t positional_count,
                                 std::string_view usage, ClientArgs& parsed, std::ostream& err) {
    if (std::string e = parse_client_args(args, flags, parsed); !e.empty())
        return usage_error(err, e);
    if (parsed.positional.size() != positional_count)
        return usage_error(err, "usage: foxgeese " + std::string(usage));
    return std::nullopt;
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
int send_seat_action(const ClientArgs& parsed,
                     grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                     Request& request, std::string (*headline)(const v1::Game&), std::ostream& out,
                     std::ostream& err) {
    request.set_game_id(parsed.positional[0]);
    ClientConnection connection(parsed);
    Response response;
    const grpc::Status status = connection.call(method, request, response, true);
    if (!status.ok()) return report_error(status, connection.server(), err);
    out << headline(response.game()) << "\n\n";
    write_game(response.game(), out);
    return 0;
}

}  // namespace

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

bool is_client_moves(std::span<const std::string_view> args) {
    if (args.empty()) return false;
    return std::none_of(args.begin(), args.end(), [](std::string_view arg) {
        const std::string_view name = arg.substr(0, arg.find('='));
        return name == "--variant" || name == "--geese" || name == "--sideways" ||
               name == "--position" || name == "--divide";
    });
}

int run_create(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    static constexpr FlagSpec kFlags[] = {{"--variant", true},   {"--geese", true},
                                          {"--sideways", false}, {"--position", true},
                                          {"--seat", true},      {"--public", false}};
    ClientArgs parsed;
    constexpr std::string_view kUsage =
        "create --variant V [--geese N] [--sideways] [--position CODE] "
        "[--seat fox|geese|random|both] [--public]";
    if (auto status = parse_command(args, kFlags, 0, kUsage, parsed, err)) return *status;
    v1::CreateGameRequest request;
    const std::optional<std::string> variant = parsed.value("--variant");
    if (!variant || variant->empty()) {
        return usage_error(err, "--variant is required (standard, big_cross or two_foxes)");
    }
    request.set_variant(*variant);
    if (const auto geese = parsed.value("--geese")) {
        const auto n = parse_int(*geese);
        if (!n)
            return usage_error(err, "--geese takes a number (13, 15 or 17), not '" + *geese + "'");
        request.mutable_options()->set_geese(*n);
    }
    if (parsed.has("--sideways")) request.mutable_options()->set_geese_sideways(true);
    if (const auto position = parsed.value("--position")) request.set_start_position(*position);
    request.set_seat(v1::SEAT_CHOICE_RANDOM);
    if (const auto seat = parsed.value("--seat")) {
        const auto choice = parse_seat_choice(*seat);
        if (!choice)
            return usage_error(err, "--seat is fox, geese, random or both, not '" + *seat + "'");
        request.set_seat(*choice);
    }
    request.set_visibility(parsed.has("--public") ? v1::VISIBILITY_PUBLIC : v1::VISIBILITY_PRIVATE);

    ClientConnection connection(parsed);
    v1::CreateGameResponse response;
    const grpc::Status status = connection.call(&Stub::CreateGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), err);
    write_seat_lines(response.game(), response.seat(), response.seat_token(), out);
    out << "invite_code: " << response.invite_code() << "\n\n";
    write_game(response.game(), out);
    return 0;
}

int run_join(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    static constexpr FlagSpec kFlags[] = {{"--invite", true}};
    ClientArgs parsed;
    if (auto status = parse_command(args, kFlags, 1, "join GAME_ID [--invite CODE]", parsed, err))
        return *status;
    v1::JoinGameRequest request;
    request.set_game_id(parsed.positional[0]);
    request.set_invite_code(parsed.value("--invite").value_or(""));

    ClientConnection connection(parsed);
    v1::JoinGameResponse response;
    const grpc::Status status = connection.call(&Stub::JoinGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), err);
    write_seat_lines(response.game(), response.seat(), response.seat_token(), out);
    out << "\n";
    write_game(response.game(), out);
    return 0;
}

int run_show(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    ClientArgs parsed;
    if (auto status = parse_command(args, {}, 1, "show GAME_ID", parsed, err)) return *status;
    v1::GetGameRequest request;
    request.set_game_id(parsed.positional[0]);

    ClientConnection connection(parsed);
    v1::GetGameResponse response;
    const grpc::Status status = connection.call(&Stub::GetGame, request, response);
    if (!status.ok()) return report_error(status, connection.server(), err);
    out << "game_id: " << response.game().game_id() << "\n\n";
    write_game(response.game(), out);
    return 0;
}

int run_move(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    static constexpr FlagSpec kFlags[] = {{"--expected-ply", true}, {"--request-id", true}};
    ClientArgs parsed;
    constexpr std::string_view kUsage =
        "move GAME_ID MOVE [--expected-ply N] [--request-id ID] --token TOKEN";
    if (auto status = parse_command(args, kFlags, 2, kUsage, parsed, err)) return *status;
    v1::MakeMoveRequest request;
    request.set_game_id(parsed.positional[0]);
    request.set_move(parsed.positional[1]);
    if (const auto ply = parsed.value("--expected-ply")) {
        const auto n = parse_int(*ply);
        if (!n || *n < 0) {
            return usage_error(err,
                               "--expected-ply takes a ply number (0 or more), not '" + *ply + "'");
        }
        request.set_expected_ply(*n);
    }
    if (const auto id = parsed.value("--request-id")) request.set_request_id(*id);

    ClientConnection connection(parsed);
    v1::MakeMoveResponse response;
    const grpc::Status status = connection.call(&Stub::MakeMove, request, response, true);
    if (!status.ok()) return report_error(status, connection.server(), err);
    out << "move: " << move_text(response.move()) << "\n\n";
    write_game(response.game(), out);
    return 0;
}

int run_game_moves(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    ClientArgs parsed;
    if (auto status = parse_command(args, {}, 1, "moves GAME_ID", parsed, err)) return *status;
    v1::ListMovesRequest request;
    request.set_game_id(parsed.positional[0]);

    ClientConnection connection(parsed);
    v1::ListMovesResponse response;
    const grpc::Status status = connection.call(&Stub::ListMoves, request, response);
    if (!status.ok()) return report_error(status, connection.server(), err);
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
        if (move.state() == v1::GAME_STATE_FINISHED) {
            out << ", " << result_name(move.result()) << ", " << end_reason_name(move.end_reason());
        }
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

int run_resign(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    ClientArgs parsed;
    if (auto status = parse_command(args, {}, 1, "resign GAME_ID --token TOKEN", parsed, err))
        return *status;
    v1::ResignGameRequest request;
    return send_seat_action(
        parsed, &Stub::ResignGame, request,
        +[](const v1::Game& game) { return "resigned: " + outcome_text(game); }, out, err);
}

int run_offer_draw(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    ClientArgs parsed;
    if (auto status = parse_command(args, {}, 1, "offer-draw GAME_ID --token TOKEN", parsed, err))
        return *status;
    v1::OfferDrawRequest request;
    return send_seat_action(
        parsed, &Stub::OfferDraw, request,
        +[](const v1::Game& game) -> std::string {
            // Offering while the other side's offer stands accepts it.
            if (game.state() == v1::GAME_STATE_FINISHED)
                return "draw agreed: " + outcome_text(game);
            return "draw offered by: " + side_name(game.draw_offered_by());
        },
        out, err);
}

int run_respond_draw(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
    ClientArgs parsed;
    constexpr std::string_view kUsage = "respond-draw GAME_ID accept|decline --token TOKEN";
    if (auto status = parse_command(args, {}, 2, kUsage, parsed, err)) return *status;
    const std::string& answer = parsed.positional[1];
    if (answer != "accept" && answer != "decline") {
        return usage_error(err, "respond-draw takes accept or decline, not '" + answer + "'");
    }
    v1::RespondDrawRequest request;
    request.set_accept(answer == "accept");
    return send_seat_action(
        parsed, &Stub::RespondDraw, request,
        +[](const v1::Game& game) -> std::string {
            if (game.state() == v1::GAME_STATE_FINISHED)
                return "draw accepted: " + outcome_text(game);
            return "draw declined";
        },
        out, err);
}

}  // namespace foxgeese::cli
