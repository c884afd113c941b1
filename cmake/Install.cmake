# Installs the tool, both libraries, the headers, kvcheck.pc and a CMake
# package (find_package(kvcheck CONFIG) gives kvcheck::kvcheck, the shared
# library, and kvcheck::kvcheck_static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KVC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kvcheck)

# The installed tool finds the library relative to itself, wherever the tree lands.
file(RELATIVE_PATH kvc_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(kvcheck_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${kvc_bin_to_lib}")

foreach(lib kvcheck kvcheck_static)
  target_include_directories(${lib} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
# The static library's private dependencies, as the installed package names
# them: kvcheckConfig.cmake finds libcjson and libyaml again on the
# consumer's machine (the build's kvc:: targets do not exist there).
target_link_libraries(kvcheck_static INTERFACE
  $<INSTALL_INTERFACE:$<LINK_ONLY:kvcheck::_cjson>> $<INSTALL_INTERFACE:$<LINK_ONLY:kvcheck::_yaml>>)

install(TARGETS kvcheck_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS kvcheck kvcheck_static EXPORT kvcheckTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/kvcheck.h ${PROJECT_BINARY_DIR}/include/kvcheck_version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT kvcheckTargets NAMESPACE kvcheck:: DESTINATION ${KVC_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kvcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kvcheckConfig.cmake INSTALL_DESTINATION ${KVC_CMAKE_DIR})
# compatible as the SONAME is (CMakeLists.txt): the same minor before 1.0
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(kvc_compatibility SameMinorVersion)
else()
  set(kvc_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kvcheckConfigVersion.cmake
  COMPATIBILITY ${kvc_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/kvcheckConfig.cmake ${PROJECT_BINARY_DIR}/kvcheckConfigVersion.cmake
  DESTINATION ${KVC_CMAKE_DIR})

# kvcheck.pc. Its prefix is the one the tree is installed to, which
# `cmake --install --prefix` may change after configuring: so the file is
# configured twice, here for everything but the prefix, at install time for
# the prefix.
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(KVC_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(KVC_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(KVC_PC_LIBS_PRIVATE "${CMAKE_THREAD_LIBS_INIT}")
foreach(l ${CMAKE_DL_LIBS} m)
  string(APPEND KVC_PC_LIBS_PRIVATE " -l${l}")
endforeach()
string(STRIP "${KVC_PC_LIBS_PRIVATE}" KVC_PC_LIBS_PRIVATE)
set(KVC_PC_PREFIX "@KVC_PC_PREFIX@")
configure_file(${PROJECT_SOURCE_DIR}/cmake/kvcheck.pc.in ${PROJECT_BINARY_DIR}/kvcheck.pc.in @ONLY)
install(CODE "
  set(KVC_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_BINARY_DIR}/kvcheck.pc.in\" \"${PROJECT_BINARY_DIR}/pkgconfig/kvcheck.pc\" @ONLY)")
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/kvcheck.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
