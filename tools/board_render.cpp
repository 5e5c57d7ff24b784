#include "board_render.h"

#include "engine/rules/position_code.h"

namespace foxgeese::cli {
namespace {

// Points sit four columns apart ("G---G") and two lines apart, so a line
// between two points has a cell of its own.
constexpr int kColumnsPerFile = 4;
constexpr int kMargin = 4;  // the rank number and its padding

int column_of(int file) {
    return kMargin + file * kColumnsPerFile;
}

char piece_at(const Position& pos, int point) {
    if (has(pos.foxes(), point)) return 'F';
    if (has(pos.geese(), point)) return 'G';
    return '.';
}

bool linked(const Board& board, int file_a, int rank_a, int file_b, int rank_b) {
    const int a = board.point_at(file_a, rank_a);
    const int b = board.point_at(file_b, rank_b);
    return a != kNoPoint && b != kNoPoint && board.linked(a, b);
}

// Lines padded with spaces while drawing; the padding at the end goes.
std::string finish_line(std::string line) {
    line.erase(line.find_last_not_of(' ') + 1);
    return line + '\n';
}

// The points of a rank and the horizontal lines between them.
std::string rank_line(const Position& pos, int rank) {
    const Board& board = pos.board();
    std::string line(static_cast<std::size_t>(column_of(board.files())), ' ');
    const std::string label = std::to_string(rank + 1);
    line.replace(0, label.size(), label);
    for (int file = 0; file < board.files(); ++file) {
        const int point = board.point_at(file, rank);
        if (point == kNoPoint) continue;
        line[column_of(file)] = piece_at(pos, point);
        if (linked(board, file, rank, file + 1, rank)) line.replace(column_of(file) + 1, 3, "---");
    }
    return finish_line(std::move(line));
}

// The vertical and diagonal lines between rank `upper` and the one below it.
std::string link_line(const Board& board, int upper) {
    const int lower = upper - 1;
    std::string line(static_cast<std::size_t>(column_of(board.files())), ' ');
    for (int file = 0; file < board.files(); ++file) {
        if (linked(board, file, upper, file, lower)) line[column_of(file)] = '|';
        const bool rising = linked(board, file, lower, file + 1, upper);
        const bool falling = linked(board, file, upper, file + 1, lower);
        const std::size_t middle = column_of(file) + kColumnsPerFile / 2;
        if (rising && falling) {
            line[middle] = 'X';
        } else if (rising) {
            line[middle] = '/';
        } else if (falling) {
            line[middle] = '\\';
        }
    }
    return finish_line(std::move(line));
}

}  // namespace

std::string render_board(const Position& pos) {
    const Board& board = pos.board();
    std::string out;
    for (int rank = board.ranks() - 1; rank >= 0; --rank) {
        out += rank_line(pos, rank);
        if (rank > 0) out += link_line(board, rank);
    }
    std::string files(static_cast<std::size_t>(kMargin), ' ');
    for (int file = 0; file < board.files(); ++file) {
        files += static_cast<char>('a' + file);
        if (file + 1 < board.files()) files += std::string(kColumnsPerFile - 1, ' ');
    }
    return out + files + '\n';
}

Result<std::string> render_position_code(const Variant& variant, std::string_view code) {
    Result<Position> pos = parse_position_code(variant, code);
    if (!pos) return pos.error();
    return render_board(*pos);
}

}  // namespace foxgeese::cli
