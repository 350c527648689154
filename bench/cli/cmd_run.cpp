// `kernel-lab run <family.variant> [shape flags]`: finds the family's runner and hands over.
#include "cli.hpp"
#include "run_support.hpp"

namespace kl::cli {

int cmd_run(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty())
    throw UsageError("'run' needs a variant, e.g. `kernel-lab run elementwise.add --n 1000`");
  const VariantInfo& info = find_info(args.positionals[0]);
  for (const FamilyRunner& r : family_runners()) {
    if (info.family != r.family) continue;
    args.require_only(r.flags, "'run " + info.id() + "'");
    return r.run(info, args, out);
  }
  throw UsageError("family '" + info.family + "' has no runner in kernel-lab");
}

}  // namespace kl::cli
