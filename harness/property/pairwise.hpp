// Edges in pairs: a variant declares, per dimension of its shape (block, n, offset, ...), the
// edge classes worth telling apart (block 1, one warp, 1024; n = 3, n below one warp, n past one
// grid of resident threads; ...). A strength-2 covering array of those classes has a row for
// every pair of classes of two different dimensions, and the runner checks the property on every
// row, so each pair is drawn in every normal property run; a generator that draws each dimension
// alone almost never draws "block 1 with n = 3" at once. Combinatorial testing's result: most
// interaction faults need only two factors.
//
// Declarations live beside each family's properties (property/<family>/<family>_edges.hpp,
// `edges_for(variant)`); the host test kl.generators.pairwise builds every declaration's array in
// every tier and checks that every declared pair is covered and every drawn value is in its class.
// Host only (no CUDA): the property files are compiled by the host compiler.
#pragma once

#include "generators.hpp"
#include "property.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kl::pairwise {

// Both ends included.
struct Range {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  bool contains(std::int64_t v) const { return v >= lo && v <= hi; }
  friend bool operator==(const Range&, const Range&) = default;
};

struct Dimension;

// The values of one row, by dimension; a computed class sees those of the dimensions before it.
class Values {
 public:
  explicit Values(const std::vector<Dimension>& dims);
  // The value drawn for dimension `name`; throws std::logic_error if there is none (yet).
  std::int64_t operator[](std::string_view name) const;
  // The value of `name`, or `fallback` when the declaration has no such dimension.
  std::int64_t value_or(std::string_view name, std::int64_t fallback) const;
  bool has(std::string_view name) const;
  void set(std::size_t dim, std::int64_t value);
  // "block=1 n=3 output offset=2"
  std::string describe() const;

 private:
  const std::vector<Dimension>* dims_;
  std::vector<std::int64_t> values_;
  std::vector<bool> drawn_;
};

// An edge class: a name (what the table prints) and an inclusive range, fixed or computed from the
// values already drawn for earlier dimensions (a range of blocks that fits what the earlier
// block side leaves). Absolute ranges where they work: they make "n below the block" a pair of
// two classes rather than a rule inside one.
struct EdgeClass {
  std::string name;
  std::function<Range(const Values&)> range;
};

// The class {v}, named by its value.
EdgeClass exactly(std::int64_t v);
// The class [lo, hi], named "lo..hi" (or by the value when lo == hi).
EdgeClass between(std::int64_t lo, std::int64_t hi);
// A class named `name` over [lo, hi].
EdgeClass named(std::string name, std::int64_t lo, std::int64_t hi);
// A class whose range depends on earlier dimensions' values; it must never be empty.
EdgeClass computed(std::string name, std::function<Range(const Values&)> range);

struct Dimension {
  std::string name;
  std::vector<EdgeClass> classes;
};
using Dimensions = std::vector<Dimension>;

// One class index per dimension.
using Row = std::vector<int>;

// A deterministic strength-2 covering array (IPOG: the two largest dimensions in full, then each
// further dimension added to every row by the class covering the most new pairs, the smallest on
// a tie; rows added for the pairs still missing; free entries given the class whose pairs with
// the row's others are held by the fewest rows). Its row count is the product of the two largest class counts, or a
// little more.
std::vector<Row> covering_array(const Dimensions& dims);

// Class `class_a` of dimension `dim_a` with class `class_b` of dimension `dim_b` (dim_a < dim_b).
struct Pair {
  int dim_a = 0, class_a = 0, dim_b = 0, class_b = 0;
  friend bool operator==(const Pair&, const Pair&) = default;
};
// Every pair of classes of two different dimensions, in order.
std::vector<Pair> declared_pairs(const Dimensions& dims);
// The pairs some row holds, and the declared pairs no row holds.
std::vector<Pair> pairs_covered(const Dimensions& dims, const std::vector<Row>& rows);
std::vector<Pair> pairs_missing(const Dimensions& dims, const std::vector<Row>& rows);
// "block=1 x n=4..31"
std::string describe(const Dimensions& dims, const Pair& pair);
// "block=1, n=4..31, output offset=2" (class names)
std::string describe(const Dimensions& dims, const Row& row);

// A value of `range`: its ends (lo, hi) half the time, else uniform over it, at every size
// (RapidCheck's size does not scale it); shrinks toward lo through the values between.
rc::Gen<std::int64_t> value_in(Range range);

// The row's values, dimension by dimension: each class's range (computed ones from the values
// before it) and one value_in() draw through `draw(gen, label)`, labelled "<dim> (<class>)".
// The runner draws with `*gen.as(label)`; the host test with a seeded rc::Random.
template <class Draw>
Values draw_row(const Dimensions& dims, const Row& row, Draw&& draw) {
  Values values(dims);
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const EdgeClass& c = dims[d].classes[static_cast<std::size_t>(row[d])];
    const Range range = c.range(values);
    if (range.hi < range.lo)
      throw std::logic_error("edge class " + dims[d].name + " (" + c.name + ") is empty after " + values.describe());
    values.set(d, draw(value_in(range), dims[d].name + " (" + c.name + ")"));
  }
  return values;
}

// Cases drawn per pair of classes: what the rows actually ran, counted as each case is drawn.
class Coverage {
 public:
  explicit Coverage(const Dimensions& dims);
  void record(const Row& row);
  std::int64_t count(const Pair& pair) const;
  // The declared pairs drawn 0 times.
  std::vector<Pair> never_drawn() const;
  // For each pair of dimensions, a classes-by-classes table of the counts.
  std::string table() const;

 private:
  std::size_t index(const Pair& pair) const;
  const Dimensions* dims_;
  std::vector<std::int64_t> counts_;
  std::vector<std::size_t> offsets_;  // of each dimension pair's table in counts_
};

// Cases per row: 2, or 1 under KL_SANITIZER_SMALL (the sanitizer tier's runs stay small).
int cases_per_row();

// The RapidCheck id of row k: "<prefix>/row<k>".
std::string row_id(const std::string& prefix, std::size_t k);

// The rows to run: all of them, or, when RC_PARAMS carries reproduce= entries (a replay), only
// the rows whose ids it names.
std::vector<std::size_t> rows_to_run(const std::string& prefix, std::size_t rows);
// The same against a given reproduce map (RapidCheck reads RC_PARAMS once, at start).
std::vector<std::size_t> rows_to_run(const std::string& prefix, std::size_t rows,
                                     const std::unordered_map<std::string, rc::detail::Reproduce>& reproduce);
// Whether RC_PARAMS carries any reproduce= entry (then coverage is not checked: rows were left out).
bool replaying();

// The RapidCheck parameters of row k: the tier's, with cases_per_row() cases and a seed of the
// row's own (the run's seed mixed with the row's id), so rows do not repeat each other's draws.
rc::detail::TestParams row_params(const std::string& prefix, std::size_t k);

// The failure message of a row: which row and classes, then RapidCheck's.
std::string row_failure(const std::string& prefix, std::size_t k, const Dimensions& dims, const Row& row,
                        const std::string& rapidcheck_message);

// Runs `property(values)` on every row of covering_array(dims), each row a RapidCheck test of its
// own ("<prefix>/row<k>", cases_per_row() cases, values drawn inside the row's classes), replayed
// through the GoogleTest filter `gtest_filter`. A failing row fails the current test with its
// classes, counterexample and replay lines, and the rows after it still run. Then prints the
// coverage table and fails the test if a declared pair was drawn 0 times (not when replaying).
template <class Property>
void check_every_pair(const std::string& prefix, const std::string& gtest_filter, const Dimensions& dims,
                      Property&& property) {
  if (dims.empty()) {
    ADD_FAILURE() << prefix << ": no edge classes declared, so no pair to draw";
    return;
  }
  const std::vector<Row> rows = covering_array(dims);
  Coverage coverage(dims);
  for (const std::size_t k : rows_to_run(prefix, rows.size())) {
    const Row& row = rows[k];
    const auto row_property = [&] {
      const Values values = draw_row(dims, row, [](const rc::Gen<std::int64_t>& gen, const std::string& label) {
        return *gen.as(label);
      });
      coverage.record(row);
      property(values);
    };
    const std::string failure = prop::failure_of(row_id(prefix, k), gtest_filter, row_property, row_params(prefix, k));
    if (!failure.empty()) ADD_FAILURE() << row_failure(prefix, k, dims, row, failure);
  }
  if (replaying()) {
    std::cout << prefix << ": replayed the rows RC_PARAMS names; coverage not checked\n";
    return;
  }
  std::cout << prefix << ": " << rows.size() << " rows, cases drawn per pair of classes:\n" << coverage.table();
  for (const Pair& pair : coverage.never_drawn())
    ADD_FAILURE() << prefix << ": the pair " << describe(dims, pair) << " was never drawn";
}

// check_every_pair under the current GoogleTest test, one declaration among several the test
// checks (a family's variants): rows "<Suite>/<Name>/<label>/row<k>", filter "Suite.Name".
template <class Property>
void check_every_pair(const std::string& label, const Dimensions& dims, Property&& property) {
  check_every_pair(prop::current_test_id() + "/" + label, prop::current_test_filter(), dims,
                   std::forward<Property>(property));
}

// The lab's classes, shared by the families' declarations (property/<family>/<family>_edges.hpp).

// Element counts from `first` (0 or 1): 0, 1, 2, 3 (below one 16-byte vector), 4..31 (below one
// warp), 32..127, 128..1023 (below the largest block), 1024..4095 (below 4 x 1024), 4096..65535,
// 2^16..2^20 and 2^20+1..max_count() (past one grid of an H100's resident threads: 270k threads x
// 4 elements). Every class is clamped to max_count() and dropped when it starts above it (under
// KL_SANITIZER_SMALL, 5000: the classes stop at 4096..5000).
std::vector<EdgeClass> count_classes(std::int64_t first);

// 1..largest as 1, 2, 3, 4..31, 32, 33..largest-1, largest (those that fit below largest).
std::vector<EdgeClass> ladder_classes(std::int64_t largest);

// 1-D blocks up to `largest`, a rule allowing every block 1..largest: the ladder, read as 1, 2, 3,
// below a warp, a warp, several warps, the largest (1024 for most rules).
std::vector<EdgeClass> any_block_classes(int largest);

// One class per block in `powers` (each power of two is an edge of a tree that halves the block).
std::vector<EdgeClass> power_of_two_block_classes(const std::vector<int>& powers);

// The classes of the blocks `accepts` allows among 1..1024: any_block_classes when it allows every
// block 1..largest, one class per power of two when it allows exactly powers of two; throws
// std::logic_error for any other rule (a declaration must say what it covers).
std::vector<EdgeClass> block_classes(const std::function<bool(int)>& accepts);

// Offsets 0..3 elements past a 16-byte boundary, one class each (a head of 0, 3, 2 or 1 elements).
std::vector<EdgeClass> offset_classes();

// Whether a variant's rule message refuses the block (the launchers' rules all say "block size
// ..."), as opposed to n, or the GPU it runs on.
inline bool refuses_the_block(const std::string& why) { return why.rfind("block size", 0) == 0; }

// Fails the case (never discards it) when a row drew a shape the variant's rule refuses: the
// declaration reaches past the rule.
template <class Variant, class Shape>
void require_declared_shape(const Variant& v, const Shape& shape) {
  if (const std::string why = v.unsupported(shape); !why.empty())
    RC_FAIL("the declaration drew a shape " + v.info.id() + " refuses: " + why);
}

// A 1-D variant's "block" dimension, added to `dims` unless its rule takes any block, even 0 (a
// host reference or a library that picks its own launch). `rule(block)` is the rule's message
// for one element in blocks of that size ("" when it takes the shape).
inline void add_block_dimension(Dimensions& dims, const std::function<std::string(int)>& rule) {
  if (rule(0).empty()) return;
  dims.push_back({"block", block_classes([&](int block) { return !refuses_the_block(rule(block)); })});
}

}  // namespace kl::pairwise
