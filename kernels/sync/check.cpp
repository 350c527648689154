// Checked runs of the sync family under the watchdog.
#include "kl/sync.hpp"

#include "kl/timing.hpp"

#include <algorithm>

namespace kl::sync {

SyncCase run_case(const Variant& v, const Shape& shape, double budget_ms) {
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(v.info.id() + ": " + rule);
  GuardedBuffer<int> out(static_cast<std::size_t>(shape.blocks));
  out.poison();
  // Grid barriers count arrivals (and keep their slots) there; block kernels count each block's threads.
  DeviceBuffer<unsigned> arrived(scratch_words(shape));
  KL_CUDA_CHECK(cudaMemset(arrived.data(), 0, arrived.bytes()));
  Watchdog watchdog(budget_ms);

  SyncCase c;
  EventPair events;
  events.start(nullptr);
  v.launch({out.data(), arrived.data(), watchdog.view(), shape});
  events.stop(nullptr);
  c.elapsed_ms = events.elapsed_ms();
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  c.tripped = watchdog.tripped();

  c.result.guards = out.inspect();
  const std::vector<int> got = out.download();
  const int want = expected_per_block(v.kind, shape);
  c.result.checked = got.size();
  for (std::size_t b = 0; b < got.size(); ++b)
    if (got[b] != want) c.result.add_mismatch({b, static_cast<double>(got[b]), static_cast<double>(want), 0});
  return c;
}

}  // namespace kl::sync
