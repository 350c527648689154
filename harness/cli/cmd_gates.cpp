// `kernel-lab gates FILE`: checks a gates file against the program's bench cases without a GPU.
// A key no bench case produces (a typo, a renamed variant, a family not in this program) would
// gate nothing; the bench itself only notices on a GPU, after minutes of measuring.
#include "bench_selection.hpp"
#include "cli.hpp"

#include "core/gates.hpp"

#include <ostream>
#include <set>

namespace kl::cli {

int cmd_gates(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'gates' needs the gates file to check, e.g. bench/gates.conf");
  const std::string& path = args.positionals[0];
  const bench::GatesFile file = bench::load_gates(path);  // a malformed line: GatesFileError, exit 2
  std::set<std::string> benched;
  // Every case `bench` runs, --sweep's swept sizes included.
  for (const BenchCase& c : select_bench_cases("", "", true).cases) benched.insert(c.key());
  std::string unknown;
  for (const bench::Gate& g : file.gates)
    for (const std::string& key : g.keys())
      if (!benched.count(key))
        unknown += "\n  " + path + ":" + std::to_string(g.line) + ": " + g.name() + " names " + key +
                   ", which no bench case of this program produces";
  if (!unknown.empty()) throw std::invalid_argument("gates that would gate nothing:" + unknown);
  out << path << ": " << file.gates.size() << " gates, every key a result the bench produces\n";
  return 0;
}

}  // namespace kl::cli
