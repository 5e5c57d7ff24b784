#include "engine/search/search.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/rules/movegen.h"
#include "engine/search/move_key.h"
#include "engine/search/move_picker.h"
#include "engine/search/transposition_table.h"

namespace foxgeese {
namespace {

// When a fox threatens a capture at the horizon, the geese get this many
// replies in the quiescence search before the evaluation has the last word:
// the threat is what the evaluation cannot see, and one reply (step the goose
// away or close the landing point) answers most of them.
constexpr int kQuiescenceGooseReplies = 1;
// The half-width of the first aspiration window, about a quarter goose.
constexpr Score kAspirationWindow = 25;
// Nodes between two looks at the clock and the stop flag.
constexpr std::uint64_t kCheckInterval = 1024;
// A proven result needs no deeper search once the iterations reach this far
// past it (reductions can hide a shorter win for a few plies).
constexpr int kProvenResultMargin = 4;

// Late-move reductions in plies, by remaining depth and moves already tried:
// logarithmic in both, as the chess engines found works.
class Reductions {
  public:
    Reductions() {
        for (int depth = 1; depth < kSize; ++depth) {
            for (int moves = 1; moves < kSize; ++moves) {
                table_[depth][moves] =
                    static_cast<std::uint8_t>(0.5 + std::log(depth) * std::log(moves) / 2.0);
            }
        }
    }
    int operator()(int depth, int moves) const {
        return table_[std::min(depth, kSize - 1)][std::min(moves, kSize - 1)];
    }

  private:
    static constexpr int kSize = 64;
    std::array<std::array<std::uint8_t, kSize>, kSize> table_{};
};

const Reductions kReductions;

// The keys of the root moves kept so far, so that paths to one position make
// one root move: open addressing over the key bits (never 0), at most half
// full. A contrived root has thousands of distinct moves behind hundreds of
// thousands of jump paths, too many to compare each path with every move kept.
class KeySet {
  public:
    explicit KeySet(std::size_t capacity) : slots_(std::bit_ceil(capacity)) {}

    void clear() {
        std::fill(slots_.begin(), slots_.end(), 0);
        size_ = 0;
    }
    // Adds the key; false when it was there already.
    bool insert(MoveKey key) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        if (!place(slots_, key.bits())) return false;
        ++size_;
        return true;
    }

  private:
    static bool place(std::vector<std::uint64_t>& slots, std::uint64_t bits) {
        const std::size_t mask = slots.size() - 1;
        std::uint64_t mixed = bits ^ bits >> 33;
        mixed *= 0xFF51AFD7ED558CCDULL;
        for (std::size_t i = (mixed ^ mixed >> 33) & mask;; i = (i + 1) & mask) {
            if (slots[i] == bits) return false;
            if (slots[i] == 0) {
                slots[i] = bits;
                return true;
            }
        }
    }
    void grow() {
        std::vector<std::uint64_t> bigger(slots_.size() * 2);
        for (const std::uint64_t bits : slots_) {
            if (bits != 0) place(bigger, bits);
        }
        slots_.swap(bigger);
    }

    std::vector<std::uint64_t> slots_;
    std::size_t size_ = 0;
};

}  // namespace

SearchClock steady_search_clock() {
    return [] { return std::chrono::steady_clock::now().time_since_epoch(); };
}

class Searcher::Worker {
  public:
    Worker(std::size_t table_megabytes, SearchClock clock);

    const SearchResult& search(const Position& root, const RepetitionHistory& history,
                               const SearchLimits& limits);
    const SearchResult& result() const { return result_; }
    void clear();

    std::array<EvalWeights, 3> weights;

  private:
    // Small, so that sorting thousands of them is quick: the line lives in
    // root_pvs_[pv_slot].
    struct RootMove {
        Move move;
        MoveKey key;
        Score score;           // this iteration's, -kInfinity when only a bound below others
        Score previous_score;  // the last completed iteration's
        int pv_length;
        std::uint32_t pv_slot;
        std::uint32_t place;  // its index before a sort, to keep equals in order
    };
    using Line = std::array<MoveKey, kMaxSearchPly>;

    // What the search keeps per ply of the current line.
    struct Ply {
        MovePicker::Buffer moves;
        Killers killers;
        std::uint64_t hash;  // of the position at this ply, for the repetition rule
        int pv_length;
        std::array<MoveKey, kMaxSearchPly> pv;  // the best line found from this ply
    };

    void generate_root_moves();
    template <class Before>
    void sort_root_moves(Before before);
    Line& pv_of(const RootMove& move) { return root_pvs_[move.pv_slot]; }
    void iterate();
    Score search_root(int depth, Score alpha, Score beta);
    template <bool kPv>
    Score negamax(int depth, int ply, Score alpha, Score beta);
    Score quiescence(int ply, Score alpha, Score beta, int goose_replies);

    bool decided_by_rules(int ply, Score& score) const;
    bool is_drawn(int ply) const;
    bool out_of_budget();
    bool interrupted();
    Score evaluate_here() const { return evaluate(pos_, *eval_weights_); }
    void update_pv(int ply, MoveKey move);
    void publish(std::span<const RootMove> moves);
    std::chrono::nanoseconds elapsed() const { return clock_() - start_; }

    TranspositionTable table_;
    MoveHistory history_;
    std::vector<Ply> plies_;
    std::vector<RootMove> root_moves_;
    std::vector<Line> root_pvs_;
    KeySet root_keys_;
    // What a MovePicker asks while it generates a position's moves.
    const std::function<bool()> interrupt_ = [this] { return interrupted(); };
    SearchResult result_;
    SearchClock clock_;

    // The current search.
    Position root_;
    Position pos_;
    const RepetitionHistory* game_history_ = nullptr;
    SearchLimits limits_;
    const EvalWeights* eval_weights_ = nullptr;
    int multipv_ = 1;
    std::chrono::nanoseconds start_{0};
    std::uint64_t nodes_ = 0;
    int seldepth_ = 0;
    bool aborted_ = false;
    int root_improved_ = -1;  // the root move that last raised alpha in this iteration
};

Searcher::Worker::Worker(std::size_t table_megabytes, SearchClock clock)
    : table_(table_megabytes),
      plies_(kMaxSearchPly + 1),
      root_keys_(2 * MovePicker::kCapacity),
      clock_(std::move(clock)),
      root_(*Variant::all()[0]),
      pos_(root_) {
    for (VariantId id : {VariantId::kStandard, VariantId::kBigCross, VariantId::kTwoFoxes})
        weights[static_cast<int>(id)] = default_eval_weights(id);
    // Reserved now so that searching never allocates: a root with more distinct
    // moves, or more lines asked for, grows these once.
    root_moves_.reserve(MovePicker::kCapacity);
    root_pvs_.reserve(MovePicker::kCapacity);
    result_.lines.reserve(16);
}

void Searcher::Worker::clear() {
    table_.clear();
    history_.clear();
}

const SearchResult& Searcher::Worker::search(const Position& root, const RepetitionHistory& history,
                                             const SearchLimits& limits) {
    start_ = clock_();
    root_ = root;
    pos_ = root;
    game_history_ = &history;
    limits_ = limits;
    eval_weights_ = &weights[static_cast<int>(root.variant().id())];
    nodes_ = 0;
    seldepth_ = 0;
    aborted_ = false;
    table_.new_search();
    for (Ply& ply : plies_)
        ply.killers = {};
    result_.lines.clear();
    result_.depth = 0;

    generate_root_moves();
    if (!root_moves_.empty()) {
        multipv_ = std::clamp(limits.multipv, 1, static_cast<int>(root_moves_.size()));
        // Until an iteration completes, the best guess is the first ordered move.
        root_moves_[0].score = evaluate_here();
        root_moves_[0].pv_length = 1;
        pv_of(root_moves_[0])[0] = root_moves_[0].key;
        publish({root_moves_.data(), 1});
        iterate();
    }
    result_.seldepth = seldepth_;
    result_.nodes = nodes_;
    result_.elapsed = elapsed();
    return result_;
}

// Stopped by the clock or the stop flag like the search itself: a contrived
// root has hundreds of thousands of jump paths. The search then goes on with
// the moves generated so far, and ends at its first node.
void Searcher::Worker::generate_root_moves() {
    root_moves_.clear();
    root_keys_.clear();
    if (won_outright(pos_)) return;
    TableEntry entry;
    const MoveKey table_move = table_.probe(pos_.hash(), entry) ? entry.move : MoveKey{};
    std::uint64_t generated = 0;
    for_each_legal_move_until(pos_, [&](const Move& move) {
        if (++generated % kCheckInterval == 0 && interrupted()) return true;
        const MoveKey key(move);
        if (!root_keys_.insert(key)) return false;
        const auto slot = static_cast<std::uint32_t>(root_moves_.size());
        root_moves_.push_back(RootMove{move, key, -kInfinity, -kInfinity, 0, slot, 0});
        return false;
    });
    if (root_pvs_.size() < root_moves_.size()) root_pvs_.resize(root_moves_.size());
    // The table's move, then the captures taking most; the iterations sort the rest.
    auto first_order = [&](const RootMove& m) {
        return m.key == table_move ? 1000 : count(m.move.captured);
    };
    sort_root_moves(
        [&](const RootMove& a, const RootMove& b) { return first_order(a) > first_order(b); });
}

// A stable sort (moves that compare equal keep their order) that allocates
// nothing, unlike std::stable_sort: the index before the sort breaks ties.
template <class Before>
void Searcher::Worker::sort_root_moves(Before before) {
    for (std::size_t i = 0; i < root_moves_.size(); ++i)
        root_moves_[i].place = static_cast<std::uint32_t>(i);
    std::sort(root_moves_.begin(), root_moves_.end(), [&](const RootMove& a, const RootMove& b) {
        if (before(a, b)) return true;
        return !before(b, a) && a.place < b.place;
    });
}

void Searcher::Worker::iterate() {
    plies_[0].hash = pos_.hash();
    const int max_depth = std::clamp(limits_.depth, 1, SearchLimits::kMaxDepth);
    for (int depth = 1; depth <= max_depth; ++depth) {
        for (RootMove& m : root_moves_)
            m.previous_score = m.score;
        const Score previous = root_moves_[0].previous_score;
        Score delta = kAspirationWindow;
        Score alpha = -kInfinity;
        Score beta = kInfinity;
        if (multipv_ == 1 && depth >= 4 && !is_decisive(previous)) {
            alpha = std::max(previous - delta, -kInfinity);
            beta = std::min(previous + delta, kInfinity);
        }
        root_improved_ = -1;
        while (true) {
            const Score score = search_root(depth, alpha, beta);
            if (aborted_) break;
            // Outside the window: widen it on that side and search again.
            sort_root_moves([](const RootMove& a, const RootMove& b) { return a.score > b.score; });
            delta *= 2;
            if (score <= alpha) {
                alpha = is_loss(score - delta) ? -kInfinity : score - delta;
            } else if (score >= beta) {
                beta = is_win(score + delta) ? kInfinity : score + delta;
            } else {
                break;
            }
            root_improved_ = -1;
        }
        if (aborted_) {
            // A move that beat the previous best in the unfinished iteration is the
            // better choice; with several lines, only complete iterations count.
            if (multipv_ == 1 && root_improved_ >= 0) {
                publish({&root_moves_[static_cast<std::size_t>(root_improved_)], 1});
            }
            return;
        }
        result_.depth = depth;
        publish({root_moves_.data(), static_cast<std::size_t>(multipv_)});

        const Score best = root_moves_[0].score;
        if (multipv_ == 1 && is_decisive(best) &&
            depth >= plies_to_end(best) + kProvenResultMargin) {
            return;
        }
        // A time budget is for this move alone: it is used up, since an unfinished
        // iteration still plays a better move when it finds one. Only a forced
        // move is played at once.
        if (limits_.time.count() > 0 && root_moves_.size() == 1) return;
    }
}

Score Searcher::Worker::search_root(int depth, Score alpha, Score beta) {
    Score best = -kInfinity;
    for (std::size_t i = 0; i < root_moves_.size(); ++i) {
        RootMove& root_move = root_moves_[i];
        // With several lines a move must beat the multipv-th best so far, not the best.
        Score bar = alpha;
        if (multipv_ > 1) {
            int better = 0;
            Score lowest_kept = kInfinity;
            for (std::size_t j = 0; j < i; ++j) {
                if (root_moves_[j].score == -kInfinity) continue;
                ++better;
                lowest_kept = std::min(lowest_kept, root_moves_[j].score);
            }
            bar = better >= multipv_ ? std::max(alpha, lowest_kept) : alpha;
        }
        UndoInfo undo;
        pos_.make(root_move.move, undo);
        plies_[1].hash = pos_.hash();
        Score score;
        if (i == 0 || bar == -kInfinity) {
            score = -negamax<true>(depth - 1, 1, -beta, -bar);
        } else {
            score = -negamax<false>(depth - 1, 1, -bar - 1, -bar);
            if (score > bar && score < beta) score = -negamax<true>(depth - 1, 1, -beta, -bar);
        }
        pos_.unmake(root_move.move, undo);
        if (aborted_) return best;

        if (i == 0 || score > bar) {
            root_move.score = score;
            Line& pv = pv_of(root_move);
            pv[0] = root_move.key;
            std::copy_n(plies_[1].pv.begin(), plies_[1].pv_length, pv.begin() + 1);
            root_move.pv_length = 1 + plies_[1].pv_length;
        } else {
            root_move.score = -kInfinity;
        }
        best = std::max(best, score);
        if (multipv_ == 1 && score > alpha) {
            alpha = score;
            root_improved_ = static_cast<int>(i);
            if (alpha >= beta) return best;
        }
    }
    return best;
}

template <bool kPv>
Score Searcher::Worker::negamax(int depth, int ply, Score alpha, Score beta) {
    if (depth <= 0) return quiescence(ply, alpha, beta, kQuiescenceGooseReplies);
    Ply& here = plies_[ply];
    here.pv_length = 0;
    if (out_of_budget()) return 0;
    ++nodes_;
    seldepth_ = std::max(seldepth_, ply);
    if (Score decided; decided_by_rules(ply, decided)) return decided;
    if (ply >= kMaxSearchPly - 1) return evaluate_here();
    // No line from here can beat a win found nearer the root.
    alpha = std::max(alpha, loss_in(ply));
    beta = std::min(beta, win_in(ply + 1));
    if (alpha >= beta) return alpha;

    // A stored score is from a position with maybe another quiet counter: no use
    // when the fifty-move rule could end the game within this node's horizon.
    const bool fifty_move_horizon = pos_.quiet_plies() + depth >= kFiftyMoveQuietPlies;
    TableEntry entry;
    const bool hit = table_.probe(pos_.hash(), entry);
    if (!kPv && hit && entry.depth >= depth && !fifty_move_horizon) {
        const Score stored = score_from_table(entry.score, ply);
        if (entry.bound == Bound::kExact || (entry.bound == Bound::kLower && stored >= beta) ||
            (entry.bound == Bound::kUpper && stored <= alpha)) {
            return stored;
        }
    }

    MovePicker picker(pos_, here.moves, MovePicker::Kind::kAll, hit ? entry.move : MoveKey{},
                      &here.killers, history_, &interrupt_);
    if (aborted_) return 0;
    if (picker.size() == 0) return loss_in(ply);  // rule 3: no legal move

    const Side side = pos_.side_to_move();
    const Score alpha_start = alpha;
    Score best = -kInfinity;
    MoveKey best_move;
    int tried = 0;
    std::array<MoveKey, 64> quiets_tried;
    int quiet_count = 0;
    picker.for_each([&](const Move& move, MoveKey key) {
        const bool quiet = !move.is_jump();
        int reduction = 0;
        if (depth >= 3 && quiet && tried >= (kPv ? 4 : 2) && key != here.killers.moves[0] &&
            key != here.killers.moves[1]) {
            reduction = std::clamp(kReductions(depth, tried) - (kPv ? 1 : 0), 0, depth - 2);
        }
        UndoInfo undo;
        pos_.make(move, undo);
        plies_[ply + 1].hash = pos_.hash();
        Score score;
        if (tried == 0) {
            score = -negamax<kPv>(depth - 1, ply + 1, -beta, -alpha);
        } else {
            score = -negamax<false>(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
            if (score > alpha && reduction > 0) {
                score = -negamax<false>(depth - 1, ply + 1, -alpha - 1, -alpha);
            }
            if (kPv && score > alpha && score < beta) {
                score = -negamax<true>(depth - 1, ply + 1, -beta, -alpha);
            }
        }
        pos_.unmake(move, undo);
        if (aborted_) return true;
        ++tried;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = key;
                alpha = score;
                if (kPv) update_pv(ply, key);
                if (alpha >= beta) {
                    if (quiet) {
                        // The refutation earns a bonus, the quiet moves that failed before it a
                        // malus.
                        const int bonus = std::min(depth * depth, 400);
                        here.killers.add(key);
                        history_.update(side, key, bonus);
                        for (int i = 0; i < quiet_count; ++i)
                            history_.update(side, quiets_tried[i], -bonus);
                    }
                    return true;
                }
            }
        }
        if (quiet && quiet_count < static_cast<int>(quiets_tried.size())) {
            quiets_tried[quiet_count++] = key;
        }
        return false;
    });
    if (aborted_) return 0;

    if (!fifty_move_horizon) {
        const Bound bound = best >= beta                ? Bound::kLower
                            : best > alpha_start && kPv ? Bound::kExact
                                                        : Bound::kUpper;
        table_.store(pos_.hash(), best_move, score_to_table(best, ply), depth, bound);
    }
    return best;
}

Score Searcher::Worker::quiescence(int ply, Score alpha, Score beta, int goose_replies) {
    plies_[ply].pv_length = 0;
    if (out_of_budget()) return 0;
    ++nodes_;
    seldepth_ = std::max(seldepth_, ply);
    if (Score decided; decided_by_rules(ply, decided)) return decided;
    if (ply >= kMaxSearchPly - 1) return evaluate_here();

    const bool capture_pending = any_fox_can_jump(pos_);
    MovePicker::Kind kind = MovePicker::Kind::kCaptures;
    Score best = -kInfinity;
    if (pos_.side_to_move() == Side::kFox) {
        // Under compulsory capture a fox that can jump must: no standing pat.
        if (!capture_pending || !pos_.variant().compulsory_capture()) {
            if (!capture_pending && !has_legal_move(pos_)) return loss_in(ply);
            best = evaluate_here();
            if (best >= beta || !capture_pending) return best;
            alpha = std::max(alpha, best);
        }
    } else {
        if (!has_legal_move(pos_)) return loss_in(ply);
        // Quiet for the geese too: the evaluation stands. A pending capture is
        // answered by a goose move (all of them) before the foxes take.
        if (!capture_pending || goose_replies == 0) return evaluate_here();
        kind = MovePicker::Kind::kAll;
        --goose_replies;
    }

    MovePicker picker(pos_, plies_[ply].moves, kind, MoveKey{}, nullptr, history_, &interrupt_);
    if (aborted_) return 0;
    picker.for_each([&](const Move& move, MoveKey) {
        UndoInfo undo;
        pos_.make(move, undo);
        plies_[ply + 1].hash = pos_.hash();
        const Score score = -quiescence(ply + 1, -beta, -alpha, goose_replies);
        pos_.unmake(move, undo);
        if (aborted_) return true;
        if (score > best) {
            best = score;
            alpha = std::max(alpha, score);
        }
        return alpha >= beta;
    });
    return aborted_ ? 0 : best;
}

bool Searcher::Worker::decided_by_rules(int ply, Score& score) const {
    if (won_outright(pos_)) {
        score = outright_score(pos_, ply);
        return true;
    }
    if (!is_drawn(ply)) return false;
    // Having no legal move comes before the draws (rule 3 before 4 and 5).
    if (!has_legal_move(pos_)) {
        score = loss_in(ply);
    } else {
        // Even plies have the root's side to move.
        score = ply % 2 == 0 ? kDrawScore - limits_.contempt : kDrawScore + limits_.contempt;
    }
    return true;
}

// A repetition inside the search tree counts as a draw at its second
// occurrence: whoever steered into it can repeat it once more, and the other
// side's alternatives are searched at the earlier occurrence. Positions from
// before the root follow the rule exactly: a third occurrence.
bool Searcher::Worker::is_drawn(int ply) const {
    const int quiet = pos_.quiet_plies();
    if (quiet >= kFiftyMoveQuietPlies) return true;
    const std::uint64_t hash = pos_.hash();
    // Only positions since the last irreversible move can recur, with the same
    // side to move, and a fox move and a goose move cannot undo each other: the
    // nearest candidate is four plies back.
    for (int back = 4; back <= quiet && back <= ply; back += 2) {
        if (plies_[ply - back].hash == hash) return true;
    }
    return quiet > ply && game_history_->occurrences(pos_.key()) >= 2;
}

bool Searcher::Worker::out_of_budget() {
    if (aborted_) return true;
    if (limits_.nodes != 0 && nodes_ >= limits_.nodes) return aborted_ = true;
    return nodes_ % kCheckInterval == 0 && interrupted();
}

// Whether the stop flag is set or the time is up, which ends the search.
bool Searcher::Worker::interrupted() {
    if (aborted_) return true;
    if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) return aborted_ = true;
    if (limits_.time.count() > 0 && elapsed() >= limits_.time) return aborted_ = true;
    return false;
}

void Searcher::Worker::update_pv(int ply, MoveKey move) {
    Ply& here = plies_[ply];
    const Ply& child = plies_[ply + 1];
    here.pv[0] = move;
    std::copy_n(child.pv.begin(), child.pv_length, here.pv.begin() + 1);
    here.pv_length = 1 + child.pv_length;
}

// Turns root moves' lines of keys into lines of moves, replaying each from the
// root to find the generated move behind every key (the root move's own is known).
void Searcher::Worker::publish(std::span<const RootMove> moves) {
    result_.lines.resize(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const RootMove& root_move = moves[i];
        const Line& keys = root_pvs_[root_move.pv_slot];
        SearchLine& line = result_.lines[i];
        line.score = root_move.score;
        line.length = 0;
        Position replay = root_;
        for (int k = 0; k < root_move.pv_length; ++k) {
            bool found = k == 0;
            if (found) {
                line.pv[line.length++] = root_move.move;
            } else {
                found = for_each_legal_move_until(replay, [&](const Move& move) {
                    if (MoveKey(move) != keys[k]) return false;
                    line.pv[line.length++] = move;
                    return true;
                });
            }
            if (!found) break;
            UndoInfo undo;
            replay.make(line.pv[line.length - 1], undo);
        }
    }
}

Searcher::Searcher(std::size_t table_megabytes, SearchClock clock)
    : worker_(std::make_unique<Worker>(table_megabytes, std::move(clock))) {}

Searcher::~Searcher() = default;

const SearchResult& Searcher::search(const Position& root, const RepetitionHistory& history,
                                     const SearchLimits& limits) {
    return worker_->search(root, history, limits);
}

const SearchResult& Searcher::last_result() const {
    return worker_->result();
}

void Searcher::clear() {
    worker_->clear();
}

void Searcher::set_eval_weights(VariantId variant, const EvalWeights& weights) {
    worker_->weights[static_cast<int>(variant)] = weights;
}

}  // namespace foxgeese
