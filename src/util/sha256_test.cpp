// Sha256 against the known answers of FIPS 180-2 (and the empty string), fed whole and in pieces.
#include "util/sha256.h"

#include <string>

#include <gtest/gtest.h>

namespace rlock::util {
namespace {

TEST(Sha256, GivesTheKnownAnswers) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, PiecesGiveTheDigestOfTheWhole) {
  std::string million(1'000'000, 'a');
  Sha256 hash;
  for (std::size_t at = 0; at < million.size(); at += 4096) hash.add(std::string_view(million).substr(at, 4096));
  EXPECT_EQ(hash.hex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(hash.hex(), sha256_hex("")) << "a digest given, the hasher starts again";
}

}  // namespace
}  // namespace rlock::util
