# tests/install/tests.cmake - the tests of gridsync as a package and as a
# subproject (included by tests/CMakeLists.txt): the version, the symbols the
# shared libraries export, parent projects that take gridsync with
# add_subdirectory and FetchContent, the API reference.
# (host_install_consumer, in tests/CMakeLists.txt, covers the installed tree.)

# The version in one place: header, library, CMake agree.
add_executable(test_version ${CMAKE_CURRENT_SOURCE_DIR}/install/test_version.c)
target_include_directories(test_version PRIVATE ${CMOCKA_INCLUDE_DIR})
target_link_libraries(test_version PRIVATE gridsync ${CMOCKA_LIBRARY})
target_compile_options(test_version PRIVATE ${GS_C_WARNINGS})
target_compile_definitions(test_version PRIVATE GS_CMAKE_VERSION="${PROJECT_VERSION}")
add_test(NAME host_version COMMAND test_version)
set_tests_properties(host_version PROPERTIES LABELS host)

# Only the public API exported, and the SONAME policy.
set(_gs_export_args $<TARGET_FILE:gridsync>)
if(GS_HAVE_MULTI)
  list(APPEND _gs_export_args $<TARGET_FILE:gridsync_multi>)
endif()
add_test(NAME host_exported_symbols
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install/exported_symbols.sh ${PROJECT_SOURCE_DIR}
                 ${_gs_export_args})
set_tests_properties(host_exported_symbols PROPERTIES LABELS host)

# gridsync inside a parent project: library only, nothing forced on the
# parent, the parent's install works. Each builds the library once (one
# architecture), on two cores.
foreach(mode add_subdirectory fetchcontent)
  add_test(NAME host_subproject_${mode}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/host/install_subproject.sh ${mode}
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CUDA_COMPILER} "${CMAKE_CUDA_ARCHITECTURES}")
  set_tests_properties(host_subproject_${mode} PROPERTIES LABELS host TIMEOUT 1200 PROCESSORS 2)
endforeach()

# The API reference (make docs) builds without warnings and lists the whole
# public API; skipped where doxygen is not installed.
add_test(NAME host_api_docs
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install/api_docs.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(host_api_docs PROPERTIES LABELS host SKIP_RETURN_CODE 77)
