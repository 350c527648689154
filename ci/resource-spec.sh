#!/bin/sh
# ci/resource-spec.sh [--slots S | --build-dir DIR] [OUTPUT]
#
# Writes the CTest resource spec (JSON, version 1.0) for this machine's GPUs to OUTPUT (stdout
# without one): one "gpus" resource per GPU that nvidia-smi lists, id = its nvidia-smi index,
# with S slots each. With it, `ctest --resource-spec-file OUTPUT -j N` spreads the GPU tests
# over every GPU:
#   - an ordinary GPU test takes RESOURCE_GROUPS "gpus:1": up to S of them share a GPU;
#   - a perf test takes "gpus:S", every slot of one GPU, so nothing else runs on it.
# harness/testing/ctest-gpu-env.sh turns the allocation into CUDA_VISIBLE_DEVICES.
#
# S must be the KL_CTEST_GPU_SLOTS that the build's RESOURCE_GROUPS were configured with, or a
# whole-GPU test either leaves room beside it (S larger) or never fits (S smaller): --build-dir
# reads it from DIR/CMakeCache.txt. --slots sets it directly.
#
# If CUDA_VISIBLE_DEVICES is set on entry, only the GPUs it names (nvidia-smi indices) are
# listed, so a machine can lend CI a subset of its GPUs.
set -eu

usage() {
  echo "usage: ci/resource-spec.sh [--slots S | --build-dir DIR] [OUTPUT]" >&2
  exit 2
}

slots=''
build_dir=''
output=''
while [ "$#" -gt 0 ]; do
  case $1 in
    --slots) [ "$#" -ge 2 ] || usage; slots=$2; shift 2 ;;
    --build-dir) [ "$#" -ge 2 ] || usage; build_dir=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "ci/resource-spec.sh: unknown option '$1'" >&2; usage ;;
    *) [ -z "$output" ] || usage; output=$1; shift ;;
  esac
done

if [ -n "$build_dir" ]; then
  [ -z "$slots" ] || { echo "ci/resource-spec.sh: give --slots or --build-dir, not both" >&2; exit 2; }
  cache=$build_dir/CMakeCache.txt
  [ -f "$cache" ] || { echo "ci/resource-spec.sh: $cache not found: configure the build first" >&2; exit 2; }
  slots=$(sed -n 's/^KL_CTEST_GPU_SLOTS:[A-Z]*=//p' "$cache")
  [ -n "$slots" ] || { echo "ci/resource-spec.sh: $cache has no KL_CTEST_GPU_SLOTS" >&2; exit 2; }
fi
[ -n "$slots" ] || usage
# Digits without a leading zero (JSON has none: "slots": 007 is not a number there), at most 4.
case $slots in
  '' | *[!0-9]* | 0*) echo "ci/resource-spec.sh: slots per GPU must be a positive integer, got '$slots'" >&2; exit 2 ;;
  ?????*) echo "ci/resource-spec.sh: slots per GPU must be at most 9999, got '$slots'" >&2; exit 2 ;;
esac

if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "ci/resource-spec.sh: nvidia-smi not found: no NVIDIA driver on this machine, so no GPU to list" >&2
  exit 1
fi
if ! listed=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>&1); then
  echo "ci/resource-spec.sh: nvidia-smi failed: $listed" >&2
  exit 1
fi
listed=$(printf '%s\n' "$listed" | tr -d ' \r')

# Keep the GPUs that CUDA_VISIBLE_DEVICES admits (all of them when it is unset).
wanted=''
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  wanted=,$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr -d ' '),
  case $wanted in
    *[!0-9,]*)
      echo "ci/resource-spec.sh: CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' must list nvidia-smi indices (e.g. 0,2), not UUIDs" >&2
      exit 2 ;;
  esac
fi

ids=''
count=0
csv=''
for index in $listed; do
  case $index in
    '' | *[!0-9]*) echo "ci/resource-spec.sh: nvidia-smi printed '$index' where a GPU index was expected" >&2; exit 1 ;;
  esac
  if [ -n "$wanted" ]; then
    case $wanted in *",$index,"*) ;; *) continue ;; esac
  fi
  ids="$ids $index"
  count=$((count + 1))
  csv=${csv:+$csv,}$index
done
if [ -z "$ids" ]; then
  echo "ci/resource-spec.sh: no GPU to list (nvidia-smi: '$(printf '%s' "$listed" | tr '\n' ' ')', CUDA_VISIBLE_DEVICES: '${CUDA_VISIBLE_DEVICES-unset}')" >&2
  exit 1
fi

spec() {
  printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [\n'
  sep=''
  for id in $ids; do
    printf '%s        {"id": "%s", "slots": %s}' "$sep" "$id" "$slots"
    sep=',
'
  done
  printf '\n      ]\n    }\n  ]\n}\n'
}

if [ -n "$output" ]; then
  spec >"$output"
  echo "ci/resource-spec.sh: $output: $count GPU(s) [$csv], $slots slots each" >&2
else
  spec
fi
