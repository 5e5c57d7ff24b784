#include "service/core/variant_catalog.h"

#include <algorithm>
#include <cctype>

#include "engine/rules/board.h"
#include "engine/rules/position_code.h"
#include "engine/rules/variant.h"
#include "service/core/variant_texts.h"

namespace foxgeese::service {
namespace {

std::string lower(std::string_view text) {
    std::string out;
    for (char c : text)
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool supported(std::string_view language) {
    return std::find(std::begin(kLanguages), std::end(kLanguages), language) !=
           std::end(kLanguages);
}

void fill_board(const Board& board, v1::Board* out) {
    out->set_name(std::string(board.name()));
    out->set_files(board.files());
    out->set_ranks(board.ranks());
    for (int p = 0; p < board.point_count(); ++p) {
        v1::Point* point = out->add_points();
        point->set_name(board.point_name(p));
        point->set_file(board.file_of(p));
        point->set_rank(board.rank_of(p));
    }
    // Each link once, from its lower-numbered end.
    for (int p = 0; p < board.point_count(); ++p) {
        for (Bitboard to = board.links_from(p); to;) {
            const int q = pop_lowest(to);
            if (q < p) continue;
            v1::Link* link = out->add_links();
            link->set_from(board.point_name(p));
            link->set_to(board.point_name(q));
            link->set_diagonal(board.file_of(p) != board.file_of(q) &&
                               board.rank_of(p) != board.rank_of(q));
        }
    }
}

}  // namespace

std::string choose_language(std::string_view requested) {
    // Accept-Language lists choices by preference (q weights); take the
    // first supported primary subtag with the highest weight.
    std::string best = "en";
    double best_weight = -1;
    std::size_t start = 0;
    while (start <= requested.size()) {
        std::size_t end = requested.find(',', start);
        if (end == std::string_view::npos) end = requested.size();
        std::string_view item = requested.substr(start, end - start);
        start = end + 1;
        double weight = 1.0;
        if (const std::size_t semi = item.find(';'); semi != std::string_view::npos) {
            const std::string_view params = item.substr(semi + 1);
            if (const std::size_t q = params.find("q="); q != std::string_view::npos) {
                try {
                    weight = std::stod(std::string(params.substr(q + 2, 5)));
                } catch (...) {
                    weight = 0;
                }
            }
            item = item.substr(0, semi);
        }
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        const std::string primary = lower(item.substr(0, item.find_first_of("-_")));
        // Norwegian without a written standard means Bokmål here.
        const std::string language = primary == "no" || primary == "nn" ? "nb" : primary;
        if (supported(language) && weight > best_weight) {
            best = language;
            best_weight = weight;
        }
    }
    return best;
}

v1::ListVariantsResponse list_variants(std::string_view requested_language) {
    const std::string language = choose_language(requested_language);
    v1::ListVariantsResponse response;
    for (std::string_view name : Variant::names()) {
        const Variant& v = *Variant::find(name, {}).value();
        const VariantTexts* texts = variant_texts(name, language);
        const bool localised = texts != nullptr;
        if (!texts) texts = variant_texts(name, "en");
        v1::Variant* out = response.add_variants();
        out->set_name(std::string(name));
        out->set_display_name(std::string(texts->display_name));
        out->set_summary(std::string(texts->summary));
        out->set_language(localised ? language : "en");
        fill_board(v.board(), out->mutable_board());
        out->set_fox_count(v.fox_count());
        out->set_default_geese_count(v.start_geese_count());
        out->set_start_position(format_position_code(Position(v)));
        out->set_first_to_move(v1::SIDE_FOX);
        out->set_compulsory_capture(v.compulsory_capture());
        out->set_fox_side_wins_below(v.fox_side_wins_below());
        out->set_geese_sideways(!v.has_options() && v.geese_sideways());
        for (Bitboard pen = v.pen(); pen;)
            out->add_pen(v.board().point_name(pop_lowest(pen)));
        if (v.has_options()) {
            const OptionTexts* options = option_texts(localised ? language : "en");
            if (!options) options = option_texts("en");
            v1::VariantOption* geese = out->add_options();
            geese->set_name("geese");
            geese->set_kind(v1::OPTION_KIND_INT);
            for (int n : {13, 15, 17})
                geese->add_allowed_values(n);
            geese->set_default_int(13);
            geese->set_description(std::string(options->geese));
            v1::VariantOption* sideways = out->add_options();
            sideways->set_name("geese_sideways");
            sideways->set_kind(v1::OPTION_KIND_BOOL);
            sideways->set_default_bool(false);
            sideways->set_description(std::string(options->geese_sideways));
        }
    }
    return response;
}

}  // namespace foxgeese::service
