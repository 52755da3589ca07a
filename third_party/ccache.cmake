# ccache (Debian's package, which scripts/setup.sh installs) in front of the compilers where it is
# there: a build after a branch switch or a fresh build folder recompiles only what changed. A
# launcher given on the command line (-DCMAKE_CXX_COMPILER_LAUNCHER=...) is kept.
find_program(STEREOVIEW_CCACHE ccache DOC "ccache, put in front of the C++ and CUDA compilers")
if(STEREOVIEW_CCACHE)
  foreach(language C CXX CUDA)
    if(NOT CMAKE_${language}_COMPILER_LAUNCHER)
      set(CMAKE_${language}_COMPILER_LAUNCHER ${STEREOVIEW_CCACHE})
    endif()
  endforeach()
endif()
