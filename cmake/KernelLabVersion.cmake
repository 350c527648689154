# Script mode (cmake -P): writes OUTPUT, the version and git commit `kernel-lab --version` prints,
# only when they changed, so an unchanged commit rebuilds nothing. Inputs: -DSOURCE_DIR=
# -DOUTPUT= -DVERSION=. Without git (a source tarball) the commit is "unknown".
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE head_rc ERROR_QUIET)
  if(head_rc EQUAL 0)
    set(commit "${head}")
    # Tracked files that differ from HEAD: the binary is not exactly that commit.
    execute_process(COMMAND ${GIT_EXECUTABLE} diff --quiet HEAD -- WORKING_DIRECTORY ${SOURCE_DIR}
                    RESULT_VARIABLE dirty_rc ERROR_QUIET)
    if(NOT dirty_rc EQUAL 0)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
set(text "constexpr const char* kl_build_version = \"${VERSION}\";\nconstexpr const char* kl_build_commit = \"${commit}\";\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUTPUT}" "${text}")
endif()
