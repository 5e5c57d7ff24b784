#include "engine/search/forward_solver.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <utility>

#include "engine/rules/movegen.h"

namespace foxgeese {
namespace {

// A key holds the geese (cross33: 33 bits), the fox's point and the side to
// move; an entry holds key + 1 (so that 0 is an empty slot), the size of the
// search that solved it (see store()) and the result.
constexpr int kFoxShift = 45;
constexpr int kSideShift = 52;
constexpr int kWorkShift = 53;
constexpr int kResultShift = 60;
constexpr std::uint64_t kKeyMask = (std::uint64_t{1} << kWorkShift) - 1;
constexpr std::uint64_t kWorkMask = 0x3F;  // 6 bits: bit_width of a node count

std::uint64_t raw_key(Bitboard geese, int fox, Side side) {
    return geese | (static_cast<std::uint64_t>(fox) << kFoxShift) |
           (static_cast<std::uint64_t>(side == Side::kGeese) << kSideShift);
}

// Nodes between two looks at the clock and the stop flag.
constexpr std::uint64_t kCheckInterval = 4096;
// Jump paths of one position between two such looks: a contrived position has
// hundreds of thousands, each compared with the distinct moves found so far.
constexpr std::uint64_t kPathCheckInterval = 256;

// The most geese of the handled configurations: its positions hold any of theirs.
const Variant& forward_only_rules() {
    return *Variant::find("standard", VariantOptions{.geese = 17, .geese_sideways = false}).value();
}

// The key's bits mixed, for the table's index (a multiply alone would leave
// the low bits, the index, depending on the geese of the lowest ranks only).
std::uint64_t mixed(std::uint64_t key) {
    key ^= key >> 33;
    key *= 0xFF51AFD7ED558CCDULL;
    key ^= key >> 33;
    key *= 0xC4CEB9FE1A85EC53ULL;
    return key ^ (key >> 33);
}

int work_of_entry(std::uint64_t entry) {
    return static_cast<int>((entry >> kWorkShift) & kWorkMask);
}

}  // namespace

// The fox's moves in the order tried: captures first, then the moves that
// threaten the most captures (the geese must answer each), then room to move,
// then towards the geese's home edge (behind the geese is where a fox goes
// free). The weights are the best of a few tried on bench/solver_bench.cpp's
// positions: fewer positions to a proof than captures and rank alone
// (bench/history/2026-12-03-to-12-04-exact-solver.md, "The solver's speed").
int ForwardSolver::fox_move_order(Bitboard geese_after, int to, int captured) const {
    const Board& board = variant_.board();
    const Bitboard empty = board.all_points() & ~geese_after & ~bit(to);
    int threats = 0;
    for (const JumpLine* j = board.jumps_begin(to); j != board.jumps_end(to); ++j)
        threats += has(geese_after, j->over) && has(empty, j->land);
    const int room = count(board.links_from(to) & empty);
    return captured * 100 + threats * 30 + room * 4 - board.rank_of(to) * 4;
}

bool ForwardSolver::handles(const Variant& variant) {
    return variant.fox_count() == 1 && !variant.geese_sideways() && !variant.compulsory_capture() &&
           variant.pen() == 0;
}

ForwardSolver::ForwardSolver(std::size_t megabytes, SearchClock clock)
    : variant_(forward_only_rules()),
      clock_(std::move(clock)),
      reach_(static_cast<std::size_t>(variant_.board().point_count())),
      mirror_point_(reach_.size()),
      mirror_bytes_((reach_.size() + 7) / 8) {
    const Variant& variant = variant_;
    const Board& board = variant.board();
    for (int point = 0; point < board.point_count(); ++point) {
        mirror_point_[point] =
            board.point_at(board.files() - 1 - board.file_of(point), board.rank_of(point));
    }
    for (std::size_t chunk = 0; chunk < mirror_bytes_.size(); ++chunk) {
        for (int byte = 0; byte < 256; ++byte) {
            Bitboard image = 0;
            for (int i = 0; i < 8; ++i) {
                const int point = static_cast<int>(chunk) * 8 + i;
                if ((byte >> i & 1) && point < board.point_count())
                    image |= bit(mirror_point_[point]);
            }
            mirror_bytes_[chunk][byte] = image;
        }
    }
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= megabytes * 1024 * 1024)
        buckets *= 2;
    table_.assign(buckets, Bucket{});
    bucket_mask_ = buckets - 1;
    // Points are numbered rank by rank and geese step only to higher ranks,
    // so every point a goose steps to has been done when its origin comes.
    for (int point = variant.board().point_count() - 1; point >= 0; --point) {
        Bitboard reach = bit(point);
        for (Bitboard to = variant.goose_steps(point); to;)
            reach |= reach_[pop_lowest(to)];
        reach_[point] = reach;
    }
}

void ForwardSolver::clear() {
    std::fill(table_.begin(), table_.end(), Bucket{});
    stats_ = {};
}

void ForwardSolver::begin(const SolverLimits& limits) {
    node_limit_ = limits.nodes == 0 ? 0 : stats_.nodes + limits.nodes;
    deadline_ = limits.time.count() == 0 ? std::chrono::nanoseconds{0} : clock_() + limits.time;
    stop_ = limits.stop;
    aborted_ = false;
}

std::optional<Side> ForwardSolver::verdict(const Position& position) {
    assert(handles(position.variant()) && count(position.foxes()) == 1);
    children_.clear();
    const Bitboard geese = position.geese();
    const int fox_point = lowest(position.foxes());
    const Side side = position.side_to_move();
    const bool fox = fox_wins(geese, fox_point, side, key_of(geese, fox_point, side));
    if (aborted_) return std::nullopt;
    return fox ? Side::kFox : Side::kGeese;
}

std::optional<Side> ForwardSolver::solve(const Position& position, const SolverLimits& limits) {
    begin(limits);
    return verdict(position);
}

std::optional<Move> ForwardSolver::winning_move(const Position& position,
                                                const SolverLimits& limits) {
    begin(limits);
    const Side mover = position.side_to_move();
    if (verdict(position) != mover) return std::nullopt;
    // The proof went through a winning move, so the table (or a rule that
    // needs no search) knows one unless a later entry took its slot: look
    // there first, and search only if it was lost.
    std::optional<Move> found;
    for (const bool search : {false, true}) {
        std::uint64_t paths = 0;
        for_each_legal_move_until(position, [&](const Move& move) {
            if (++paths % kPathCheckInterval == 0 && interrupted()) return true;
            Position after = position;
            UndoInfo undo;
            after.make(move, undo);
            const std::optional<Side> winner = search ? verdict(after) : known(after);
            if (winner == mover) found = move;
            return found || aborted_;
        });
        if (found || aborted_) break;
    }
    return found;
}

std::optional<Side> ForwardSolver::known(const Position& position) const {
    const Bitboard geese = position.geese();
    const int fox = lowest(position.foxes());
    if (count(geese) < variant_.fox_side_wins_below() || fox_is_free(geese, fox)) {
        return Side::kFox;
    }
    switch (probe(key_of(geese, fox, position.side_to_move()))) {
        case 1:
            return Side::kGeese;
        case 2:
            return Side::kFox;
        default:
            return std::nullopt;
    }
}

bool ForwardSolver::out_of_budget() {
    if (aborted_) return true;
    if (node_limit_ != 0 && stats_.nodes >= node_limit_) return aborted_ = true;
    return stats_.nodes % kCheckInterval == 0 && interrupted();
}

bool ForwardSolver::interrupted() {
    if (aborted_) return true;
    if (stop_ && stop_->load(std::memory_order_relaxed)) return aborted_ = true;
    if (deadline_.count() != 0 && clock_() >= deadline_) return aborted_ = true;
    return false;
}

Bitboard ForwardSolver::mirrored(Bitboard points) const {
    Bitboard image = 0;
    for (std::size_t chunk = 0; chunk < mirror_bytes_.size(); ++chunk) {
        image |= mirror_bytes_[chunk][(points >> (8 * chunk)) & 0xFF];
    }
    return image;
}

std::uint64_t ForwardSolver::key_of(Bitboard geese, int fox, Side side) const {
    return std::min(raw_key(geese, fox, side), raw_key(mirrored(geese), mirror_point_[fox], side));
}

// The fox can step back and forth for ever between two linked points no goose
// can ever reach, while each goose move uses up some of the geese's finite
// supply of moves: the geese run out first.
bool ForwardSolver::fox_is_free(Bitboard geese, int fox) const {
    Bitboard reach = 0;
    for (Bitboard g = geese; g;)
        reach |= reach_[pop_lowest(g)];
    return !has(reach, fox) && (variant_.board().links_from(fox) & ~reach) != 0;
}

bool ForwardSolver::fox_wins(Bitboard geese, int fox, Side side, std::uint64_t key) {
    if (count(geese) < variant_.fox_side_wins_below() || fox_is_free(geese, fox)) return true;
    if (const int known = probe(key)) return known == 2;
    if (out_of_budget()) return false;
    const std::uint64_t nodes_before = stats_.nodes++;
    const bool win = side == Side::kFox ? fox_wins_with_fox_to_move(geese, fox)
                                        : fox_wins_with_geese_to_move(geese, fox);
    // An abandoned search's verdict is a guess: it stays out of the table.
    if (!aborted_) store(key, win, stats_.nodes - nodes_before);
    return win;
}

bool ForwardSolver::fox_wins_with_fox_to_move(Bitboard geese, int fox) {
    const Position position(variant_, bit(fox), geese, Side::kFox, 0, 0);
    const std::size_t first = children_.size();
    // Different jump paths to the same point over the same geese are one
    // position: solve it once.
    std::uint64_t paths = 0;
    for_each_legal_move_until(position, [&](const Move& move) {
        if (++paths % kPathCheckInterval == 0 && interrupted()) return true;
        const Bitboard after = geese & ~move.captured;
        for (std::size_t i = first; i < children_.size(); ++i) {
            if (children_[i].geese == after && children_[i].fox == move.to) return false;
        }
        // The order is put in below, only if it is needed.
        children_.push_back(Child{after, move.to, 0, key_of(after, move.to, Side::kGeese)});
        return false;
    });
    if (aborted_) {
        children_.resize(first);
        return false;
    }
    prefetch_children(first);
    bool win = false;
    // A won child the table or the free-fox test already knows ends it at once.
    for (std::size_t i = first; i < children_.size() && !win; ++i) {
        const Child& c = children_[i];
        win = count(c.geese) < variant_.fox_side_wins_below() || fox_is_free(c.geese, c.fox) ||
              probe(c.key) == 2;
    }
    if (!win) {
        for (std::size_t i = first; i < children_.size(); ++i) {
            Child& c = children_[i];
            c.order = fox_move_order(c.geese, c.fox, count(geese) - count(c.geese));
        }
        std::sort(children_.begin() + static_cast<std::ptrdiff_t>(first), children_.end(),
                  [](const Child& a, const Child& b) { return a.order > b.order; });
        for (std::size_t i = first; i < children_.size() && !win && !aborted_; ++i) {
            const Child c = children_[i];  // a copy: the recursion may grow the vector
            win = fox_wins(c.geese, c.fox, Side::kGeese, c.key);
        }
    }
    children_.resize(first);
    return win;  // false also when the fox has no move: it has lost
}

bool ForwardSolver::fox_wins_with_geese_to_move(Bitboard geese, int fox) {
    const Position position(variant_, bit(fox), geese, Side::kGeese, 0, 0);
    const std::size_t first = children_.size();
    for_each_legal_move(position, [&](const Move& move) {
        const Bitboard after = geese ^ bit(move.from) ^ bit(move.to);
        // Unordered: where the fox wins, every goose move is searched whatever
        // the order (the orders tried barely changed the count:
        // bench/history/2026-12-03-to-12-04-exact-solver.md).
        children_.push_back(Child{after, fox, 0, key_of(after, fox, Side::kFox)});
    });
    prefetch_children(first);
    // Geese with no move have lost: `saved` stays false.
    bool saved = false;
    for (std::size_t i = first; i < children_.size() && !saved; ++i) {
        saved = probe(children_[i].key) == 1;
    }
    for (std::size_t i = first; i < children_.size() && !saved && !aborted_; ++i) {
        const Child c = children_[i];  // a copy: the recursion may grow the vector
        saved = !fox_wins(c.geese, c.fox, Side::kFox, c.key);
    }
    children_.resize(first);
    return !saved;
}

ForwardSolver::Bucket& ForwardSolver::bucket_of(std::uint64_t key) {
    return table_[mixed(key) & bucket_mask_];
}

const ForwardSolver::Bucket& ForwardSolver::bucket_of(std::uint64_t key) const {
    return table_[mixed(key) & bucket_mask_];
}

void ForwardSolver::prefetch_children(std::size_t first) const {
    for (std::size_t i = first; i < children_.size(); ++i)
        __builtin_prefetch(&bucket_of(children_[i].key));
}

// Entries fill a bucket from its start, so the first empty one ends it.
int ForwardSolver::probe(std::uint64_t key) const {
    for (const std::uint64_t entry : bucket_of(key).entries) {
        if (entry == 0) return 0;
        if ((entry & kKeyMask) == key + 1) return 1 + static_cast<int>(entry >> kResultShift);
    }
    return 0;
}

// A full bucket gives up the entry whose search was smallest (by the bit
// width of its node count), the cheapest to redo; the new entry goes in
// whatever its size, being the one the search is working near.
void ForwardSolver::store(std::uint64_t key, bool fox_wins, std::uint64_t nodes) {
    const std::uint64_t work = std::min<std::uint64_t>(std::bit_width(nodes), kWorkMask);
    const std::uint64_t entry =
        (key + 1) | (work << kWorkShift) | (static_cast<std::uint64_t>(fox_wins) << kResultShift);
    std::array<std::uint64_t, kBucketEntries>& entries = bucket_of(key).entries;
    std::size_t victim = 0;
    for (std::size_t i = 0; i < kBucketEntries; ++i) {
        const std::uint64_t held = entries[i];
        if (held == 0) {
            entries[i] = entry;
            ++stats_.stored;
            return;
        }
        if ((held & kKeyMask) == key + 1) return;
        if (work_of_entry(held) < work_of_entry(entries[victim])) victim = i;
    }
    entries[victim] = entry;
    ++stats_.replaced;
}

}  // namespace foxgeese
