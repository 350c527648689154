// `kernel-lab bench` refuses bad input with exit status 2 and a message naming the problem,
// before touching a GPU; and the hook table, the perf tests and bench/gates.conf agree.
#include "bench_context.hpp"
#include "bench_selection.hpp"
#include "cli.hpp"
#include "family.hpp"
#include "core/gates.hpp"

#include "kl/matmul.hpp"
#include "kl/matmul_ladders.hpp"
#include "kl/registry.hpp"
#include "kl/timing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace {

struct Outcome {
  int code;
  std::string err;
};

Outcome run(const std::vector<std::string>& argv) {
  std::ostringstream out, err;
  const int code = kl::cli::main(argv, out, err);
  return {code, err.str()};
}

void expect_exit_2(const std::vector<std::string>& argv, const std::string& message) {
  const Outcome o = run(argv);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find(message), std::string::npos) << "stderr: " << o.err;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::set<std::string> benched_keys() {
  std::set<std::string> keys;
  for (const kl::Family* f : kl::families())
    if (f->benchmarked())
      for (const kl::cli::BenchCase& c : f->bench_cases())
        if (c.skip_reason.empty()) keys.insert(c.key());
  return keys;
}

}  // namespace

TEST(BenchCli, UnknownFamilyVariantAndExcludedOnes) {
  expect_exit_2({"bench", "--family", "nosuch"}, "unknown family 'nosuch' (benchmarked: elementwise, dispatch, reduction, riemann, matmul");
  expect_exit_2({"bench", "--family", "matmul", "--variant", "nosuch"},
                "unknown variant 'nosuch' in family 'matmul' (benchmarked: cublas_sgemm, uncoalesced");
  expect_exit_2({"bench", "--variant", "naive"}, "--variant 'naive' needs --family, or the form family.variant");
  expect_exit_2({"bench", "--variant", ".add"}, "--variant '.add': the form is family.variant, both named");
  expect_exit_2({"bench", "--variant", "elementwise."}, "--variant 'elementwise.': the form is family.variant, both named");
  expect_exit_2({"bench", "--variant", "reduction.nosuch"}, "unknown variant 'nosuch' in family 'reduction'");
  expect_exit_2({"bench", "--family", "sync"}, "family 'sync' is not benchmarked: the deadlock lab");
  expect_exit_2({"bench", "--family", "matmul", "--variant", "tiled_missing_second_sync"},
                "matmul.tiled_missing_second_sync is not benchmarked: planted bug");
  expect_exit_2({"bench", "--variant", "elementwise.cpu_oracle_add"}, "is not benchmarked: host reference");
}

TEST(BenchCli, BadFlags) {
  expect_exit_2({"bench", "--reps", "0"}, "--reps must be in [1, 1000]");
  expect_exit_2({"bench", "--reps", "many"}, "--reps expects an integer");
  expect_exit_2({"bench", "--speed", "1"}, "unknown flag --speed for 'bench'");
  expect_exit_2({"bench", "--json"}, "--json needs a value");
  expect_exit_2({"bench", "--family", "elementwise", "--json", "/nonexistent/dir/out.json"},
                "--json: cannot write '/nonexistent/dir/out.json'");
}

TEST(BenchCli, BadGatesFileNamesTheLine) {
  const std::string path = testing::TempDir() + "bad_gates.conf";
  std::ofstream(path) << "[default]\nmin_ratio matmul.naive >= 0.07\norder matmul.naive > 2 x matmul.uncoalesced\n";
  expect_exit_2({"bench", "--family", "matmul", "--gates", path}, path + ":3: expected `order KEY_A >= K x KEY_B`");
  expect_exit_2({"bench", "--gates", "/nonexistent/gates.conf"}, "cannot read gates file '/nonexistent/gates.conf'");
}

TEST(BenchSelection, PlantedAndHostReferencesAreNeverMeasured) {
  const kl::cli::BenchSelection all = kl::cli::select_bench_cases("", "");
  for (const kl::cli::BenchCase& c : all.cases) {
    const kl::VariantInfo& info = kl::find_info(c.family + "." + c.variant);
    EXPECT_FALSE(info.planted()) << c.key();
    EXPECT_NE(c.variant.rfind("cpu_", 0), 0u) << c.key();
  }
  std::set<std::string> excluded;
  for (const auto& e : all.excluded) excluded.insert(e.what);
  EXPECT_TRUE(excluded.count("sync"));
  EXPECT_TRUE(excluded.count("quicksort"));
  EXPECT_TRUE(excluded.count("matmul.tiled_missing_second_sync"));
  EXPECT_TRUE(excluded.count("reduction.unroll_last_warp_no_volatile.float"));
  EXPECT_TRUE(excluded.count("basics.hello"));
  EXPECT_TRUE(excluded.count("basics.atomic_counter"));
  EXPECT_TRUE(excluded.count("riemann.cpu_left_sum"));
  // Flawed variants are benchmarked: correct results, a checker's finding.
  EXPECT_TRUE(benched_keys().count("reduction.unroll_last_warp.float"));
  EXPECT_EQ(all.complete_families.size(), 7u);  // matmul imatmul reduction elementwise basics dispatch riemann
  const kl::cli::BenchSelection one = kl::cli::select_bench_cases("reduction", "grid_stride");
  ASSERT_EQ(one.cases.size(), 4u);  // float and int at 2^28, then both again at 2^16
  EXPECT_EQ(one.cases[0].key(), "reduction.grid_stride.float");
  EXPECT_EQ(one.cases[2].key(), "reduction.grid_stride.float.n64k");
  EXPECT_TRUE(one.complete_families.empty());
}

// The tensor-core rungs and their ceiling, GemmEx, are timed at 4096^3 and 8192^3 (the issue's
// two shapes), each once; GemmEx and the rungs near it also at the six tensor-core sweep shapes.
TEST(BenchSelection, TensorCoreLadderAtBothShapes) {
  const auto swept = [](const std::string& v) {
    const auto& rungs = kl::matmul::tensor_core_swept_rungs();
    return v == "cublas_gemmex_fp16" || std::find(rungs.begin(), rungs.end(), v) != rungs.end();
  };
  for (const char* variant :
       {"cublas_gemmex_fp16", "wmma_global", "wmma_shared", "mma_sync_pipeline", "wgmma_tma", "wgmma_persistent",
        "wgmma_tma_store", "wgmma_stream_k", "wgmma_multicast"}) {
    const kl::cli::BenchSelection one = kl::cli::select_bench_cases("matmul", variant);
    const std::size_t shapes = 2 + (swept(variant) ? kl::matmul::tensor_core_sweep_shapes().size() : 0);
    ASSERT_EQ(one.cases.size(), shapes) << variant;
    EXPECT_EQ(one.cases[0].key(), std::string("matmul.") + variant);
    EXPECT_EQ(one.cases[1].key(), std::string("matmul.") + variant + ".m8192_n8192_k8192");
    for (std::size_t i = 2; i < shapes; ++i)
      EXPECT_EQ(one.cases[i].key(),
                std::string("matmul.") + variant + "." + kl::matmul::tensor_core_sweep_shapes()[i - 2].tag());
  }
  EXPECT_GE(kl::matmul::tensor_core_sweep_shapes().size(), 6u) << "the issue's sweep: at least six shapes";
}

// --sweep adds every swept n of the memory-bound families, each case once (the bench's own 2^16
// cases are not repeated), int stops at 2^28 with its reason, and a family without a sweep is
// refused by name.
TEST(BenchSelection, SweepAddsEverySizeOfTheMemoryBoundFamiliesOnce) {
  const kl::cli::BenchSelection plain = kl::cli::select_bench_cases("reduction", "vectorized_single_launch");
  const kl::cli::BenchSelection swept = kl::cli::select_bench_cases("reduction", "vectorized_single_launch", true);
  std::set<std::string> keys;
  for (const kl::cli::BenchCase& c : swept.cases) EXPECT_TRUE(keys.insert(c.key()).second) << "twice: " << c.key();
  EXPECT_EQ(plain.cases.size(), 4u);
  // 10 sizes of float, 9 of int (2^30 is skipped), beside the two bench-size cases.
  EXPECT_EQ(swept.cases.size(), 2u + 10u + 9u);
  EXPECT_TRUE(keys.count("reduction.vectorized_single_launch.float.n4k"));
  EXPECT_TRUE(keys.count("reduction.vectorized_single_launch.float.n1g"));
  EXPECT_FALSE(keys.count("reduction.vectorized_single_launch.int.n1g"));
  bool int_reason = false;
  for (const auto& e : swept.excluded)
    int_reason = int_reason || (e.what == "reduction.vectorized_single_launch.int.n1g" &&
                                e.reason.find("int inputs stop at 2^28") != std::string::npos);
  EXPECT_TRUE(int_reason);
  // dispatch at 2^30 cells breaks the rule its shape and output take (2^31 ints, beyond the 2^30
  // elements the host holds): skipped with that rule, not attempted (a refused case ended the H100
  // sweep with nothing written).
  const kl::cli::BenchSelection dispatch = kl::cli::select_bench_cases("dispatch", "record_thread_coords", true);
  bool dispatch_reason = false;
  for (const auto& e : dispatch.excluded)
    dispatch_reason = dispatch_reason || (e.what == "dispatch.record_thread_coords.n1g" &&
                                          e.reason.find("the output must be at most 2^30 elements") != std::string::npos);
  EXPECT_TRUE(dispatch_reason);
  for (const kl::cli::BenchCase& c : dispatch.cases) EXPECT_NE(c.key(), "dispatch.record_thread_coords.n1g");
  for (const char* family : {"elementwise", "basics", "dispatch"})
    EXPECT_GT(kl::cli::select_bench_cases(family, "", true).cases.size(),
              5 * kl::cli::select_bench_cases(family, "").cases.size())
        << family;
  try {
    kl::cli::select_bench_cases("matmul", "", true);
    FAIL() << "matmul has no size sweep";
  } catch (const kl::cli::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--sweep: family 'matmul' has no size sweep (swept: "), std::string::npos)
        << e.what();
  }
}

// Every catalogue family has a hook line (benched, or excluded with a reason), and the perf
// tests bench/CMakeLists.txt registers are exactly the benched families.
TEST(BenchConsistency, HooksCoverTheCatalogueAndThePerfTests) {
  std::set<std::string> catalogue_families, benched;
  for (const kl::VariantInfo* v : kl::catalogue()) catalogue_families.insert(v->family);
  for (const kl::Family* f : kl::families()) {
    // Benched (cases and a way to measure them) or not benchmarked for a stated reason: never neither.
    EXPECT_NE(f->benchmarked(), !f->not_benchmarked.empty())
        << "family " << f->name << ": give it bench_cases and bench_measure, or a not_benchmarked reason";
    if (!f->benchmarked()) continue;
    benched.insert(f->name);
    EXPECT_TRUE(f->bench_measure != nullptr) << f->name;
  }
  for (const std::string& f : catalogue_families)
    EXPECT_NO_THROW(kl::find_family(f)) << "variant of family " << f << " without a family object";
  const std::string list = env("KL_BENCH_FAMILIES_FILE");
  ASSERT_FALSE(list.empty()) << "KL_BENCH_FAMILIES_FILE is not set (run through ctest)";
  std::ifstream in(list);
  std::set<std::string> perf_tests;
  for (std::string f; std::getline(in, f);)
    if (!f.empty()) perf_tests.insert(f);
  EXPECT_EQ(perf_tests, benched) << "the families declared kl_family(<name> BENCHED) in kernels/*/CMakeLists.txt "
                                    "and the family objects with bench cases differ";
}

// Every gate of the reviewed file names a result the bench produces: a typo would gate nothing.
TEST(BenchConsistency, GatesFileNamesOnlyBenchedResults) {
  const std::string path = env("KL_GATES_FILE");
  ASSERT_FALSE(path.empty()) << "KL_GATES_FILE is not set (run through ctest)";
  const kl::bench::GatesFile file = kl::bench::load_gates(path);
  ASSERT_FALSE(file.gates.empty());
  const std::set<std::string> keys = benched_keys();
  for (const kl::bench::Gate& g : file.gates)
    for (const std::string& k : g.keys())
      EXPECT_TRUE(keys.count(k)) << path << ":" << g.line << ": " << g.name() << " names " << k
                                 << ", which no bench hook produces";
  // The gated architecture and the GPU the thresholds were set on have sections.
  const auto has_section = [&](const std::string& section) {
    return std::any_of(file.gates.begin(), file.gates.end(), [&](const kl::bench::Gate& g) { return g.section == section; });
  };
  EXPECT_TRUE(has_section("sm_90"));
  EXPECT_TRUE(has_section("gpu NVIDIA H100 80GB HBM3"));
}

// One summary of per-run times serves `kernel-lab run` and the bench.
TEST(BenchTiming, MedianMinMaxOfTheRuns) {
  const kl::TimingSummary odd = kl::summarize_timings({3.0, 1.0, 2.0});
  EXPECT_EQ(odd.median_ms, 2.0);
  EXPECT_EQ(odd.min_ms, 1.0);
  EXPECT_EQ(odd.max_ms, 3.0);
  EXPECT_EQ(odd.repetitions, 3);
  EXPECT_EQ(odd.runs_ms, (std::vector<double>{3.0, 1.0, 2.0}));  // as they ran, not sorted
  EXPECT_EQ(kl::summarize_timings({4.0, 1.0, 2.0, 3.0}).median_ms, 2.5);
  EXPECT_EQ(kl::summarize_timings({}).repetitions, 0);
}

// A bench run keeps a family's states while it measures that family's cases and drops them when
// it moves on to another family (else a sweep's largest inputs of every family add up: the
// H100's 80 GB ran out). Coming back to a family (a re-measured gate) starts it afresh.
TEST(BenchFamilyStates, KeptWithinAFamilyDroppedWhenTheRunMovesOn) {
  kl::cli::FamilyStates states;
  states.begin_family("elementwise");
  states.get<int>("elementwise/add") = 1;
  states.get<int>("elementwise/axpy") = 2;
  states.begin_family("elementwise");  // the next case of the same family
  EXPECT_EQ(states.get<int>("elementwise/add"), 1);
  EXPECT_EQ(states.get<int>("elementwise/axpy"), 2);
  states.begin_family("matmul");
  EXPECT_EQ(states.size(), 0u);
  states.get<int>("matmul") = 3;
  states.begin_family("elementwise");
  EXPECT_EQ(states.get<int>("elementwise/add"), 0);  // built again by the family
  EXPECT_EQ(states.size(), 1u);
}

// After a case that ran out of device memory the bench drops every state, the current family's
// too: the next case (a smaller size, or another family) builds its inputs again.
TEST(BenchFamilyStates, ClearedAfterACaseThatDidNotFit) {
  kl::cli::FamilyStates states;
  states.begin_family("basics");
  states.get<int>("basics/n1g") = 7;
  states.clear();
  EXPECT_EQ(states.size(), 0u);
  states.begin_family("basics");  // the same family goes on
  EXPECT_EQ(states.get<int>("basics/n1g"), 0);
}

// Dropping a family's states when the run moves on costs nothing only if the run never comes
// back to it: with and without the sweeps, each benched family's cases form one run of the list.
TEST(BenchFamilyStates, EachFamilysCasesAreContiguous) {
  std::set<std::string> benched;
  for (const kl::Family* f : kl::families())
    if (f->benchmarked()) benched.insert(f->name);
  for (const bool sweep : {false, true}) {
    const kl::cli::BenchSelection all = kl::cli::select_bench_cases("", "", sweep);
    std::set<std::string> finished;
    std::string current;
    for (const kl::cli::BenchCase& c : all.cases) {
      if (c.family == current) continue;
      EXPECT_FALSE(finished.count(c.family)) << c.key() << ": family " << c.family << " comes back after "
                                             << current << " (sweep " << sweep << ")";
      if (!current.empty()) finished.insert(current);
      current = c.family;
    }
    if (!current.empty()) finished.insert(current);
    EXPECT_EQ(finished, benched) << "sweep " << sweep;
  }
}

// A family's cached inputs: the bench size's survive every swept size; a swept size's are dropped
// when another swept size is asked for, and kept while the same one is asked again.
TEST(BenchInputsBySize, KeepsTheBenchSizeAndOneSweptSize) {
  kl::cli::InputsBySize<std::string, int> cache(1 << 26);
  cache.at("float", 1 << 26) = 1;
  cache.at("int", 1 << 26) = 2;
  cache.at("float", 4096) = 3;
  cache.at("int", 4096) = 4;
  EXPECT_EQ(cache.at("float", 4096), 3);
  EXPECT_EQ(cache.at("int", 4096), 4);  // same swept size: nothing dropped
  EXPECT_EQ(cache.at("float", 16384), 0);  // new swept size: the 4096 entries go
  EXPECT_EQ(cache.at("float", 4096), 0);
  EXPECT_EQ(cache.at("float", 1 << 26), 1);
  EXPECT_EQ(cache.at("int", 1 << 26), 2);
}
