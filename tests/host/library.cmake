# Host tests of the library itself. Included from tests/CMakeLists.txt.
#
# Its host code on a stubbed CUDA runtime (host/cuda_stub.c, in place of
# libcudart): the workspace pool, barriers and their watchdog, PDL launches
# (what reaches cuLaunchKernelEx), run on any machine.
add_library(gridsync_stubbed STATIC
  host/cuda_stub.c
  host/cuda_stub_driver.c
  host/cuda_stub_memory.c
  ${PROJECT_SOURCE_DIR}/src/core/error.c
  ${PROJECT_SOURCE_DIR}/src/core/device.c
  ${PROJECT_SOURCE_DIR}/src/core/driver.c
  ${PROJECT_SOURCE_DIR}/src/runtime/timeout.c
  ${PROJECT_SOURCE_DIR}/src/runtime/workspace.c
  ${PROJECT_SOURCE_DIR}/src/runtime/fault_record.c
  ${PROJECT_SOURCE_DIR}/src/runtime/kernel_shape.c
  ${PROJECT_SOURCE_DIR}/src/barrier/barrier.c
  ${PROJECT_SOURCE_DIR}/src/barrier/halo.c
  ${PROJECT_SOURCE_DIR}/src/barrier/launch.c
  ${PROJECT_SOURCE_DIR}/src/barrier/signals.c
  ${PROJECT_SOURCE_DIR}/src/barrier/watchdog.c
  ${PROJECT_SOURCE_DIR}/src/pdl/launch.c)
target_include_directories(gridsync_stubbed PUBLIC ${PROJECT_SOURCE_DIR}/include
                           ${CUDAToolkit_INCLUDE_DIRS} ${CMOCKA_INCLUDE_DIR})
target_link_libraries(gridsync_stubbed PUBLIC Threads::Threads m)
target_compile_options(gridsync_stubbed PRIVATE ${GS_C_WARNINGS})

foreach(name workspace barrier_host watchdog pdl_launch)
  add_executable(test_${name} host/test_${name}.c)
  target_link_libraries(test_${name} PRIVATE gridsync_stubbed ${CMOCKA_LIBRARY})
  target_compile_options(test_${name} PRIVATE ${GS_C_WARNINGS})
  add_test(NAME host_${name} COMMAND test_${name})
  set_tests_properties(host_${name} PROPERTIES LABELS host TIMEOUT 120)
endforeach()

# Its layering: a component includes its own files and the floor's
# (src/core, src/runtime), never another component's.
add_test(NAME host_library_layers
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/host/library_layers.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(host_library_layers PROPERTIES LABELS host)
