// Host loops over large inputs, spread over the CPU's cores: the inputs, oracles and comparisons
// of 2^26..2^28 elements that the bench and the large tests run. The perf tier runs alone on the
// machine, one thread busy and the other cores idle, so these loops were most of its wall time.
//
// Work is cut into fixed chunks of host_chunk elements, whatever the thread count, so a result
// never depends on how many threads ran: a chunk's random inputs come from their own generator
// (chunk_seed), and a comparison's chunks merge in index order (merge_in_order).
#pragma once

#include "kl/case_result.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace kl {

inline constexpr std::size_t host_chunk = std::size_t{1} << 20;

// The threads host loops use: KL_HOST_THREADS when set (a positive integer), else every
// hardware thread. A malformed KL_HOST_THREADS throws std::invalid_argument naming the rule.
unsigned host_threads();

// The number of chunks of [0, n).
inline std::size_t chunk_count(std::size_t n) { return (n + host_chunk - 1) / host_chunk; }

// Calls fn(chunk, begin, end) once for every chunk of [0, n), on up to host_threads() threads
// (on the caller alone when there is one chunk). Chunks must not share mutable state. The first
// exception a chunk throws is rethrown once every thread has finished.
void for_each_chunk(std::size_t n, const std::function<void(std::size_t chunk, std::size_t begin, std::size_t end)>& fn);

// The seed of chunk c's generator: `seed` itself for chunk 0, so an input of at most one chunk is
// what one generator seeded with `seed` draws; a SplitMix64 mix of both for the others.
std::uint64_t chunk_seed(std::uint64_t seed, std::size_t chunk);

// Appends a later chunk's comparison to `into`: counts add up, the first reported mismatches and
// the first unwritten index stay those of the lowest indices.
void merge_in_order(CaseResult& into, const CaseResult& later);

}  // namespace kl

namespace kl {

// Runs check(i, part) for every i in [0, n), chunk by chunk over the threads, each chunk into its
// own CaseResult; the parts then merge into `into` in index order (merge_in_order), so the report
// reads exactly as one sequential pass would have written it.
template <class CheckElement>
void compare_in_chunks(std::size_t n, CaseResult& into, CheckElement check) {
  std::vector<CaseResult> parts(chunk_count(n));
  for_each_chunk(n, [&](std::size_t c, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) check(i, parts[c]);
  });
  for (const CaseResult& part : parts) merge_in_order(into, part);
}

}  // namespace kl
