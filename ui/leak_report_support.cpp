#include "ui/leak_report_support.h"

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>

#include <string>
#include <vector>
#endif

namespace sv {

void keep_loaded_libraries_until_exit() {
#if defined(__SANITIZE_ADDRESS__)
  std::vector<std::string> names;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name && info->dlpi_name[0] != '\0') {
          static_cast<std::vector<std::string>*>(out)->push_back(info->dlpi_name);
        }
        return 0;
      },
      &names);
  // RTLD_NOLOAD: only libraries already loaded; RTLD_NODELETE: never unloaded from now on.
  for (const std::string& name : names) dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
#endif
}

}  // namespace sv
