# cmake/install.cmake - install rules (included when GRIDSYNC_INSTALL is on):
# the libraries, the public headers, the CMake package (find_package) and
# pkg-config files, and the documentation under share/doc/gridsync.
include(CMakePackageConfigHelpers)
set(GS_INSTALL_TARGETS gridsync gridsync_static)
set(GS_PKGCONFIG_FILES gridsync)
if(GS_HAVE_MULTI)
  list(APPEND GS_INSTALL_TARGETS gridsync_multi)
  list(APPEND GS_PKGCONFIG_FILES gridsync_multi)
  install(FILES ${PROJECT_SOURCE_DIR}/include/gridsync_multi.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
install(TARGETS ${GS_INSTALL_TARGETS} EXPORT gridsyncTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/gridsync.h ${PROJECT_SOURCE_DIR}/include/gridsync_tasks.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gridsync DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT gridsyncTargets NAMESPACE gridsync::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gridsync)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gridsyncConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gridsyncConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gridsync)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gridsyncConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gridsyncConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/gridsyncConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gridsync)
get_target_property(_gs_cudart CUDA::cudart IMPORTED_LOCATION)
if(NOT _gs_cudart)
  get_target_property(_gs_cudart CUDA::cudart IMPORTED_LOCATION_RELEASE)
endif()
get_filename_component(GS_CUDA_LIBRARY_DIR "${_gs_cudart}" DIRECTORY)
list(GET CUDAToolkit_INCLUDE_DIRS 0 GS_CUDA_INCLUDE_DIR)
get_filename_component(GS_NCCL_LIBRARY_DIR "${NCCL_LIBRARY}" DIRECTORY)
foreach(pc ${GS_PKGCONFIG_FILES})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# Documentation: README, licence, changelog, and docs/ beside them as in the
# source tree, so that README's links and every docs/*.md the programs name
# (`gridsync help`, the demos) resolve under share/doc/gridsync. The API
# reference when `make docs` built it.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
              ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB _gs_docs ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${_gs_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
if(EXISTS ${PROJECT_SOURCE_DIR}/docs/results)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/results DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
endif()
install(DIRECTORY ${PROJECT_BINARY_DIR}/docs/api DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
