// What `kernel-lab --version` prints: the project version from CMake and the git commit the
// binary was built from (bench/CMakeLists.txt regenerates it on every build).
#pragma once

namespace kl::cli {

const char* build_version();  // "0.1.0"
const char* build_commit();   // "1a2b3c4", "1a2b3c4-dirty" (uncommitted changes), or "unknown" (no git)

}  // namespace kl::cli
