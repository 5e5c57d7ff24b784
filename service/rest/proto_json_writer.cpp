#include "service/rest/proto_json_writer.h"

#include <google/protobuf/descriptor.h>
#include <utf8.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace foxgeese::service {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

constexpr std::string_view kTimestamp = "google.protobuf.Timestamp";
constexpr std::string_view kDuration = "google.protobuf.Duration";

// Whether every field a message of this type can hold is one this writer
// covers. `visiting` holds the types being judged further up: a type that
// contains itself is judged by its other fields.
bool covered_type(const Descriptor* type, std::unordered_set<const Descriptor*>& visiting);

bool covered_field(const FieldDescriptor* field, std::unordered_set<const Descriptor*>& visiting) {
    if (field->is_map()) return false;
    switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32:
        case FieldDescriptor::CPPTYPE_INT64:
        case FieldDescriptor::CPPTYPE_UINT32:
        case FieldDescriptor::CPPTYPE_UINT64:
        case FieldDescriptor::CPPTYPE_BOOL:
        case FieldDescriptor::CPPTYPE_ENUM:
            return true;
        case FieldDescriptor::CPPTYPE_STRING:
            return field->type() == FieldDescriptor::TYPE_STRING;
        case FieldDescriptor::CPPTYPE_MESSAGE: {
            const std::string& name = field->message_type()->full_name();
            return name == kTimestamp || name == kDuration ||
                   covered_type(field->message_type(), visiting);
        }
        default:  // float and double: protobuf's number formatting is its own
            return false;
    }
}

bool covered_type(const Descriptor* type, std::unordered_set<const Descriptor*>& visiting) {
    // Well-known types other than Timestamp and Duration have mappings of
    // their own (wrappers, Struct, Any, FieldMask...).
    if (type->full_name().rfind("google.protobuf.", 0) == 0) return false;
    if (!visiting.insert(type).second) return true;
    bool all = true;
    for (int i = 0; i < type->field_count() && all; ++i)
        all = covered_field(type->field(i), visiting);
    visiting.erase(type);
    return all;
}

// What the writer needs of a message type, worked out once: whether it is
// covered, and its fields in the order protobuf prints them (by number).
struct TypeInfo {
    bool covered = false;
    std::vector<const FieldDescriptor*> fields;
};

const TypeInfo& type_info(const Descriptor* type) {
    static std::shared_mutex mutex;
    static std::unordered_map<const Descriptor*, std::unique_ptr<TypeInfo>> known;
    {
        const std::shared_lock lock(mutex);
        if (const auto it = known.find(type); it != known.end()) return *it->second;
    }
    auto info = std::make_unique<TypeInfo>();
    std::unordered_set<const Descriptor*> visiting;
    info->covered = covered_type(type, visiting);
    for (int i = 0; i < type->field_count(); ++i)
        info->fields.push_back(type->field(i));
    std::sort(info->fields.begin(), info->fields.end(),
              [](const FieldDescriptor* a, const FieldDescriptor* b) {
                  return a->number() < b->number();
              });
    const std::unique_lock lock(mutex);
    return *known.try_emplace(type, std::move(info)).first->second;
}

// Code points protobuf's printer writes as \u escapes (besides the controls
// below 0x20, '"', '\\', '<' and '>'): invisible and formatting characters,
// as its JsonEscaping has them. Inclusive ranges.
constexpr std::array<std::pair<char32_t, char32_t>, 17> kEscapedRanges = {{
    {0x7F, 0x9F},
    {0xAD, 0xAD},
    {0x600, 0x603},
    {0x6DD, 0x6DD},
    {0x70F, 0x70F},
    {0x17B4, 0x17B5},
    {0x200B, 0x200F},
    {0x2028, 0x202E},
    {0x2060, 0x2064},
    {0x206A, 0x206F},
    {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},
    {0x1D173, 0x1D17A},
    {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
    {0x3C, 0x3C},
    {0x3E, 0x3E},
}};

bool escaped(char32_t cp) {
    if (cp < 0x20) return true;
    for (const auto& [first, last] : kEscapedRanges)
        if (cp >= first && cp <= last) return true;
    return false;
}

void append_u_escape(std::string& out, unsigned unit) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += kHex[(unit >> shift) & 0xF];
}

bool append_string(std::string_view text, std::string& out) {
    // Text that is not UTF-8 is left to the caller (see the header).
    if (!utf8::is_valid(text.begin(), text.end())) return false;
    out += '"';
    for (auto at = text.begin(); at != text.end();) {
        const auto start = at;
        const auto cp = static_cast<char32_t>(utf8::unchecked::next(at));
        switch (cp) {
            case '"':
                out += "\\\"";
                continue;
            case '\\':
                out += "\\\\";
                continue;
            case '\b':
                out += "\\b";
                continue;
            case '\f':
                out += "\\f";
                continue;
            case '\n':
                out += "\\n";
                continue;
            case '\r':
                out += "\\r";
                continue;
            case '\t':
                out += "\\t";
                continue;
            default:
                break;
        }
        if (!escaped(cp)) {
            out.append(start, at);
        } else if (cp < 0x10000) {
            append_u_escape(out, static_cast<unsigned>(cp));
        } else {  // as a surrogate pair
            const char32_t v = cp - 0x10000;
            append_u_escape(out, 0xD800 + static_cast<unsigned>(v >> 10));
            append_u_escape(out, 0xDC00 + static_cast<unsigned>(v & 0x3FF));
        }
    }
    out += '"';
    return true;
}

template <class Integer>
void append_number(Integer value, std::string& out) {
    std::array<char, 24> digits{};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
    out.append(digits.data(), end);
}

void append_padded(long value, int width, std::string& out) {
    std::array<char, 16> digits{};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
    out.append(static_cast<std::size_t>(std::max(0L, width - (end - digits.data()))), '0');
    out.append(digits.data(), end);
}

// Nanoseconds as protobuf prints them: none, or 3, 6 or 9 digits.
void append_nanos(std::int32_t nanos, std::string& out) {
    if (nanos == 0) return;
    out += '.';
    if (nanos % 1'000'000 == 0) {
        append_padded(nanos / 1'000'000, 3, out);
    } else if (nanos % 1'000 == 0) {
        append_padded(nanos / 1'000, 6, out);
    } else {
        append_padded(nanos, 9, out);
    }
}

std::pair<std::int64_t, std::int32_t> seconds_and_nanos(const Message& message) {
    const Descriptor* type = message.GetDescriptor();
    const Reflection* reflection = message.GetReflection();
    return {reflection->GetInt64(message, type->FindFieldByNumber(1)),
            reflection->GetInt32(message, type->FindFieldByNumber(2))};
}

// RFC 3339 in UTC, as protobuf prints a Timestamp; false outside the years
// 1 to 9999, which it refuses.
bool append_timestamp(const Message& message, std::string& out) {
    const auto [seconds, nanos] = seconds_and_nanos(message);
    constexpr std::int64_t kMin = -62135596800;  // 0001-01-01T00:00:00Z
    constexpr std::int64_t kMax = 253402300799;  // 9999-12-31T23:59:59Z
    if (seconds < kMin || seconds > kMax || nanos < 0 || nanos > 999'999'999) return false;
    std::int64_t days = seconds / 86400;
    std::int64_t rest = seconds % 86400;
    if (rest < 0) {
        rest += 86400;
        --days;
    }
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian
    // calendar, counted in 400-year eras from 0000-03-01).
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const std::int64_t day_of_era = days - era * 146097;
    const std::int64_t year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const std::int64_t day_of_year =
        day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const std::int64_t month_index = (5 * day_of_year + 2) / 153;
    const std::int64_t day = day_of_year - (153 * month_index + 2) / 5 + 1;
    const std::int64_t month = month_index < 10 ? month_index + 3 : month_index - 9;
    const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
    out += '"';
    append_padded(static_cast<long>(year), 4, out);
    out += '-';
    append_padded(static_cast<long>(month), 2, out);
    out += '-';
    append_padded(static_cast<long>(day), 2, out);
    out += 'T';
    append_padded(static_cast<long>(rest / 3600), 2, out);
    out += ':';
    append_padded(static_cast<long>(rest / 60 % 60), 2, out);
    out += ':';
    append_padded(static_cast<long>(rest % 60), 2, out);
    append_nanos(nanos, out);
    out += "Z\"";
    return true;
}

// "1.500s", "-0.250s", "0s"; false outside the range protobuf accepts.
bool append_duration(const Message& message, std::string& out) {
    const auto [seconds, nanos] = seconds_and_nanos(message);
    constexpr std::int64_t kMaxSeconds = 315'576'000'000;
    if (seconds < -kMaxSeconds || seconds > kMaxSeconds || nanos < -999'999'999 ||
        nanos > 999'999'999 || (seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0))
        return false;
    out += '"';
    if (seconds < 0 || nanos < 0) out += '-';
    append_number(seconds < 0 ? -seconds : seconds, out);
    append_nanos(nanos < 0 ? -nanos : nanos, out);
    out += "s\"";
    return true;
}

bool append_message(const Message& message, std::string& out);

// One value of a field (the element `index` of a repeated one).
bool append_value(const Message& message, const FieldDescriptor* field, int index,
                  std::string& out) {
    const Reflection* r = message.GetReflection();
    const bool repeated = field->is_repeated();
    switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32:
            append_number(
                repeated ? r->GetRepeatedInt32(message, field, index) : r->GetInt32(message, field),
                out);
            return true;
        case FieldDescriptor::CPPTYPE_UINT32:
            append_number(repeated ? r->GetRepeatedUInt32(message, field, index)
                                   : r->GetUInt32(message, field),
                          out);
            return true;
        case FieldDescriptor::CPPTYPE_INT64:
            out += '"';
            append_number(
                repeated ? r->GetRepeatedInt64(message, field, index) : r->GetInt64(message, field),
                out);
            out += '"';
            return true;
        case FieldDescriptor::CPPTYPE_UINT64:
            out += '"';
            append_number(repeated ? r->GetRepeatedUInt64(message, field, index)
                                   : r->GetUInt64(message, field),
                          out);
            out += '"';
            return true;
        case FieldDescriptor::CPPTYPE_BOOL:
            out +=
                (repeated ? r->GetRepeatedBool(message, field, index) : r->GetBool(message, field))
                    ? "true"
                    : "false";
            return true;
        case FieldDescriptor::CPPTYPE_ENUM: {
            const int number = repeated ? r->GetRepeatedEnumValue(message, field, index)
                                        : r->GetEnumValue(message, field);
            const auto* value = field->enum_type()->FindValueByNumber(number);
            if (value == nullptr) {
                append_number(number, out);  // a number this build does not name
            } else {
                out += '"';
                out += value->name();
                out += '"';
            }
            return true;
        }
        case FieldDescriptor::CPPTYPE_STRING: {
            std::string scratch;
            const std::string& text =
                repeated ? r->GetRepeatedStringReference(message, field, index, &scratch)
                         : r->GetStringReference(message, field, &scratch);
            return append_string(text, out);
        }
        case FieldDescriptor::CPPTYPE_MESSAGE: {
            const Message& value = repeated ? r->GetRepeatedMessage(message, field, index)
                                            : r->GetMessage(message, field);
            const std::string& type = field->message_type()->full_name();
            if (type == kTimestamp) return append_timestamp(value, out);
            if (type == kDuration) return append_duration(value, out);
            return append_message(value, out);
        }
        default:
            return false;
    }
}

bool append_field(const Message& message, const FieldDescriptor* field, bool& first,
                  std::string& out) {
    if (!first) out += ',';
    first = false;
    out += '"';
    out += field->json_name();
    out += "\":";
    if (!field->is_repeated()) return append_value(message, field, -1, out);
    out += '[';
    const int size = message.GetReflection()->FieldSize(message, field);
    for (int j = 0; j < size; ++j) {
        if (j > 0) out += ',';
        if (!append_value(message, field, j, out)) return false;
    }
    out += ']';
    return true;
}

// Whether protobuf prints a field in its place among the others: it lays
// out every field in number order first and fills in what is set, except
// oneof members (proto3 optional fields included) and Timestamp or
// Duration fields, which come after the rest, when set, in number order.
bool printed_in_place(const FieldDescriptor* field) {
    if (field->containing_oneof() != nullptr) return false;
    if (field->is_repeated() || field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return true;
    const std::string& type = field->message_type()->full_name();
    return type != kTimestamp && type != kDuration;
}

bool append_message(const Message& message, std::string& out) {
    const Reflection* r = message.GetReflection();
    const std::vector<const FieldDescriptor*>& fields = type_info(message.GetDescriptor()).fields;
    out += '{';
    bool first = true;
    for (const FieldDescriptor* field : fields) {
        if (!printed_in_place(field)) continue;
        // Fields without presence always (defaults included); messages when set.
        if (!field->is_repeated() && field->has_presence() && !r->HasField(message, field))
            continue;
        if (!append_field(message, field, first, out)) return false;
    }
    for (const bool timestamps : {false, true}) {
        for (const FieldDescriptor* field : fields) {
            if (printed_in_place(field) || !r->HasField(message, field)) continue;
            if ((field->containing_oneof() == nullptr) != timestamps) continue;
            if (!append_field(message, field, first, out)) return false;
        }
    }
    out += '}';
    return true;
}

}  // namespace

bool write_proto_json(const Message& message, std::string& out) {
    const std::size_t before = out.size();
    const std::string& name = message.GetDescriptor()->full_name();
    bool written = false;
    if (name == kTimestamp) {
        written = append_timestamp(message, out);
    } else if (name == kDuration) {
        written = append_duration(message, out);
    } else if (type_info(message.GetDescriptor()).covered) {
        written = append_message(message, out);
    }
    if (written) return true;
    out.resize(before);
    return false;
}

}  // namespace foxgeese::service
