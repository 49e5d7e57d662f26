// JUnit XML as CI systems read it: the counts on testsuites and on each testsuite, one element per
// outcome, and every string escaped so that no name can break the document (XML forbids most
// control characters outright, and a parser refuses invalid UTF-8).
#include "report/junit.hpp"

#include <gtest/gtest.h>

#include "report/xml_text.hpp"

namespace ordo::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(XmlText, EscapesMarkupInTextAndAttributes) {
  EXPECT_EQ(xml_escaped("a<b>&c\"d'e", XmlContext::text), "a&lt;b&gt;&amp;c\"d'e");
  EXPECT_EQ(xml_escaped("a<b>&c\"d'e", XmlContext::attribute), "a&lt;b&gt;&amp;c&quot;d&apos;e");
  EXPECT_EQ(xml_escaped("]]>", XmlContext::text), "]]&gt;");
}

TEST(XmlText, KeepsLineEndsInTextAndEncodesThemInAttributes) {
  EXPECT_EQ(xml_escaped("a\n\tb\r", XmlContext::text), "a\n\tb&#13;");
  EXPECT_EQ(xml_escaped("a\n\tb\r", XmlContext::attribute), "a&#10;&#9;b&#13;");
}

TEST(XmlText, WritesWhatXmlForbidsAsVisibleEscapes) {
  EXPECT_EQ(xml_escaped(std::string("a\x01"
                                    "b\x1b",
                                    4),
                        XmlContext::text),
            "a\\x01b\\x1b");
  EXPECT_EQ(xml_escaped(std::string("\0", 1), XmlContext::attribute), "\\x00");
  EXPECT_EQ(xml_escaped("\xef\xbf\xbe", XmlContext::text), "\\uFFFE");             // U+FFFE
  EXPECT_EQ(xml_escaped("ok\xff\xc3", XmlContext::text), "ok\\xff\\xc3");          // invalid UTF-8
  EXPECT_EQ(xml_escaped("op é 𝄞 \xc2\x85", XmlContext::text), "op é 𝄞 \xc2\x85");  // allowed
}

TEST(Junit, CountsEachOutcomeInItsSuiteAndInTheWhole) {
  std::vector<JunitCase> cases(5);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].suite = i < 3 ? "first" : "second";
    cases[i].classname = "ordo.verify.job";
    cases[i].name = "case " + std::to_string(i);
    cases[i].seconds = 0.25;
  }
  cases[1].failure = JunitOutcome{"broken", "P1", "details\nwitness"};
  cases[2].skipped = JunitOutcome{"not decided", "", ""};
  cases[3].error = JunitOutcome{"bad input", "bad input", ""};
  const std::string xml = junit_xml(cases, "ordo");
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ordo\" "
                      "tests=\"5\" failures=\"1\" errors=\"1\" skipped=\"1\" time=\"1.250\">",
                      0),
            0u)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"first\" tests=\"3\" failures=\"1\" errors=\"0\" "
                     "skipped=\"1\" time=\"0.750\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"second\" tests=\"2\" failures=\"0\" errors=\"1\" "
                     "skipped=\"0\" time=\"0.500\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure message=\"broken\" type=\"P1\">details\nwitness</failure>"),
            std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"not decided\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<error message=\"bad input\" type=\"bad input\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"case 0\" classname=\"ordo.verify.job\" time=\"0.250\"/>"),
            std::string::npos);
  EXPECT_EQ(count(xml, "<testcase "), 5u);
  EXPECT_EQ(count(xml, "<testsuite "), 2u);
}

TEST(Junit, WritesOneOutcomePerCase) {
  JunitCase c{"s",
              "c",
              "n",
              0.0,
              JunitOutcome{"f", "", ""},
              JunitOutcome{"e", "", ""},
              JunitOutcome{"s", "", ""}};
  const std::string xml = junit_xml({c});
  EXPECT_EQ(count(xml, "<error"), 1u);
  EXPECT_EQ(count(xml, "<failure"), 0u);
  EXPECT_EQ(count(xml, "<skipped"), 0u);
  EXPECT_NE(xml.find("failures=\"0\" errors=\"1\" skipped=\"0\""), std::string::npos);
}

TEST(Junit, EscapesEveryString) {
  JunitCase c;
  c.suite = "a \"suite\" <1>";
  c.classname = "ordo.verify.x&y";
  c.name = std::string("op\x01name", 7);
  c.seconds = -1.0;  // not a time: written as 0
  c.failure = JunitOutcome{"line one\nline two", "P\"3", "body <b> & \x02"};
  const std::string xml = junit_xml({c});
  EXPECT_NE(xml.find("name=\"a &quot;suite&quot; &lt;1&gt;\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("classname=\"ordo.verify.x&amp;y\""), std::string::npos);
  EXPECT_NE(xml.find("name=\"op\\x01name\""), std::string::npos);
  EXPECT_NE(xml.find("time=\"0.000\""), std::string::npos);
  EXPECT_NE(xml.find("message=\"line one&#10;line two\" type=\"P&quot;3\">body &lt;b&gt; &amp; "
                     "\\x02</failure>"),
            std::string::npos)
      << xml;
}

TEST(Junit, NoCasesIsAnEmptyDocument) {
  EXPECT_EQ(junit_xml({}, "ordo"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ordo\" tests=\"0\" "
            "failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n</testsuites>\n");
}

}  // namespace
}  // namespace ordo::report
