// docs/KERNELS.md is the lab's catalogue of seed kernels. It is written for people, so this test
// keeps it honest: every registry variant has a row, and every row names a registry variant.
#include "kl/registry.hpp"
#include "regex_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

namespace {

// The `family.variant` ids in the catalogue table's "variant" column (backquoted).
std::set<std::string> catalogue_ids(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::set<std::string> ids;
  const std::string row = R"(^\|[^|]*\|[^|]*\|\s*`([a-z0-9_]+\.[a-z0-9_]+)`\s*\|)";
  for (std::string line; std::getline(file, line);)
    if (const std::vector<std::string> m = kl::test::search(line, row); !m.empty()) ids.insert(m[1]);
  return ids;
}

std::string kernels_md() {
  const char* path = std::getenv("KL_KERNELS_MD");
  return path ? path : "";
}

}  // namespace

TEST(Catalogue, EveryRegistryVariantHasARow) {
  ASSERT_FALSE(kernels_md().empty()) << "KL_KERNELS_MD is not set (run through ctest)";
  const std::set<std::string> rows = catalogue_ids(kernels_md());
  for (const kl::VariantInfo* v : kl::catalogue())
    EXPECT_TRUE(rows.count(v->id())) << v->id() << " is missing from docs/KERNELS.md";
}

TEST(Catalogue, EveryRowNamesAnExistingVariant) {
  ASSERT_FALSE(kernels_md().empty()) << "KL_KERNELS_MD is not set (run through ctest)";
  const std::set<std::string> rows = catalogue_ids(kernels_md());
  ASSERT_FALSE(rows.empty()) << "no catalogue rows parsed from " << kernels_md();
  std::set<std::string> ids;
  for (const kl::VariantInfo* v : kl::catalogue()) ids.insert(v->id());
  for (const std::string& row : rows) EXPECT_TRUE(ids.count(row)) << "docs/KERNELS.md names unknown variant " << row;
}
