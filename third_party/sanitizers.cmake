# STEREOVIEW_SANITIZE: the whole C/C++ build (libraries, programs, tests) under a sanitizer, so
# that the tests, and the programs they start, report memory errors, undefined behaviour and
# data races. scripts/sanitizer_test.sh builds and runs these configurations (with the
# suppression files in tests/sanitizers/); CUDA code is left as it is.
#   address  AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer, float-cast-overflow
#            included (GCC's "undefined" leaves it out); any report fails the test.
#   thread   ThreadSanitizer.
if(STEREOVIEW_SANITIZE STREQUAL "address")
  set(stereoview_sanitizer_flags -fsanitize=address,undefined,float-cast-overflow
      -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer)
elseif(STEREOVIEW_SANITIZE STREQUAL "thread")
  set(stereoview_sanitizer_flags -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT STEREOVIEW_SANITIZE STREQUAL "")
  message(FATAL_ERROR "STEREOVIEW_SANITIZE must be empty, address or thread, not \"${STEREOVIEW_SANITIZE}\"")
endif()
if(stereoview_sanitizer_flags)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${stereoview_sanitizer_flags}>")
  add_link_options(${stereoview_sanitizer_flags})
  message(STATUS "stereoview: sanitizer build (${STEREOVIEW_SANITIZE}): ${stereoview_sanitizer_flags}")
endif()
