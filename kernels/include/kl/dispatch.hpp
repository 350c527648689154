// Dispatch family: how a 2-D grid of 2-D blocks maps threads onto cells (seeds 000, 003).
#pragma once

#include "kl/case_result.hpp"
#include "kl/dispatch_args.hpp"
#include "kl/geometry.hpp"
#include "kl/registry.hpp"

#include <span>
#include <string>
#include <vector>

namespace kl::dispatch {

struct Variant : kl::Variant<Shape, Args> {};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// Launches `v` into a guarded buffer and checks that the thread-to-cell map is a bijection
// onto the grid: every cell holds its own (col, row), no cell unwritten, no canary touched.
struct CoordsCase {
  CaseResult result;
  std::vector<int> coords;
};
CoordsCase run_case(const Variant& v, const Shape& shape);
// The map every dispatch must produce: cell (col,row) of `coords` (2 * width * height ints,
// row-major) holds (col,row). The CPU reference and the harness's oracle write it.
void expected_coords(std::span<int> coords, const Shape& shape);
// The bijection check alone: cell (col,row) of `coords` holds (col,row).
CaseResult check_coords(const std::vector<int>& coords, const Shape& shape);

// The two ways the seeds print the table: seed 000 as (x,y) = (col,row), seed 003 as (row,col).
enum class Order { col_row, row_col };
std::string format_coords(std::span<const int> coords, int width, int height, Order order);

}  // namespace kl::dispatch
