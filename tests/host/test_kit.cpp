// The kit (harness/cli/kit.hpp) on the host: a spec's mistakes are refused naming the rule, the shape
// rules and flags the derived tests rely on, a variant's own launcher and rule, seeded data in the
// declared range, the catalogue entries, bench and sweep cases, and the refusals that come before
// any GPU is touched. (Its kernels run in examples/own-kernel's GPU tier and the lab's elementwise.)
#include "kit.hpp"

#include "bench_context.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <type_traits>

using kl::kit::FamilySpec;
using kl::kit::Matrix;
using kl::kit::Vector;

namespace {

// Stand-ins: the host tests validate and look up, never launch.
void matrix_kernel(kl::kit::Call<Matrix>) {}
void matrix_oracle(const kl::kit::HostCall<Matrix>&) {}
void vector_kernel(kl::kit::Call<Vector>) {}
void vector_oracle(const kl::kit::HostCall<Vector>&) {}

const kl::ExpectedFinding canary_finding{kl::Checker::canary, "", "", {"--rows", "3"}, "kit_matrix.copy"};

FamilySpec<Matrix> matrix_spec(std::string name) {
  return {.name = std::move(name), .inputs = 2, .scalar = true, .bench_shape = {64, 64, {16, 16}},
          .variants = {{"copy", "a copy", matrix_kernel, matrix_oracle, {8, 0}},
                       {"broken", "a planted bug", matrix_kernel, matrix_oracle, {8, 0}, kl::Role::planted,
                        {canary_finding}}}};
}

// The families every test below looks at, made once (a family is made once per program).
// (Pointers, not references: see KL_KIT_FAMILY.)
const kl::Family& matrix_family() {
  static const kl::Family* f = &kl::kit::make_family(matrix_spec("kit_matrix"));
  return *f;
}
const kl::Family& vector_family() {
  static const kl::Family* f = &kl::kit::make_family(FamilySpec<Vector>{
      .name = "kit_vector", .inputs = 1, .bench_shape = {1 << 20, 256},
      .variants = {{"scale", "a map", vector_kernel, vector_oracle, {8, 1}}}});
  return *f;
}

// A family whose variant brings its own launcher and rule (whole warps), from a seed, with a
// declared input range and a size sweep: the shape of the lab's elementwise family.
const kl::Family& launched_family() {
  static const kl::Family* f = []() -> const kl::Family* {
    FamilySpec<Vector> spec{.name = "kit_launched", .inputs = 2, .bench_shape = {1 << 20, 256}};
    kl::kit::KernelVariant<Vector> v{"own", "its own launcher", nullptr, vector_oracle, {12, 1}};
    v.launch = [](const kl::kit::Call<Vector>&, cudaStream_t) {};
    v.rule = [](const Vector& s) { return s.block % 32 == 0 ? std::string() : "block must be whole warps"; };
    v.seed = "000_seed.txt";
    v.seed_kernel = "own_kernel";
    spec.variants = {v};
    spec.input_range = {-2.0f, 3.0f};
    spec.sweep = true;
    return &kl::kit::make_family(std::move(spec));
  }();
  return *f;
}

// What make_family says of a spec it refuses ("" when it takes it). A joined spec's parts live
// as long as the program (the family it would join points into them): kept reachable here.
template <class Spec>
std::string refusal_of(Spec spec) {
  if constexpr (std::is_same_v<Spec, kl::kit::Joined>) {
    static auto* refused = new std::vector<kl::kit::Joined>;  // never destroyed, as a family is not
    refused->push_back(spec);
  }
  try {
    kl::kit::make_family(std::move(spec));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(KitSpec, MistakesAreRefusedNamingTheRule) {
  auto spec = [](auto&& edit) {
    FamilySpec<Matrix> s = matrix_spec("kit_refused");
    edit(s);
    return refusal_of(std::move(s));
  };
  EXPECT_NE(spec([](auto& s) { s.name = "Kit"; }).find("lower-case letters, digits and _"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.inputs = -1; }).find("inputs must be 0..3, got -1"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.inputs = 4; }).find("inputs must be 0..3, got 4"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants.clear(); }).find("no variants"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.bench_shape.rows = -1; }).find("bench_shape: rows and cols must be >= 0"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[1].name = "copy"; }).find("variant 'copy' declared twice"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[0].oracle = nullptr; }).find("copy needs an oracle"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[0].kernel = nullptr; }).find("copy needs a kernel or a launcher (launch), not both"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[0].launch = [](const kl::kit::Call<Matrix>&, cudaStream_t) {}; })
                .find("copy needs a kernel or a launcher (launch), not both"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.input_range = {1.0f, 1.0f}; }).find("input_range needs lo < hi"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.shape_flags = {{"n", "N", "elements"}}; }).find("shape_flags: a matrix takes 3 flags"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.ceiling_variant = "nope"; }).find("ceiling_variant 'nope' is not a variant"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.run_shape = Matrix{-2, 3, {16, 16}}; }).find("run_shape: rows and cols must be >= 0"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[0].oracle = nullptr; s.check = {}; }).find("copy needs an oracle"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[1].findings.clear(); }).find("broken: a planted variant has findings"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[0].findings = {canary_finding}; }).find("copy: a planted variant has"),
            std::string::npos);
  // Made once: a second family of the same name is refused.
  (void)matrix_family();
  EXPECT_NE(refusal_of(matrix_spec("kit_matrix")).find("kit family 'kit_matrix' made twice"), std::string::npos);
}

TEST(KitShapes, UnitShapesAreTakenAndRefusedShapesNameTheirRule) {
  for (const kl::Family* f : {&matrix_family(), &vector_family()}) {
    ASSERT_EQ(f->derived.size(), 1u) << f->name;
    const kl::DerivedChecks& d = f->derived[0];
    ASSERT_TRUE(d.check && d.rule) << f->name;
    EXPECT_GE(d.unit_shapes.size(), 8u) << f->name;
    EXPECT_GE(d.refused_shapes.size(), 4u) << f->name;
    for (const auto& flags : d.unit_shapes) EXPECT_EQ(d.rule(*f->variants[0], flags), "") << f->name;
    for (const auto& [flags, words] : d.refused_shapes)
      EXPECT_NE(d.rule(*f->variants[0], flags).find(words), std::string::npos) << f->name << " " << words;
  }
  EXPECT_EQ(matrix_family().derived.at(0).shape_kind, "matrix");
  EXPECT_EQ(vector_family().derived.at(0).shape_kind, "vector");
  EXPECT_EQ(kl::kit::flags_of(Matrix{100, 37, {32, 8}}),
            (std::vector<std::string>{"--rows", "100", "--cols", "37", "--block", "32x8"}));
  EXPECT_EQ(kl::kit::flags_of(Vector{4099, 96}), (std::vector<std::string>{"--n", "4099", "--block", "96"}));
  // The grid limit: 70000 rows of one-thread blocks need 70000 blocks in y.
  EXPECT_NE(matrix_family().derived.at(0).rule(*matrix_family().variants[0], kl::kit::flags_of(Matrix{70000, 1, {1, 1}}))
                .find("gridDim.y"),
            std::string::npos);
  EXPECT_EQ(matrix_family().derived.at(0).rule(*matrix_family().variants[0], kl::kit::flags_of(Matrix{70000, 1, {1, 2}})),
            "");
}

TEST(KitShapes, RunRefusesBadShapesAndDataBeforeTouchingTheGpu) {
  (void)matrix_family();
  const kl::kit::Data data{1.0f, {{1, 2}, {3, 4}}};
  try {
    kl::kit::run("kit_matrix.copy", Matrix{-1, 2}, data);
    FAIL() << "a negative shape was run";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kit_matrix.copy: rows and cols must be >= 0"), std::string::npos) << e.what();
  }
  try {
    kl::kit::run("kit_matrix.copy", Matrix{1, 3}, data);
    FAIL() << "two elements of data were run on a 1 x 3 shape";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("every input holds 3 values (1 an element of the shape), got 2"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(kl::kit::run("kit_matrix.copy", Matrix{1, 2}, kl::kit::Data{1.0f, {{1, 2}}}), std::invalid_argument);
  EXPECT_THROW(kl::kit::run("kit_matrix.nope", Matrix{1, 2}, data), std::invalid_argument);
  EXPECT_THROW(kl::kit::run("kit_matrix.copy", Vector{2, 32}, data), std::invalid_argument);  // not a vector family
}

TEST(KitData, SeededInRangeAndOneArrayPerInput) {
  (void)matrix_family();
  const Matrix shape{300, 301, {16, 16}};
  const kl::kit::Data a = kl::kit::make_data("kit_matrix", shape, 7), b = kl::kit::make_data("kit_matrix", shape, 7),
                      c = kl::kit::make_data("kit_matrix", shape, 8);
  ASSERT_EQ(a.in.size(), 2u);
  EXPECT_EQ(a.in, b.in);
  EXPECT_EQ(a.a, b.a);
  EXPECT_NE(a.in, c.in);
  EXPECT_NE(a.in[0], a.in[1]);
  EXPECT_TRUE(a.a != 0.0f && a.a >= -4.0f && a.a <= 4.0f) << a.a;
  for (const auto& array : a.in) {
    ASSERT_EQ(array.size(), 300u * 301u);
    EXPECT_TRUE(std::all_of(array.begin(), array.end(), [](float x) { return x >= -100.0f && x <= 100.0f; }));
  }
  EXPECT_EQ(kl::kit::make_data("kit_vector", Vector{10, 32}, 1).a, 0.0f);  // no scalar declared
}

TEST(KitFamily, BenchCasesMeasureCleanVariantsOnly) {
  const kl::Family& f = matrix_family();
  ASSERT_TRUE(f.benchmarked());
  const std::vector<kl::cli::BenchCase> cases = f.bench_cases();
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].variant, "copy");
  EXPECT_EQ(cases[0].skip_reason, "");
  EXPECT_EQ(cases[1].variant, "broken");
  EXPECT_NE(cases[1].skip_reason, "");
  EXPECT_EQ(f.variants[1]->role, kl::Role::planted);
  EXPECT_EQ(f.variants[1]->id(), "kit_matrix.broken");
}

// A variant's own rule joins the shape kind's everywhere a shape is judged: the derived tests'
// rule, and kit::run before any GPU work; the kind's rule still comes first.
TEST(KitVariant, OwnRuleRefusesBeforeTheGpu) {
  const kl::Family& f = launched_family();
  const kl::VariantInfo& own = *f.variants[0];
  EXPECT_EQ(f.derived.at(0).rule(own, kl::kit::flags_of(Vector{1000, 64})), "");
  EXPECT_EQ(f.derived.at(0).rule(own, kl::kit::flags_of(Vector{1000, 100})), "block must be whole warps");
  EXPECT_NE(f.derived.at(0).rule(own, kl::kit::flags_of(Vector{-1, 100})).find("n must be >= 0"), std::string::npos);
  const kl::kit::Data data = kl::kit::make_data("kit_launched", Vector{4, 100}, 1);
  try {
    kl::kit::run("kit_launched.own", Vector{4, 100}, data);
    FAIL() << "a shape the variant's rule refuses was run";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "kit_launched.own: block must be whole warps");
  }
}

// Inputs come from the declared range; the catalogue carries the declared seed and kernel (or "-"
// and the variant's name); a sweep family's sweep cases are its bench cases at every swept n.
TEST(KitVariant, RangeSeedAndSweepAsDeclared) {
  const kl::Family& f = launched_family();
  const kl::kit::Data data = kl::kit::make_data("kit_launched", Vector{5000, 256}, 3);
  ASSERT_EQ(data.in.size(), 2u);
  for (const auto& array : data.in) {
    EXPECT_TRUE(std::all_of(array.begin(), array.end(), [](float x) { return x >= -2.0f && x <= 3.0f; }));
    EXPECT_TRUE(std::any_of(array.begin(), array.end(), [](float x) { return x < -1.0f; }));
    EXPECT_TRUE(std::any_of(array.begin(), array.end(), [](float x) { return x > 2.0f; }));
  }
  EXPECT_EQ(f.variants[0]->seed_file, "000_seed.txt");
  EXPECT_EQ(f.variants[0]->seed_kernel, "own_kernel");
  EXPECT_EQ(matrix_family().variants[0]->seed_file, "-");
  EXPECT_EQ(matrix_family().variants[0]->seed_kernel, "copy");
  ASSERT_TRUE(f.sweep_cases != nullptr);
  EXPECT_TRUE(matrix_family().sweep_cases == nullptr);
  const std::vector<kl::cli::BenchCase> swept = f.sweep_cases();
  ASSERT_GE(swept.size(), 8u);
  for (const kl::cli::BenchCase& c : swept) {
    EXPECT_EQ(c.variant, "own");
    EXPECT_FALSE(c.sweep.empty());
    EXPECT_GT(kl::cli::case_size(c, 1 << 20), 0);
  }
}

namespace {

void int_kernel(kl::kit::Call<Matrix, int>) {}
int declared_command(const kl::cli::ParsedArgs&, std::ostream&) { return 0; }

// A family that states what the defaults do not fit (the shape of the lab's dispatch): an int
// output of two values an element, no inputs, its own flag names, run shape, unit and refused
// shapes, a check of its own instead of oracles, a ceiling variant and a command of its own.
const kl::Family& declared_family() {
  static const kl::Family* f = []() -> const kl::Family* {
    FamilySpec<Matrix, int> s{.name = "kit_declared", .inputs = 0, .bench_shape = {64, 64, {16, 16}}};
    kl::kit::KernelVariant<Matrix, int> map{"map", "a map", int_kernel, nullptr, {8, 0}};
    kl::kit::KernelVariant<Matrix, int> tiled{"tiled", "needs tiles", int_kernel, nullptr, {8, 0}};
    tiled.rule = [](const Matrix& m) { return m.cols % m.block.x == 0 ? std::string() : "blocks must tile the width"; };
    s.variants = {map, tiled};
    s.outputs = [](const Matrix& m) { return 2 * m.rows * m.cols; };
    s.check = [](const Matrix&, const kl::kit::Data<int>&, std::span<const int> got) {
      kl::CaseResult r;
      r.checked = got.size();
      return r;
    };
    s.shape_flags = {{"height", "H", "rows"}, {"width", "W", "cells a row"}, {"block", "BXxBY", "threads"}};
    s.run_shape = Matrix{10, 20, {4, 4}};
    s.unit_shapes = {{3, 5, {4, 4}}, {8, 8, {4, 4}}};
    s.refused_shapes = {{{-1, 8, {4, 4}}, "rows and cols must be >= 0"}};
    s.ceiling_variant = "map";
    s.counted = "cells";
    s.sweep = true;
    s.commands = {{{"declared_command", {}, 0, false, "", "a command of the family\n", kl::cli::Needs::host},
                   declared_command}};
    return &kl::kit::make_family(std::move(s));
  }();
  return *f;
}

}  // namespace

TEST(KitDeclared, OwnFlagNamesShapesAndOutputAsStated) {
  const kl::Family& f = declared_family();
  std::vector<std::string> names;
  for (const kl::cli::FlagSpec& flag : f.run_flags) names.push_back(flag.name);
  // No inputs, no scalar: no --seed (a case does not depend on one).
  EXPECT_EQ(names, (std::vector<std::string>{"height", "width", "block", "reps"}));
  EXPECT_EQ(f.run_flags[0].help, "rows (default 10)");
  EXPECT_EQ(f.run_flags[2].help, "threads (default 4x4)");
  ASSERT_EQ(f.derived.size(), 1u);
  const kl::DerivedChecks& d = f.derived[0];
  EXPECT_EQ(d.named(kl::kit::flags_of(Matrix{3, 5, {4, 4}})),
            (std::vector<std::string>{"--height", "3", "--width", "5", "--block", "4x4"}));
  ASSERT_EQ(d.unit_shapes.size(), 2u);
  EXPECT_EQ(d.unit_shapes[0], d.named(kl::kit::flags_of(Matrix{3, 5, {4, 4}})));
  ASSERT_EQ(d.refused_shapes.size(), 1u);
  const kl::VariantInfo& map = *f.variants[0];
  const kl::VariantInfo& tiled = *f.variants[1];
  EXPECT_EQ(d.rule(map, d.unit_shapes[0]), "");
  EXPECT_EQ(d.rule(tiled, d.unit_shapes[0]), "blocks must tile the width");
  EXPECT_EQ(d.rule(tiled, d.unit_shapes[1]), "");
  // The output, two ints an element, is what the host limit counts.
  EXPECT_EQ(d.rule(map, d.named(kl::kit::flags_of(Matrix{1 << 14, 1 << 15, {16, 16}}))), "");
  EXPECT_NE(d.rule(map, d.named(kl::kit::flags_of(Matrix{1 << 15, 1 << 15, {16, 16}})))
                .find("the output must be at most 2^30 elements, got 2147483648"),
            std::string::npos);
  const auto data_of = [](auto make) { return make("kit_declared", Matrix{3, 5, {4, 4}}, 1); };
  EXPECT_TRUE(data_of(kl::kit::make_data<Matrix, int>).in.empty());
  // Looked up as a family of float output, it is refused naming what it is.
  EXPECT_THROW(data_of(kl::kit::make_data<Matrix, float>), std::invalid_argument);
  ASSERT_EQ(f.commands.size(), 1u);
  EXPECT_EQ(f.commands[0].spec.name, "declared_command");
  // A Matrix sweeps squares; a size the rules refuse (2^30 cells: 2^31 ints) is skipped with the rule.
  ASSERT_TRUE(f.sweep_cases != nullptr);
  int skipped = 0;
  for (const kl::cli::BenchCase& c : f.sweep_cases())
    if (c.variant == "map" && !c.skip_reason.empty()) {
      ++skipped;
      EXPECT_NE(c.skip_reason.find("the output must be at most 2^30"), std::string::npos) << c.key();
    }
  EXPECT_EQ(skipped, 1);
}

// A spec without oracles needs a check of its own.
TEST(KitDeclared, OracleOrFamilyCheck) {
  FamilySpec<Vector, double> s{.name = "kit_unchecked", .inputs = 0, .bench_shape = {1024, 256}};
  s.variants = {{"sum", "a sum", nullptr, nullptr, {8, 1}}};
  s.variants[0].launch = [](const kl::kit::Call<Vector, double>&, cudaStream_t) {};
  try {
    kl::kit::make_family(std::move(s));
    FAIL() << "a family with neither oracles nor a check was made";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sum needs an oracle (or the family a check)"), std::string::npos) << e.what();
  }
}

namespace {

void int_vector_kernel(kl::kit::Call<Vector, int>) {}
void int_vector_oracle(const kl::kit::HostCall<Vector, int>&) {}
void int_matrix_oracle(const kl::kit::HostCall<Matrix, int>&) {}

// A family of two parts (the shape of the lab's basics): a vector part of int with an in-place
// variant over int inputs and an untimed one, and a matrix part with a planted variant.
kl::kit::Joined joined_spec(std::string name) {
  FamilySpec<Vector, int> vectors{.name = name, .inputs = 2, .bench_shape = {1 << 20, 256}};
  vectors.variants = {{"add", "x += y", int_vector_kernel, int_vector_oracle, {12, 1}},
                      {"prints", "printf", int_vector_kernel, int_vector_oracle, {0, 0}}};
  vectors.variants[1].timed = false;
  vectors.variants[1].not_benched = "prints lines";
  vectors.output_from_input = 0;
  vectors.input_range = {-3, 3};
  FamilySpec<Matrix, int> matrices{.name = name, .inputs = 0, .bench_shape = {64, 64, {16, 16}}};
  matrices.variants = {{"fill", "a fill", int_kernel, int_matrix_oracle, {4, 0}},
                       {"broken", "a planted bug", int_kernel, int_matrix_oracle, {4, 0}, kl::Role::planted,
                        {{kl::Checker::canary, "", "", {"--rows", "3"}, name + ".fill"}}}};
  matrices.variants[0].memset_ceiling = true;
  matrices.sweep = true;
  return {name, {&kl::kit::part(vectors), &kl::kit::part(matrices)}, {"fill", "add", "broken", "prints"}};
}

const kl::Family& joined_family() {
  static const kl::Family* f = &kl::kit::make_family(joined_spec("kit_joined"));
  return *f;
}


}  // namespace

// The joined family lists its variants in the order given, takes each variant's own part's flags
// (help lists their union), gives the derived tests a group a part, and benches each variant by
// its part: the untimed one is skipped with its reason, a matrix part's sweep is the family's.
TEST(KitJoined, EachVariantByItsPart) {
  const kl::Family& f = joined_family();
  std::vector<std::string> order;
  for (const kl::VariantInfo* v : f.variants) order.push_back(v->name);
  EXPECT_EQ(order, (std::vector<std::string>{"fill", "add", "broken", "prints"}));
  std::vector<std::string> all, add, fill;
  for (const kl::cli::FlagSpec& flag : f.run_flags) all.push_back(flag.name);
  for (const kl::cli::FlagSpec& flag : f.run_flags_for("add")) add.push_back(flag.name);
  for (const kl::cli::FlagSpec& flag : f.run_flags_for("fill")) fill.push_back(flag.name);
  EXPECT_EQ(all, (std::vector<std::string>{"n", "block", "seed", "reps", "rows", "cols"}));
  EXPECT_EQ(add, (std::vector<std::string>{"n", "block", "seed", "reps"}));
  EXPECT_EQ(fill, (std::vector<std::string>{"rows", "cols", "block", "reps"}));
  EXPECT_TRUE(f.run_takes("add", "seed"));
  EXPECT_FALSE(f.run_takes("fill", "seed"));
  const kl::cli::FlagSpec& block = f.run_flags[1];
  EXPECT_EQ(block.value, "B|BXxBY");
  EXPECT_EQ(block.help, "threads per block (default 256); threads per block, x along a row (default 16x16)");
  // A group a part; a vector variant refuses a matrix's flags by name.
  ASSERT_EQ(f.derived.size(), 2u);
  EXPECT_EQ(f.derived[0].variants, (std::vector<std::string>{"add", "prints"}));
  EXPECT_EQ(f.derived[1].variants, (std::vector<std::string>{"fill", "broken"}));
  EXPECT_EQ(f.derived_for("broken"), &f.derived[1]);
  const kl::VariantInfo& add_info = *f.variants[1];
  EXPECT_EQ(f.derived[0].rule(add_info, kl::kit::flags_of(Vector{10, 32})), "");
  EXPECT_NE(f.derived[0].rule(add_info, kl::kit::flags_of(Matrix{4, 4, {4, 4}})).find("does not apply to kit_joined.add (it takes --block, --n)"),
            std::string::npos);
  const std::vector<kl::cli::BenchCase> cases = f.bench_cases();
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].variant, "fill");
  EXPECT_EQ(cases[1].variant, "add");
  EXPECT_EQ(cases[1].skip_reason, "");
  EXPECT_EQ(cases[3].variant, "prints");
  EXPECT_EQ(cases[3].skip_reason, "prints lines");
  ASSERT_TRUE(f.sweep_cases != nullptr);
  for (const kl::cli::BenchCase& c : f.sweep_cases()) EXPECT_TRUE(c.variant == "fill" || c.variant == "broken") << c.key();
}

// Integer inputs are never 0 and stay in the range; an input of width 3 holds three values an
// element; `untouched` is the guarded output's poison.
TEST(KitJoined, IntInputsWidthAndUntouched) {
  (void)joined_family();
  FamilySpec<Vector> wide{.name = "kit_wide", .inputs = 2, .input_width = 3, .bench_shape = {1 << 10, 256}};
  wide.variants = {{"dot", "float3", vector_kernel, vector_oracle, {28, 5}}};
  static const kl::Family* wide_family = &kl::kit::make_family(std::move(wide));  // (see KL_KIT_FAMILY)
  EXPECT_EQ(wide_family->name, "kit_wide");
  const kl::kit::Data<float> d = kl::kit::make_data("kit_wide", Vector{100, 32}, 1);
  ASSERT_EQ(d.in.size(), 2u);
  EXPECT_EQ(d.in[0].size(), 300u);
  FamilySpec<Vector, int> ints{.name = "kit_ints", .inputs = 1, .bench_shape = {1 << 10, 256}};
  ints.variants = {{"id", "ints", int_vector_kernel, int_vector_oracle, {8, 0}}};
  ints.input_range = {-1, 1};
  static const kl::Family* ints_family = &kl::kit::make_family(std::move(ints));
  EXPECT_EQ(ints_family->name, "kit_ints");
  const std::vector<int> x = kl::kit::make_data<Vector, int>("kit_ints", Vector{5000, 32}, 2).in.at(0);
  EXPECT_TRUE(std::all_of(x.begin(), x.end(), [](int v) { return v == -1 || v == 1; }));
  EXPECT_TRUE(std::any_of(x.begin(), x.end(), [](int v) { return v == -1; }));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(kl::kit::untouched<float>()), kl::GuardPatterns<4>::poison);
  EXPECT_TRUE(kl::GuardedBuffer<int>::is_poison(kl::kit::untouched<int>()));
  EXPECT_TRUE(kl::GuardedBuffer<double>::is_poison(kl::kit::untouched<double>()));
}

TEST(KitJoined, MistakesAreRefusedNamingTheRule) {
  (void)joined_family();
  EXPECT_NE(refusal_of(joined_spec("kit_joined")).find("kit family 'kit_joined' made twice"), std::string::npos);
  kl::kit::Joined misnamed = joined_spec("kit_misnamed");
  misnamed.name = "kit_other";
  EXPECT_NE(refusal_of(misnamed).find("a part is named 'kit_misnamed'"), std::string::npos);
  kl::kit::Joined twice = joined_spec("kit_twice");
  twice.parts.push_back(twice.parts[0]);
  EXPECT_NE(refusal_of(twice).find("variant 'add' in two parts"), std::string::npos);
  kl::kit::Joined short_order = joined_spec("kit_short");
  short_order.order.pop_back();
  EXPECT_NE(refusal_of(short_order).find("order names 3 variants, the parts hold 4"), std::string::npos);
  kl::kit::Joined wrong_order = joined_spec("kit_wrong");
  wrong_order.order[0] = "nope";
  EXPECT_NE(refusal_of(wrong_order).find("order names 'nope', no part's variant"), std::string::npos);
  EXPECT_NE(refusal_of(kl::kit::Joined{"kit_empty", {}, {}}).find("no parts"), std::string::npos);
}

TEST(KitSpec, InPlaceWidthAndUntimedMistakes) {
  auto spec = [](auto&& edit) {
    FamilySpec<Matrix> s = matrix_spec("kit_refused_more");
    edit(s);
    return refusal_of(std::move(s));
  };
  EXPECT_NE(spec([](auto& s) { s.input_width = 0; }).find("input_width must be 1..4, got 0"), std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.output_from_input = 2; }).find("output_from_input must name an input (0..1) or be -1, got 2"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) {
              s.output_from_input = 0;
              s.input_width = 2;
            }).find("output_from_input needs the output the input's size"),
            std::string::npos);
  EXPECT_NE(spec([](auto& s) { s.variants[0].timed = false; }).find("copy: an untimed variant is not benched: say why"),
            std::string::npos);
  FamilySpec<Vector, int> zero{.name = "kit_zero", .inputs = 1, .bench_shape = {1 << 10, 256}};
  zero.variants = {{"id", "ints", int_vector_kernel, int_vector_oracle, {8, 0}}};
  zero.input_range = {-0.5, 0.5};
  EXPECT_NE(refusal_of(std::move(zero)).find("input_range must hold an int other than 0"), std::string::npos);
}
