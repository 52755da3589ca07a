// The viewer's packages, as third_party/viewer_dependencies.cmake wires them: Debian's ImGui with
// its GLFW/OpenGL3 backends and the GLAD loader generated at build time. No display needed.
#include <gtest/gtest.h>

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstring>

TEST(ViewerDependencies, ImGuiIsDebians186WithItsBackends) {
  EXPECT_STREQ(ImGui::GetVersion(), "1.86");
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the test must not leave an imgui.ini in the working directory
  io.DisplaySize = ImVec2(320, 240);
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  // A new window is measured in its first frame and drawn from the second.
  for (int frame = 0; frame < 2; ++frame) {
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::Begin("test");
    ImGui::Text("hello");
    ImGui::End();
    ImGui::Render();
  }
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 0);
  ImGui::DestroyContext();
  // The backends are linked from libimgui.a (referencing them is enough to prove it).
  EXPECT_NE(reinterpret_cast<void*>(&ImGui_ImplGlfw_InitForOpenGL), nullptr);
  EXPECT_NE(reinterpret_cast<void*>(&ImGui_ImplOpenGL3_Init), nullptr);
}

TEST(ViewerDependencies, GladLoaderIsGeneratedForGl33Core) {
  EXPECT_EQ(GLAD_VERSION_MAJOR(GLAD_MAKE_VERSION(3, 3)), 3);
#ifndef GL_VERSION_3_3
  FAIL() << "the generated loader lacks GL 3.3";
#endif
  // The loader's entry points exist before any context (they are filled in by gladLoadGL).
  EXPECT_EQ(glad_glClear, nullptr);
  int major = 0, minor = 0, revision = 0;
  glfwGetVersion(&major, &minor, &revision);
  EXPECT_EQ(major, 3);
  EXPECT_GE(minor, 3);
}
