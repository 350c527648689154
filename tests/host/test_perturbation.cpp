// The perturbation tier's host side: its settings from the environment (a malformed value names
// the variable and the rule), and the verdicts of `expect` on a planted cross-block bug, judged
// from captured runs: caught, missed, a fix that failed, a run refused, and the proof that the
// normal build and every tool miss it. A normal build carries no perturbation points.
#include "perturbation.hpp"

#include "kl/perturb.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using kl::cli::Captured;
using kl::cli::SeedRun;

// A run of `kernel-lab run` that stated its exit status (none if `status` < 0).
Captured run_with_status(int status, const std::string& lines = "check: ...\n") {
  std::string out = lines;
  if (status >= 0) out += kl::cli::exit_status_line(status) + "\n";
  return {status < 0 ? 139 : status, out};
}

std::vector<SeedRun> runs_with_statuses(std::initializer_list<int> statuses) {
  std::vector<SeedRun> runs;
  std::uint64_t seed = 1;
  for (const int s : statuses) runs.push_back({seed++, run_with_status(s)});
  return runs;
}

// compute-sanitizer's lines around a run that stated `status`, with `errors` in its summary.
Captured under_tool(int status, int errors) {
  std::string out = "========= COMPUTE-SANITIZER\ncheck: ...\n";
  if (status >= 0) out += kl::cli::exit_status_line(status) + "\n";
  out += "========= ERROR SUMMARY: " + std::to_string(errors) + " error" + (errors == 1 ? "" : "s") + "\n";
  return {errors > 0 ? 86 : status, out};
}

const std::vector<std::string> tools = {"memcheck", "racecheck", "synccheck", "initcheck"};

}  // namespace

TEST(PerturbationSettings, DefaultsAndValuesFromTheEnvironment) {
  const kl::perturb::Settings d = kl::perturb::settings_from(nullptr, nullptr);
  EXPECT_EQ(d.seed, kl::perturb::default_seed);
  EXPECT_EQ(d.max_delay_ns, kl::perturb::default_max_delay_us * 1000);
  const kl::perturb::Settings s = kl::perturb::settings_from("42", "0");
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.max_delay_ns, 0u);  // 0 turns every point off
}

TEST(PerturbationSettings, MalformedValuesNameTheVariableAndTheRule) {
  const struct {
    const char* seed;
    const char* delay;
    const char* says;
  } cases[] = {{"x", nullptr, "KL_PERTURB_SEED must be a decimal number"},
               {"", nullptr, "KL_PERTURB_SEED must be a decimal number"},
               {"-1", nullptr, "KL_PERTURB_SEED must be a decimal number"},
               {nullptr, "20us", "KL_PERTURB_MAX_DELAY_US must be a decimal number in 0..1000000, got '20us'"},
               {nullptr, "1000001", "KL_PERTURB_MAX_DELAY_US must be a decimal number in 0..1000000"}};
  for (const auto& c : cases) {
    try {
      kl::perturb::settings_from(c.seed, c.delay);
      FAIL() << "accepted seed=" << (c.seed ? c.seed : "unset") << " delay=" << (c.delay ? c.delay : "unset");
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
    }
  }
}

// expect runs its seeds in one process: each seed as a fresh process started with it would draw.
TEST(PerturbationSettings, UseSeedChangesTheSeedOfLaterLaunches) {
  const std::uint64_t before = kl::perturb::settings().seed;
  kl::perturb::use_seed(77);
  EXPECT_EQ(kl::perturb::settings().seed, 77u);
  kl::perturb::use_seed(before);
  EXPECT_EQ(kl::perturb::settings().seed, before);
}

// The host tier links the normal kernels: no unit registers, nothing is uploaded, no hint.
TEST(PerturbationSettings, ANormalBuildCarriesNoPoints) {
  EXPECT_FALSE(kl::perturb::compiled_in());
  EXPECT_EQ(kl::perturb::replay_hint(), "");
  kl::perturb::before_launch(nullptr);  // must not touch CUDA at all
}

TEST(PerturbationExpect, PlantedIsCaughtAtTheFirstRunThatFailsItsCheckNamingTheSeed) {
  const kl::cli::Judgement j =
      kl::cli::judge_perturbed_runs("perturb-x", "reduction.add_before_zero", false, runs_with_statuses({0, 0, 1}));
  EXPECT_EQ(j.exit_code, 0) << j.message;
  EXPECT_NE(j.message.find("expected finding reproduced: perturbation made reduction.add_before_zero fail its "
                           "check under KL_PERTURB_SEED=3"),
            std::string::npos)
      << j.message;
}

TEST(PerturbationExpect, PlantedThatPassedEveryRunIsMissed) {
  const kl::cli::Judgement j =
      kl::cli::judge_perturbed_runs("perturb-x", "reduction.add_before_zero", false, runs_with_statuses({0, 0, 0, 0}));
  EXPECT_EQ(j.exit_code, 1) << j.message;
  EXPECT_NE(j.message.find("MISSED: reduction.add_before_zero passed 4 perturbed run(s), seeds 1..4"),
            std::string::npos)
      << j.message;
}

TEST(PerturbationExpect, FixMustPassEveryRun) {
  const kl::cli::Judgement clean =
      kl::cli::judge_perturbed_runs("perturb-x", "reduction.bulk_copy_ring", true, runs_with_statuses({0, 0, 0}));
  EXPECT_EQ(clean.exit_code, 0) << clean.message;
  EXPECT_NE(clean.message.find("checker can fail: perturbation stayed silent on reduction.bulk_copy_ring"),
            std::string::npos)
      << clean.message;
  const kl::cli::Judgement failed =
      kl::cli::judge_perturbed_runs("perturb-x", "reduction.bulk_copy_ring", true, runs_with_statuses({0, 1}));
  EXPECT_EQ(failed.exit_code, 1) << failed.message;
  EXPECT_NE(failed.message.find("NOT CLEAN: the fix reduction.bulk_copy_ring failed its check under KL_PERTURB_SEED=2"),
            std::string::npos)
      << failed.message;
  EXPECT_EQ(failed.message.find("checker can fail"), std::string::npos);  // the ctest pass regex
}

// A planted run that stopped on a CUDA error (a fault, say) did not fail its check: no verdict. For
// the fix any failure, a CUDA error too, is one.
TEST(PerturbationExpect, ACudaErrorIsNoCatchButFailsAFix) {
  std::vector<SeedRun> runs = runs_with_statuses({0});
  runs.push_back({2, run_with_status(1, "kernel-lab-perturb: CUDA error: an illegal memory access was encountered\n")});
  const kl::cli::Judgement planted = kl::cli::judge_perturbed_runs("perturb-x", "v", false, runs);
  EXPECT_EQ(planted.exit_code, 2) << planted.message;
  EXPECT_NE(planted.message.find("NO VERDICT: the run of v under KL_PERTURB_SEED=2 ended in a CUDA error"),
            std::string::npos)
      << planted.message;
  EXPECT_EQ(kl::cli::judge_perturbed_runs("perturb-x", "v", true, runs).exit_code, 1);
}

// A run refused before its kernel (exit 2) or one that crashed says nothing either way.
TEST(PerturbationExpect, RefusedOrCrashedRunsGiveNoVerdict) {
  for (const bool against_fix : {false, true})
    for (const int status : {2, -1}) {
      const kl::cli::Judgement j =
          kl::cli::judge_perturbed_runs("perturb-x", "reduction.add_before_zero", against_fix, runs_with_statuses({0, status}));
      EXPECT_EQ(j.exit_code, 2) << j.message;
      EXPECT_NE(j.message.find("NO VERDICT"), std::string::npos) << j.message;
    }
  EXPECT_EQ(kl::cli::judge_perturbed_runs("perturb-x", "v", false, {}).exit_code, 2);
}

TEST(PerturbationUnseen, PassesOnlyWhenEveryPlainRunPassesAndEveryToolIsSilent) {
  const std::vector<Captured> silent(4, under_tool(0, 0));
  const kl::cli::Judgement ok =
      kl::cli::judge_unseen("perturb-x", "reduction.add_before_zero", runs_with_statuses({0, 0, 0}), tools, silent);
  EXPECT_EQ(ok.exit_code, 0) << ok.message;
  EXPECT_NE(ok.message.find("unseen without perturbation: reduction.add_before_zero passed 3 plain run(s), and "
                            "memcheck, racecheck, synccheck and initcheck each reported 0 errors"),
            std::string::npos)
      << ok.message;
}

TEST(PerturbationUnseen, APlainRunThatFailsOrAToolThatReportsIsSeen) {
  const std::vector<Captured> silent(4, under_tool(0, 0));
  const kl::cli::Judgement plain_failed =
      kl::cli::judge_unseen("perturb-x", "v", runs_with_statuses({0, 1, 0}), tools, silent);
  EXPECT_EQ(plain_failed.exit_code, 1) << plain_failed.message;
  EXPECT_NE(plain_failed.message.find("SEEN WITHOUT PERTURBATION: plain run 2 of 3"), std::string::npos);

  std::vector<Captured> racecheck_reports = silent;
  racecheck_reports[1] = under_tool(0, 1);
  const kl::cli::Judgement reported =
      kl::cli::judge_unseen("perturb-x", "v", runs_with_statuses({0}), tools, racecheck_reports);
  EXPECT_EQ(reported.exit_code, 1) << reported.message;
  EXPECT_NE(reported.message.find("SEEN WITHOUT PERTURBATION: racecheck reported 1 error(s) on v"), std::string::npos);

  std::vector<Captured> failed_under_tool = silent;
  failed_under_tool[3] = under_tool(1, 0);
  EXPECT_EQ(kl::cli::judge_unseen("perturb-x", "v", runs_with_statuses({0}), tools, failed_under_tool).exit_code, 1);

  for (const kl::cli::Judgement& j : {plain_failed, reported})
    EXPECT_EQ(j.message.find("unseen without perturbation"), std::string::npos);  // the ctest pass regex
}

TEST(PerturbationUnseen, AToolThatDidNotRunOrSummariseGivesNoVerdict) {
  std::vector<Captured> silent(4, under_tool(0, 0));
  std::vector<Captured> not_run = silent;
  not_run[0] = {127, "sh: compute-sanitizer: not found\n"};
  EXPECT_EQ(kl::cli::judge_unseen("perturb-x", "v", runs_with_statuses({0}), tools, not_run).exit_code, 2);
  std::vector<Captured> no_summary = silent;
  no_summary[2] = {0, "========= COMPUTE-SANITIZER\n" + kl::cli::exit_status_line(0) + "\n"};
  EXPECT_EQ(kl::cli::judge_unseen("perturb-x", "v", runs_with_statuses({0}), tools, no_summary).exit_code, 2);
}
