#include "report/sarif.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "report/tool_version.hpp"

namespace ordo::report {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view schema_uri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
constexpr std::string_view source_root_id = "%SRCROOT%";

Json message(std::string_view text) { return Json{{"text", text}}; }

Json region_json(const SarifRegion& r) {
  Json j = Json::object();
  if (r.start_line != 0) j["startLine"] = r.start_line;
  if (r.start_column != 0) j["startColumn"] = r.start_column;
  if (r.end_line != 0) j["endLine"] = r.end_line;
  if (r.end_column != 0) j["endColumn"] = r.end_column;
  return j;
}

Json artifact_json(std::string_view path) {
  Json j{{"uri", path_uri(path)}};
  if (path.front() != '/') j["uriBaseId"] = source_root_id;
  return j;
}

Json location_json(const SarifLocation& l) {
  Json j = Json::object();
  if (!l.path.empty()) {
    Json physical{{"artifactLocation", artifact_json(l.path)}};
    if (l.region && l.region->start_line != 0) physical["region"] = region_json(*l.region);
    j["physicalLocation"] = std::move(physical);
  }
  if (!l.logical_name.empty() || !l.logical_full_name.empty()) {
    Json logical = Json::object();
    if (!l.logical_name.empty()) logical["name"] = l.logical_name;
    if (!l.logical_full_name.empty()) logical["fullyQualifiedName"] = l.logical_full_name;
    if (!l.logical_kind.empty()) logical["kind"] = l.logical_kind;
    j["logicalLocations"] = Json::array({std::move(logical)});
  }
  if (!l.message.empty()) j["message"] = message(l.message);
  return j;
}

Json result_json(const SarifResult& r, const std::vector<SarifRule>& rules) {
  Json j{{"ruleId", r.rule_id}};
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].id == r.rule_id) {
      j["ruleIndex"] = i;
      break;
    }
  }
  j["level"] = r.level;
  j["message"] = message(r.message);
  j["locations"] = Json::array();
  if (r.location) j["locations"].push_back(location_json(*r.location));
  if (!r.related.empty()) {
    Json related = Json::array();
    for (std::size_t i = 0; i < r.related.size(); ++i) {
      Json l = location_json(r.related[i]);
      l["id"] = i;  // unique within the result, as SARIF asks of related locations
      related.push_back(std::move(l));
    }
    j["relatedLocations"] = std::move(related);
  }
  // A thread flow holds at least one location: a finding with no steps has no code flow.
  if (!r.steps.empty()) {
    Json steps = Json::array();
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
      Json step{{"location", location_json(r.steps[i].location)}, {"executionOrder", i + 1}};
      if (!r.steps[i].importance.empty()) step["importance"] = r.steps[i].importance;
      steps.push_back(std::move(step));
    }
    j["codeFlows"] =
        Json::array({Json{{"threadFlows", Json::array({Json{{"locations", std::move(steps)}}})}}});
  }
  return j;
}

Json rule_json(const SarifRule& r) {
  Json j{{"id", r.id}};
  if (!r.name.empty()) j["name"] = r.name;
  if (!r.short_description.empty()) j["shortDescription"] = message(r.short_description);
  if (!r.full_description.empty()) j["fullDescription"] = message(r.full_description);
  j["defaultConfiguration"] = Json{{"level", r.level}};
  return j;
}

Json value_json(const SarifValue& v) {
  return std::visit([](const auto& x) { return Json(x); }, v);
}

}  // namespace

std::string path_uri(std::string_view path) {
  constexpr std::string_view hex = "0123456789ABCDEF";
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                            c == '~' || c == '/';
    if (unreserved) {
      out += c;
    } else {
      out += '%';
      out += hex[byte >> 4];
      out += hex[byte & 0xFu];
    }
  }
  return out;
}

std::string sarif_log(const SarifRun& run) {
  const std::string version =
      run.tool_version.empty() ? std::string(tool_version()) : run.tool_version;
  Json driver{{"name", run.tool_name}, {"version", version}, {"semanticVersion", version}};
  Json rules = Json::array();
  for (const SarifRule& r : run.rules) rules.push_back(rule_json(r));
  driver["rules"] = std::move(rules);

  Json invocation{{"executionSuccessful", run.execution_successful}};
  if (run.exit_code) invocation["exitCode"] = *run.exit_code;
  if (!run.notifications.empty()) {
    Json notes = Json::array();
    for (const SarifNotification& n : run.notifications) {
      notes.push_back(Json{{"level", n.level}, {"message", message(n.message)}});
    }
    invocation["toolExecutionNotifications"] = std::move(notes);
  }

  Json j{{"tool", Json{{"driver", std::move(driver)}}},
         {"invocations", Json::array({std::move(invocation)})}};
  if (!run.source_root.empty() && run.source_root.front() == '/') {
    std::string root = path_uri(run.source_root);
    if (root.back() != '/') root += '/';  // a base URI names a directory with a trailing slash
    j["originalUriBaseIds"] = Json{{source_root_id, Json{{"uri", root}}}};
  }
  j["columnKind"] = "utf16CodeUnits";
  // Present even when empty: an empty array says the tool looked and found nothing, and a
  // code-scanning upload refuses a run without one.
  Json results = Json::array();
  for (const SarifResult& r : run.results) results.push_back(result_json(r, run.rules));
  j["results"] = std::move(results);
  if (!run.properties.empty()) {
    Json bag = Json::object();
    for (const auto& [name, value] : run.properties) bag[name] = value_json(value);
    j["properties"] = std::move(bag);
  }
  const Json log{{"$schema", schema_uri}, {"version", "2.1.0"}, {"runs", Json::array({j})}};
  return log.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string sarif_log(const std::vector<SarifResult>& results, bool execution_successful,
                      const std::vector<SarifRule>& rules,
                      const std::vector<SarifNotification>& notifications) {
  SarifRun run;
  run.rules = rules;
  run.results = results;
  run.execution_successful = execution_successful;
  run.notifications = notifications;
  return sarif_log(run);
}

SarifLocation whole_file(std::string path, std::string name) {
  SarifLocation whole;
  whole.path = std::move(path);
  whole.logical_name = std::move(name);
  whole.logical_kind = "module";
  return whole;
}

}  // namespace ordo::report
