// The quicksort family's table: std::sort first, then seed 004's dynamic-parallelism quicksort
// as written (planted: its partition loses elements) and fixed.
#include "launchers.hpp"

#include "kl/quicksort.hpp"

namespace kl::quicksort {
namespace {

constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

std::string n_range(const Shape& s, std::int64_t limit, const char* why) {
  if (s.n < 0 || s.n > limit)
    return "n must be in 0.." + std::to_string(limit) + " (" + why + "), got " + std::to_string(s.n);
  return "";
}

std::string host_sort(const Shape& s) { return n_range(s, std::int64_t{1} << 30, "int indices"); }
std::string seed_rule(const Shape& s) {
  return n_range(s, seed_max_n, "unbounded recursion: launches past nesting depth 24 fail silently");
}
std::string fixed_rule(const Shape& s) {
  return n_range(s, max_n, "at most 2^17 grids pending; ranges left at depth 16 are heapsorted by one thread");
}

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"quicksort", "cpu_oracle", "-", "CPU reference",
         "Variant 0: std::sort on the host; every sort must return exactly this sorted permutation.",
         Role::reference, {}},
        host_sort, launch_cpu_oracle}},
      {{{"quicksort", "qs_gpu_seed", seed004, "qs_gpu",
         "Dynamic parallelism as the seed writes it: each call partitions and launches two 1-thread "
         "children. Its qs_part overwrites x[left] with the pivot after swapping the pivot away, "
         "losing elements ({5,8,3} -> {3,5,5}).",
         Role::planted,
         {{Checker::oracle, "", "", {"--n", "3"}, "quicksort.qs_gpu"}}},
        seed_rule, launch_qs_gpu_seed}},
      {{{"quicksort", "qs_gpu", seed004, "qs_gpu",
         "The fixed partition (swap the pivot into place) with CDP2 fire-and-forget children, a "
         "depth cap of 16 with an in-thread heapsort beyond it, and a pending-launch limit of 2^17.",
         Role::teaching, {}},
        fixed_rule, launch_qs_gpu}},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

}  // namespace kl::quicksort
