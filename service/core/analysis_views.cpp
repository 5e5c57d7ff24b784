#include "service/core/analysis_views.h"

#include "engine/rules/notation.h"

namespace foxgeese::service {

v1::Score score_view(Score score) {
    v1::Score view;
    if (is_win(score)) {
        view.set_win_in_plies(plies_to_end(score));
    } else if (is_loss(score)) {
        view.set_loss_in_plies(plies_to_end(score));
    } else {
        view.set_points(score);
    }
    view.set_text(describe_score(score));
    return view;
}

v1::AnalysisLine line_view(const Board& board, const AnalysedLine& line) {
    v1::AnalysisLine view;
    if (!line.pv.empty()) view.set_move(format_move(board, line.pv.front()));
    *view.mutable_score() = score_view(line.score);
    for (const Move& move : line.pv)
        view.add_pv(format_move(board, move));
    view.set_depth(line.depth);
    return view;
}

}  // namespace foxgeese::service
