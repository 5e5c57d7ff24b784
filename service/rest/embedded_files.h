// Files compiled into the server binary by embed_files.cmake, so that it
// needs nothing from disk at run time: one binary, a read-only root file
// system in Kubernetes, and pages that always match the API they describe.
#pragma once

#include <string_view>
#include <vector>

namespace foxgeese::service {

struct EmbeddedFile {
    std::string_view name;   // a name given at build time, e.g. "docs/index.html"
    std::string_view bytes;  // the file's exact contents
};

// "foxgeese_api.binpb": the API protos as a google.protobuf.FileDescriptorSet
// with their comments (protoc --include_source_info --include_imports).
// Generated into foxgeese_rest.
const std::vector<EmbeddedFile>& embedded_api_descriptors();

// The docs page (Redoc) and the reference web client, by path under web/
// ("docs/index.html", "play/app.js", ...). Generated into foxgeese_web_assets
// (web/CMakeLists.txt), which only the server application links.
const std::vector<EmbeddedFile>& embedded_web_files();

}  // namespace foxgeese::service
