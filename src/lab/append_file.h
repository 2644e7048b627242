// A file that many processes append whole lines to.
//
// Each append is one write(2) on an O_APPEND descriptor, and a short write is an error, so lines
// from concurrent writers never tear or interleave. Thread-safe: write(2) is.
#pragma once

#include <filesystem>
#include <string_view>

namespace rlock::lab {

class AppendFile {
 public:
  // Opens (creating) the file, never through a link. Throws rlock::Error naming the path and the cause.
  explicit AppendFile(std::filesystem::path path);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  // Appends `line` and a newline in one write. Throws rlock::Error on failure or a short write.
  void append_line(std::string_view line) const;

 private:
  std::filesystem::path path_;
  int fd_;
};

}  // namespace rlock::lab
