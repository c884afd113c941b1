# One warning set, for C only (nvcc never sees these flags).
set(KVC_C_WARNINGS
  -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wvla -Wformat=2 -Wcast-qual -Wundef)

function(kvc_warnings target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:${KVC_C_WARNINGS}>)
  if(KVC_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Werror>)
  endif()
endfunction()
