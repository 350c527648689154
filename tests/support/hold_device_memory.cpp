// kl_hold_device_memory: runs a command while this process holds all but KEEP_FREE_MIB of the
// GPU's free memory, so the command meets a GPU that has little left (as on a GPU of less memory
// than the H100's). Exit status: the command's; 2 for bad arguments or no GPU.
//
//   kl_hold_device_memory KEEP_FREE_MIB -- COMMAND [ARGS...]
//
// The memory is taken in one allocation where the GPU gives it, else in chunks of 256 MiB until
// taking one more would leave less than KEEP_FREE_MIB; then the command starts (posix_spawnp:
// this process's CUDA context stays here) and the memory stays allocated until it ends.
#include <cuda_runtime_api.h>

#include <spawn.h>
#include <sys/wait.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t chunk_bytes = 256 * mib;

int usage(const char* why) {
  std::fprintf(stderr, "kl_hold_device_memory: %s\nusage: kl_hold_device_memory KEEP_FREE_MIB -- COMMAND [ARGS...]\n",
               why);
  return 2;
}

// The GPU's free memory in bytes; 0 where it cannot be read.
std::size_t free_bytes() {
  std::size_t free = 0, total = 0;
  return cudaMemGetInfo(&free, &total) == cudaSuccess ? free : 0;
}

// Allocates all but `keep_free` of the free memory; returns the allocations (freed at exit).
std::vector<void*> hold_all_but(std::size_t keep_free) {
  const std::size_t free_at_start = free_bytes();
  if (free_at_start > keep_free + chunk_bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, (free_at_start - keep_free) / chunk_bytes * chunk_bytes) == cudaSuccess) return {p};
    (void)cudaGetLastError();
  }
  std::vector<void*> held;
  while (free_bytes() >= keep_free + chunk_bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, chunk_bytes) != cudaSuccess) {
      (void)cudaGetLastError();
      break;
    }
    held.push_back(p);
  }
  return held;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || std::strcmp(argv[2], "--") != 0) return usage("expected KEEP_FREE_MIB -- COMMAND");
  char* end = nullptr;
  const unsigned long long keep_mib = std::strtoull(argv[1], &end, 10);
  if (end == argv[1] || *end != '\0') return usage("KEEP_FREE_MIB is not a whole number");
  if (cudaFree(nullptr) != cudaSuccess) return usage("no usable CUDA GPU");

  const std::vector<void*> held = hold_all_but(static_cast<std::size_t>(keep_mib) * mib);
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) return usage("cudaMemGetInfo failed");
  std::printf("kl_hold_device_memory: holding %zu allocation(s); %zu MiB of %zu free\n", held.size(), free / mib,
              total / mib);
  std::fflush(stdout);

  pid_t child = 0;
  if (posix_spawnp(&child, argv[3], nullptr, nullptr, argv + 3, environ) != 0)
    return usage((std::string("cannot start ") + argv[3]).c_str());
  int status = 0;
  if (waitpid(child, &status, 0) < 0) return usage("waitpid failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
