// A stored run's trials.jsonl.gz (run_record.h): a file gzipped and read back through zlib in
// chunks, so that neither side holds the whole file and no size is cut to zlib's 32-bit counts.
// The writer checks every zlib return and reads its result back before it is put in place; the
// reader demands gzip's end of stream with its CRC and length, and nothing after it. Both give the
// SHA-256 of the bytes the file holds uncompressed (util/sha256.h), which a run's seal keeps.
// The reader opens only a regular file, never through a symbolic link (util/plain_files.h).
//
// Functions on files; thread-safe for distinct files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace rlock::store {

inline constexpr std::size_t kGzipChunk = std::size_t{1} << 20;

// Writes `from` gzipped to `to`: first to a temporary beside it, which is decompressed again and
// compared with `from` by length and CRC-32 before it is renamed to `to`. `from` is left as it
// is. Returns the SHA-256 of the bytes `to` decompresses to (64 hexadecimal digits). Throws Error,
// in one line, when any step fails; `to` is then not created.
std::string gzip_file(const std::filesystem::path& from, const std::filesystem::path& to,
                      std::size_t chunk = kGzipChunk);

// Calls `line` with each line of the gzipped file `path`, without its newline. Throws Error, in
// one line naming the file, when it is not gzip, is damaged or cut short (its CRC, its length or
// its end of stream missing), has bytes after its stream, ends in a line with no newline, holds a
// line longer than `max_line` or more than `max_total` bytes in all, or is not a regular file.
// Returns the SHA-256 of its bytes uncompressed, once every line has been given.
std::string for_each_gzip_line(const std::filesystem::path& path, std::size_t max_line, std::uint64_t max_total,
                               const std::function<void(std::string_view line)>& line, std::size_t chunk = kGzipChunk);

}  // namespace rlock::store
