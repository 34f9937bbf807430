# The build rules every nnrt driver plugin follows (docs/plugin-abi.md): C++20, a module that
# exports exactly one symbol — the entry point nnrt_driver_get_api — and resolves every other
# symbol at link time. Used by nnrt's own plugins and, through find_package(nnrt), by vendors.

# nnrt_driver_build_rules(TARGET VERSION_SCRIPT): applies the rules to an existing MODULE target.
function(nnrt_driver_build_rules target version_script)
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,--version-script=${version_script} -Wl,--no-undefined)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${version_script})
endfunction()
