// `kernel-lab run <family.variant> [shape flags]`: finds the variant's family and hands over.
#include "cli.hpp"
#include "family.hpp"

#include "kl/perturb.hpp"

#include <ostream>

#include <set>

namespace kl::cli {

int cmd_run(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty())
    throw UsageError("'run' needs a variant, e.g. `" + program_name() + " run " + example_variant_id() + "`");
  const VariantInfo& info = find_info(args.positionals[0]);
  const Family& family = find_family(info.family);
  if (family.run == nullptr) throw UsageError("family '" + info.family + "' has no runner");
  std::set<std::string> flags;
  for (const FlagSpec& f : family.run_flags_for(info.name)) flags.insert(f.name);
  args.require_only(flags, "'run " + info.id() + "'");
  // A perturbation build says which delays this run draws, so a failure can be replayed.
  if (const std::string hint = perturb::replay_hint(); !hint.empty()) out << program_name() << " " << hint << "\n";
  return family.run(info, args, out);
}

}  // namespace kl::cli
