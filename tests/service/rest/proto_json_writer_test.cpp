// The REST responses' JSON writer (service/rest/proto_json_writer.h) against
// protobuf's printer with always_print_primitive_fields: the same bytes for
// every request, response and event message of the API, empty and filled
// at random, and a refusal (so that the caller falls back) for what it does
// not cover.
#include "service/rest/proto_json_writer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/duration.pb.h>
#include <google/protobuf/timestamp.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "foxgeese/v1/game_service.pb.h"
#include "google/rpc/status.pb.h"
#include "service/core/rpc_table.h"

namespace foxgeese::service {
namespace {

namespace pb = google::protobuf;

std::string library_json(const pb::Message& message) {
    pb::util::JsonPrintOptions options;
    options.always_print_primitive_fields = true;
    std::string out;
    EXPECT_TRUE(pb::util::MessageToJsonString(message, &out, options).ok());
    return out;
}

std::string our_json(const pb::Message& message) {
    std::string out;
    EXPECT_TRUE(write_proto_json(message, out)) << message.GetTypeName();
    return out;
}

// Every message type the API's RPCs take or give, with the types they hold.
std::vector<const pb::Descriptor*> api_message_types() {
    std::set<const pb::Descriptor*> seen;
    std::vector<const pb::Descriptor*> pending;
    for (const RpcMethod& method : rpc_methods()) {
        pending.push_back(method.descriptor->input_type());
        pending.push_back(method.descriptor->output_type());
    }
    while (!pending.empty()) {
        const pb::Descriptor* type = pending.back();
        pending.pop_back();
        if (!seen.insert(type).second) continue;
        for (int i = 0; i < type->field_count(); ++i)
            if (type->field(i)->message_type()) pending.push_back(type->field(i)->message_type());
    }
    std::vector<const pb::Descriptor*> types;
    for (const pb::Descriptor* type : seen)
        if (type->full_name().rfind("google.", 0) != 0) types.push_back(type);
    return types;
}

// Text with the characters a printer may escape: quotes, controls,
// invisible and formatting characters, non-ASCII and astral code points.
std::string random_text(std::mt19937& rng) {
    static const std::vector<std::string> pieces = {"a",
                                                    "Z",
                                                    "7",
                                                    " ",
                                                    "\"",
                                                    "\\",
                                                    "/",
                                                    "<",
                                                    ">",
                                                    "&",
                                                    "'",
                                                    "\n",
                                                    "\t",
                                                    "\r",
                                                    "\b",
                                                    "\f",
                                                    std::string(1, '\0'),
                                                    "\x01",
                                                    "\x1f",
                                                    "\x7f",
                                                    "\xc2\x80",
                                                    "\xc2\x9f",
                                                    "\xc2\xa0",
                                                    "\xc2\xad",
                                                    "\xc3\xa9",
                                                    "\xd8\x80",
                                                    "\xdb\x9d",
                                                    "\xe2\x80\x8b",
                                                    "\xe2\x80\xa8",
                                                    "\xe2\x80\xaf",
                                                    "\xe2\x81\xa0",
                                                    "\xe2\x81\xaf",
                                                    "\xef\xbb\xbf",
                                                    "\xef\xbf\xb9",
                                                    "\xef\xbf\xbd",
                                                    "\xf0\x9d\x85\xb3",
                                                    "\xf0\x9f\xa6\x8a",
                                                    "\xf3\xa0\x80\x81",
                                                    "\xf3\xa0\x81\xbf",
                                                    "\xe4\xb8\xad",
                                                    "d4-d5"};
    std::string text;
    const int length = static_cast<int>(rng() % 8);
    for (int i = 0; i < length; ++i)
        text += pieces[rng() % pieces.size()];
    return text;
}

template <class Int>
Int random_int(std::mt19937_64& rng) {
    switch (rng() % 4) {
        case 0:
            return 0;
        case 1:
            return static_cast<Int>(rng() % 100);
        default:
            return static_cast<Int>(rng());
    }
}

void fill(pb::Message& message, std::mt19937& rng, std::mt19937_64& wide, int depth) {
    const pb::Descriptor* type = message.GetDescriptor();
    const pb::Reflection* r = message.GetReflection();
    if (type->full_name() == "google.protobuf.Timestamp") {
        // From the year 1 to 9999, whole seconds or with 3, 6 or 9 digits.
        const std::int64_t seconds =
            -62135596800 + static_cast<std::int64_t>(wide() % (253402300799 + 62135596801));
        static const std::int32_t nanos[] = {0, 5'000'000, 480'778'000, 1, 999'999'999};
        r->SetInt64(&message, type->FindFieldByNumber(1), seconds);
        r->SetInt32(&message, type->FindFieldByNumber(2), nanos[rng() % 5]);
        return;
    }
    if (type->full_name() == "google.protobuf.Duration") {
        const std::int64_t seconds = static_cast<std::int64_t>(wide() % 100'000);
        static const std::int32_t nanos[] = {0, 250'000'000, 1'000, 7};
        const bool negative = rng() % 2 == 0;
        r->SetInt64(&message, type->FindFieldByNumber(1), negative ? -seconds : seconds);
        r->SetInt32(&message, type->FindFieldByNumber(2),
                    negative ? -nanos[rng() % 4] : nanos[rng() % 4]);
        return;
    }
    for (int i = 0; i < type->field_count(); ++i) {
        const pb::FieldDescriptor* f = type->field(i);
        if (rng() % 3 == 0) continue;  // left unset
        const int count = f->is_repeated() ? static_cast<int>(rng() % 4) : 1;
        for (int n = 0; n < count; ++n) {
            const bool rep = f->is_repeated();
            switch (f->cpp_type()) {
                case pb::FieldDescriptor::CPPTYPE_INT32: {
                    const auto v = random_int<std::int32_t>(wide);
                    rep ? r->AddInt32(&message, f, v) : r->SetInt32(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_INT64: {
                    const auto v = random_int<std::int64_t>(wide);
                    rep ? r->AddInt64(&message, f, v) : r->SetInt64(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_UINT32: {
                    const auto v = random_int<std::uint32_t>(wide);
                    rep ? r->AddUInt32(&message, f, v) : r->SetUInt32(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_UINT64: {
                    const auto v = random_int<std::uint64_t>(wide);
                    rep ? r->AddUInt64(&message, f, v) : r->SetUInt64(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_BOOL: {
                    const bool v = rng() % 2 == 0;
                    rep ? r->AddBool(&message, f, v) : r->SetBool(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_ENUM: {
                    // Mostly named values, now and then a number this build
                    // does not know.
                    const pb::EnumDescriptor* e = f->enum_type();
                    const int v =
                        rng() % 5 == 0
                            ? 77
                            : e->value(static_cast<int>(rng() % e->value_count()))->number();
                    rep ? r->AddEnumValue(&message, f, v) : r->SetEnumValue(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_STRING: {
                    const std::string v = random_text(rng);
                    rep ? r->AddString(&message, f, v) : r->SetString(&message, f, v);
                    break;
                }
                case pb::FieldDescriptor::CPPTYPE_MESSAGE:
                    if (depth >= 4) break;
                    fill(rep ? *r->AddMessage(&message, f) : *r->MutableMessage(&message, f), rng,
                         wide, depth + 1);
                    break;
                default:
                    break;
            }
        }
    }
}

TEST(ProtoJsonWriter, EveryApiMessageEmptyIsPrintedAsProtobufPrintsIt) {
    const auto types = api_message_types();
    ASSERT_GT(types.size(), 40u);
    pb::MessageFactory& factory = *pb::MessageFactory::generated_factory();
    for (const pb::Descriptor* type : types) {
        SCOPED_TRACE(type->full_name());
        const std::unique_ptr<pb::Message> message(factory.GetPrototype(type)->New());
        EXPECT_EQ(our_json(*message), library_json(*message));
    }
}

TEST(ProtoJsonWriter, EveryApiMessageFilledAtRandomIsPrintedAsProtobufPrintsIt) {
    std::mt19937 rng(12345);
    std::mt19937_64 wide(678);
    pb::MessageFactory& factory = *pb::MessageFactory::generated_factory();
    int compared = 0;
    for (const pb::Descriptor* type : api_message_types()) {
        for (int round = 0; round < 60; ++round) {
            const std::unique_ptr<pb::Message> message(factory.GetPrototype(type)->New());
            fill(*message, rng, wide, 0);
            const std::string expected = library_json(*message);
            ASSERT_EQ(our_json(*message), expected)
                << type->full_name() << ": " << message->ShortDebugString();
            ++compared;
        }
    }
    EXPECT_GT(compared, 2000);
}

TEST(ProtoJsonWriter, AMoveReplyIsPrintedAsProtobufPrintsIt) {
    v1::MakeMoveResponse reply;
    v1::Game& game = *reply.mutable_game();
    game.set_game_id("65e480f6-b570-436b-8841-725a2527ad91");
    game.set_variant("standard");
    game.set_position("3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1");
    game.set_ply(1);
    game.add_legal_moves("a3-a4");
    game.add_legal_moves("g3-g4");
    game.mutable_create_time()->set_seconds(1796198338);
    game.mutable_create_time()->set_nanos(480778000);
    reply.mutable_move()->set_notation("d4-d5");
    reply.mutable_move()->set_ply(1);
    EXPECT_EQ(our_json(reply), library_json(reply));
}

TEST(ProtoJsonWriter, TextThatIsNotUtf8IsLeftToTheLibrary) {
    v1::Game game;
    for (const std::string& bad :
         {std::string("\xff"), std::string("a\xc3"), std::string("\xc0\xaf"),
          std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80")}) {
        game.set_position(bad);
        std::string out = "kept";
        EXPECT_FALSE(write_proto_json(game, out)) << bad;
        EXPECT_EQ(out, "kept");
    }
}

TEST(ProtoJsonWriter, MessagesWithTypesItDoesNotCoverAreLeftToTheLibrary) {
    // google.rpc.Status holds Any details (the error bodies).
    google::rpc::Status status;
    status.set_code(3);
    std::string out;
    EXPECT_FALSE(write_proto_json(status, out));
    EXPECT_TRUE(out.empty());
}

TEST(ProtoJsonWriter, TimestampsAndDurationsAtTheirLimits) {
    pb::Timestamp ts;
    for (const auto& [seconds, nanos] :
         std::vector<std::pair<std::int64_t, std::int32_t>>{{-62135596800, 0},
                                                            {253402300799, 999'999'999},
                                                            {0, 0},
                                                            {-1, 500'000'000},
                                                            {951782400, 1'000},
                                                            {4107542399, 10}}) {
        ts.set_seconds(seconds);
        ts.set_nanos(nanos);
        EXPECT_EQ(our_json(ts), library_json(ts));
    }
    pb::Duration d;
    for (const auto& [seconds, nanos] : std::vector<std::pair<std::int64_t, std::int32_t>>{
             {0, 0}, {0, -1'000'000}, {-3, -5}, {315'576'000'000, 999'999'999}}) {
        d.set_seconds(seconds);
        d.set_nanos(nanos);
        EXPECT_EQ(our_json(d), library_json(d));
    }
    ts.set_seconds(253402300800);  // the year 10000: protobuf refuses it, and so do we
    std::string out;
    EXPECT_FALSE(write_proto_json(ts, out));
}

}  // namespace
}  // namespace foxgeese::service
