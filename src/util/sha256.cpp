#include "util/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace rlock::util {

struct Sha256::State {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context{EVP_MD_CTX_new(), EVP_MD_CTX_free};
  void start() {
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("SHA-256: libcrypto cannot start a digest");
  }
};

Sha256::Sha256() : state_(std::make_unique<State>()) { state_->start(); }
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;
Sha256::~Sha256() = default;

void Sha256::add(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(state_->context.get(), data, size) != 1)
    throw std::runtime_error("SHA-256: libcrypto cannot digest");
}

std::string Sha256::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(state_->context.get(), digest, &size) != 1)
    throw std::runtime_error("SHA-256: libcrypto cannot finish a digest");
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (unsigned int i = 0; i < size; ++i) {
    text += kDigits[digest[i] >> 4];
    text += kDigits[digest[i] & 15];
  }
  state_->start();
  return text;
}

std::string sha256_hex(std::string_view text) {
  Sha256 hash;
  hash.add(text);
  return hash.hex();
}

}  // namespace rlock::util
