// Dispatch family: what a launcher takes (the rest of the family is in kl/dispatch.hpp). Only cheap
// headers here: every kernel's .cu file includes it, and nvcc parses each header twice per file.
#pragma once

#include "kl/grid.hpp"

namespace kl::dispatch {

struct Shape {
  int width = 0;   // columns (x)
  int height = 0;  // rows (y)
  Dim2 block;
};

struct Args {
  int* coords = nullptr;  // 2 * width * height ints: (col, row) per cell, row-major
  Shape shape;
};

}  // namespace kl::dispatch
