// `archfit resolve IMAGE...`: the digest and platforms of images, from the
// lock file, the cache or their registries, as a person or a script wants them.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <archfit/base/error.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/run/wants.hpp>

#include "cli/commands.hpp"
#include "cli/run_setup.hpp"
#include "cli/shown.hpp"

namespace archfit::cli {

namespace {

struct ResolveOptions {
  std::vector<std::string> images;
  CommonFlags common;
  std::string format = "text";
  bool verbose = false;
};

struct Row {
  std::string image;
  std::optional<image::Reference> ref;
  std::string error;
  const resolve::Resolution* resolution = nullptr;
};

// A string from input or a registry, as valid UTF-8 (for_json).
template <class Writer>
void json_string(Writer& w, std::string_view text) {
  const std::string valid = for_json(Untrusted(text));
  w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
}

void write_json(const std::vector<Row>& rows) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartArray();
  for (const Row& row : rows) {
    w.StartObject();
    w.Key("image");
    json_string(w, row.image);
    if (row.ref) {
      w.Key("canonical");
      json_string(w, row.ref->canonical());
    }
    if (row.resolution != nullptr && row.resolution->ok) {
      const resolve::Resolution& r = *row.resolution;
      w.Key("digest");
      json_string(w, r.digest);
      w.Key("platforms");
      w.StartArray();
      for (const std::string& p : r.platforms.strs())
        json_string(w, p);
      w.EndArray();
      w.Key("source");
      w.String(std::string(resolve::source_name(r.source)).c_str());
    } else {
      const std::string& error = row.resolution != nullptr ? row.resolution->error : row.error;
      w.Key("error");
      json_string(w, error);
    }
    w.EndObject();
  }
  w.EndArray();
  std::cout << buffer.GetString() << '\n';
}

void write_text(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    if (row.resolution != nullptr && row.resolution->ok) {
      const resolve::Resolution& r = *row.resolution;
      std::cout << shown(row.ref->canonical()) << "  " << (r.digest.empty() ? "-" : shown(r.digest))
                << "  " << shown(r.platforms.str()) << "  (" << resolve::source_name(r.source)
                << ")\n";
    } else {
      std::cerr << "archfit: "
                << shown(row.resolution != nullptr
                             ? row.image + ": " + std::string(row.resolution->cause(*row.ref))
                             : row.error)
                << '\n';
    }
  }
}

int run_resolve(const ResolveOptions& o) {
  if (o.format != "text" && o.format != "json") {
    fail(ErrorKind::Usage, "--format: \"" + o.format + "\" is not a format; use text or json");
  }
  RunSetup setup =
      prepare_run({}, o.common, SetupOptions{.read_inputs = false, .verbose = o.verbose});
  std::vector<Row> rows;
  std::vector<resolve::Want> wants;
  std::chrono::seconds ttl = run::tag_ttl(setup.loaded.resolve, "");
  for (const std::string& text : o.images) {
    Row row;
    row.image = text;
    row.ref = image::Reference::try_parse(text, &row.error);
    if (row.ref) wants.push_back(resolve::Want{*row.ref, ttl, {}});
    rows.push_back(std::move(row));
  }
  setup.resolver->resolve_all(wants, setup.run_options.progress);
  bool failed = false;
  for (Row& row : rows) {
    if (row.ref) row.resolution = setup.resolver->find(*row.ref);
    failed |= row.resolution == nullptr || !row.resolution->ok;
  }
  if (o.format == "json") {
    write_json(rows);
  } else {
    write_text(rows);
  }
  if (o.verbose) print_resolution_summary(std::cerr, setup.resolver->stats());
  return failed ? kUnresolved : kOk;
}

}  // namespace

void add_resolve_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<ResolveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "resolve",
      "Print the digest and platforms of images (from the lock file, the cache or the registry)");
  cmd->add_option("images", o->images,
                  "Image references, e.g. nginx:1.25 ghcr.io/org/app@sha256:...")
      ->required();
  cmd->add_option("--format", o->format, "Output format: text or json")->capture_default_str();
  cmd->add_flag("-v,--verbose", o->verbose,
                "Log registry requests and print how images were resolved");
  add_common_flags(cmd, o->common);
  cmd->callback([o, &state] { state.exit_code = run_resolve(*o); });
}

}  // namespace archfit::cli
