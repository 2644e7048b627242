#include "util/printable.h"

#include <gtest/gtest.h>

namespace rlock::util {
namespace {

using namespace std::string_literals;

TEST(Printable, PlainTextIsKeptAsItIs) {
  EXPECT_EQ(printable("worker A: said nothing for 15000 ms"), "worker A: said nothing for 15000 ms");
  EXPECT_EQ(printable("a path C:\\x and a quote \""), "a path C:\\x and a quote \"");
}

TEST(Printable, ValidUtf8IsKept) { EXPECT_EQ(printable("잃은 금액 – é 😀"), "잃은 금액 – é 😀"); }

TEST(Printable, EscapeCodesAndNulsBecomeHex) {
  EXPECT_EQ(printable("\x1b[31mred\x1b[0m"), "\\x1B[31mred\\x1B[0m");
  EXPECT_EQ(printable("a\0b"s), "a\\x00b");
  EXPECT_EQ(printable("bell\a, tab\t, line\n, del\x7f"), "bell\\x07, tab\\x09, line\\x0A, del\\x7F");
}

TEST(Printable, C1ControlsInUtf8BecomeHex) {
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\xC2\\x9B31m");                    // CSI, as UTF-8 encodes it
  EXPECT_EQ(printable("\xc2\xa0"), "\xc2\xa0");  // no-break space: text
}

TEST(Printable, BytesThatAreNotUtf8BecomeHex) {
  EXPECT_EQ(printable("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(printable("cut \xea\xb8"), "cut \\xEA\\xB8");            // a sequence cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xC0\\xAF");                    // overlong
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xED\\xA0\\x80");           // a surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(Printable, EscapingTwiceChangesNothing) {
  std::string once = printable("\x1b]0;title\x07\0\xff"s);
  EXPECT_EQ(printable(once), once);
}

}  // namespace
}  // namespace rlock::util
