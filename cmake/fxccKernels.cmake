# fxccKernels.cmake - fxcc_add_kernels(): compile .fx files with fxcc at
# build time. Loaded by fxccConfig.cmake; docs/cmake.md is the reference.
#
#   fxcc_add_kernels(<target> SOURCES a.fx b.fx...
#                    [ARCHS gfx942 gfx1100 host...] [FLAGS -O2 -I dir -D N=1...]
#                    [BUNDLE] [OUTPUT_DIRECTORY dir])
#
# One custom command per source and architecture (or per source with
# BUNDLE), each with fxcc's dependency file as its DEPFILE, so that editing
# an imported .fx rebuilds exactly the outputs whose sources import it.
include_guard(GLOBAL)

# The fxcc that the package was found with; fxcc_FXCC_EXECUTABLE, where it
# is visible at the call, takes precedence (a function sees its caller's
# variables, not those of the find_package call's scope).
set_property(GLOBAL PROPERTY _FXCC_DEFAULT_EXECUTABLE "${fxcc_FXCC_EXECUTABLE}")

# A function runs with the policies in effect where it was defined: those
# of CMake 3.20, whatever the calling project's cmake_minimum_required says.
# Among them CMP0116: the Ninja generators read the paths of a DEPFILE as
# the Makefile generators do (fxcc writes absolute ones, so either reading
# works, but the old one warns).
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# The custom command for one output of fxcc_add_kernels: a macro, so that it
# works on the function's variables (_src, _shown, _fxcc, _fxk_FLAGS,
# _outputs, _all_outputs). out: the output; what: the architectures, for
# the progress line; the rest: fxcc's options for the target.
macro(_fxcc_kernel_command out what)
  # Two calls (or two sources of one name) writing one file would
  # overwrite each other's output at build time.
  if("${out}" IN_LIST _all_outputs)
    message(FATAL_ERROR "fxcc_add_kernels(${target}): ${out} is already an output of fxcc_add_kernels "
      "(this source or one of the same name, for the same architecture): use OUTPUT_DIRECTORY to separate them")
  endif()
  list(APPEND _all_outputs "${out}")
  list(APPEND _outputs "${out}")
  # The command runs in the calling CMakeLists.txt's directory, so a
  # relative -I in FLAGS means what a relative source does. fxcc names the
  # source and its imports in the dependency file by absolute paths (the
  # source is given absolute), and the output as -o names it.
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${_fxcc}" ${_fxk_FLAGS} "${_src}" ${ARGN} -MD -MF "${out}.d" -o "${out}"
    DEPENDS "${_src}" "${_fxcc}"
    DEPFILE "${out}.d"
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    COMMENT "fxcc ${_shown} for ${what}"
    VERBATIM)
endmacro()

function(fxcc_add_kernels target)
  set(_usage "fxcc_add_kernels(<target> SOURCES file.fx... [ARCHS arch...] [FLAGS flag...] [BUNDLE] [OUTPUT_DIRECTORY dir])")
  set(_keywords "SOURCES, ARCHS, FLAGS, BUNDLE, OUTPUT_DIRECTORY")
  cmake_parse_arguments(PARSE_ARGV 1 _fxk "BUNDLE" "OUTPUT_DIRECTORY" "SOURCES;ARCHS;FLAGS")

  # --- The call's arguments --------------------------------------------
  if(_fxk_UNPARSED_ARGUMENTS)
    list(JOIN _fxk_UNPARSED_ARGUMENTS " " _bad)
    message(FATAL_ERROR "fxcc_add_kernels(${target}): unknown argument(s) '${_bad}'; usage: ${_usage}")
  endif()
  foreach(_kw IN ITEMS SOURCES ARCHS OUTPUT_DIRECTORY)
    if(_kw IN_LIST _fxk_KEYWORDS_MISSING_VALUES)
      message(FATAL_ERROR "fxcc_add_kernels(${target}): ${_kw} needs a value; usage: ${_usage}")
    endif()
  endforeach()
  if(NOT _fxk_SOURCES)
    message(FATAL_ERROR "fxcc_add_kernels(${target}): no SOURCES; usage: ${_usage}")
  endif()
  # A misspelt keyword after a list keyword lands in that list
  # (SOURCES a.fx ARCH gfx942 makes "ARCH" a source): an upper-case word
  # that names no file is taken for one.
  foreach(_s IN LISTS _fxk_SOURCES)
    if(_s MATCHES "^[A-Z][A-Z_]*$" AND NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${_s}")
      message(FATAL_ERROR "fxcc_add_kernels(${target}): unknown keyword ${_s} (the keywords are ${_keywords}); usage: ${_usage}")
    endif()
  endforeach()

  # ARCHS defaults to what a HIP project compiles for.
  if(_fxk_ARCHS)
    set(_archs ${_fxk_ARCHS})
  elseif(CMAKE_HIP_ARCHITECTURES)
    set(_archs ${CMAKE_HIP_ARCHITECTURES})
  else()
    message(FATAL_ERROR "fxcc_add_kernels(${target}): no ARCHS, and CMAKE_HIP_ARCHITECTURES is not set: "
      "name the processors, e.g. ARCHS gfx942 gfx1100 (host: code libfxrt runs on the CPU)")
  endif()
  list(REMOVE_DUPLICATES _archs)
  # gfx names with optional target features (gfx90a:xnack+), or host.
  set(_gpu_archs "")
  set(_host FALSE)
  foreach(_a IN LISTS _archs)
    if(_a STREQUAL "host")
      set(_host TRUE)
    elseif(_a MATCHES "^gfx[0-9a-z-]+(:[a-z]+[+-])*$")
      list(APPEND _gpu_archs "${_a}")
    elseif(_a MATCHES "^[A-Z][A-Z_]*$")
      message(FATAL_ERROR "fxcc_add_kernels(${target}): unknown keyword ${_a} (the keywords are ${_keywords}); usage: ${_usage}")
    else()
      message(FATAL_ERROR "fxcc_add_kernels(${target}): '${_a}' is no architecture: "
        "ARCHS takes AMDGPU processors (gfx942, gfx90a:xnack+) and host")
    endif()
  endforeach()

  # FLAGS go to fxcc as they are, but the function chooses the output, the
  # target and the dependency file itself.
  set(_prev "")
  foreach(_f IN LISTS _fxk_FLAGS)
    if(_f MATCHES "^(-o.*|-M.*|-S|-c|--emit-llvm|--target(=.*)?|--offload-arch(=.*)?|-x.*|-)$")
      message(FATAL_ERROR "fxcc_add_kernels(${target}): FLAGS: ${_f} is fxcc_add_kernels' own option "
        "(ARCHS chooses processors and host, BUNDLE one file per source, OUTPUT_DIRECTORY where they go)")
    endif()
    if(_f MATCHES "^[A-Z][A-Z_]*$" AND NOT _prev MATCHES "^-[DI]$")
      message(FATAL_ERROR "fxcc_add_kernels(${target}): unknown keyword ${_f} (the keywords are ${_keywords}); usage: ${_usage}")
    endif()
    set(_prev "${_f}")
  endforeach()

  # The target: outputs can only be attached to a target of this project.
  if(TARGET "${target}")
    get_target_property(_aliased "${target}" ALIASED_TARGET)
    get_target_property(_imported "${target}" IMPORTED)
    if(_aliased OR _imported)
      message(FATAL_ERROR "fxcc_add_kernels(${target}): ${target} is an alias or imported target; "
        "name a target of this project or a new one")
    endif()
  endif()

  set(_fxcc "${fxcc_FXCC_EXECUTABLE}")
  if(NOT _fxcc)
    get_property(_fxcc GLOBAL PROPERTY _FXCC_DEFAULT_EXECUTABLE)
  endif()
  if(NOT _fxcc)
    message(FATAL_ERROR "fxcc_add_kernels(${target}): no fxcc: call find_package(fxcc) first")
  endif()

  if(_fxk_OUTPUT_DIRECTORY)
    get_filename_component(_outdir "${_fxk_OUTPUT_DIRECTORY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(_outdir "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  file(MAKE_DIRECTORY "${_outdir}")   # fxcc does not make directories

  # --- One command per output ---------------------------------------------
  set(_outputs "")
  set(_sources "")
  get_property(_all_outputs GLOBAL PROPERTY _FXCC_OUTPUTS)
  foreach(_s IN LISTS _fxk_SOURCES)
    get_filename_component(_src "${_s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_stem "${_src}" NAME_WLE)
    list(APPEND _sources "${_src}")
    # The build's progress names the source relative to the project.
    file(RELATIVE_PATH _shown "${CMAKE_SOURCE_DIR}" "${_src}")
    if(_shown MATCHES "^\\.\\./")
      set(_shown "${_src}")
    endif()

    if(_fxk_BUNDLE AND _gpu_archs)
      # One offload bundle holding a code object per processor.
      list(JOIN _gpu_archs "," _comma)
      list(JOIN _gpu_archs " " _spaced)
      _fxcc_kernel_command("${_outdir}/${_stem}.hsaco" "${_spaced}" --offload-arch=${_comma})
    else()
      foreach(_a IN LISTS _gpu_archs)
        # ':' would end a make target: gfx90a:xnack+ -> gfx90a_xnack+
        string(REPLACE ":" "_" _tag "${_a}")
        _fxcc_kernel_command("${_outdir}/${_stem}-${_tag}.hsaco" "${_a}" --offload-arch=${_a})
      endforeach()
    endif()
    if(_host)
      # The bitcode libfxrt's rt_host_load_file loads (and fxrun runs).
      _fxcc_kernel_command("${_outdir}/${_stem}-host.bc" host --target=host --emit-llvm)
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY _FXCC_OUTPUTS "${_all_outputs}")

  # --- Attaching the outputs ----------------------------------------------
  # A new target is a custom target built by default (ALL). An existing one
  # (an executable that loads the kernels, or a custom target of the
  # project's own, or one an earlier call made) depends on a helper target
  # that builds them, since a custom target's DEPENDS cannot be extended.
  if(TARGET "${target}")
    get_property(_n GLOBAL PROPERTY "_FXCC_HELPERS_${target}")
    if(NOT _n)
      set(_n 0)
    endif()
    math(EXPR _n "${_n} + 1")
    set_property(GLOBAL PROPERTY "_FXCC_HELPERS_${target}" "${_n}")
    set(_helper "${target}_fxcc_kernels_${_n}")
    add_custom_target("${_helper}" DEPENDS ${_outputs} SOURCES ${_sources})
    add_dependencies("${target}" "${_helper}")
  else()
    add_custom_target("${target}" ALL DEPENDS ${_outputs} SOURCES ${_sources})
  endif()
  # What was built, for install(FILES $<TARGET_PROPERTY:target,FXCC_KERNEL_OUTPUTS> ...).
  set_property(TARGET "${target}" APPEND PROPERTY FXCC_KERNEL_OUTPUTS ${_outputs})
endfunction()

cmake_policy(POP)
