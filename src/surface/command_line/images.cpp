#include <sstream>

#include <archfit/base/untrusted.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/run/documents.hpp>
#include <archfit/surface/command_line/images.hpp>

namespace archfit::surface::command_line {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

}  // namespace

app::ExitCode images(const ImagesRequest& options, app::Output& out, std::ostream& err) {
  std::ostringstream text;
  auto kinds = manifest::KindTable::defaults();
  auto inputs = manifest::collect_inputs(options.paths).files;
  const bool lock = options.format == "lock";
  std::vector<std::string> canonical;
  std::size_t faults = run::for_each_document(
      inputs,
      [&](const manifest::InputFile& input, const yaml::Tree& tree) {
        for (const manifest::Workload& w : manifest::discover(tree, kinds)) {
          for (const manifest::PodTemplate& t : w.templates) {
            for (const manifest::Container& c : t.containers) {
              if (!c.image) continue;
              if (lock) {
                if (c.reference) canonical.push_back(c.reference->canonical());
                continue;
              }
              text << shown(input.name) << ':' << c.image.line() << ':' << c.image.column() << ": "
                   << shown(c.reference ? c.reference->canonical() : c.reference_error) << "  ("
                   << shown(w.kind) << ' ' << shown(w.name) << ", container " << shown(c.name)
                   << ")\n";
            }
          }
        }
      },
      err);
  if (lock) text << cache::LockFile::skeleton(canonical);
  out.write(text.str());
  return faults > 0 ? app::kChangesOrFindings : app::kOk;
}

}  // namespace archfit::surface::command_line
