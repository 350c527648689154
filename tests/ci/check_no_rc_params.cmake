# cmake -DCTEST=<ctest> -DBUILD_DIR=<build> -P this
#
# No registered test may set RC_PARAMS in its ctest environment (ENVIRONMENT or
# ENVIRONMENT_MODIFICATION): that would replace a user's RC_PARAMS="reproduce=...", so the replay
# line a failure prints could not work for that test. A test's RapidCheck defaults go in
# KL_RC_DEFAULTS, under the user's keys (kl::prop::tier_params()).
foreach(var CTEST BUILD_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_no_rc_params: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${CTEST} --show-only=json-v1
  WORKING_DIRECTORY ${BUILD_DIR}
  OUTPUT_VARIABLE json RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctest --show-only=json-v1 failed (${rc}): ${err}")
endif()

# rc_params_entries(<out> <test-json> <property>): the entries of a list property of the test that
# set or modify RC_PARAMS.
function(rc_params_entries out test property)
  set(found "")
  string(JSON nprops ERROR_VARIABLE e LENGTH "${test}" properties)
  if(NOT e AND nprops GREATER 0)
    math(EXPR lastprop "${nprops} - 1")
    foreach(p RANGE ${lastprop})
      string(JSON pname GET "${test}" properties ${p} name)
      if(NOT pname STREQUAL property)
        continue()
      endif()
      string(JSON nvalues LENGTH "${test}" properties ${p} value)
      if(nvalues GREATER 0)
        math(EXPR lastvalue "${nvalues} - 1")
        foreach(v RANGE ${lastvalue})
          string(JSON entry GET "${test}" properties ${p} value ${v})
          if(entry MATCHES "^RC_PARAMS=")
            list(APPEND found "${entry}")
          endif()
        endforeach()
      endif()
    endforeach()
  endif()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(problems "")
string(JSON ntests LENGTH "${json}" tests)
if(ntests EQUAL 0)
  message(FATAL_ERROR "no test registered in ${BUILD_DIR}: nothing was checked")
endif()
math(EXPR last "${ntests} - 1")
foreach(i RANGE ${last})
  string(JSON test GET "${json}" tests ${i})
  string(JSON name GET "${test}" name)
  foreach(property ENVIRONMENT ENVIRONMENT_MODIFICATION)
    rc_params_entries(entries "${test}" ${property})
    foreach(entry IN LISTS entries)
      list(APPEND problems "${name}: ${property} ${entry}")
    endforeach()
  endforeach()
endforeach()

if(problems)
  list(LENGTH problems n)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${n} test(s) set RC_PARAMS, which replaces the user's (use KL_RC_DEFAULTS):\n  ${text}")
endif()
message(STATUS "${ntests} tests, none sets RC_PARAMS in its ctest environment")
