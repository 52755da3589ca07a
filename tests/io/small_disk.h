#pragma once

// Runs a piece of a test in a child process under a full-disk condition: a file size limit
// (RLIMIT_FSIZE, which needs no privileges) or a small disk (a tmpfs of a few kilobytes mounted in
// the child's own mount namespace, so nothing stays mounted; needs root or unprivileged user
// namespaces, else the test skips and says why). What the work leaves on the small disk is
// copied out before the child ends, for the parent to check with ordinary assertions.

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace sv::test {

struct FullDiskSetup {
  std::optional<rlim_t> file_size_limit;  // bytes; SIGXFSZ is left as it is (see below)
  bool ignore_sigxfsz = true;             // in-process work: the program's main() would do this
  // A tmpfs of `small_disk_bytes` over `small_disk_dir` (which must exist), copied to
  // `copy_to` (created) when the work is done.
  std::string small_disk_dir;
  size_t small_disk_bytes = 0;
  std::string copy_to;
};

struct ChildOutcome {
  std::string skipped;  // why the full disk could not be made; the test should skip
  bool crashed = false;
  std::string report;  // what the work returned
};

namespace detail {

inline bool write_proc_file(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// In the child: a private mount namespace with a tmpfs of `bytes` over `dir`. "" or why not.
inline std::string mount_small_disk(const std::string& dir, size_t bytes) {
  if (::unshare(CLONE_NEWNS) != 0) {
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
      return std::string("cannot make a mount namespace: ") + std::strerror(errno);
    }
    write_proc_file("/proc/self/setgroups", "deny");
    if (!write_proc_file("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !write_proc_file("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")) {
      return "cannot map the user in a user namespace";
    }
  }
  if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    return std::string("cannot make the mounts private: ") + std::strerror(errno);
  }
  const std::string options = "size=" + std::to_string(bytes);
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    return std::string("cannot mount a tmpfs: ") + std::strerror(errno);
  }
  return "";
}

inline std::string read_all_fd(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<size_t>(n));
  return text;
}

}  // namespace detail

// Runs `work` in a forked child under `setup`; its returned text comes back in the report.
inline ChildOutcome run_with_full_disk(const FullDiskSetup& setup,
                                       const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe(fds) != 0) return {"no pipe", true, ""};
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    std::string message;
    if (!setup.small_disk_dir.empty()) {
      const std::string why =
          detail::mount_small_disk(setup.small_disk_dir, setup.small_disk_bytes);
      if (!why.empty()) {
        message = "S" + why;
        (void)!::write(fds[1], message.data(), message.size());
        ::_exit(0);
      }
    }
    if (setup.file_size_limit) {
      if (setup.ignore_sigxfsz) std::signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{*setup.file_size_limit, RLIM_INFINITY};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    message = "R" + work();
    if (setup.file_size_limit) {
      const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
      ::setrlimit(RLIMIT_FSIZE, &unlimited);
    }
    if (!setup.copy_to.empty()) {
      std::error_code error;
      std::filesystem::create_directories(setup.copy_to, error);
      std::filesystem::copy(setup.small_disk_dir, setup.copy_to,
                            std::filesystem::copy_options::recursive, error);
      if (error) message += "\ncopying the small disk out failed: " + error.message();
    }
    (void)!::write(fds[1], message.data(), message.size());
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  const std::string message = detail::read_all_fd(fds[0]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ChildOutcome outcome;
  outcome.crashed = !WIFEXITED(status) || WEXITSTATUS(status) != 0 || message.empty();
  if (!message.empty() && message[0] == 'S') outcome.skipped = message.substr(1);
  if (!message.empty() && message[0] == 'R') outcome.report = message.substr(1);
  return outcome;
}

}  // namespace sv::test
