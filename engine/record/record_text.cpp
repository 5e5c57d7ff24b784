#include "engine/record/record_text.h"

#include <utf8.h>

namespace foxgeese {

std::optional<RecordTextFault> find_record_text_fault(std::string_view text) {
    const auto invalid = utf8::find_invalid(text.begin(), text.end());
    for (auto it = text.begin(); it != invalid;) {
        const auto at = static_cast<std::size_t>(it - text.begin());
        if (const auto c = static_cast<char32_t>(utf8::unchecked::next(it)); is_record_control(c))
            return RecordTextFault{at, false, c};
    }
    if (invalid == text.end()) return std::nullopt;
    return RecordTextFault{static_cast<std::size_t>(invalid - text.begin()), true, 0};
}

std::string record_safe_text(std::string_view text) {
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string safe;
    safe.reserve(text.size());
    while (!text.empty()) {
        const auto fault = find_record_text_fault(text);
        if (!fault) {
            safe.append(text);
            break;
        }
        safe.append(text.substr(0, fault->offset));
        safe += kReplacement;
        // A byte that is not UTF-8 is replaced alone; a control character whole.
        const std::size_t length = fault->not_utf8 ? 1 : fault->character < 0x80 ? 1 : 2;
        text.remove_prefix(fault->offset + length);
    }
    return safe;
}

}  // namespace foxgeese
