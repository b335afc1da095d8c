#include <algorithm>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <archfit/base/untrusted.hpp>
#include <archfit/surface/command_line/lock_changes.hpp>

namespace archfit::surface::command_line {

namespace {

std::vector<std::string> platforms_of(const std::optional<cache::LockEntry>& e) {
  return e ? e->platforms.strs() : std::vector<std::string>{};
}

std::vector<std::string> minus(const std::vector<std::string>& a,
                               const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (std::find(b.begin(), b.end(), x) == b.end()) out.push_back(x);
  }
  return out;
}

std::string joined(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& x : list)
    out += (out.empty() ? "" : ", ") + x;
  return out.empty() ? "none" : out;
}

std::string short_digest(const std::string& digest) {
  return digest.empty() ? "no digest" : digest.substr(0, std::min<std::size_t>(digest.size(), 19));
}

// What changed, in words (values from the input left raw: the caller encodes).
std::string words(const LockChange& c) {
  std::string platforms;
  if (!gained(c).empty()) platforms += "; gained " + joined(gained(c));
  if (!lost(c).empty()) platforms += "; lost " + joined(lost(c));
  switch (c.kind) {
    case LockChange::Kind::Missing:
      return "missing: used by " + joined(c.used_by) + ", not in the lock";
    case LockChange::Kind::Added:
      return "added (" + joined(platforms_of(c.after)) + ")";
    case LockChange::Kind::Moved:
      return "the tag moved from " + short_digest(c.before->digest) + " to " +
             short_digest(c.after->digest) + platforms;
    case LockChange::Kind::Platforms:
      return "the registry says " + joined(platforms_of(c.after)) + ", the lock " +
             joined(platforms_of(c.before)) + platforms;
    case LockChange::Kind::Unused:
      return "unused: no manifest in the lock's scope uses it";
    case LockChange::Kind::Removed:
      return "removed: no manifest in the lock's scope used it";
  }
  return "";
}

// A piece at a time: a report of many changes is never held whole.
void write_text(const std::vector<LockReport>& reports, app::Output& out) {
  std::string text;
  for (const LockReport& r : reports) {
    const std::string lock = for_terminal(Untrusted(r.lock.string()));
    for (const LockChange& c : r.changes) {
      text += lock + ": " + for_terminal(Untrusted(c.image)) + ": " +
              for_terminal(Untrusted(words(c))) + "\n";
      if (text.size() >= 64 * 1024) {
        out.write(text);
        text.clear();
      }
    }
  }
  if (!text.empty()) out.write(text);
}

template <class Writer>
void json_string(Writer& w, std::string_view text) {
  const std::string valid = for_json(Untrusted(text));
  w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
}

template <class Writer>
void json_entry(Writer& w, const char* key, const std::optional<cache::LockEntry>& e) {
  if (!e) return;
  w.Key(key);
  w.StartObject();
  if (!e->digest.empty()) {
    w.Key("digest");
    json_string(w, e->digest);
  }
  w.Key("platforms");
  w.StartArray();
  for (const std::string& p : e->platforms.strs())
    json_string(w, p);
  w.EndArray();
  w.EndObject();
}

template <class Writer>
void json_list(Writer& w, const char* key, const std::vector<std::string>& list) {
  w.Key(key);
  w.StartArray();
  for (const std::string& x : list)
    json_string(w, x);
  w.EndArray();
}

void write_json(const std::vector<LockReport>& reports, app::Output& out) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("locks");
  w.StartArray();
  for (const LockReport& r : reports) {
    w.StartObject();
    w.Key("lock");
    json_string(w, r.lock.string());
    w.Key("written");
    w.Bool(r.written);
    w.Key("changes");
    w.StartArray();
    for (const LockChange& c : r.changes) {
      w.StartObject();
      w.Key("image");
      json_string(w, c.image);
      w.Key("change");
      json_string(w, change_name(c.kind));
      json_entry(w, "before", c.before);
      json_entry(w, "after", c.after);
      json_list(w, "gained", gained(c));
      json_list(w, "lost", lost(c));
      if (!c.used_by.empty()) json_list(w, "usedBy", c.used_by);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out.write(std::string(buffer.GetString(), buffer.GetSize()) + "\n");
}

void write_markdown(const std::vector<LockReport>& reports, app::Output& out) {
  std::string text = "### archfit lock\n\n";
  std::size_t changes = 0;
  for (const LockReport& r : reports) {
    if (r.changes.empty()) continue;
    changes += r.changes.size();
    text += for_markdown(Untrusted(r.lock.string())) + (r.written ? " (written)" : "") +
            "\n\n| image | change | gained | lost |\n"
            "|---|---|---|---|\n";
    for (const LockChange& c : r.changes) {
      text += "| " + for_markdown(Untrusted(c.image)) + " | " +
              for_markdown(Untrusted(std::string(change_name(c.kind)))) + " | " +
              for_markdown(Untrusted(joined(gained(c)))) + " | " +
              for_markdown(Untrusted(joined(lost(c)))) + " |\n";
    }
    text += "\n";
  }
  if (changes == 0) text += "Nothing to change: every lock file holds what its manifests use.\n";
  out.write(text);
}

}  // namespace

std::string_view change_name(LockChange::Kind kind) {
  switch (kind) {
    case LockChange::Kind::Missing:
      return "missing";
    case LockChange::Kind::Added:
      return "added";
    case LockChange::Kind::Moved:
      return "moved";
    case LockChange::Kind::Platforms:
      return "platforms";
    case LockChange::Kind::Unused:
      return "unused";
    case LockChange::Kind::Removed:
      return "removed";
  }
  return "";
}

std::vector<std::string> gained(const LockChange& c) {
  if (!c.before || !c.after) return {};
  return minus(platforms_of(c.after), platforms_of(c.before));
}

std::vector<std::string> lost(const LockChange& c) {
  if (!c.before || !c.after) return {};
  return minus(platforms_of(c.before), platforms_of(c.after));
}

void write_lock_reports(const std::vector<LockReport>& reports, const std::string& format,
                        app::Output& out) {
  if (format == "json") return write_json(reports, out);
  if (format == "markdown") return write_markdown(reports, out);
  write_text(reports, out);
}

}  // namespace archfit::surface::command_line
