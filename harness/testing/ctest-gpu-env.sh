#!/bin/sh
# ci/ctest-gpu-env.sh COMMAND [ARG...]
#
# Put in front of every GPU test's command (kl_add_gpu_test, kl_add_planted_finding and
# KL_GPU_LAUNCHER in cmake/KernelLabTesting.cmake). When ctest runs with a resource spec file
# (ci/resource-spec.sh), it hands each test the GPUs it allocated as
#   CTEST_RESOURCE_GROUP_COUNT=1  CTEST_RESOURCE_GROUP_0=gpus  CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1
# and this maps them to CUDA_VISIBLE_DEVICES, so the test (and any child it starts, such as
# compute-sanitizer and its target) sees only its own GPU. The ids are nvidia-smi indices, so
# CUDA_DEVICE_ORDER=PCI_BUS_ID makes the CUDA runtime number the GPUs the way nvidia-smi does.
#
# Without a resource spec file ctest allocates nothing and sets none of these variables: the
# environment is then left exactly as it is, so plain `ctest --preset gpu` keeps working on one
# GPU. One line on stderr names the GPU a test got, for reading the ctest log.
set -eu
set -f  # the allocation strings are split on ';' and ',' below: never glob them

if [ "$#" -eq 0 ]; then
  echo "usage: ci/ctest-gpu-env.sh COMMAND [ARG...]" >&2
  exit 2
fi

if [ -z "${CTEST_RESOURCE_GROUP_COUNT+set}" ]; then
  exec "$@"
fi

fail() {
  echo "kl-gpu: $*" >&2
  exit 2
}

count=$CTEST_RESOURCE_GROUP_COUNT
case $count in
  '' | *[!0-9]*) fail "CTEST_RESOURCE_GROUP_COUNT='$count' is not a number" ;;
esac
# A test asks ctest for a group or a few; a count of thousands is no allocation ctest made (and
# one past the shell's integers would not even compare).
case $count in
  ???*) fail "CTEST_RESOURCE_GROUP_COUNT='$count' is more resource groups than a test asks for (at most 99)" ;;
esac

ids=''
allocations=''
i=0
while [ "$i" -lt "$count" ]; do
  gpus=''
  eval "gpus=\${CTEST_RESOURCE_GROUP_${i}_GPUS-}"
  # One entry per GPU of this group, "id:<id>,slots:<n>", entries separated by ';'.
  old_ifs=$IFS
  IFS=';'
  for entry in $gpus; do
    case $entry in
      id:*,slots:*) ;;
      *) IFS=$old_ifs; fail "cannot read CTEST_RESOURCE_GROUP_${i}_GPUS='$gpus'" ;;
    esac
    id=${entry#id:}
    id=${id%%,*}
    case $id in
      '' | *[!0-9]*) IFS=$old_ifs; fail "GPU id '$id' in CTEST_RESOURCE_GROUP_${i}_GPUS is not an nvidia-smi index" ;;
    esac
    case ",$ids," in
      *",$id,"*) ;;
      *) ids=${ids:+$ids,}$id ;;
    esac
    allocations="${allocations:+$allocations; }$entry"
  done
  IFS=$old_ifs
  i=$((i + 1))
done

name=${KL_CTEST_NAME:+$KL_CTEST_NAME: }
if [ -z "$ids" ]; then
  echo "kl-gpu: ${name}ctest allocated no gpus to this test; CUDA_VISIBLE_DEVICES left as it was" >&2
  exec "$@"
fi

CUDA_VISIBLE_DEVICES=$ids
CUDA_DEVICE_ORDER=PCI_BUS_ID
export CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER
echo "kl-gpu: ${name}CUDA_VISIBLE_DEVICES=$ids (ctest resource group gpus $allocations)" >&2
exec "$@"
