// foxgeese-openapi [FILE]: writes the OpenAPI document of the REST API (the
// one the server serves at /openapi.json) to FILE, or to standard output.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "service/rest/openapi_document.h"

int main(int argc, char** argv) {
    if (argc > 2 || (argc == 2 && std::string_view(argv[1]).rfind('-', 0) == 0)) {
        std::cerr << "usage: foxgeese-openapi [FILE]\n";
        return 2;
    }
    try {
        const std::string& document = foxgeese::service::openapi_json();
        if (argc == 1) {
            std::cout << document;
            return std::cout.good() ? 0 : 1;
        }
        const std::filesystem::path path(argv[1]);
        if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << document;
        out.close();
        if (!out) {
            std::cerr << "foxgeese-openapi: cannot write " << path << "\n";
            return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "foxgeese-openapi: " << e.what() << "\n";
        return 1;
    }
}
