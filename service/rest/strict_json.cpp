#include "service/rest/strict_json.h"

#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "service/rest/rest_json.h"

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;
using Json = nlohmann::json;

// Far deeper than any request message nests; refused before it costs anything.
constexpr int kMaxDepth = 32;

const pb::FieldDescriptor* field_named(const pb::Descriptor& type, const std::string& key) {
    for (int i = 0; i < type.field_count(); ++i) {
        const pb::FieldDescriptor* field = type.field(i);
        if (field->name() == key || field->json_name() == key) return field;
    }
    return nullptr;
}

// A field given under both of its names, anywhere in the message.
std::optional<std::string> aliased_field(const Json& object, const pb::Descriptor& type,
                                         const std::string& path) {
    std::set<const pb::FieldDescriptor*> seen;
    for (const auto& [key, value] : object.items()) {
        const pb::FieldDescriptor* field = field_named(type, key);
        if (field == nullptr) continue;  // protobuf's parser names unknown fields
        if (!seen.insert(field).second) {
            return "the field " + path + field->name() + " is given twice (as " +
                   field->json_name() + " and " + field->name() + ")";
        }
        const pb::Descriptor* nested = field->message_type();
        if (nested == nullptr || field->is_map() || nested->file()->package() == "google.protobuf")
            continue;
        const std::string inner = path + field->name() + ".";
        if (value.is_object()) {
            if (auto problem = aliased_field(value, *nested, inner)) return problem;
        } else if (value.is_array()) {
            for (const Json& element : value) {
                if (!element.is_object()) continue;
                if (auto problem = aliased_field(element, *nested, inner)) return problem;
            }
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> strict_json_problem(std::string_view body, const pb::Descriptor& type) {
    // Keys seen per open object (an array opens an entry too, so that the
    // stack follows the nesting).
    std::vector<std::set<std::string>> open;
    std::optional<std::string> problem;
    const Json::parser_callback_t check = [&](int depth, Json::parse_event_t event, Json& parsed) {
        if (problem) return false;
        switch (event) {
            case Json::parse_event_t::object_start:
            case Json::parse_event_t::array_start:
                if (depth >= kMaxDepth) {
                    problem = "the JSON nests deeper than " + std::to_string(kMaxDepth) + " levels";
                    return false;
                }
                open.emplace_back();
                break;
            case Json::parse_event_t::object_end:
            case Json::parse_event_t::array_end:
                if (!open.empty()) open.pop_back();
                break;
            case Json::parse_event_t::key:
                if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second) {
                    problem = "the key \"" + coerce_utf8(parsed.get<std::string>().substr(0, 40)) +
                              "\" appears twice in one object";
                    return false;
                }
                break;
            case Json::parse_event_t::value:
                break;
        }
        return true;
    };
    Json document;
    try {
        document = Json::parse(body.begin(), body.end(), check, /*allow_exceptions=*/true,
                               /*ignore_comments=*/false);
    } catch (const Json::parse_error& e) {
        if (problem) return problem;
        // nlohmann's messages name the byte and what it expected.
        return std::string("the body is not JSON (RFC 8259): ") + e.what();
    } catch (const Json::out_of_range& e) {
        if (problem) return problem;
        // A number beyond what a double holds, such as 1e400.
        return std::string("the body has a number out of range: ") + e.what();
    }
    if (problem) return problem;
    if (!document.is_object()) return "the body must be a JSON object";
    return aliased_field(document, type, "");
}

}  // namespace foxgeese::service
