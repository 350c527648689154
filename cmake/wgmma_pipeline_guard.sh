#!/usr/bin/env bash
# The sm_90a rungs' compiler launcher (kernels/matmul/CMakeLists.txt): runs the compile it is
# given and fails it where ptxas reports that it serialised a kernel's wgmma pipeline.
#   wgmma_pipeline_guard.sh COMPILER ARGS...
# ptxas says so as an "info" (C7511: "wgmma.mma_async instructions are serialized due to ..."),
# which no warning flag turns into an error: the results stay right and the wgmmas, whose
# overlap the Hopper rungs' speed rests on, no longer overlap. Nothing but the perf gates on a
# GPU would notice. One known cause: a wgmma whose accumulators are a slice of another shape's
# at any offset but 0 (docs/TENSOR_CORE_LADDER.md, "Rung 38 candidate"). The compiler's own
# output is passed through and its exit status kept; on a serialised pipeline the object is
# removed so the build cannot go on with it.
set -uo pipefail

if [ $# -lt 1 ]; then
  echo "wgmma_pipeline_guard.sh: usage: wgmma_pipeline_guard.sh COMPILER ARGS..." >&2
  exit 2
fi

log=$(mktemp "${TMPDIR:-/tmp}/kl-wgmma-guard.XXXXXX")
trap 'rm -f "$log"' EXIT
"$@" > "$log" 2>&1
status=$?
cat "$log" >&2
[ "$status" -ne 0 ] && exit "$status"

serialised=$(grep -E 'wgmma\.mma_async instructions are serialized' "$log" || true)
[ -z "$serialised" ] && exit 0

# The object this compile wrote (-o FILE, as CMake writes it, or --output-file[=]FILE), and the
# source it compiled (for the message).
object="" source=""
previous=""
for arg in "$@"; do
  case $previous in -o | --output-file) object=$arg ;; esac
  case $arg in
    --output-file=*) object=${arg#--output-file=} ;;
    *.cu) source=$arg ;;
  esac
  previous=$arg
done
[ -n "$object" ] && rm -f "$object"
echo "kernel-lab: ptxas serialised the wgmma pipeline of ${source:-this unit} (an sm_90a rung must keep its" \
  "wgmmas overlapping; docs/TENSOR_CORE_LADDER.md, \"Rung 38 candidate\", names one cause). ptxas said:" >&2
printf '%s\n' "$serialised" | sed 's/^/  /' >&2
exit 1
