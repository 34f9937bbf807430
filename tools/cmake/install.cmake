# cmake --install: the runtime, the plugins, the nnrt command, the headers in their tiers, the
# configuration, the docs, a CMake package (find_package(nnrt)) and pkg-config files; cpack -G DEB
# makes a Debian package of the same. The layout is relative (NNRT_BIN_TO_LIB, NNRT_LIB_TO_PLUGINS,
# NNRT_LIB_TO_CONFIG in the top-level CMakeLists.txt): an installed prefix can be moved as a whole.
include(CMakePackageConfigHelpers)

set(NNRT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/nnrt)

# The runtime and the command line.
install(TARGETS neuralnetworks EXPORT nnrtTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS nnrt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The ONNX front end for applications (nnrt::onnx, declared in <nnrt/nnrt.h>).
install(TARGETS nnrt_onnx_shared EXPORT nnrtTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Runtime)

# The plugins, in their own folder (bare `library:` names in runtime.yaml are looked up there).
set(nnrt_plugins nnrt_driver_cpu nnrt_driver_sample_ext)
if(NNRT_BUILD_OPENCL)
  list(APPEND nnrt_plugins nnrt_driver_opencl)
endif()
if(NNRT_CPU_DNNL)
  list(APPEND nnrt_plugins nnrt_cpu_dnnl)  # the cpu driver loads it from beside itself
endif()
install(TARGETS ${nnrt_plugins} LIBRARY DESTINATION ${NNRT_INSTALL_PLUGINDIR})
# The driver host for devices with `isolation: process`: a program only the runtime starts, kept
# with the plugins (config::locateRuntime finds it there).
install(TARGETS nnrt-driver-host RUNTIME DESTINATION ${NNRT_INSTALL_PLUGINDIR})

# Headers in three tiers: the public C API (applications), the driver SDK (plugins), and nothing of
# the runtime's internals. The sample extension's header is for applications using it.
install(DIRECTORY include/android DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/nnrt/nnrt.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nnrt)
install(DIRECTORY include/nnrt/driver DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nnrt
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "src" EXCLUDE)
install(DIRECTORY plugins/sample_ext/include/nnrt_examples DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The driver SDK's operation library, and the targets a vendor's CMake sees.
install(TARGETS nnrt_driver_ops EXPORT nnrtTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
add_library(nnrt_driver_sdk INTERFACE)
target_link_libraries(nnrt_driver_sdk INTERFACE nnrt_driver_ops)
set_target_properties(nnrt_driver_sdk PROPERTIES EXPORT_NAME driver_sdk)
set_target_properties(nnrt_driver_ops PROPERTIES EXPORT_NAME driver_ops)
install(TARGETS nnrt_driver_sdk EXPORT nnrtTargets)
install(EXPORT nnrtTargets NAMESPACE nnrt:: DESTINATION ${NNRT_INSTALL_CMAKEDIR})
configure_package_config_file(tools/cmake/nnrtConfig.cmake.in ${CMAKE_BINARY_DIR}/cmake/nnrtConfig.cmake
                              INSTALL_DESTINATION ${NNRT_INSTALL_CMAKEDIR} PATH_VARS NNRT_INSTALL_PLUGINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/nnrtConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/nnrtConfig.cmake ${CMAKE_BINARY_DIR}/cmake/nnrtConfigVersion.cmake
              tools/cmake/NnrtDriver.cmake tools/cmake/nnrt_driver_exports.map
        DESTINATION ${NNRT_INSTALL_CMAKEDIR})

# pkg-config: neuralnetworks (C applications) and nnrt-driver (plugins), prefix found from the
# file's own place so that the prefix can move.
set(nnrt_pkgconfig_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH nnrt_pc_to_prefix /${nnrt_pkgconfig_dir} /)
string(REGEX REPLACE "/$" "" nnrt_pc_to_prefix "${nnrt_pc_to_prefix}")
set(NNRT_PC_PREFIX "\${pcfiledir}/${nnrt_pc_to_prefix}")
foreach(pc neuralnetworks nnrt-driver)
  configure_file(tools/cmake/${pc}.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${nnrt_pkgconfig_dir})
endforeach()

# Configuration, docs and the examples a vendor or user starts from.
install(FILES configs/runtime.yaml configs/allowlist.txt DESTINATION ${NNRT_INSTALL_CONFDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY examples/out_of_tree_driver examples/c examples/models DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# cpack -G DEB (docs/installing.md): one package, its library dependencies found by dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME nnrt)
set(CPACK_PACKAGE_VENDOR "nnrt")
set(CPACK_PACKAGE_CONTACT "nnrt developers <nnrt@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Android's Neural Networks API (NNAPI) on Linux, with driver plugins")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The plugins are dlopened, so dpkg-shlibdeps sees their libraries only because it scans them too;
# the OpenCL loader needs an implementation to be useful, PoCL on a machine without a GPU.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake, g++, pkg-config")
if(IS_ABSOLUTE "${NNRT_INSTALL_CONFDIR}")
  file(WRITE ${CMAKE_BINARY_DIR}/cpack/conffiles
       "${NNRT_INSTALL_CONFDIR}/runtime.yaml\n${NNRT_INSTALL_CONFDIR}/allowlist.txt\n")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/cpack/conffiles)
endif()
include(CPack)
