# Compile options shared by every kernel-lab target.
#
# -lineinfo keeps optimised code but lets compute-sanitizer and ncu name source lines.
add_library(kl_compile_options INTERFACE)
target_compile_options(kl_compile_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall,-Wextra --Werror=cross-execution-space-call>)
