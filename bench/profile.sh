#!/usr/bin/env bash
# profile.sh KERNEL_LAB FAMILY: Nsight Compute on the variants a seed profiled, with the seed's
# metrics, printed as seed 000's comparison table (one column per variant).
#   matmul:    naive vs uncoalesced (seed 000/003's coalescing table), tiled_16 vs tiled_32
#              (seed 003's occupancy table), at 4096^3
#   reduction: the ladder's rungs on 2^28 floats
#   sgemm:     the SGEMM ladder beyond the seeds (tiled_32, rungs 20..29) at 4096^3, with the
#              figures that explain each rung's gain: FMA pipe use, issue slots, shared-memory
#              bank conflicts, registers per thread, stall reasons, DRAM bytes read and the L2
#              hit rate (rung 29's shares walked from their end); rung 28 runs rung 27's kernel
#              at 4096^3, so its column repeats rung 27's
#   tensor:    the tensor-core ladder (rungs 30..37) at 4096^3: tensor pipe use (on the H100 the
#              HMMA pipe counter counts wgmma's work too; ncu 2025 has no separate GMMA one),
#              shared-memory bank conflicts, achieved occupancy, registers per thread, and the
#              bytes through L2 with the SM clock they leave at the power cap (rung 37's gain)
# ncu runs with --clock-control none (the GPU's own boost clock, as the bench times it) on the
# first launch of the variant's kernel in `kernel-lab run ... --reps 1`. Set NCU to pick a
# binary; without ncu the script says so and exits 2.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 KERNEL_LAB matmul|reduction|sgemm|tensor" >&2
  exit 2
fi
kernel_lab=$1 family=$2
ncu=${NCU:-ncu}
if ! command -v "$ncu" >/dev/null 2>&1; then
  for candidate in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
    [ -x "$candidate" ] && ncu=$candidate && break
  done
fi
if ! command -v "$ncu" >/dev/null 2>&1; then
  echo "profile.sh: ncu (Nsight Compute) not found on PATH or in /usr/local/cuda/bin: install Nsight Compute or set NCU=/path/to/ncu" >&2
  exit 2
fi

registry_family=$family
case $family in
  matmul)
    variants=(naive uncoalesced tiled_16 tiled_32)
    run_args=(--m 4096 --n 4096 --k 4096 --reps 1)
    kernels='matmul|matmul_uncoalesced|tiled_matmul'  # never cuBLAS's, nor the B transpose
    ;;
  reduction)
    variants=(block_reduction first_add_during_load unroll_last_warp complete_unrolling grid_stride warp_shuffle)
    run_args=(--n 268435456 --dtype float --reps 1)
    kernels='naiveSum|blockReduction|blkReduct|block_reduction|warpShuffleSum'  # never CUB's
    ;;
  sgemm)
    registry_family=matmul
    variants=(tiled_32 block_tile_1d block_tile_2d vectorized conflict_free warp_tile cp_async_pipeline register_prefetch tuned split_k stream_k)
    run_args=(--m 4096 --n 4096 --k 4096 --reps 1)
    kernels='tiled_matmul|block_tile_1d|block_tile_2d|vectorized|conflict_free|warp_tile|sgemm_pipelined|sgemm_prefetched|sgemm_stream_k'
    ;;
  tensor)
    registry_family=matmul
    variants=(wmma_global wmma_shared mma_sync_pipeline wgmma_tma wgmma_persistent wgmma_tma_store wgmma_stream_k wgmma_multicast)
    run_args=(--m 4096 --n 4096 --k 4096 --reps 1)
    kernels='wmma_global|wmma_shared|mma_sync_pipeline|wgmma_tma|wgmma_persistent|wgmma_tma_store|wgmma_stream_k|wgmma_multicast'  # never GemmEx's, nor the FP16 staging
    ;;
  *)
    echo "profile.sh: no profile for family '$family' (matmul, reduction, sgemm, tensor)" >&2
    exit 2
    ;;
esac

# label|metric: seed 000's table rows.
rows=(
  "Compute (SM) Throughput|sm__throughput.avg.pct_of_peak_sustained_elapsed"
  "Memory Throughput|gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
  "DRAM Throughput|gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"
  "L1/TEX Cache Throughput|l1tex__throughput.avg.pct_of_peak_sustained_active"
  "L2 Cache Throughput|lts__throughput.avg.pct_of_peak_sustained_elapsed"
  "Achieved Occupancy|sm__warps_active.avg.pct_of_peak_sustained_active"
  "Duration|gpu__time_duration.sum"
  "Elapsed Cycles|gpc__cycles_elapsed.max"
  "SM Active Cycles|sm__cycles_active.avg"
  "DRAM Active Cycles (avg)|dram__cycles_active.avg"
)
if [ "$family" = sgemm ]; then
  rows+=(
    "FMA Pipe Active|sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"
    "Issue Slots Busy|sm__inst_issued.avg.pct_of_peak_sustained_active"
    "Shared Load Bank Conflicts|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    "Shared Store Bank Conflicts|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
    "Registers Per Thread|launch__registers_per_thread"
    "Stall: Shared Load Wait (per issue)|smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio"
    "Stall: MIO Throttle (per issue)|smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio"
    "Stall: Barrier (per issue)|smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
    "Stall: Global Load Wait (per issue)|smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"
    "Stall: Not Selected (per issue)|smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio"
    "Stall: Math Pipe Throttle (per issue)|smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio"
    "DRAM Bytes Read|dram__bytes_read.sum"
    "L2 Hit Rate|lts__t_sector_hit_rate.pct"
  )
fi
if [ "$family" = tensor ]; then
  rows+=(
    "Tensor Pipe Active (HMMA: WMMA, mma.sync and wgmma alike)|sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
    "Shared Load Bank Conflicts|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    "Shared Store Bank Conflicts|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
    "Registers Per Thread|launch__registers_per_thread"
    "L2 Bytes|lts__t_bytes.sum"
    "SM Clock|sm__cycles_elapsed.avg.per_second"
  )
fi
metrics=$(printf '%s\n' "${rows[@]}" | cut -d'|' -f2 | paste -sd, -)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Prints "metric<TAB>value<TAB>unit" lines from ncu's --csv --page raw log: a header row naming
# the metrics, a units row, then one row for the profiled kernel.
extract() {
  awk '
    function split_csv(line, out,    n, i, c, field, quoted) {
      n = 0; field = ""; quoted = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "\"") { quoted = !quoted; continue }
        if (c == "," && !quoted) { out[++n] = field; field = ""; continue }
        field = field c
      }
      out[++n] = field
      return n
    }
    /^==/ { next }
    !header && /^"ID"/ { header = split_csv($0, names); next }
    header && !units_seen { units_seen = 1; split_csv($0, units); if (units[1] == "") next }
    header && !done { split_csv($0, values); for (i = 1; i <= header; i++) print names[i] "\t" values[i] "\t" units[i]; done = 1 }
  ' "$1"
}

for v in "${variants[@]}"; do
  echo "profiling $registry_family.$v ..." >&2
  # The function name alone, with or without namespace and template arguments.
  if ! "$ncu" --clock-control none --kernel-name "regex:(^|::)($kernels)(<.*>)?\$" --launch-count 1 --metrics "$metrics" \
       --csv --page raw --log-file "$work/$v.csv" "$kernel_lab" run "$registry_family.$v" "${run_args[@]}" >"$work/$v.out" 2>&1; then
    echo "profile.sh: ncu failed on $registry_family.$v:" >&2
    cat "$work/$v.out" "$work/$v.csv" >&2 || true
    exit 1
  fi
  extract "$work/$v.csv" >"$work/$v.tsv"
  if [ ! -s "$work/$v.tsv" ]; then
    echo "profile.sh: ncu profiled no kernel matching /$kernels/ in $registry_family.$v; its log:" >&2
    cat "$work/$v.csv" >&2
    exit 1
  fi
done

# The comparison table, as seed 000 prints it.
{
  printf '| Metric |'
  for v in "${variants[@]}"; do printf ' %s |' "$v"; done
  printf ' Unit |\n|---|'
  for v in "${variants[@]}"; do printf -- '---|'; done
  printf -- '---|\n'
  for row in "${rows[@]}"; do
    label=${row%%|*} metric=${row#*|}
    printf '| %s |' "$label"
    unit=
    for v in "${variants[@]}"; do
      line=$(awk -F'\t' -v m="$metric" '$1 == m' "$work/$v.tsv")
      printf ' %s |' "$(cut -f2 <<<"$line")"
      [ -n "$unit" ] || unit=$(cut -f3 <<<"$line")
    done
    printf ' %s |\n' "$unit"
  done
}
echo
echo "ncu --clock-control none, first launch of each variant's kernel in: $kernel_lab run $registry_family.<variant> ${run_args[*]}"
