// The bench's three outputs: JSON for machines, Markdown for people, and a TSV line per result
// that CI compares between two commits. Host-only.
#pragma once

#include "gates.hpp"
#include "result.hpp"
#include "roofline.hpp"

#include <string>
#include <vector>

namespace kl::bench {

// A ceiling measured in this process (d2d_copy, cublas_sgemm, cub_sum.float, ...).
struct Ceiling {
  std::string name;
  std::string metric;
  double value = 0;
  std::string how;  // one line: what was timed
  // The case measured for it, where it is a reference read from a case (cuBLAS, CUB, a family's
  // reference variant): "matmul.cublas_gemmex_fp16.m2048_n2048_k2048"; "" where the bench
  // measured it itself (a copy, a memset).
  std::string reference;
  // A reference's readings in order (reference_readings.hpp): value is the fastest.
  std::vector<double> readings;
};

// Something the bench left out, and why (a family such as sync, a planted variant).
struct Exclusion {
  std::string what;
  std::string reason;
};

struct Report {
  std::string gpu;   // "NVIDIA H100 80GB HBM3"
  std::string arch;  // "sm_90"
  std::string commit;  // the commit kernel-lab was built from ("unknown" outside git)
  std::string date;    // when the bench ran, UTC, ISO 8601
  Roofline roofline;
  std::vector<Ceiling> ceilings;
  std::vector<Result> results;
  bool gates_evaluated = false;
  std::string gates_path;
  GateEvaluation gates;
  std::vector<Exclusion> excluded;
};

// {"gpu", "arch", "roofline", "ceilings", "results": [...], "gates": [...], "excluded", ...}
std::string to_json(const Report& report);
// The roofline-style results table, the gates table and what was left out.
std::string to_markdown(const Report& report);
// One line per result, no header: key TAB metric TAB value TAB median_ms TAB min_ms TAB max_ms.
// `kernel-lab compare` reads it back (run_compare.hpp, parse_bench_tsv): keep the two in step.
std::string to_tsv(const Report& report);

}  // namespace kl::bench
