// Fuzz target: bench/gates.conf's parser. Any text must either parse or be refused with a
// GatesFileError naming the file and line; a parsed file must then layer for a GPU without
// trouble. Anything else (a crash, another exception, a hang, unbounded memory) is a finding.
#include "fuzz_input.hpp"

#include "core/gates.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream text(std::string(reinterpret_cast<const char*>(data), size));
  kl::bench::GatesFile file;
  try {
    file = kl::bench::parse_gates(text, "fuzz.conf");
  } catch (const kl::bench::GatesFileError& e) {
    if (std::string(e.what()).rfind("fuzz.conf:", 0) != 0)
      kl::fuzz::finding(std::string("a refusal that names no line: ") + e.what());
    return 0;
  }
  for (const kl::bench::Gate& g : file.gates) {
    if (g.line < 1) kl::fuzz::finding("a gate without its line number");
    if (!g.off && !(g.threshold > 0)) kl::fuzz::finding("a gate that is on with threshold " + std::to_string(g.threshold));
    (void)g.name();
    (void)g.rule();
  }
  (void)kl::bench::gates_for_device(file, "sm_90", "NVIDIA H100 80GB HBM3");
  return 0;
}
