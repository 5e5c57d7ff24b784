#include "service/core/rpc_table.h"

#include <concepts>
#include <map>
#include <stdexcept>
#include <string>

#include "service/core/seat_auth.h"
#include "service/core/secrets.h"

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;

// One entry before it meets its descriptor.
struct Binding {
    const pb::Descriptor* request_type;
    std::function<MessagePtr()> new_request;
    decltype(RpcMethod::call) call;
    decltype(RpcMethod::start) start;
};

template <class Request>
std::function<MessagePtr()> make_request() {
    return [] { return MessagePtr(std::make_unique<Request>()); };
}

template <class Message>
concept HasGameId = requires(const Message& m) {
    { m.game_id() } -> std::convertible_to<const std::string&>;
};

template <class Message>
concept HasGame = requires(const Message& m) {
    { m.has_game() } -> std::convertible_to<bool>;
    { m.game().game_id() } -> std::convertible_to<const std::string&>;
};

template <class Message>
std::string game_id_in(const Message& message) {
    if constexpr (HasGameId<Message>) {
        return loggable_game_id(message.game_id());
    } else {
        return {};
    }
}

// The game of a call (RpcOutcome::game_id), from the typed messages.
template <class Request, class Response>
std::string game_of_call(const Request& request, const Response* response) {
    if (std::string id = game_id_in(request); !id.empty()) return id;
    if (response == nullptr) return {};
    if (std::string id = game_id_in(*response); !id.empty()) return id;
    if constexpr (HasGame<Response>) {
        if (response->has_game()) return game_id_in(response->game());
    }
    return {};
}

template <class Request, class Response>
Binding unary(ServiceResult<Response> (GameService::*method)(const Request&, const CallContext&)) {
    return {Request::descriptor(), make_request<Request>(),
            [method](GameService& service, const pb::Message& message,
                     const CallContext& call) -> RpcOutcome {
                const auto& request = static_cast<const Request&>(message);
                if (auto e = check_single_authorization(call))
                    return {*e, game_of_call<Request, Response>(request, nullptr)};
                ServiceResult<Response> outcome = (service.*method)(request, call);
                if (!outcome.ok()) {
                    return {outcome.error(), game_of_call<Request, Response>(request, nullptr)};
                }
                std::string game_id = game_of_call(request, &outcome.value());
                return {MessagePtr(std::make_unique<Response>(std::move(outcome.value()))),
                        std::move(game_id)};
            },
            nullptr};
}

// A unary RPC whose method answers through a callback, possibly later.
template <class Request, class Response>
Binding answered_later(void (GameService::*method)(const Request&, const CallContext&,
                                                   std::function<void(ServiceResult<Response>)>)) {
    return {Request::descriptor(), make_request<Request>(), nullptr,
            [method](GameService& service, const pb::Message& message, const CallContext& call,
                     const RpcMethod::Done& done) {
                const auto& request = static_cast<const Request&>(message);
                if (auto e = check_single_authorization(call))
                    return done({*e, game_of_call<Request, Response>(request, nullptr)});
                const std::string request_game = game_of_call<Request, Response>(request, nullptr);
                (service.*method)(request, call, [done, request_game](ServiceResult<Response> r) {
                    if (!r.ok()) return done({r.error(), request_game});
                    std::string game_id = request_game;
                    if (game_id.empty() && r.value().has_game())
                        game_id = game_id_in(r.value().game());
                    done({MessagePtr(std::make_unique<Response>(std::move(r.value()))),
                          std::move(game_id)});
                });
            }};
}

template <class Request>
Binding streaming() {
    return {Request::descriptor(), make_request<Request>(), nullptr, nullptr};
}

const std::map<std::string, Binding>& bindings() {
    static const std::map<std::string, Binding> table = {
        {"ListVariants", unary(&GameService::list_variants)},
        {"CreateGame", unary(&GameService::create_game)},
        {"JoinGame", unary(&GameService::join_game)},
        {"GetGame", unary(&GameService::get_game)},
        {"ListGames", unary(&GameService::list_games)},
        {"MakeMove", unary(&GameService::make_move)},
        {"ListMoves", unary(&GameService::list_moves)},
        {"ExportGame", unary(&GameService::export_game)},
        {"ImportGame", unary(&GameService::import_game)},
        {"ResignGame", unary(&GameService::resign_game)},
        {"OfferDraw", unary(&GameService::offer_draw)},
        {"RespondDraw", unary(&GameService::respond_draw)},
        {"AbortGame", unary(&GameService::abort_game)},
        {"CancelGame", unary(&GameService::cancel_game)},
        {"ClaimVictory", unary(&GameService::claim_victory)},
        {"OfferRematch", unary(&GameService::offer_rematch)},
        {"RespondRematch", unary(&GameService::respond_rematch)},
        {"JoinRematch", unary(&GameService::join_rematch)},
        {"GetSeat", unary(&GameService::get_seat)},
        {"WatchGame", streaming<v1::WatchGameRequest>()},
        {"AnalyzePosition", unary(&GameService::analyze_position)},
        {"AnalyzeGame", unary(&GameService::analyze_game)},
        {"SeekGame", answered_later(&GameService::seek_game)},
        {"GetTablebase", unary(&GameService::get_tablebase)},
    };
    return table;
}

std::vector<RpcMethod> build_methods() {
    const pb::ServiceDescriptor& service = foxgeese_service_descriptor();
    const auto& table = bindings();
    if (table.size() != static_cast<std::size_t>(service.method_count()))
        throw std::logic_error("the RPC table and foxgeese.v1.FoxGeeseService differ in size");
    std::vector<RpcMethod> methods;
    for (int i = 0; i < service.method_count(); ++i) {
        const pb::MethodDescriptor* method = service.method(i);
        const auto it = table.find(method->name());
        if (it == table.end())
            throw std::logic_error(method->full_name() + " is missing from the RPC table");
        const Binding& binding = it->second;
        if (binding.request_type != method->input_type())
            throw std::logic_error(method->full_name() + ": the RPC table's request type differs");
        if (static_cast<bool>(binding.call || binding.start) == method->server_streaming())
            throw std::logic_error(method->full_name() + ": the RPC table disagrees on streaming");
        methods.push_back(RpcMethod{method, binding.new_request, binding.call, binding.start});
    }
    return methods;
}

}  // namespace

const pb::ServiceDescriptor& foxgeese_service_descriptor() {
    const pb::ServiceDescriptor* service =
        v1::WatchGameRequest::descriptor()->file()->pool()->FindServiceByName(
            "foxgeese.v1.FoxGeeseService");
    if (service == nullptr) throw std::logic_error("foxgeese.v1.FoxGeeseService is not linked in");
    return *service;
}

const std::vector<RpcMethod>& rpc_methods() {
    static const std::vector<RpcMethod> methods = build_methods();
    return methods;
}

const RpcMethod* find_rpc(std::string_view name) {
    for (const RpcMethod& method : rpc_methods()) {
        if (method.name() == name) return &method;
    }
    return nullptr;
}

std::string loggable_game_id(const std::string& id) {
    return is_uuid(id) ? id : std::string();
}

}  // namespace foxgeese::service
