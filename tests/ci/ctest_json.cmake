# Shared by the -P scripts that check what this build registered with ctest (included, not run).

# kl_require_defined(<script> <var>...): each -D<var>=... must be given.
function(kl_require_defined script)
  foreach(var IN LISTS ARGN)
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${script}: -D${var}=... is required")
    endif()
  endforeach()
endfunction()

# kl_registered_tests(<out>): `ctest --show-only=json-v1` of ${BUILD_DIR}, run with ${CTEST}.
function(kl_registered_tests out)
  execute_process(COMMAND ${CTEST} --show-only=json-v1
    WORKING_DIRECTORY ${BUILD_DIR}
    OUTPUT_VARIABLE json RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctest --show-only=json-v1 failed (${rc}): ${err}")
  endif()
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

# kl_test_property(<out> <test-json> <name>): the JSON value of one property of a test, or NOTFOUND.
function(kl_test_property out test name)
  set(value NOTFOUND)
  string(JSON count ERROR_VARIABLE e LENGTH "${test}" properties)
  if(NOT e AND count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(p RANGE ${last})
      string(JSON pname GET "${test}" properties ${p} name)
      if(pname STREQUAL name)
        string(JSON value GET "${test}" properties ${p} value)
        break()
      endif()
    endforeach()
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
