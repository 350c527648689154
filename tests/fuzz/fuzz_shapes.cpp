// Fuzz target: every variant's shape rules (supports()) over arbitrary shapes. A rule may only
// accept or name what is wrong; its size arithmetic must not overflow (UBSan, fatal in the fuzz
// preset). An accepted shape must also keep what every launcher then computes in range.
#include "fuzz_input.hpp"

#include "kl/basics.hpp"
#include "kl/dispatch.hpp"
#include "kl/elementwise.hpp"
#include "kl/matmul.hpp"
#include "kl/quicksort.hpp"
#include "kl/reduction.hpp"
#include "kl/riemann.hpp"
#include "kl/sync.hpp"

#include <climits>

namespace {

using kl::fuzz::ByteReader;

// Integers near the edges the rules guard, or any value: a byte picks which.
template <class T>
T edgy(ByteReader& in) {
  const std::vector<T> edges = {0, 1, 2, 3, 31, 32, 33, 1023, 1024, 1025, 65535, 65536,
                                static_cast<T>(-1), std::numeric_limits<T>::max(), std::numeric_limits<T>::min(),
                                static_cast<T>(std::numeric_limits<T>::max() / 2 + 1)};
  const std::uint8_t how = in.next<std::uint8_t>();
  return how % 2 == 0 ? edges[(how / 2) % edges.size()] : in.next<T>();
}

kl::Dim2 dim2(ByteReader& in) { return {edgy<int>(in), edgy<int>(in)}; }

// Every variant of a table judges the shape; the verdict is a rule or nothing.
template <class Table, class Shape>
void judge(const Table& table, const Shape& shape) {
  for (const auto& v : table) {
    const std::string rule = v.unsupported(shape);
    if (!rule.empty() && rule.size() > 1000) kl::fuzz::finding(v.info.id() + ": a rule of " + std::to_string(rule.size()) + " characters");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in(data, size);
  switch (in.next<std::uint8_t>() % 9) {
    case 0: judge(kl::elementwise::variants(), kl::elementwise::Shape{edgy<std::int64_t>(in), edgy<int>(in)}); break;
    case 1: judge(kl::dispatch::variants(), kl::dispatch::Shape{edgy<int>(in), edgy<int>(in), dim2(in)}); break;
    case 2: judge(kl::sync::variants(), kl::sync::Shape{edgy<int>(in), edgy<int>(in)}); break;
    case 3: {
      const auto dtype = in.next<std::uint8_t>() % 2 == 0 ? kl::reduction::Dtype::i32 : kl::reduction::Dtype::f32;
      judge(kl::reduction::variants(), kl::reduction::Shape{edgy<std::int64_t>(in), edgy<int>(in), dtype});
      break;
    }
    case 4: judge(kl::riemann::variants(), kl::riemann::Shape{edgy<std::int64_t>(in), edgy<int>(in)}); break;
    case 5: {
      const kl::matmul::Shape s{edgy<std::int64_t>(in), edgy<std::int64_t>(in), edgy<std::int64_t>(in),
                                in.next<std::uint8_t>() % 2 == 1};
      judge(kl::matmul::variants(), s);
      break;
    }
    case 6: judge(kl::imatmul::variants(), kl::imatmul::Shape{edgy<std::int64_t>(in)}); break;
    case 7: {
      kl::basics::Shape s;
      s.rows = edgy<int>(in);
      s.cols = edgy<int>(in);
      s.block = dim2(in);
      s.threads = edgy<std::int64_t>(in);
      for (const kl::basics::Variant& v : kl::basics::variants()) {
        if (!v.unsupported(s).empty()) continue;
        // Accepted: what the run prints and sizes from the shape must be computable.
        (void)kl::basics::output_size(v.kernel, s);
      }
      break;
    }
    default: judge(kl::quicksort::variants(), kl::quicksort::Shape{edgy<std::int64_t>(in)}); break;
  }
  return 0;
}
