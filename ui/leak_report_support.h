#pragma once

namespace sv {

// In an AddressSanitizer build, keeps every shared library loaded at the call (the GL driver
// among them) loaded until the process ends. LeakSanitizer checks for leaks after the driver has
// been unloaded, and then cannot name the library a leaked block came from; pinned, the driver's
// own leaks at exit are named and suppressed by tests/sanitizers/lsan.supp while ours still fail.
// Does nothing in other builds.
void keep_loaded_libraries_until_exit();

}  // namespace sv
