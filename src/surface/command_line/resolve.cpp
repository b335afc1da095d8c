#include <chrono>
#include <optional>
#include <sstream>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/run/wants.hpp>
#include <archfit/surface/command_line/resolve.hpp>

namespace archfit::surface::command_line {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

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

void write_json(const std::vector<Row>& rows, app::Output& out) {
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
  out.write(std::string(buffer.GetString(), buffer.GetSize()) + '\n');
}

void write_text(const std::vector<Row>& rows, app::Output& out, std::ostream& err) {
  std::ostringstream text;
  for (const Row& row : rows) {
    if (row.resolution != nullptr && row.resolution->ok) {
      const resolve::Resolution& r = *row.resolution;
      text << shown(row.ref->canonical()) << "  " << (r.digest.empty() ? "-" : shown(r.digest))
           << "  " << shown(r.platforms.str()) << "  (" << resolve::source_name(r.source) << ")\n";
    } else {
      err << "archfit: "
          << shown(row.resolution != nullptr
                       ? row.image + ": " + std::string(row.resolution->cause(*row.ref))
                       : row.error)
          << '\n';
    }
  }
  out.write(text.str());
}

}  // namespace

app::ExitCode resolve(const ResolveRequest& o, app::Output& out, std::ostream& err) {
  if (o.format != "text" && o.format != "json") {
    fail(ErrorKind::Usage, "--format: \"" + o.format + "\" is not a format; use text or json");
  }
  app::Request request;
  request.read_inputs = false;
  request.flags = o.flags;
  request.verbose = o.verbose;
  app::Session session(std::move(request), err);
  std::vector<Row> rows;
  std::vector<resolve::Want> wants;
  std::chrono::seconds ttl = run::tag_ttl(session.loaded().resolve, "");
  for (const std::string& text : o.images) {
    Row row;
    row.image = text;
    row.ref = image::Reference::try_parse(text, &row.error);
    if (row.ref) wants.push_back(resolve::Want{*row.ref, ttl, {}});
    rows.push_back(std::move(row));
  }
  session.resolver().resolve_all(wants, session.progress());
  bool failed = false;
  for (Row& row : rows) {
    if (row.ref) row.resolution = session.resolver().find(*row.ref);
    failed |= row.resolution == nullptr || !row.resolution->ok;
  }
  if (o.format == "json") {
    write_json(rows, out);
  } else {
    write_text(rows, out, err);
  }
  if (o.verbose) app::print_resolution_summary(err, session.resolver().stats());
  return failed ? app::kUnresolved : app::kOk;
}

}  // namespace archfit::surface::command_line
