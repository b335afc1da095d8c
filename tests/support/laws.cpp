#include "support/laws.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/base/error.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"
#include "support/json.hpp"

namespace archfit::testing {

namespace {

const std::vector<std::string> kCommon{"--config",  "config.yaml", "--lock", "archfit.lock",
                                       "--offline", "--cache-dir", "cache"};

}  // namespace

Workspace::Workspace(const std::string& input, const std::string& lock, const std::string& config) {
  dir_.write("input.yaml", input);
  dir_.write("archfit.lock", lock);
  dir_.write("config.yaml", config);
}

std::string Workspace::input() const {
  return read(dir_ / "input.yaml");
}

ProcessResult Workspace::run(const std::vector<std::string>& command,
                             const std::vector<std::string>& extra) const {
  std::vector<std::string> args = command;
  args.insert(args.end(), kCommon.begin(), kCommon.end());
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("input.yaml");
  ProcessOptions options;
  options.cwd = dir_.path();
  return run_archfit(args, options);
}

std::string Workspace::fix(const std::vector<std::string>& extra) const {
  ProcessResult r = run({"fix", "-q"}, extra);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  return input();
}

std::string Workspace::remove(const std::vector<std::string>& extra) const {
  ProcessResult r = run({"fix", "-q", "--remove"}, extra);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return input();
}

std::string Workspace::lint_json() const {
  ProcessResult r = run({"lint", "--format", "json", "--fail-on", "never"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

std::vector<std::string> proposals_not_written(const std::string& lint_json,
                                               const std::string& fixed) {
  std::vector<std::string> out;
  rapidjson::Document report;
  report.Parse(lint_json.c_str());
  if (report.HasParseError() || !report.IsObject()) return {"lint output is not JSON"};
  // `document` counts every document of the stream, with content or not.
  std::vector<yaml::DocumentText> docs = yaml::split_stream(fixed);
  for (const auto& f : report["findings"].GetArray()) {
    if (!f["fixable"].GetBool() || !f["field"]["proposed"].IsString()) continue;
    std::string path = f["field"]["path"].GetString();
    std::string proposed = f["field"]["proposed"].GetString();
    std::size_t index = f["document"].GetUint();
    bool placement_field = path.ends_with("spec.affinity") || path.ends_with("spec.nodeSelector") ||
                           path.ends_with("spec.tolerations");
    if (!placement_field || index >= docs.size()) continue;
    yaml::Tree tree = yaml::parse_document(docs[index].text);
    yaml::Value data = yaml::to_value(tree.root());
    const yaml::Value* written = at_path(data, path);
    std::string actual = written != nullptr ? yaml::to_json(*written) : "null";
    if (!same_json(actual, proposed)) {
      out.push_back(std::string(f["rule"].GetString()) + " at " + path + " proposes " + proposed +
                    " but fix writes " + actual);
    }
  }
  return out;
}

std::vector<std::string> changed_outside_placement(const std::string& input,
                                                   const std::string& fixed) {
  std::vector<yaml::DocumentText> a = yaml::split_stream(input);
  std::vector<yaml::DocumentText> b = yaml::split_stream(fixed);
  if (a.size() != b.size()) return {"fix changed the number of documents"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].text == b[i].text) continue;
    try {
      yaml::Tree before = yaml::parse_document(a[i].text, a[i].first_line, as_written());
      yaml::Tree after = yaml::parse_document(b[i].text, b[i].first_line, as_written());
      if (without_placement(before) != without_placement(after)) {
        out.push_back("fix changed document " + std::to_string(i) +
                      " outside the placement fields:\n" + std::string(b[i].text));
      }
    } catch (const Error& e) {
      out.push_back("document " + std::to_string(i) + " does not read: " + e.what());
    }
  }
  return out;
}

// Findings no two alike, and none that fix will not fix saying that it will.
std::vector<std::string> findings_that_disagree(const std::string& lint_json) {
  std::vector<std::string> out;
  rapidjson::Document report;
  report.Parse(lint_json.c_str());
  if (report.HasParseError() || !report.IsObject()) return {"lint output is not JSON"};
  std::set<std::string> seen;
  for (const auto& f : report["findings"].GetArray()) {
    std::string rule = f["rule"].GetString();
    std::string message = f["message"].GetString();
    // Two workloads may share a template through an alias: a finding each.
    std::string key =
        rule + " " + f["resource"]["kind"].GetString() + "/" + f["resource"]["name"].GetString() +
        " " + std::to_string(f["document"].GetUint()) + ":" + std::to_string(f["line"].GetUint()) +
        ":" + std::to_string(f["column"].GetUint()) + " " + message;
    if (!seen.insert(key).second) out.push_back("a finding is repeated: " + key);
    bool placement = rule == "missing-arch-affinity" || rule == "pinned-to-unsupported-platform" ||
                     rule == "missing-toleration" || rule == "stale-placement";
    if (placement && !f["fixable"].GetBool()) {
      for (const char* promise :
           {"archfit fix adds", "archfit fix narrows", "archfit fix replaces", "archfit fix places",
            "archfit fix updates", "archfit fix takes", "archfit fix writes"}) {
        if (message.find(promise) != std::string::npos) {
          out.push_back("a finding fix does not fix says \"" + std::string(promise) + "\": " + key);
        }
      }
    }
  }
  return out;
}

std::vector<std::string> broken_laws(const Workspace& ws, const std::string& input) {
  std::vector<std::string> broken;
  // What the user wrote: the input itself, unless archfit placed it before.
  ws.write_input(input);
  std::string users = ws.remove();
  ws.write_input(input);
  std::string before_lint = ws.lint_json();
  bool fixable_before = before_lint.find("\"fixable\":true") != std::string::npos;
  ProcessResult check = ws.run({"fix", "--check"});
  bool changes = ws.input() != input;
  if (changes) broken.push_back("fix --check wrote the file");
  std::string fixed = ws.fix();
  if ((check.exit_code == 1) != fixable_before) {
    broken.push_back("fix --check exited " + std::to_string(check.exit_code) +
                     " while lint reports " + (fixable_before ? "" : "no ") + "fixable finding");
  }
  if ((fixed != input) != fixable_before) {
    broken.push_back(std::string("fix ") + (fixed != input ? "changed" : "did not change") +
                     " the file while lint reports " + (fixable_before ? "" : "no ") +
                     "fixable finding");
  }
  for (std::string& p : proposals_not_written(before_lint, fixed))
    broken.push_back(std::move(p));
  for (std::string& p : findings_that_disagree(before_lint))
    broken.push_back(std::move(p));
  std::string again = ws.fix();
  if (again != fixed) broken.push_back("a second fix changed the file");
  ws.write_input(fixed);
  std::string after_lint = ws.lint_json();
  if (after_lint.find("\"fixable\":true") != std::string::npos) {
    broken.push_back("after fix, lint reports fixable findings: " + after_lint);
  }
  ProcessResult check_after = ws.run({"fix", "--check"});
  if (check_after.exit_code != 0) broken.push_back("fix --check after fix exited non-zero");
  std::string removed = ws.remove();
  if (removed != users) {
    broken.push_back("fix --remove after fix did not give the user's text back:\n--- user's\n" +
                     users + "\n--- removed\n" + removed);
  }
  ws.write_input(input);
  return broken;
}

}  // namespace archfit::testing
