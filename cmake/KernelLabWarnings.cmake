# Compile options shared by every kernel-lab target, and by a project's own through the package
# (KernelLab::compile_options): the warnings. (C++20 comes with the harness itself: kl_common.)
#
# -lineinfo keeps optimised code but lets compute-sanitizer and ncu name source lines.
# -Wno-missing-field-initializers: declarative tables (a kit family's variants, kit.hpp) leave out
# the members that keep their defaults, which the language value-initialises; GCC 12 warns even
# where the members are named.
add_library(kl_compile_options INTERFACE)
target_compile_options(kl_compile_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall,-Wextra,-Wno-missing-field-initializers --Werror=cross-execution-space-call>)

# The lab's own test and property binaries: their code is test glue (the kernels, oracles and
# generators they call are in the libraries, built at the configuration's level), and at -O1 it
# compiles about 30% faster than at -O2 (prop_elementwise.cpp: 15.7 s against 11.2 s), which the
# CPU-bound gpu build feels. Not part of the installed harness.
add_library(kl_test_code_options INTERFACE)
target_compile_options(kl_test_code_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-O1>)
