# cmake -DCTEST=<ctest> -DBUILD_DIR=<build> -P this
#
# No registered test may set RC_PARAMS in its ctest environment (ENVIRONMENT or
# ENVIRONMENT_MODIFICATION): that would replace a user's RC_PARAMS="reproduce=...", so the replay
# line a failure prints could not work for that test. A test's RapidCheck defaults go in
# KL_RC_DEFAULTS, under the user's keys (kl::prop::tier_params()).
include(${CMAKE_CURRENT_LIST_DIR}/ctest_json.cmake)
kl_require_defined(check_no_rc_params CTEST BUILD_DIR)
kl_registered_tests(json)

# rc_params_entries(<out> <test-json> <property>): the entries of a list property of the test that
# set or modify RC_PARAMS.
function(rc_params_entries out test property)
  set(found "")
  kl_test_property(values "${test}" ${property})
  if(values)
    string(JSON nvalues LENGTH "${values}")
    if(nvalues GREATER 0)
      math(EXPR lastvalue "${nvalues} - 1")
      foreach(v RANGE ${lastvalue})
        string(JSON entry GET "${values}" ${v})
        if(entry MATCHES "^RC_PARAMS=")
          list(APPEND found "${entry}")
        endif()
      endforeach()
    endif()
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
