# Decides whether the CUDA engine is built: on when nvcc is found (standard location included),
# off otherwise, and says so. Architectures default to the GPUs users have plus the H100;
# pass -DCMAKE_CUDA_ARCHITECTURES=90 (or "native") to narrow it for quick builds.
set(STEREOVIEW_HAS_CUDA OFF)
if(STEREOVIEW_WITH_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Machine code for each, and PTX only for the newest, which newer GPUs compile at load: PTX
    # for all four made the library 93 MB, carried by every test program that links it.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 75-real 86-real 89-real 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(STEREOVIEW_HAS_CUDA ON)
  else()
    message(STATUS "stereoview: no CUDA compiler found, building the CPU engine only")
  endif()
else()
  message(STATUS "stereoview: CUDA disabled by STEREOVIEW_WITH_CUDA=OFF, building the CPU engine only")
endif()
