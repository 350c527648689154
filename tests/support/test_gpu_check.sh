#!/usr/bin/env bash
# cmake/KernelLabGpuCheck.cmake: the gpu preset refuses to configure, saying so plainly, without
# an NVIDIA driver, a GPU, a driver as new as the toolkit, or compute-sanitizer; KL_REQUIRE_GPU=OFF
# lets it through; the host preset is never checked. The module runs as a script (cmake -P) under
# fake tools on a PATH of their own, so the result is the same on a machine with a GPU; one real
# configure of the gpu preset shows the project stops there, before anything is registered or built.
# shellcheck source=tests/ci/lib.sh
. "$KL_SOURCE_DIR/tests/ci/lib.sh"
KL_CMAKE=$(command -v "${KL_CMAKE:-cmake}")  # absolute: the checks below run with PATH of fakes alone
module=$KL_SOURCE_DIR/cmake/KernelLabGpuCheck.cmake

# script FILE LINES...: a /bin/sh script (absolute, so it runs with any PATH) of these lines.
script() {
  local file=$1
  shift
  printf '#!/bin/sh\n' >"$file"
  printf '%s\n' "$@" >>"$file"
  chmod +x "$file"
}

# fake_bin DIR FAKE...: a directory to be the whole PATH, holding the named fakes. nvidia-smi,
# no-gpu-smi and old-driver-smi are all installed as nvidia-smi.
fake_bin() {
  local dir=$1
  shift
  mkdir -p "$dir"
  # shellcheck disable=SC2016  # $1 is the fake's own argument, expanded when it runs
  local gpu='[ "$1" = -L ] && { echo "GPU 0: Fake H100 (UUID: GPU-0)"; exit 0; }'
  for fake in "$@"; do
    case $fake in
      nvidia-smi) script "$dir/nvidia-smi" "$gpu" 'echo "| Driver Version: 580.00  CUDA Version: 13.0 |"' ;;
      old-driver-smi) script "$dir/nvidia-smi" "$gpu" 'echo "| Driver Version: 550.00  CUDA Version: 12.4 |"' ;;
      no-gpu-smi) script "$dir/nvidia-smi" 'echo "No devices were found"' 'exit 6' ;;
      compute-sanitizer) script "$dir/compute-sanitizer" 'echo "NVIDIA (R) Compute Sanitizer"' ;;
    esac
  done
}

# check_module PATH_DIR CMAKE_ARGS...: the module as the gpu preset's configure runs it, with
# only PATH_DIR on PATH, no KL_COMPUTE_SANITIZER unless the caller sets it, and a toolkit of CUDA 13.
check_module() {
  local path_dir=$1
  shift
  run_captured env PATH="$path_dir" "$KL_CMAKE" -DKL_PRESET=gpu -DCUDAToolkit_BIN_DIR="$scratch/no-toolkit" \
    -DCUDAToolkit_VERSION_MAJOR=13 "$@" -P "$module"
}
hatch="configure with -DKL_REQUIRE_GPU=OFF"
# The last output on one line: CMake wraps its messages at about 80 columns.
flat() { printf '%s\n' "$out" | tr -s ' \n' ' '; }
unset KL_COMPUTE_SANITIZER

fake_bin "$scratch/empty"
check_module "$scratch/empty"
check "no nvidia-smi: configure fails" test "$status" -ne 0
check "...and says there is no driver or GPU" \
  contains "$out" "kernel-lab gpu preset: no NVIDIA driver / no GPU: nvidia-smi not found"
check "...and how to configure anyway" contains "$(flat)" "$hatch"

fake_bin "$scratch/no-gpu" no-gpu-smi compute-sanitizer
check_module "$scratch/no-gpu"
check "nvidia-smi lists no GPU: configure fails" test "$status" -ne 0
check "...quoting nvidia-smi" \
  contains "$(flat)" "no NVIDIA driver / no GPU: .*-L. lists no GPU \(exit 6: No devices were found\)"

fake_bin "$scratch/old-driver" old-driver-smi compute-sanitizer
check_module "$scratch/old-driver"
check "a driver older than the toolkit: configure fails" test "$status" -ne 0
check "...naming both versions" \
  contains "$(flat)" "driver supports CUDA 12\.4, older than this build's CUDA 13"

fake_bin "$scratch/no-sanitizer" nvidia-smi
check_module "$scratch/no-sanitizer"
check "no compute-sanitizer: configure fails" test "$status" -ne 0
check "...and says so" contains "$out" "kernel-lab gpu preset: compute-sanitizer not found"
check "...and how to configure anyway" contains "$(flat)" "$hatch"

fake_bin "$scratch/gpu-only" nvidia-smi
run_captured env KL_COMPUTE_SANITIZER="$scratch/nonexistent" PATH="$scratch/gpu-only" \
  "$KL_CMAKE" -DKL_PRESET=gpu -DCUDAToolkit_VERSION_MAJOR=13 -P "$module"
check "KL_COMPUTE_SANITIZER naming no file: configure fails" test "$status" -ne 0
check "...naming it" contains "$out" "KL_COMPUTE_SANITIZER=$scratch/nonexistent is not a file"

# The controls: with everything present the same check passes, so the failures above are the
# check's, not the harness's.
fake_bin "$scratch/all" nvidia-smi compute-sanitizer
check_module "$scratch/all"
check "GPU, driver and compute-sanitizer on PATH: configure goes on" equals "$status" 0
check "...naming the GPU" contains "$out" "kernel-lab gpu preset: GPU 0: Fake H100"
fake_bin "$scratch/toolkit" compute-sanitizer
check_module "$scratch/gpu-only" -DCUDAToolkit_BIN_DIR="$scratch/toolkit"
check "compute-sanitizer in the toolkit's bin directory: configure goes on" equals "$status" 0
run_captured env KL_COMPUTE_SANITIZER="$scratch/all/compute-sanitizer" PATH="$scratch/gpu-only" \
  "$KL_CMAKE" -DKL_PRESET=gpu -DCUDAToolkit_VERSION_MAJOR=13 -P "$module"
check "compute-sanitizer from KL_COMPUTE_SANITIZER: configure goes on" equals "$status" 0

check_module "$scratch/empty" -DKL_REQUIRE_GPU=OFF
check "KL_REQUIRE_GPU=OFF: configure goes on without anything" equals "$status" 0
check "...and says the check was skipped" contains "$out" "not checked \(KL_REQUIRE_GPU=OFF\)"
run_captured env PATH="$scratch/empty" "$KL_CMAKE" -DKL_PRESET=host -P "$module"
check "the host preset is never checked" equals "$status/$out" "0/"

# The project really runs the check in its configure, early: the gpu preset with
# a fake nvidia-smi that finds no GPU first on PATH (on a GPU machine too) stops there.
if [ -n "${KL_CUDA_COMPILER:-}" ] && [ -n "${KL_CXX_COMPILER:-}" ]; then
  run_captured env PATH="$scratch/no-gpu:$PATH" "$KL_CMAKE" --preset gpu -S "$KL_SOURCE_DIR" -B "$scratch/build" \
    -DCMAKE_CUDA_COMPILER="$KL_CUDA_COMPILER" -DCMAKE_CXX_COMPILER="$KL_CXX_COMPILER"
  check "cmake --preset gpu without a GPU: configure fails" test "$status" -ne 0
  check "...with the check's message, from the project's CMakeLists.txt" \
    contains "$(flat)" "no NVIDIA driver / no GPU: .* CMakeLists.txt:[0-9]+ \(include\)"
  check "...before any family registers its tests" lacks "$out" "kernel-lab: kl\."
fi

finish
