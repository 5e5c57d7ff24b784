#include "eval_weights_file.h"

#include <cstdio>

namespace foxgeese::bench {

std::string format_eval_weights(const EvalWeights& weights) {
    std::string text = "{";
    for (int i = 0; i < kEvalFeatureCount; ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(weights[i]);
    }
    return text + "}";
}

std::optional<EvalWeights> read_eval_weights(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "r");
    if (!file) return std::nullopt;
    EvalWeights weights{};
    int read = 0;
    int c = 0;
    while (read < kEvalFeatureCount && (c = std::fgetc(file)) != EOF) {
        if (c != '-' && (c < '0' || c > '9')) continue;
        std::ungetc(c, file);
        if (std::fscanf(file, "%d", &weights[read]) != 1) break;
        ++read;
    }
    std::fclose(file);
    if (read != kEvalFeatureCount) return std::nullopt;
    return weights;
}

}  // namespace foxgeese::bench
