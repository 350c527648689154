# Dependencies: the system's packages first (Debian: libgtest-dev, librapidcheck-dev, libcli11-dev),
# otherwise a pinned upstream revision fetched once, so a connected fresh machine needs no
# manual install.
include(FetchContent)

set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
FetchContent_Declare(GTest
  URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz
  URL_HASH SHA256=8ad598c73ad796e0d8280b082cebd82a630d73e73cd3c70057938a6501bba5d7
  FIND_PACKAGE_ARGS NAMES GTest)

# RapidCheck publishes no releases: pin a commit of its default branch.
set(RC_ENABLE_GTEST ON CACHE BOOL "" FORCE)
FetchContent_Declare(rapidcheck
  GIT_REPOSITORY https://github.com/emil-e/rapidcheck.git
  GIT_TAG 853e14f0f4313a9eb3c71e24848373e7b843dfd1
  FIND_PACKAGE_ARGS NAMES rapidcheck)

# CLI11 parses kernel-lab's command lines (header-only; Debian: libcli11-dev).
FetchContent_Declare(CLI11
  GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git
  GIT_TAG v2.1.2
  FIND_PACKAGE_ARGS NAMES CLI11)

FetchContent_MakeAvailable(GTest rapidcheck CLI11)

# find_package(GTest) names the target GTest::gtest; the fetched project names it gtest.
foreach(_kl_gtest_target gtest gtest_main)
  if(NOT TARGET GTest::${_kl_gtest_target} AND TARGET ${_kl_gtest_target})
    add_library(GTest::${_kl_gtest_target} ALIAS ${_kl_gtest_target})
  endif()
endforeach()

# A project that adds this tree (add_subdirectory, FetchContent) links the derived tests, which
# name GoogleTest's and RapidCheck's targets from its own directory: imported targets found here
# must be visible there.
if(NOT PROJECT_IS_TOP_LEVEL)
  foreach(_kl_dependency GTest::gtest GTest::gtest_main GTest::GTest GTest::Main rapidcheck rapidcheck_gtest)
    if(TARGET ${_kl_dependency})
      get_target_property(_kl_imported ${_kl_dependency} IMPORTED)
      get_target_property(_kl_aliased ${_kl_dependency} ALIASED_TARGET)
      get_target_property(_kl_global ${_kl_dependency} IMPORTED_GLOBAL)
      if(_kl_imported AND NOT _kl_aliased AND NOT _kl_global)
        set_target_properties(${_kl_dependency} PROPERTIES IMPORTED_GLOBAL TRUE)
      endif()
    endif()
  endforeach()
endif()
