// SHA-256 of a stream of bytes, fed in pieces, given as 64 lowercase hexadecimal digits: the digest
// a stored run's seal keeps of its trials (store/run_record.h). OpenSSL's libcrypto computes it.
//
// A value owning its hashing state; not thread-safe, one per stream.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace rlock::util {

class Sha256 {
 public:
  Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  ~Sha256();

  void add(const void* data, std::size_t size);
  void add(std::string_view text) { add(text.data(), text.size()); }
  // The digest of everything added; the hasher then starts again, empty.
  std::string hex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The digest of `text` alone.
std::string sha256_hex(std::string_view text);

}  // namespace rlock::util
