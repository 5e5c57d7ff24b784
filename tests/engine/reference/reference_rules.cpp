#include "reference_rules.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <utility>

namespace foxgeese::reference {
namespace {

constexpr char kEmpty = '.';
constexpr char kFox = 'F';
constexpr char kGoose = 'G';

// 0-based coordinates: file a = 0, rank 1 = 0.
struct Square {
    int file = 0;
    int rank = 0;
};

struct Direction {
    int file_step = 0;
    int rank_step = 0;
};

constexpr std::array<Direction, 8> kAllDirections = {
    {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};

// Everything the rules say about one variant (with its options), in one place.
struct Rules {
    int size = 7;               // grid is size x size: 7 for cross33, 9 for cross45
    bool one_diagonal = false;  // cross45: one diagonal per unit square
    int threshold = 4;          // the fox side wins when fewer geese than this remain
    bool sideways = false;      // geese may step left/right
    bool compulsory = false;    // capture compulsory, maximal sequences only
    bool pen = false;           // two_foxes: geese win by filling c5-e7
    std::vector<Square> foxes;  // start squares
    std::vector<Square> geese;  // start squares
};

struct Position {
    // cells[file][rank]; kEmpty also on points that do not exist (never read there).
    std::array<std::array<char, 9>, 9> cells{};
    bool fox_to_move = true;
    int quiet = 0;
    int ply = 0;

    char& at(Square s) { return cells[s.file][s.rank]; }
    char at(Square s) const { return cells[s.file][s.rank]; }
};

// A move is its path: origin then each landing point.
struct Move {
    std::vector<Square> path;
    bool jump = false;
};

Square parse_square(const std::string& text) {
    if (text.size() < 2 || text[0] < 'a' || text[0] > 'i') {
        throw std::invalid_argument("bad square: " + text);
    }
    for (size_t i = 1; i < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
            throw std::invalid_argument("bad square: " + text);
        }
    }
    return {text[0] - 'a', std::stoi(text.substr(1)) - 1};
}

std::string square_name(Square s) {
    return std::string(1, static_cast<char>('a' + s.file)) + std::to_string(s.rank + 1);
}

// "a3-g3" on one rank or one file, inclusive.
std::vector<Square> square_range(const std::string& from, const std::string& to) {
    Square a = parse_square(from);
    Square b = parse_square(to);
    std::vector<Square> out;
    for (int f = a.file; f <= b.file; ++f) {
        for (int r = a.rank; r <= b.rank; ++r)
            out.push_back({f, r});
    }
    return out;
}

std::vector<Square> squares(std::initializer_list<const char*> names) {
    std::vector<Square> out;
    for (const char* name : names)
        out.push_back(parse_square(name));
    return out;
}

void append(std::vector<Square>& to, const std::vector<Square>& more) {
    to.insert(to.end(), more.begin(), more.end());
}

Rules cross_rules(int size, bool one_diagonal) {
    Rules rules;
    rules.size = size;
    rules.one_diagonal = one_diagonal;
    return rules;
}

// Built straight from the "Variants" table of RULES.md.
Rules make_rules(const Config& config) {
    if (config.variant == "standard") {
        Rules rules = cross_rules(7, false);
        rules.threshold = 4;
        rules.sideways = config.sideways;
        rules.foxes = squares({"d4"});
        rules.geese = squares({"c1", "d1", "e1", "c2", "d2", "e2"});
        append(rules.geese, square_range("a3", "g3"));
        if (config.geese == 15) {
            append(rules.geese, squares({"a4", "g4"}));
        } else if (config.geese == 17) {
            append(rules.geese, squares({"a4", "g4", "a5", "g5"}));
        } else if (config.geese != 13) {
            throw std::invalid_argument("standard: geese must be 13, 15 or 17");
        }
        return rules;
    }
    if (config.variant == "big_cross") {
        Rules rules = cross_rules(9, true);
        rules.threshold = 4;
        rules.sideways = true;
        rules.foxes = squares({"e7"});
        rules.geese = square_range("d1", "f3");
        append(rules.geese, square_range("a4", "i4"));
        return rules;
    }
    if (config.variant == "two_foxes") {
        Rules rules = cross_rules(7, false);
        rules.threshold = 9;
        rules.sideways = true;
        rules.compulsory = true;
        rules.pen = true;
        rules.foxes = squares({"c7", "e7"});
        rules.geese = squares({"c1", "d1", "e1", "c2", "d2", "e2"});
        append(rules.geese, square_range("a3", "g3"));
        append(rules.geese, square_range("a4", "g4"));
        return rules;
    }
    throw std::invalid_argument("unknown variant: " + config.variant);
}

// A point exists where its file or its rank is one of the three middle ones.
bool exists(const Rules& rules, int file, int rank) {
    if (file < 0 || rank < 0 || file >= rules.size || rank >= rules.size) return false;
    int low = rules.size / 2 - 1;  // c (7x7) or d (9x9), 0-based
    int high = low + 2;
    return (file >= low && file <= high) || (rank >= low && rank <= high);
}

bool exists(const Rules& rules, Square s) {
    return exists(rules, s.file, s.rank);
}

Square step(Square s, Direction d) {
    return {s.file + d.file_step, s.rank + d.rank_step};
}

// Is there a link from `from` one step in direction `d`?
bool linked(const Rules& rules, Square from, Direction d) {
    Square to = step(from, d);
    if (!exists(rules, from) || !exists(rules, to)) return false;
    if (d.file_step == 0 || d.rank_step == 0) return true;
    // A diagonal needs the unit square's other two corners too.
    if (!exists(rules, to.file, from.rank) || !exists(rules, from.file, to.rank)) return false;
    if (!rules.one_diagonal) return true;
    // cross45: only the diagonal joining the corners with odd file+rank (a=1, ranks from 1).
    // Both ends of a diagonal have the same parity, so checking `from` is enough.
    return ((from.file + 1) + (from.rank + 1)) % 2 == 1;
}

std::vector<Square> points_of(const Rules& rules) {
    std::vector<Square> out;
    for (int rank = 0; rank < rules.size; ++rank) {
        for (int file = 0; file < rules.size; ++file) {
            if (exists(rules, file, rank)) out.push_back({file, rank});
        }
    }
    return out;
}

std::vector<Square> find_pieces(const Rules& rules, const Position& pos, char piece) {
    std::vector<Square> out;
    for (Square s : points_of(rules)) {
        if (pos.at(s) == piece) out.push_back(s);
    }
    return out;
}

int count_geese(const Rules& rules, const Position& pos) {
    return static_cast<int>(find_pieces(rules, pos, kGoose).size());
}

bool pen_filled(const Rules& rules, const Position& pos) {
    if (!rules.pen) return false;
    for (Square s : square_range("c5", "e7")) {
        if (pos.at(s) != kGoose) return false;
    }
    return true;
}

// Rules 1 and 2 of "End of the game".
bool won_by_material_or_pen(const Rules& rules, const Position& pos) {
    return count_geese(rules, pos) < rules.threshold || pen_filled(rules, pos);
}

// ---- position codes ----

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string current;
    for (char c : text) {
        if (c == separator) {
            parts.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    parts.push_back(current);
    return parts;
}

int parse_counter(const std::string& text) {
    if (text.empty() || text.size() > 9) throw std::invalid_argument("bad counter: " + text);
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) {
            throw std::invalid_argument("bad counter: " + text);
        }
    }
    return std::stoi(text);
}

Position parse_code(const Rules& rules, const std::string& code) {
    std::vector<std::string> fields = split(code, ' ');
    if (fields.size() != 4) throw std::invalid_argument("position code needs 4 fields: " + code);
    std::vector<std::string> ranks = split(fields[0], '/');
    if (static_cast<int>(ranks.size()) != rules.size) {
        throw std::invalid_argument("wrong number of ranks: " + code);
    }
    Position pos;
    for (auto& column : pos.cells)
        column.fill(kEmpty);
    for (int i = 0; i < rules.size; ++i) {
        int rank = rules.size - 1 - i;  // listed from the highest rank down
        std::vector<Square> row;
        for (int file = 0; file < rules.size; ++file) {
            if (exists(rules, file, rank)) row.push_back({file, rank});
        }
        size_t next = 0;
        for (char c : ranks[i]) {
            if (c >= '1' && c <= '9') {
                next += static_cast<size_t>(c - '0');
                if (next > row.size()) throw std::invalid_argument("rank too long: " + code);
                continue;
            }
            if (next >= row.size()) throw std::invalid_argument("rank too long: " + code);
            char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (upper != kFox && upper != kGoose) {
                throw std::invalid_argument(std::string("bad piece '") + c + "': " + code);
            }
            pos.at(row[next++]) = upper;
        }
        if (next != row.size()) throw std::invalid_argument("rank too short: " + code);
    }
    if (fields[1] == "f" || fields[1] == "F") {
        pos.fox_to_move = true;
    } else if (fields[1] == "g" || fields[1] == "G") {
        pos.fox_to_move = false;
    } else {
        throw std::invalid_argument("bad side: " + code);
    }
    pos.quiet = parse_counter(fields[2]);
    pos.ply = parse_counter(fields[3]);
    return pos;
}

std::string write_code(const Rules& rules, const Position& pos) {
    std::string out;
    for (int rank = rules.size - 1; rank >= 0; --rank) {
        int empties = 0;
        for (int file = 0; file < rules.size; ++file) {
            if (!exists(rules, file, rank)) continue;
            char c = pos.cells[file][rank];
            if (c == kEmpty) {
                ++empties;
                continue;
            }
            if (empties > 0) out += std::to_string(empties);
            empties = 0;
            out += c;
        }
        if (empties > 0) out += std::to_string(empties);
        if (rank > 0) out += '/';
    }
    out += pos.fox_to_move ? " f " : " g ";
    out += std::to_string(pos.quiet) + " " + std::to_string(pos.ply);
    return out;
}

// ---- move generation ----

// Extends the jump sequence in `path` (the fox now stands on path.back() in `pos`).
void add_jumps(const Rules& rules, const Position& pos, std::vector<Square>& path,
               std::vector<Move>& out) {
    Square from = path.back();
    bool jumped = false;
    for (Direction d : kAllDirections) {
        // Over an adjacent goose to the empty point beyond, along one line.
        if (!linked(rules, from, d)) continue;
        Square over = step(from, d);
        if (pos.at(over) != kGoose || !linked(rules, over, d)) continue;
        Square land = step(over, d);
        if (pos.at(land) != kEmpty) continue;
        jumped = true;
        Position next = pos;  // the captured goose goes at once; the origin empties
        next.at(from) = kEmpty;
        next.at(over) = kEmpty;
        next.at(land) = kFox;
        path.push_back(land);
        if (!rules.compulsory) out.push_back({path, true});  // may stop after any jump
        add_jumps(rules, next, path, out);
        path.pop_back();
    }
    if (rules.compulsory && !jumped && path.size() > 1) out.push_back({path, true});
}

std::vector<Move> generate(const Rules& rules, const Position& pos) {
    std::vector<Move> moves;
    if (won_by_material_or_pen(rules, pos)) return moves;
    if (pos.fox_to_move) {
        std::vector<Square> foxes = find_pieces(rules, pos, kFox);
        for (Square fox : foxes) {
            std::vector<Square> path = {fox};
            add_jumps(rules, pos, path, moves);
        }
        if (rules.compulsory && !moves.empty()) return moves;
        for (Square fox : foxes) {
            for (Direction d : kAllDirections) {
                if (linked(rules, fox, d) && pos.at(step(fox, d)) == kEmpty) {
                    moves.push_back({{fox, step(fox, d)}, false});
                }
            }
        }
        return moves;
    }
    std::vector<Direction> goose_directions = {{0, 1}, {-1, 1}, {1, 1}};  // never backward
    if (rules.sideways) {
        goose_directions.push_back({-1, 0});
        goose_directions.push_back({1, 0});
    }
    for (Square goose : find_pieces(rules, pos, kGoose)) {
        for (Direction d : goose_directions) {
            if (linked(rules, goose, d) && pos.at(step(goose, d)) == kEmpty) {
                moves.push_back({{goose, step(goose, d)}, false});
            }
        }
    }
    return moves;
}

Position apply(const Position& pos, const Move& move) {
    Position next = pos;
    Square from = move.path.front();
    Square to = move.path.back();
    char piece = next.at(from);
    next.at(from) = kEmpty;
    if (move.jump) {
        for (size_t i = 1; i < move.path.size(); ++i) {
            Square a = move.path[i - 1];
            Square b = move.path[i];
            next.at({(a.file + b.file) / 2, (a.rank + b.rank) / 2}) = kEmpty;
        }
    }
    next.at(to) = piece;
    // Fifty-move rule: a capture or a goose step to a higher rank resets the count.
    bool progress = move.jump || (piece == kGoose && to.rank > from.rank);
    // Kept within the code's 0-100 range; only reachable by playing on after a fifty-move draw.
    next.quiet = progress ? 0 : std::min(pos.quiet + 1, 100);
    next.fox_to_move = !pos.fox_to_move;
    next.ply = pos.ply + 1;
    return next;
}

std::string move_name(const Move& move) {
    std::string out = square_name(move.path.front());
    for (size_t i = 1; i < move.path.size(); ++i) {
        out += move.jump ? 'x' : '-';
        out += square_name(move.path[i]);
    }
    return out;
}

std::uint64_t perft_of(const Rules& rules, const Position& pos, int depth) {
    if (depth == 0) return 1;
    std::vector<Move> moves = generate(rules, pos);
    if (depth == 1) return moves.size();
    std::uint64_t nodes = 0;
    for (const Move& move : moves)
        nodes += perft_of(rules, apply(pos, move), depth - 1);
    return nodes;
}

std::string trim_lower(const std::string& text) {
    size_t begin = text.find_first_not_of(" \t");
    size_t end = text.find_last_not_of(" \t");
    if (begin == std::string::npos) return "";
    std::string out = text.substr(begin, end - begin + 1);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::string start_code(const Config& config) {
    Rules rules = make_rules(config);
    Position pos;
    for (auto& column : pos.cells)
        column.fill(kEmpty);
    for (Square s : rules.foxes)
        pos.at(s) = kFox;
    for (Square s : rules.geese)
        pos.at(s) = kGoose;
    pos.fox_to_move = true;  // the fox side moves first in every variant
    return write_code(rules, pos);
}

std::vector<std::string> legal_moves(const Config& config, const std::string& code) {
    Rules rules = make_rules(config);
    Position pos = parse_code(rules, code);
    std::vector<std::string> names;
    for (const Move& move : generate(rules, pos))
        names.push_back(move_name(move));
    std::sort(names.begin(), names.end());
    return names;
}

std::string play(const Config& config, const std::string& code, const std::string& move) {
    Rules rules = make_rules(config);
    Position pos = parse_code(rules, code);
    std::string wanted = trim_lower(move);
    for (const Move& candidate : generate(rules, pos)) {
        if (move_name(candidate) == wanted) return write_code(rules, apply(pos, candidate));
    }
    throw std::invalid_argument("illegal move '" + move + "' in " + code);
}

std::string status(const Config& config, const std::string& code) {
    Rules rules = make_rules(config);
    Position pos = parse_code(rules, code);
    if (count_geese(rules, pos) < rules.threshold) return "fox_side_wins:geese_below_threshold";
    if (pen_filled(rules, pos)) return "geese_win:pen_filled";
    if (generate(rules, pos).empty()) {
        return pos.fox_to_move ? "geese_win:no_legal_move" : "fox_side_wins:no_legal_move";
    }
    if (pos.quiet >= 100) return "draw:fifty_move_rule";
    return "ongoing";
}

std::uint64_t perft(const Config& config, const std::string& code, int depth) {
    Rules rules = make_rules(config);
    return perft_of(rules, parse_code(rules, code), depth);
}

BoardFacts board_facts(const std::string& board) {
    Rules rules;
    if (board == "cross33") {
        rules = cross_rules(7, false);
    } else if (board == "cross45") {
        rules = cross_rules(9, true);
    } else {
        throw std::invalid_argument("unknown board: " + board);
    }
    BoardFacts facts;
    for (Square s : points_of(rules)) {
        ++facts.points;
        // Count each link once, from the end with the lower rank (or lower file on a rank).
        for (Direction d : {Direction{1, 0}, Direction{0, 1}}) {
            if (linked(rules, s, d)) ++facts.orthogonal_links;
        }
        for (Direction d : {Direction{1, 1}, Direction{-1, 1}}) {
            if (linked(rules, s, d)) ++facts.diagonal_links;
        }
    }
    return facts;
}

}  // namespace foxgeese::reference
