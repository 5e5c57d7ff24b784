// A move's judgement without a database: what a legal move plans to write
// and answer, each refusal MakeMove documents, a retry by request_id, a flag
// that fell before the move, repetition counted from the window read, and
// the copy of the game kept after the write.
#include "service/core/move_judgement.h"

#include <gtest/gtest.h>

#include "engine/rules/legal_move.h"
#include "engine/rules/notation.h"
#include "engine/rules/position_code.h"
#include "service/core/stored_codes.h"

namespace foxgeese::service {
namespace {

using storage::GameRow;

constexpr std::int64_t kNow = 1'700'000'000'000'000;

const Variant& standard() {
    return *Variant::find("standard", {}).value();
}

// A standard game in progress at `code` (the start when empty), the fox
// side's token hash "fox" and the geese's "geese".
storage::MoveContext game_at(const std::string& code = "") {
    const Position start =
        code.empty() ? Position(standard()) : parse_position_code(standard(), code).value();
    GameRow g;
    g.game_id = "0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d";
    g.variant = "standard";
    g.visibility = storage::Visibility::kPrivate;
    g.state = storage::GameState::kActive;
    g.start_position = g.position = format_position_code(start);
    g.start_geese = start.geese_count();
    g.start_ply = g.ply = start.ply();
    g.quiet_plies = start.quiet_plies();
    g.seats.fox.token_hash = "fox";
    g.seats.geese.token_hash = "geese";
    g.created_us = g.updated_us = kNow - 1'000'000;
    g.clocks.turn_started_us = g.updated_us;
    g.event_seq = 2;
    return storage::MoveContext{g, std::nullopt, {}, 41};
}

SeatOf holding(Held held) {
    return [held](const GameRow&) -> ServiceResult<Held> { return held; };
}

MoveAttempt attempt(const std::string& notation, std::string request_hash = "") {
    return MoveAttempt{"0b6f3c1e-6a4e-4c51-9d3a-6f3b2f8f6a2d", notation, std::nullopt,
                       std::move(request_hash), kNow};
}

// The refusal a judgement says; fails the test when it plans a move instead.
ServiceError refusal(const Judgement& judged) {
    if (!judged.answer || judged.answer->ok()) {
        ADD_FAILURE() << "expected a refusal";
        return make_error(StatusCode::kOk, "", "");
    }
    return judged.answer->error();
}

// The repetition key of the position `notation` leads to from `code`.
std::string key_after(const std::string& code, const std::string& notation) {
    Position pos = parse_position_code(standard(), code).value();
    const Move move = find_legal_move(pos, parse_move(pos.board(), notation).value()).value();
    UndoInfo undo;
    pos.make(move, undo);
    return format_repetition_key(pos);
}

TEST(MoveJudgement, AStepPlansTheWriteAndTheReplyWithTheGameAfterIt) {
    const storage::MoveContext ctx = game_at();
    const Judgement judged = judge(ctx, attempt("d4-d5"), holding(Held::kFox), kNow);
    ASSERT_TRUE(judged.plan.has_value());
    EXPECT_FALSE(judged.answer.has_value());
    const storage::MoveWrite& w = judged.plan->write;
    EXPECT_EQ(w.previous_ply, 0);
    EXPECT_EQ(w.previous_version, 41);
    EXPECT_EQ(w.game_after.position, "3/3/3F3/7/GGGGGGG/GGG/GGG g 1 1");
    EXPECT_EQ(w.game_after.ply, 1);
    EXPECT_EQ(w.game_after.quiet_plies, 1);
    EXPECT_EQ(w.game_after.updated_us, kNow);
    EXPECT_EQ(w.game_after.clocks.turn_started_us, kNow);
    EXPECT_EQ(w.position_key, "3/3/3F3/7/GGGGGGG/GGG/GGG g");
    EXPECT_EQ(w.move.notation, "d4-d5");
    EXPECT_EQ(w.move.side, storage::Side::kFox);
    EXPECT_EQ(w.move.ply, 1);
    EXPECT_EQ(w.move.position, w.game_after.position);
    EXPECT_EQ(w.move.state, storage::GameState::kActive);
    EXPECT_TRUE(w.move.response.empty()) << "no request_id: no reply is kept";
    ASSERT_EQ(w.events.size(), 1u);
    v1::WatchGameResponse event;
    ASSERT_TRUE(event.ParseFromString(w.events[0]));
    EXPECT_EQ(event.move_made().move().SerializeAsString(),
              judged.plan->response.move().SerializeAsString());

    const v1::MakeMoveResponse& reply = judged.plan->response;
    EXPECT_EQ(reply.move().from(), "d4");
    EXPECT_EQ(reply.move().to(), "d5");
    EXPECT_TRUE(reply.move().captured().empty());
    EXPECT_EQ(reply.game().ply(), 1);
    EXPECT_EQ(reply.game().side_to_move(), v1::SIDE_GEESE);
    EXPECT_EQ(reply.game().last_move().SerializeAsString(), reply.move().SerializeAsString());
}

TEST(MoveJudgement, AJumpListsEveryGooseItCapturesInOrder) {
    const storage::MoveContext ctx = game_at("3/3/3F3/3G3/GG3GG/1G1/3 f 0 20");
    const Judgement judged = judge(ctx, attempt("d5xd3xd1"), holding(Held::kFox), kNow);
    ASSERT_TRUE(judged.plan.has_value());
    const v1::Move& m = judged.plan->response.move();
    EXPECT_EQ(m.from(), "d5");
    EXPECT_EQ(m.to(), "d1");
    EXPECT_EQ(std::vector<std::string>(m.captured().begin(), m.captured().end()),
              (std::vector<std::string>{"d4", "d2"}));
    EXPECT_EQ(judged.plan->write.game_after.quiet_plies, 0);
}

TEST(MoveJudgement, ARequestIdKeepsTheReplyForItsRetries) {
    const Judgement judged =
        judge(game_at(), attempt("d4-d5", "hash of the id"), holding(Held::kFox), kNow);
    ASSERT_TRUE(judged.plan.has_value());
    EXPECT_EQ(judged.plan->write.move.request_hash, "hash of the id");
    EXPECT_EQ(judged.plan->write.move.response, judged.plan->response.SerializeAsString());
}

TEST(MoveJudgement, EachRefusalHasItsReason) {
    storage::MoveContext waiting = game_at();
    waiting.game.state = storage::GameState::kWaiting;
    EXPECT_EQ(refusal(judge(waiting, attempt("d4-d5"), holding(Held::kFox), kNow)).reason,
              "GAME_NOT_STARTED");
    storage::MoveContext over = game_at();
    over.game.state = storage::GameState::kFinished;
    EXPECT_EQ(refusal(judge(over, attempt("d4-d5"), holding(Held::kFox), kNow)).reason,
              "GAME_OVER");

    MoveAttempt stale = attempt("d4-d5");
    stale.expected_ply = 3;
    const ServiceError mismatch = refusal(judge(game_at(), stale, holding(Held::kFox), kNow));
    EXPECT_EQ(mismatch.reason, "PLY_MISMATCH");
    EXPECT_EQ(mismatch.metadata.at("current_ply"), "0");

    const ServiceError turn =
        refusal(judge(game_at(), attempt("d4-d5"), holding(Held::kGeese), kNow));
    EXPECT_EQ(turn.reason, "NOT_YOUR_TURN");
    EXPECT_EQ(turn.message, "it is the fox side's turn");

    const ServiceError illegal =
        refusal(judge(game_at(), attempt("d4-d6"), holding(Held::kFox), kNow));
    EXPECT_EQ(illegal.reason, "ILLEGAL_MOVE");
    EXPECT_EQ(illegal.field, "move");

    const ServiceError notation =
        refusal(judge(game_at(), attempt("z9-z8"), holding(Held::kFox), kNow));
    EXPECT_EQ(notation.code, StatusCode::kInvalidArgument);
    EXPECT_EQ(notation.reason, "INVALID_NOTATION");

    const SeatOf nobody = [](const GameRow&) -> ServiceResult<Held> {
        return make_error(StatusCode::kPermissionDenied, "TOKEN_INVALID", "no seat");
    };
    EXPECT_EQ(refusal(judge(game_at(), attempt("d4-d5"), nobody, kNow)).reason, "TOKEN_INVALID");
}

TEST(MoveJudgement, ABothSeatsTokenMovesForTheSideToMove) {
    const Judgement judged = judge(game_at(), attempt("d4-d5"), holding(Held::kBoth), kNow);
    ASSERT_TRUE(judged.plan.has_value());
    EXPECT_EQ(judged.plan->write.move.side, storage::Side::kFox);
}

TEST(MoveJudgement, AnEarlierTryWithTheRequestIdIsAnsweredWithItsReply) {
    const Judgement first = judge(game_at(), attempt("d4-d5", "id"), holding(Held::kFox), kNow);
    ASSERT_TRUE(first.plan.has_value());
    storage::MoveContext again = game_at();
    again.earlier_try = first.plan->write.move;

    const Judgement same = judge(again, attempt("D4-D5", "id"), holding(Held::kFox), kNow);
    ASSERT_TRUE(same.answer.has_value() && same.answer->ok());
    EXPECT_EQ(same.answer->value().SerializeAsString(), first.plan->response.SerializeAsString());

    const ServiceError other =
        refusal(judge(again, attempt("d4-c4", "id"), holding(Held::kFox), kNow));
    EXPECT_EQ(other.field, "request_id");
    EXPECT_EQ(other.message, "request_id was already used for the move d4-d5");
    const ServiceError other_seat =
        refusal(judge(again, attempt("d4-d5", "id"), holding(Held::kGeese), kNow));
    EXPECT_EQ(other_seat.field, "request_id");
}

TEST(MoveJudgement, AMoveAfterTheFlagFellIsNotPlanned) {
    storage::MoveContext ctx = game_at();
    ctx.game.clocks.time_control = storage::TimeControl::kRealTime;
    ctx.game.clocks.first_move_ms = 30'000;
    ctx.game.clocks.deadline_us = kNow - 1;
    const Judgement judged = judge(ctx, attempt("d4-d5"), holding(Held::kFox), kNow);
    EXPECT_TRUE(judged.overdue);
    EXPECT_FALSE(judged.plan.has_value());
    EXPECT_FALSE(judged.answer.has_value());
}

TEST(MoveJudgement, TheThirdOccurrenceInTheWindowDrawsAndEndsTheGame) {
    storage::MoveContext ctx = game_at();
    const std::string start = ctx.game.position;
    ctx.window_occurrences[key_after(start, "d4-d5")] = storage::Occurrence{2, 0};
    const Judgement judged = judge(ctx, attempt("d4-d5"), holding(Held::kFox), kNow);
    ASSERT_TRUE(judged.plan.has_value());
    const storage::GameRow& after = judged.plan->write.game_after;
    EXPECT_EQ(after.state, storage::GameState::kFinished);
    EXPECT_EQ(api(after.result), v1::GAME_RESULT_DRAW);
    EXPECT_EQ(api(after.end_reason), v1::END_REASON_THREEFOLD_REPETITION);
    EXPECT_EQ(after.finished_us, kNow);
    EXPECT_EQ(after.clocks.turn_started_us, 0);
    ASSERT_EQ(judged.plan->write.events.size(), 2u);
    v1::WatchGameResponse ended;
    ASSERT_TRUE(ended.ParseFromString(judged.plan->write.events[1]));
    EXPECT_EQ(ended.game_ended().game().SerializeAsString(),
              judged.plan->response.game().SerializeAsString());

    // Two earlier occurrences are needed, not one.
    ctx.window_occurrences[key_after(start, "d4-d5")] = storage::Occurrence{1, 0};
    const Judgement second = judge(ctx, attempt("d4-d5"), holding(Held::kFox), kNow);
    ASSERT_TRUE(second.plan.has_value());
    EXPECT_EQ(second.plan->write.game_after.state, storage::GameState::kActive);
}

TEST(MoveJudgement, MovingDeclinesTheOtherSidesDrawOfferButNotYourOwn) {
    storage::MoveContext ctx = game_at();
    ctx.game.draw_offered_by = storage::Side::kGeese;
    const Judgement declined = judge(ctx, attempt("d4-d5"), holding(Held::kFox), kNow);
    ASSERT_TRUE(declined.plan.has_value());
    EXPECT_EQ(declined.plan->write.game_after.draw_offered_by, storage::Side::kNone);
    ASSERT_EQ(declined.plan->write.events.size(), 2u);
    v1::WatchGameResponse answered;
    ASSERT_TRUE(answered.ParseFromString(declined.plan->write.events[1]));
    EXPECT_FALSE(answered.draw_answered().accepted());
    EXPECT_EQ(answered.draw_answered().by(), v1::SIDE_FOX);

    ctx.game.draw_offered_by = storage::Side::kFox;
    const Judgement kept = judge(ctx, attempt("d4-d5"), holding(Held::kFox), kNow);
    ASSERT_TRUE(kept.plan.has_value());
    EXPECT_EQ(kept.plan->write.game_after.draw_offered_by, storage::Side::kFox);
    EXPECT_EQ(kept.plan->write.events.size(), 1u);
}

TEST(MoveJudgement, TheCopyAfterAWriteKeepsOnlyTheQuietWindowAndCountsTheNewPosition) {
    storage::MoveContext before = game_at("3/3/3F3/7/GGGGGGG/GGG/GGG f 4 10");
    before.window_occurrences["in the window"] = storage::Occurrence{1, 6};
    before.window_occurrences["before a capture"] = storage::Occurrence{2, 5};
    const Judgement judged = judge(before, attempt("d5-d6"), holding(Held::kFox), kNow);
    ASSERT_TRUE(judged.plan.has_value());
    const storage::MoveContext after =
        context_after(before, judged.plan->write, storage::AppliedMove{77, 3, 1});
    EXPECT_EQ(after.version, 77);
    EXPECT_EQ(after.game.event_seq, 3);
    EXPECT_EQ(after.game.ply, 11);
    EXPECT_FALSE(after.earlier_try.has_value());
    // The window after the move starts at ply 11 - 5 = 6.
    EXPECT_EQ(after.window_occurrences.size(), 2u);
    EXPECT_EQ(after.window_occurrences.at("in the window"), (storage::Occurrence{1, 6}));
    EXPECT_EQ(after.window_occurrences.at(judged.plan->write.position_key),
              (storage::Occurrence{1, 11}));
}

}  // namespace
}  // namespace foxgeese::service
