// JsonLocator against nlohmann's own reading of the same text: every value of a document is found
// where the parser finds it (the span's text parses to the value at the pointer), on texts laid
// out every way a writer may (one line, indented, CR LF), with escapes in keys and strings that
// hold brackets; and lines and columns as SARIF counts them.
#include "report/json_locate.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <random>

namespace ordo::report {
namespace {

using nlohmann::json;

// Every pointer in `document`, the document itself included.
void pointers(const json& value, const json::json_pointer& at,
              std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) pointers(member, at / key, out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) pointers(value[i], at / i, out);
  }
}

// Each value's span reads back as the value the parser puts at its pointer.
void expect_every_value_found(const std::string& text) {
  const json document = json::parse(text);
  std::vector<json::json_pointer> all;
  pointers(document, json::json_pointer(), all);
  JsonLocator locator(text);
  for (const json::json_pointer& p : all) {
    const std::optional<TextSpan> span = locator.locate(p.to_string());
    ASSERT_TRUE(span) << p.to_string() << " in " << text;
    EXPECT_EQ(json::parse(text.substr(span->begin, span->end - span->begin)), document.at(p))
        << p.to_string();
  }
}

TEST(JsonLocate, FindsEveryValueOfAnIndentedDocument) {
  const json document = json::parse(R"({
    "format": "ordo-dag", "n": -1.5e3, "ok": true, "none": null,
    "tricky": "a } ] , \" \\ [ {", "empty": {}, "list": [],
    "a/b": 1, "m~n": 2, "caf\u00e9": 3, "": 4,
    "programs": [{"ops": [{"name": "x"}, {"name": "y", "reads": [1, 2, [3, [4]]]}]}]
  })");
  expect_every_value_found(document.dump());
  expect_every_value_found(document.dump(2));
  expect_every_value_found(document.dump(1, '\t'));
}

TEST(JsonLocate, FindsEveryValueOfRandomDocuments) {
  std::mt19937 random(7);
  std::function<json(int)> make = [&](int depth) -> json {
    const int kind = static_cast<int>(random() % (depth > 3 ? 4 : 6));
    switch (kind) {
      case 0:
        return static_cast<int>(random() % 1000) - 500;
      case 1:
        return std::string("s\"[{") + std::to_string(random() % 10);
      case 2:
        return random() % 2 == 0;
      case 3:
        return nullptr;
      case 4: {
        json a = json::array();
        for (std::uint32_t i = random() % 4; i > 0; --i) a.push_back(make(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (std::uint32_t i = random() % 4; i > 0; --i) {
          o["k" + std::to_string(random() % 6) + (random() % 3 == 0 ? "/~" : "")] = make(depth + 1);
        }
        return o;
      }
    }
  };
  for (int i = 0; i < 200; ++i) {
    const json document = make(0);
    expect_every_value_found(document.dump());
    expect_every_value_found(document.dump(2));
  }
}

TEST(JsonLocate, LinesAndColumnsAsSarifCountsThem) {
  const std::string text = "{\n  \"a\": [10,\n    20],\n  \"b\": \"x\"\n}\n";
  const std::optional<TextSpan> a = locate_json_value(text, "/a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->start_line, 2u);
  EXPECT_EQ(a->start_column, 8u);
  EXPECT_EQ(a->end_line, 3u);
  EXPECT_EQ(a->end_column, 8u);  // one past the ']' in column 7
  const std::optional<TextSpan> second = locate_json_value(text, "/a/1");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->start_line, 3u);
  EXPECT_EQ(second->start_column, 5u);
  const std::optional<TextSpan> whole = locate_json_value(text, "");
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->start_line, 1u);
  EXPECT_EQ(whole->end_line, 5u);
}

TEST(JsonLocate, CrLfAndCrEndOneLineEach) {
  EXPECT_EQ(locate_json_value("{\r\n\"a\":\r\n1}", "/a")->start_line, 3u);
  EXPECT_EQ(locate_json_value("{\r\"a\":\r1}", "/a")->start_line, 3u);
  EXPECT_EQ(locate_json_value("{\n\r\"a\":1}", "/a")->start_line, 3u);
}

TEST(JsonLocate, ColumnsCountUtf16CodeUnits) {
  // "é" is one unit (two bytes), "𝄞" (U+1D11E) two units (four bytes).
  const std::string text = "{\"é𝄞\": 1, \"b\": 2}";
  const std::optional<TextSpan> b = locate_json_value(text, "/b");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->start_column, 17u);
  EXPECT_EQ(locate_json_value(text, "/é𝄞")->start_column, 9u);
}

TEST(JsonLocate, ColumnsOnALongLinePastManyCheckpoints) {
  std::string text = "[";
  for (int i = 0; i < 5000; ++i) text += "\"é\",";
  text += "7]";
  const std::optional<TextSpan> last = locate_json_value(text, "/5000");
  ASSERT_TRUE(last);
  EXPECT_EQ(last->start_line, 1u);
  EXPECT_EQ(last->start_column, 1u + 5000u * 4u + 1u);
  EXPECT_EQ(last->begin, 1u + 5000u * 5u);
}

TEST(JsonLocate, PointerEscapesAndKeyEscapes) {
  const std::string text = R"({"a/b": 1, "m~n": 2, "q\"\u00e9": 3, "\ud834\udd1e": 4})";
  EXPECT_EQ(locate_json_value(text, "/a~1b")->begin, text.find('1'));
  EXPECT_EQ(locate_json_value(text, "/m~0n")->begin, text.find('2'));
  EXPECT_EQ(locate_json_value(text, "/q\"é")->begin, text.find('3'));
  EXPECT_EQ(locate_json_value(text, "/𝄞")->begin, text.rfind('4'));
}

TEST(JsonLocate, NothingForWhatIsNotThere) {
  const std::string text = R"({"a": [1, 2], "b": {"c": 3}})";
  for (const char* pointer :
       {"/x", "/a/2", "/a/01", "/a/-", "/a/b", "/b/c/d", "a", "/a~2", "/a/", "/b/c/0"}) {
    EXPECT_FALSE(locate_json_value(text, pointer)) << pointer;
  }
}

TEST(JsonLocate, NothingFromTextItCannotFollow) {
  for (const char* text :
       {"", "  ", "{\"a\": 1", "{\"a\" 1}", "{\"a\": \"x", "{\"a\": }", "{\"a\": [1}]}"}) {
    EXPECT_FALSE(locate_json_value(text, "/a")) << text;
  }
  // A container is entered only when a pointer goes through it, and only then read member by
  // member.
  EXPECT_FALSE(locate_json_value("{\"a\": [1,]}", "/a/0"));
  EXPECT_FALSE(locate_json_value("[1 2]", "/0"));
  EXPECT_FALSE(locate_json_value("{\"a\": {\"b\" 1}}", "/a/b"));
}

TEST(JsonLocate, DeepNestingNeedsNoRecursion) {
  const std::string text =
      "{\"a\": " + std::string(200000, '[') + std::string(200000, ']') + ", \"b\": 1}";
  const std::optional<TextSpan> b = locate_json_value(text, "/b");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->begin, text.size() - 2);
}

}  // namespace
}  // namespace ordo::report
