// Checked runs and printing for the dispatch family.
#include "kl/dispatch.hpp"

#include <sstream>

namespace kl::dispatch {

CoordsCase run_case(const Variant& v, const Shape& shape) {
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(v.info.id() + ": " + rule);
  GuardedBuffer<int> out(2 * static_cast<std::size_t>(shape.width) * shape.height);
  out.poison();
  v.launch({out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CoordsCase c;
  c.coords = out.download();
  c.result = check_coords(c.coords, shape);
  c.result.guards = out.inspect();
  return c;
}

void expected_coords(std::span<int> coords, const Shape& shape) {
  if (coords.size() != 2 * static_cast<std::size_t>(shape.width) * shape.height)
    throw std::invalid_argument("expected_coords: expected 2*width*height values");
  for (int row = 0; row < shape.height; ++row)
    for (int col = 0; col < shape.width; ++col) {
      const std::size_t idx = static_cast<std::size_t>(row) * shape.width + col;
      coords[2 * idx] = col;
      coords[2 * idx + 1] = row;
    }
}

CaseResult check_coords(const std::vector<int>& coords, const Shape& shape) {
  // Bijection onto the grid: each cell holds exactly its own coordinates.
  CaseResult r;
  for (int row = 0; row < shape.height; ++row)
    for (int col = 0; col < shape.width; ++col) {
      const std::size_t idx = static_cast<std::size_t>(row) * shape.width + col;
      ++r.checked;
      if (coords[2 * idx] != col)
        r.add_mismatch({2 * idx, static_cast<double>(coords[2 * idx]), static_cast<double>(col), 0});
      else if (coords[2 * idx + 1] != row)
        r.add_mismatch({2 * idx + 1, static_cast<double>(coords[2 * idx + 1]), static_cast<double>(row), 0});
    }
  return r;
}

std::string format_coords(std::span<const int> coords, int width, int height, Order order) {
  if (coords.size() != 2 * static_cast<std::size_t>(width) * height)
    throw std::invalid_argument("format_coords: expected 2*width*height values");
  std::ostringstream os;
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      const std::size_t idx = static_cast<std::size_t>(row) * width + col;
      const int x = coords[2 * idx], y = coords[2 * idx + 1];
      os << (col ? " " : "") << '(' << (order == Order::col_row ? x : y) << ','
         << (order == Order::col_row ? y : x) << ')';
    }
    os << '\n';
  }
  return os.str();
}

}  // namespace kl::dispatch
