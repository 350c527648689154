// The one list of `kernel-lab run` handlers: a line per family, with the flags its shapes take.
#include "run_support.hpp"

namespace kl::cli {

int run_elementwise(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_dispatch(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_sync(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_reduction(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_riemann(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_matmul(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_imatmul(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_basics(const VariantInfo&, const ParsedArgs&, std::ostream&);
int run_quicksort(const VariantInfo&, const ParsedArgs&, std::ostream&);

const std::vector<FamilyRunner>& family_runners() {
  static const std::vector<FamilyRunner> all = {
      {"elementwise", {"n", "block", "seed", "reps"}, run_elementwise},
      {"dispatch", {"width", "height", "block", "reps"}, run_dispatch},
      {"sync", {"blocks", "block", "budget-ms"}, run_sync},
      {"reduction", {"n", "block", "dtype", "seed", "reps"}, run_reduction},
      {"riemann", {"n", "block", "reps"}, run_riemann},
      {"matmul", {"m", "n", "k", "bias", "seed", "reps"}, run_matmul},
      {"imatmul", {"n", "seed", "reps"}, run_imatmul},
      {"basics", {"rows", "cols", "n", "block", "blocks", "threads", "seed", "reps"}, run_basics},
      {"quicksort", {"n", "seed", "reps"}, run_quicksort},
  };
  return all;
}

}  // namespace kl::cli
