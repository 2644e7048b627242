#include "rlock/token.h"

#include <string>
#include <unordered_set>

#include <gtest/gtest.h>

namespace rlock {
namespace {

TEST(Token, Is32LowercaseHexDigits) {
  for (int i = 0; i < 100; ++i) {
    Token token = make_token();
    EXPECT_EQ(token.hex.size(), 32u) << token.hex;
    EXPECT_EQ(token.hex.find_first_not_of("0123456789abcdef"), std::string::npos) << token.hex;
  }
}

TEST(Token, TenThousandTokensAreAllDistinct) {
  std::unordered_set<std::string> seen;
  for (int i = 0; i < 10000; ++i) {
    std::string hex = make_token().hex;
    EXPECT_TRUE(seen.insert(hex).second) << "token " << i << " repeats " << hex;
  }
}

}  // namespace
}  // namespace rlock
