#include "kl/case_result.hpp"

#include <sstream>

namespace kl {

std::string GuardReport::describe() const {
  if (ok()) return "all output elements written, canaries intact";
  std::ostringstream os;
  if (unwritten != 0)
    os << unwritten << " output element(s) never written (still poisoned), first at index "
       << first_unwritten << "; ";
  if (damaged_before != 0) os << damaged_before << " canary word(s) before the output changed; ";
  if (damaged_after != 0)
    os << damaged_after << " canary word(s) after the output changed (written past the end), first at end+"
       << first_damaged_after << "; ";
  std::string s = os.str();
  return s.substr(0, s.size() - 2);
}

void CaseResult::add_mismatch(const Mismatch& m) {
  if (mismatches.size() < max_reported_mismatches) mismatches.push_back(m);
  ++mismatch_count;
}

void CaseResult::take_canaries(const GuardReport& g) {
  guards.damaged_before = g.damaged_before;
  guards.damaged_after = g.damaged_after;
  guards.first_damaged_after = g.first_damaged_after;
}

std::string CaseResult::describe() const {
  std::ostringstream os;
  os.precision(9);
  os << guards.describe() << "; " << mismatch_count << " of " << checked << " element(s) outside the bound";
  for (const Mismatch& m : mismatches)
    os << "\n  [" << m.index << "] got " << m.got << ", want " << m.want << " (|diff| "
       << (m.got > m.want ? m.got - m.want : m.want - m.got) << ", allowed " << m.allowed << ")";
  if (mismatch_count > mismatches.size()) os << "\n  ...";
  return os.str();
}

}  // namespace kl
