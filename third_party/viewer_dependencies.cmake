# Packages of the viewer (ui/): GLFW 3.3, OpenGL, a GL 3.3 core loader generated at build time by
# python3-glad (into the build tree, never committed), and Debian's Dear ImGui 1.86, whose
# libimgui.a already holds the GLFW and OpenGL3 backends. Sets STEREOVIEW_HAS_VIEWER_DEPS.
set(STEREOVIEW_HAS_VIEWER_DEPS OFF)
if(NOT STEREOVIEW_WITH_APP_DEPS)
  return()
endif()

find_package(glfw3 3.3 QUIET)
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL QUIET)
find_program(GLAD_GENERATOR glad)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  # imgui.pc also names libstb, which Debian's +ds build links instead of bundling stb.
  pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
endif()

set(missing "")
foreach(found glfw3_FOUND OpenGL_FOUND GLAD_GENERATOR IMGUI_FOUND)
  if(NOT ${found})
    list(APPEND missing ${found})
  endif()
endforeach()
if(missing)
  message(STATUS "stereoview: viewer dependencies missing (${missing}): viewer off")
  return()
endif()

# GLAD 2: "--reproducible" uses the specifications bundled with the package (no download).
set(glad_dir ${CMAKE_BINARY_DIR}/third_party/glad)
set(glad_sources ${glad_dir}/src/gl.c)
add_custom_command(
  OUTPUT ${glad_sources} ${glad_dir}/include/glad/gl.h
  COMMAND ${GLAD_GENERATOR} --quiet --reproducible --api gl:core=3.3 --out-path ${glad_dir} c
  COMMENT "Generating the GL 3.3 core loader with glad"
  VERBATIM)
add_library(glad_gl STATIC ${glad_sources})
set_target_properties(glad_gl PROPERTIES LINKER_LANGUAGE C)
target_include_directories(glad_gl SYSTEM PUBLIC ${glad_dir}/include)
target_link_libraries(glad_gl PUBLIC ${CMAKE_DL_LIBS})

# Debian's libimgui.a with its backends (headers under imgui/backends, included unqualified).
add_library(imgui_glfw_gl3 INTERFACE)
target_include_directories(imgui_glfw_gl3 SYSTEM INTERFACE ${IMGUI_INCLUDEDIR}/backends)
target_link_libraries(imgui_glfw_gl3 INTERFACE PkgConfig::IMGUI glfw OpenGL::GL)

set(STEREOVIEW_HAS_VIEWER_DEPS ON)
