// `kernel-lab list` and `kernel-lab info`.
#include "cli.hpp"

#include "kl/device_facts.hpp"
#include "kl/registry.hpp"

#include <algorithm>
#include <array>
#include <iomanip>
#include <ostream>

namespace kl::cli {

namespace {

std::string_view role_name(Role role) {
  switch (role) {
    case Role::reference: return "reference";
    case Role::teaching: return "teaching";
    case Role::flawed: return "flawed";
    case Role::planted: return "planted";
  }
  return "?";
}

std::string findings_text(const VariantInfo& v) {
  if (v.findings.empty()) return "clean";
  std::string s;
  for (const ExpectedFinding& f : v.findings) s += (s.empty() ? "" : ", ") + std::string(to_string(f.checker));
  return s;
}

}  // namespace

int cmd_list(const ParsedArgs& args, std::ostream& out) {
  const std::vector<const VariantInfo*> all = catalogue();
  if (args.has("json")) {
    out << "[\n";
    for (std::size_t i = 0; i < all.size(); ++i) {
      const VariantInfo& v = *all[i];
      out << "  {\"id\": " << json_quote(v.id()) << ", \"family\": " << json_quote(v.family)
          << ", \"variant\": " << json_quote(v.name) << ", \"role\": " << json_quote(std::string(role_name(v.role)))
          << ", \"seed_file\": " << json_quote(v.seed_file) << ", \"seed_kernel\": " << json_quote(v.seed_kernel)
          << ", \"lesson\": " << json_quote(v.lesson) << ", \"expected_findings\": [";
      for (std::size_t j = 0; j < v.findings.size(); ++j) {
        const ExpectedFinding& f = v.findings[j];
        out << (j ? ", " : "") << "{\"checker\": " << json_quote(std::string(to_string(f.checker)))
            << ", \"pattern\": " << json_quote(f.report_pattern) << ", \"repro\": " << json_quote(f.repro)
            << ", \"fixed_by\": " << json_quote(f.fixed_by) << "}";
      }
      out << "]}" << (i + 1 < all.size() ? "," : "") << "\n";
    }
    out << "]\n";
    return 0;
  }
  // Columns as wide as their longest entry (plus two spaces), so long seed kernel names such as
  // "Riemann sum (Warp Optimized)" never run into the next column.
  std::vector<std::array<std::string, 5>> rows = {{"family", "variant", "role", "seed (kernel)", "expected findings"}};
  for (const VariantInfo* v : all)
    rows.push_back({v->family, v->name, std::string(role_name(v->role)),
                    v->seed_file.substr(0, 3) + " (" + v->seed_kernel + ")", findings_text(*v)});
  std::array<std::size_t, 5> width{};
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size() + 2);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out << std::left;
    for (std::size_t c = 0; c < rows[r].size(); ++c) out << std::setw(static_cast<int>(width[c])) << rows[r][c];
    out << (r == 0 ? std::string("lesson") : all[r - 1]->lesson) << "\n";
  }
  return 0;
}

int cmd_info(const ParsedArgs&, std::ostream& out) {
  const DeviceFacts f = device_facts();
  out << "device " << f.device << ": " << f.name << " (sm_" << f.cc_major << f.cc_minor
      << (capability_override() ? ", as KL_DEVICE_CC reports it" : "") << ")\n"
      << "  SMs " << f.sm_count << ", max threads/block " << f.max_threads_per_block << ", max threads/SM "
      << f.max_threads_per_sm << ", max blocks/SM " << f.max_blocks_per_sm << "\n"
      << "  shared/block " << f.shared_bytes_per_block << " B, L2 " << f.l2_bytes << " B, global "
      << f.global_bytes << " B, cooperative launch " << (f.cooperative_launch ? "yes" : "no") << "\n";
  return 0;
}

}  // namespace kl::cli
