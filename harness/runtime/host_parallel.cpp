#include "kl/host_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kl {

unsigned host_threads() {
  if (const char* text = std::getenv("KL_HOST_THREADS"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > 4096)
      throw std::invalid_argument("KL_HOST_THREADS must be a whole number of threads in 1..4096, got '" +
                                  std::string(text) + "'");
    return static_cast<unsigned>(value);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void for_each_chunk(std::size_t n, const std::function<void(std::size_t, std::size_t, std::size_t)>& fn) {
  const std::size_t chunks = chunk_count(n);
  const auto run_chunk = [&](std::size_t c) { fn(c, c * host_chunk, std::min(n, (c + 1) * host_chunk)); };
  const std::size_t threads = std::min<std::size_t>(host_threads(), chunks);
  if (threads <= 1) {
    for (std::size_t c = 0; c < chunks; ++c) run_chunk(c);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto worker = [&] {
    for (std::size_t c = next++; c < chunks; c = next++) {
      try {
        run_chunk(c);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = chunks;  // the others stop at their next chunk
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

std::uint64_t chunk_seed(std::uint64_t seed, std::size_t chunk) {
  if (chunk == 0) return seed;
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(chunk) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void merge_in_order(CaseResult& into, const CaseResult& later) {
  into.checked += later.checked;
  for (const Mismatch& m : later.mismatches)
    if (into.mismatches.size() < max_reported_mismatches) into.mismatches.push_back(m);
  into.mismatch_count += later.mismatch_count;
  GuardReport& g = into.guards;
  const GuardReport& h = later.guards;
  if (g.first_unwritten == GuardReport::none) g.first_unwritten = h.first_unwritten;
  g.unwritten += h.unwritten;
  g.damaged_before += h.damaged_before;
  g.damaged_after += h.damaged_after;
  if (g.first_damaged_after == GuardReport::none) g.first_damaged_after = h.first_damaged_after;
}

}  // namespace kl
