#pragma once
// The viewer's page (viewer/index.html with the esbuild bundle of viewer/src inlined), compiled
// into the program by a source generated at build time (apps/atoll/CMakeLists.txt). A build
// without node or viewer/node_modules has no page: viewer_page_size() is 0.

#include <cstddef>

namespace atl::cli {

/// The page's bytes (UTF-8 HTML; not NUL-terminated); null when the viewer was not built.
const char* viewer_page_data();
/// The page's size in bytes; 0 when the viewer was not built.
size_t viewer_page_size();

}  // namespace atl::cli
