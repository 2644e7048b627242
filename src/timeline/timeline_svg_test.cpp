// The timeline's SVG: self-contained, its text escaped, its labels in the chosen language, its size
// the one asked for. (That it parses and renders is checked on real runs by tests/lab_test.sh.)
#include "timeline/timeline_svg.h"

#include <gtest/gtest.h>

#include "lab/run_log.h"
#include "timeline/xml.h"

namespace rlock::timeline {
namespace {

Timeline lab1() { return build_timeline(lab::read_events(lab::LogDir(std::string(RLOCK_TESTDATA) + "/lab1"))); }

TEST(Xml, EscapesMarkupAndDropsForbiddenControls) {
  EXPECT_EQ(xml_escape(R"(<a href="x">&'</a>)"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(xml_escape("a\x01"
                       "b\tc\n"),
            "a?b\tc\n");
  EXPECT_EQ(xml_escape("락 획득"), "락 획득");
}

TEST(TimelineSvg, IsSelfContainedAndAsWideAsAsked) {
  std::string svg = timeline_svg(lab1(), SvgOptions{"lab1", lab::Lang::en, 1234});
  EXPECT_EQ(svg.rfind(R"(<svg xmlns="http://www.w3.org/2000/svg" width="1234" )", 0), 0u);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("href"), std::string::npos);  // no external file, font or image
  EXPECT_EQ(svg.find("@font-face"), std::string::npos);
  EXPECT_NE(svg.find("sans-serif"), std::string::npos);
  EXPECT_NE(svg.find("LOST UPDATE (50 missing)"), std::string::npos);
  EXPECT_NE(svg.find("release result: 0"), std::string::npos);
}

TEST(TimelineSvg, EscapesEveryText) {
  Timeline timeline =
      build_timeline({{0.5, "A", lab::EventKind::error, {{"message", "<b>&\"x\"</b>"}, {"amount", 1}}}});
  std::string svg = timeline_svg(timeline, SvgOptions{"a<b>&c", lab::Lang::en, 800});
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b&gt;&amp;c"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;"), std::string::npos);
}

// A label longer than the drawing is cut with an ellipsis; a long verdict is wrapped, not cut.
TEST(TimelineSvg, FitsANarrowDrawing) {
  std::string message(300, 'x');
  Timeline timeline =
      build_timeline({{0.5, "A", lab::EventKind::error, {{"message", message}, {"amount", 30}, {"added", false}}}});
  std::string svg = timeline_svg(timeline, SvgOptions{"lab", lab::Lang::en, 400});
  EXPECT_EQ(svg.find(message), std::string::npos);
  EXPECT_NE(svg.find("xxx…"), std::string::npos);
  std::size_t first_line = svg.find(R"(<text class="safe")");
  ASSERT_NE(first_line, std::string::npos);
  EXPECT_NE(svg.find(R"(<text class="safe")", first_line + 1), std::string::npos);  // a second line
  EXPECT_NE(svg.find("said so)"), std::string::npos);
}

TEST(TimelineSvg, SpeaksKorean) {
  std::string svg = timeline_svg(lab1(), SvgOptions{"lab1", lab::Lang::ko, 960});
  EXPECT_NE(svg.find("판정: 최종 잔액 130, 기대 잔액 180"), std::string::npos);
  EXPECT_NE(svg.find("해제 결과: 0"), std::string::npos);
  EXPECT_NE(svg.find("락 보유"), std::string::npos);
  EXPECT_EQ(svg.find("held the lock"), std::string::npos);
  EXPECT_NE(svg.find("Noto Sans CJK"), std::string::npos);
}

}  // namespace
}  // namespace rlock::timeline
