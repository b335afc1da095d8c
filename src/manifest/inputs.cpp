#include <algorithm>
#include <map>
#include <optional>
#include <system_error>
#include <unordered_set>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/key_index.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::manifest {

namespace fs = std::filesystem;

namespace {

bool is_manifest_name(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

bool is_hidden(const fs::path& p) {
  std::string name = p.filename().string();
  return name.size() > 1 && name[0] == '.' && name != "..";
}

// The helm chart `path` is a template of (or the templates directory of):
// the directory above a `templates` directory, at or above `path`, that holds
// a Chart.yaml. Empty when there is none.
std::optional<fs::path> chart_of(const fs::path& path) {
  fs::path p = path.lexically_normal();
  while (!p.empty() && p.filename().empty())
    p = p.parent_path();  // "dir/" -> "dir"
  for (; !p.empty(); p = p.parent_path()) {
    if (p.filename() != "templates") {
      if (p == p.parent_path()) break;
      continue;
    }
    fs::path chart = p.parent_path();
    std::error_code ec;
    if (fs::is_regular_file((chart.empty() ? fs::path(".") : chart) / "Chart.yaml", ec)) {
      return chart.empty() ? fs::path(".") : chart;
    }
    if (p == p.parent_path()) break;
  }
  return std::nullopt;
}

// Helm templates met, by chart: not manifests until rendered.
class ChartTemplates {
 public:
  void add(const fs::path& chart, std::string name) {
    std::string key = chart.string();
    if (key.size() > 1 && key.back() == '/') key.pop_back();
    by_chart_[key].push_back(std::move(name));
  }
  void report(Inputs& out) const {
    for (const auto& [chart, names] : by_chart_) {
      std::string what = names.front();
      if (names.size() > 1) what += " and " + std::to_string(names.size() - 1) + " more";
      out.skipped.push_back("skipped " + what + ": templates of the helm chart " + chart +
                            " are not manifests until rendered; check the output of helm "
                            "template " +
                            chart + " instead (docs/ci.md)");
    }
  }

 private:
  std::map<std::string, std::vector<std::string>> by_chart_;
};

bool inside(const fs::path& root, const fs::path& path) {
  fs::path relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

void add_directory(const fs::path& dir, const std::string& shown, const InputOptions& options,
                   ChartTemplates& charts, Inputs& out) {
  std::vector<InputFile> found;
  std::error_code ec;
  fs::path root = fs::canonical(dir, ec);
  if (ec) fail(ErrorKind::Input, "cannot read directory " + shown + ": " + ec.message());
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  if (ec) fail(ErrorKind::Input, "cannot read directory " + shown + ": " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) fail(ErrorKind::Input, "cannot read directory " + shown + ": " + ec.message());
    const fs::directory_entry& entry = *it;
    if (entry.is_directory(ec)) {
      if (is_hidden(entry.path())) {
        it.disable_recursion_pending();
      } else if (std::optional<fs::path> chart = chart_of(entry.path())) {
        it.disable_recursion_pending();
        fs::path relative = entry.path().lexically_relative(dir);
        charts.add((fs::path(shown) / chart->lexically_relative(dir)).lexically_normal(),
                   (fs::path(shown) / relative).lexically_normal().string() + "/");
      }
      continue;
    }
    // Hidden files (.archfit.yaml, editor backups) are configuration, not input.
    if (!entry.is_regular_file(ec) || !is_manifest_name(entry.path()) || is_hidden(entry.path())) {
      continue;
    }
    fs::path relative = entry.path().lexically_relative(dir);
    InputFile file;
    file.path = entry.path();
    file.name = (fs::path(shown) / relative).lexically_normal().string();
    // fix writes what it reads: not a file elsewhere that a link leads to,
    // unless asked.
    if (entry.is_symlink(ec) && !options.follow_symlinks) {
      fs::path target = fs::canonical(entry.path(), ec);
      if (!ec && !inside(root, target)) {
        out.skipped.push_back("skipped " + file.name + ": a symbolic link to " + target.string() +
                              ", outside " + shown + " (--follow-symlinks takes it)");
        continue;
      }
    }
    found.push_back(std::move(file));
  }
  if (found.empty()) {
    fail(ErrorKind::Input, "no manifests (*.yaml, *.yml) in directory " + shown);
  }
  std::sort(found.begin(), found.end(),
            [](const InputFile& a, const InputFile& b) { return a.name < b.name; });
  out.files.insert(out.files.end(), found.begin(), found.end());
}

// Drops files that are the same file as one before them.
void read_each_once(std::vector<InputFile>& files) {
  std::unordered_set<std::string, KeyedHash, std::equal_to<>> seen;
  std::erase_if(files, [&seen](const InputFile& f) {
    if (f.is_stdin) return false;
    std::error_code ec;
    fs::path real = fs::canonical(f.path, ec);
    if (ec) return false;
    return !seen.insert(real.native()).second;
  });
}

}  // namespace

Inputs collect_inputs(const std::vector<std::string>& args, const InputOptions& options) {
  Inputs out;
  ChartTemplates charts;
  if (args.empty()) {
    out.files.push_back(InputFile{"<stdin>", {}, true});
    return out;
  }
  for (const std::string& arg : args) {
    if (arg == "-") {
      out.files.push_back(InputFile{"<stdin>", {}, true});
      continue;
    }
    std::error_code ec;
    fs::file_status st = fs::status(arg, ec);
    if (ec || !fs::exists(st)) {
      fail(ErrorKind::Input, "cannot read " + arg + ": " +
                                 (ec ? ec.message() : std::string("no such file or directory")));
    }
    if (std::optional<fs::path> chart = chart_of(arg)) {
      charts.add(*chart, arg);
    } else if (fs::is_directory(st)) {
      add_directory(arg, arg, options, charts, out);
    } else {
      out.files.push_back(InputFile{arg, arg, false});
    }
  }
  charts.report(out);
  read_each_once(out.files);
  return out;
}

std::string read_input(const InputFile& input, FileIdentity* identity, std::string_view what) {
  try {
    // The read checks the bytes as they come (yaml::manifest_read_limit).
    std::string text = input.is_stdin
                           ? read_stdin(yaml::manifest_read_limit(what))
                           : read_file(input.path, yaml::manifest_read_limit(what), identity);
    yaml::check_line_breaks(text);
    return text;
  } catch (const Error& e) {
    if (!e.where().file.empty() || e.where().line == 0) throw;
    throw e.in_file(input.name);
  }
}

}  // namespace archfit::manifest
