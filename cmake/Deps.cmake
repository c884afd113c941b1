# Dependencies come from Debian's packages; each missing one names its package.
function(kvc_find_dep target header library package)
  find_path(${target}_INCLUDE ${header})
  find_library(${target}_LIBRARY ${library})
  if(NOT ${target}_INCLUDE OR NOT ${target}_LIBRARY)
    message(FATAL_ERROR
      "kvcheck needs ${library} (${header}), which was not found.\n"
      "Install it with:  sudo apt-get install -y ${package}")
  endif()
  add_library(kvc::${target} UNKNOWN IMPORTED GLOBAL)
  set_target_properties(kvc::${target} PROPERTIES
    IMPORTED_LOCATION "${${target}_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${${target}_INCLUDE}")
endfunction()

kvc_find_dep(cjson cjson/cJSON.h cjson libcjson-dev)
kvc_find_dep(yaml yaml.h yaml libyaml-dev)
if(KVC_TESTS)
  kvc_find_dep(cmocka cmocka.h cmocka libcmocka-dev)
endif()
