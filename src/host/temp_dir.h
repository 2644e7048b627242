// A fresh directory under /tmp, removed with everything in it when the owner goes. Not copyable;
// thread-safe as long as one thread owns it.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "rlock/error.h"

namespace rlock::host {

class TempDir {
 public:
  // Throws Error when the directory cannot be created.
  explicit TempDir(const std::string& prefix = "rlock") {
    std::string name = fmt::format("/tmp/{}_XXXXXX", prefix);
    if (::mkdtemp(name.data()) == nullptr) {
      throw Error(fmt::format("cannot create a directory under /tmp: {}", std::strerror(errno)));
    }
    path_ = name;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace rlock::host
