// `kernel-lab new-family NAME DIR`: writes a project that puts a kernel family under the harness:
// one clean kernel and one planted bug declared with the kit (kit.hpp), a hand-checked test, a
// gates file and the CMake that derives everything else (kl_add_lab). It configures, builds and
// passes its host tier at once, and its GPU tier on a GPU; the user replaces the kernels.
#include "cli.hpp"
#include "project_presets.hpp"

#include "core/result.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace kl::cli {
namespace {

// The project's files; @NAME@ is the family's name. Its CMakePresets.json is examples/own-kernel's
// (project_presets.hpp, generated from that file by bench/CMakeLists.txt).
constexpr const char* cmake_lists = R"kl(# The @NAME@ family under the kernel-lab harness (made by `kernel-lab new-family`).
#   cmake --preset host -DCMAKE_PREFIX_PATH=<where kernel-lab was installed>
# or, to build the harness from a kernel-lab checkout instead:
#   cmake --preset host -DKERNEL_LAB_SOURCE_DIR=<kernel-lab checkout>
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
project(@NAME@_lab LANGUAGES CXX CUDA)

set(KERNEL_LAB_SOURCE_DIR "" CACHE PATH "A kernel-lab checkout to build the harness from (instead of find_package)")
if(KERNEL_LAB_SOURCE_DIR)
  add_subdirectory(${KERNEL_LAB_SOURCE_DIR} kernel-lab EXCLUDE_FROM_ALL)
else()
  find_package(KernelLab 0.1 REQUIRED)
endif()
enable_testing()

add_library(@NAME@_kernels STATIC @NAME@.cu)
target_link_libraries(@NAME@_kernels PUBLIC KernelLab::harness PRIVATE KernelLab::compile_options)
kl_family(@NAME@ BENCHED)
# The program @NAME@-lab and every tier: see kl_add_lab in kernel-lab's cmake/KernelLabProgram.cmake.
kl_add_lab(PROGRAM @NAME@-lab LIBRARIES @NAME@_kernels TESTS tests/test_@NAME@.cpp GATES gates.conf
           PLANTED memcheck-@NAME@-off-by-one:memcheck)
)kl";

constexpr const char* family_source = R"kl(// The @NAME@ family (made by `kernel-lab new-family`): one clean kernel, y = a*x over n floats,
// and one planted bug, the same kernel with an off-by-one bounds guard. Declared with the kit
// (kit.hpp): the harness derives `@NAME@-lab run` and `bench`, the unit shapes, the oracle
// property, the four sanitizer runs and the planted finding's checks from this file.
// Make it yours: replace the kernels and the oracle, keep one planted bug your checks must catch.
#include "kit.cuh"

using kl::kit::Call;
using kl::kit::HostCall;
using kl::kit::Vector;

namespace {

__global__ void scale(Call<Vector> c) {
  const std::int64_t i = kl::kit::element();
  if (i < c.shape.n) c.out[i] = c.a * c.in[0][i];
}

// PLANTED BUG: `i <= n` where `i < n` is meant. When the grid overhangs n, thread n reads x[n],
// one past its end (memcheck), and writes y[n], the first canary word.
__global__ void scale_off_by_one(Call<Vector> c) {
  const std::int64_t i = kl::kit::element();
  if (i <= c.shape.n) c.out[i] = c.a * c.in[0][i];
}

// The oracle: one float multiply, as the GPU does it (bit-exact).
void scale_oracle(const HostCall<Vector>& h) {
  for (std::size_t i = 0; i < h.out.size(); ++i) h.out[i] = h.a * h.in[0][i];
}

// 1000 elements in blocks of 256: the fourth block overhangs them by 24 threads.
const std::vector<std::string> overhanging = {"--n", "1000", "--block", "256"};

}  // namespace

// x uniform in [-100, 100], a in [-4, 4]. The bench: 2^26 floats (256 MiB an array), GB/s of bytes
// read plus written against the device-to-device copy.
KL_KIT_FAMILY(@NAME@, kl::kit::FamilySpec<Vector>{
    .name = "@NAME@", .inputs = 1, .scalar = true, .bench_shape = {std::int64_t{1} << 26, 256},
    .variants = {
        {"scale", "y = a*x, one thread per element.", scale, scale_oracle, {8, 1}},
        {"scale_off_by_one", "An off-by-one guard, `i <= n`: thread n reads x[n] and writes y[n], one past each end.",
         scale_off_by_one, scale_oracle, {8, 1}, kl::Role::planted,
         {{kl::Checker::memcheck, "Invalid __global__ read of size 4", "memcheck-@NAME@-off-by-one", overhanging,
           "@NAME@.scale"},
          {kl::Checker::canary, "", "", overhanging, "@NAME@.scale"}}},
    }})
)kl";

constexpr const char* test_source = R"kl(// The @NAME@ family's own tests, beside the ones the harness derives (kit.hpp): values checked by
// hand. Suites named *Property* run in @NAME@.property, Planted* suites are left out of memcheck.
#include "kit.hpp"

#include <gtest/gtest.h>

// y = 2x on three elements.
TEST(FamilyExample, ScaleOnHandCheckedValues) {
  const kl::kit::Outcome o = kl::kit::run("@NAME@.scale", kl::kit::Vector{3, 256}, {2.0f, {{1, -2, 3}}});
  EXPECT_TRUE(o.result.ok()) << o.result.describe();
  EXPECT_EQ(o.out, (std::vector<float>{2, -4, 6}));
}
)kl";

constexpr const char* gates = R"kl(# Performance gates of the @NAME@ family, read by `@NAME@-lab bench --gates gates.conf` (the perf
# test @NAME@.perf.@NAME@). Format: kernel-lab's bench/gates.conf. The ceiling: the
# device-to-device copy measured in the same process. Add a [gpu <name>] section with thresholds
# from at least five runs on that GPU.

[default]
# A streaming kernel at half of copy bandwidth is broken, on any GPU.
min_ratio @NAME@.scale >= 0.5
)kl";

std::string with_name(std::string text, const std::string& name) {
  for (std::size_t at = text.find("@NAME@"); at != std::string::npos; at = text.find("@NAME@", at + name.size()))
    text.replace(at, 6, name);
  return text;
}

}  // namespace

int cmd_new_family(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.size() != 2)
    throw UsageError("'new-family' needs a family name and a directory, e.g. `" + program_name() +
                     " new-family scale ~/scale-lab`");
  const std::string& name = args.positionals[0];
  if (!kl::bench::is_key_word(name) || name.size() > 40 || name[0] < 'a' || name[0] > 'z')
    throw UsageError("family name '" + name + "': lower-case letters, digits and _, starting with a letter, "
                     "at most 40 characters (it names C++ functions and CMake targets)");
  const std::filesystem::path dir = args.positionals[1];
  // An empty DIR would write the project's files into the working directory, over what is there.
  if (dir.empty()) throw UsageError("the directory is empty: new-family writes a new project into a directory named");
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec))
    throw UsageError("'" + dir.string() + "' exists and is not empty: new-family writes a new project");
  const std::vector<std::pair<std::string, const char*>> files = {
      {"CMakeLists.txt", cmake_lists}, {"CMakePresets.json", project_presets}, {name + ".cu", family_source},
      {"tests/test_" + name + ".cpp", test_source}, {"gates.conf", gates}};
  for (const auto& [path, text] : files) {
    const std::filesystem::path file = dir / path;
    std::filesystem::create_directories(file.parent_path(), ec);
    std::ofstream stream(file);
    if (!(stream << with_name(text, name)) || !stream.flush())
      throw UsageError("cannot write " + file.string() + (ec ? ": " + ec.message() : ""));
    out << "wrote " << file.string() << "\n";
  }
  out << "next, with kernel-lab installed at PREFIX (cmake --install <its build dir> --prefix PREFIX):\n"
      << "  cd " << dir.string() << "\n"
      << "  cmake --preset host -DCMAKE_PREFIX_PATH=PREFIX && cmake --build --preset host && ctest --preset host\n"
      << "  cmake --preset gpu -DCMAKE_PREFIX_PATH=PREFIX && cmake --build --preset gpu && ctest --preset gpu\n";
  return 0;
}

}  // namespace kl::cli
