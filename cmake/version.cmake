# The version lives in one place, the GS_VERSION_MAJOR/MINOR/PATCH defines of
# include/gridsync.h; this reads them into GS_VERSION ("0.1.0") and
# GS_SOVERSION, the shared libraries' SONAME version: 0.MINOR while the major
# version is 0 (a 0.x minor release may break the ABI, so libgridsync.so.0.1
# and libgridsync.so.0.2 are different libraries), MAJOR from 1.0 on.
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../include/gridsync.h" _gs_version_lines
     REGEX "^#define GS_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+ *$")
foreach(_gs_part MAJOR MINOR PATCH)
  set(_gs_${_gs_part} "")
  foreach(_gs_line IN LISTS _gs_version_lines)
    if(_gs_line MATCHES "^#define GS_VERSION_${_gs_part} +([0-9]+)")
      set(_gs_${_gs_part} ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(_gs_${_gs_part} STREQUAL "")
    message(FATAL_ERROR "gridsync: no '#define GS_VERSION_${_gs_part} N' in include/gridsync.h")
  endif()
endforeach()
set(GS_VERSION "${_gs_MAJOR}.${_gs_MINOR}.${_gs_PATCH}")
if(_gs_MAJOR EQUAL 0)
  set(GS_SOVERSION "${_gs_MAJOR}.${_gs_MINOR}")
else()
  set(GS_SOVERSION "${_gs_MAJOR}")
endif()
