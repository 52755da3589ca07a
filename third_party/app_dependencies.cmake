# Optional packages of the io/app/ui layers. A core-only machine (compiler + CUDA toolkit) configures
# without any of them; each missing one turns its layer off with a status line.
set(STEREOVIEW_HAS_OPENCV OFF)
if(STEREOVIEW_WITH_APP_DEPS)
  find_package(OpenCV 4 QUIET COMPONENTS core imgproc imgcodecs videoio calib3d)
  if(OpenCV_FOUND)
    set(STEREOVIEW_HAS_OPENCV ON)
  else()
    message(STATUS "stereoview: OpenCV not found, io layer (PNG, video, cameras) off")
  endif()
endif()

find_package(Threads REQUIRED)
