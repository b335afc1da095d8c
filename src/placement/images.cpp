#include "placement/images.hpp"

#include <archfit/base/text.hpp>

#include "placement/wording.hpp"

namespace archfit::placement::detail {

image::PlatformSet ImageFacts::common(const image::PlatformSet& cluster) const {
  image::PlatformSet S = cluster;
  for (const image::PlatformSet* set : sets)
    S = set->filter_runnable_on(S);
  return S;
}

namespace {

// Whether images[i] was named before i.
bool named_before(const std::vector<std::pair<std::string_view, bool>>& images, std::size_t i) {
  for (std::size_t j = 0; j < i; ++j) {
    if (images[j].first == images[i].first) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string_view> ImageFacts::foreign(const image::PlatformSet& cluster) const {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < images.size() && i < sets.size(); ++i) {
    if (!named_before(images, i) && sets[i]->filter_runnable_on(cluster).empty())
      out.push_back(images[i].first);
  }
  return out;
}

std::string ImageFacts::described() const {
  std::string out;
  for (std::size_t i = 0; i < images.size(); ++i) {
    if (named_before(images, i)) continue;
    if (!out.empty()) out += "; ";
    out += archfit::quoted(images[i].first);
    out += images[i].second ? " is assumed to support " : " supports ";
    out += list(*sets[i]);
  }
  return out;
}

// The hint of a configuration, naming the image where it asks for one
// ("archfit lock --set IMAGE=PLATFORMS").
std::string hint_for(const std::string& hint, const manifest::Container& c) {
  std::size_t at = hint.find("IMAGE=");
  if (at == std::string::npos || !c.reference) return hint;
  return hint.substr(0, at) + c.reference->canonical() + hint.substr(at + 5);
}

ImageFacts look_up_images(const manifest::PodTemplate& t, const Config& config,
                          const Lookup& lookup, Reporter& report) {
  ImageFacts facts;
  // Images that could not be resolved and have no fallback, with where they
  // are: worded once it is known whether the others say anything.
  struct Unresolved {
    const manifest::Container* container;
    std::string cause;
  };
  std::vector<Unresolved> unresolved;
  auto field = [](const manifest::Container& c) {
    return yaml::Path{yaml::PathStep::of("spec"),
                      yaml::PathStep::of(c.init ? "initContainers" : "containers"),
                      yaml::PathStep::named(c.name), yaml::PathStep::of("image")};
  };
  auto who = [](const manifest::Container& c) { return "container " + archfit::quoted(c.name); };
  const Config& s = config;
  for (const manifest::Container& c : t.containers) {
    if (!c.image) continue;
    const std::optional<image::Reference>& ref = c.reference;
    if (!ref) {
      report.add("invalid-image-reference", findings::Severity::Error,
                 who(c) + ": " + c.reference_error + "; archfit leaves this workload alone",
                 c.image, field(c));
      facts.leave_alone = true;
      continue;
    }
    if (c.pull_policy == "Never") {
      if (!report.wants(findings::Severity::Info, false)) continue;
      report.add("unresolved-image", findings::Severity::Info,
                 who(c) + ": imagePullPolicy is Never, so archfit does not look up " +
                     archfit::quoted(c.image_ref) + " and it does not restrict where the pod runs",
                 c.image, field(c));
      continue;
    }
    const ImageAnswer answer = lookup(*ref);
    if (!ref->has_digest() && report.wants(findings::Severity::Info, false)) {
      std::string pin = answer.known() && !answer.digest.empty()
                            ? " (" + c.image_ref + "@" + std::string(answer.digest) + ")"
                            : "";
      report.add("mutable-tag", findings::Severity::Info,
                 who(c) + ": image " + archfit::quoted(c.image_ref) +
                     " is a tag, which can move to an image built for other platforms; pin its "
                     "digest" +
                     pin,
                 c.image, field(c));
    }
    if (answer.known()) {
      facts.sets.push_back(answer.platforms);
      facts.images.emplace_back(c.image_ref, false);
      continue;
    }
    if (s.on_unresolved == OnUnresolved::Fail) facts.leave_alone = true;
    if (answer.assumed) {
      if (s.on_unresolved != OnUnresolved::Ignore) {
        report.add("unresolved-image",
                   s.on_unresolved == OnUnresolved::Fail ? findings::Severity::Error
                                                         : findings::Severity::Warning,
                   who(c) + ": cannot resolve " + archfit::quoted(c.image_ref) + ": " +
                       std::string(answer.why) + "; using resolve.fallbackPlatforms (" +
                       list(*answer.platforms) + ")",
                   c.image, field(c));
      }
      facts.sets.push_back(answer.platforms);
      facts.images.emplace_back(c.image_ref, true);
      continue;
    }
    unresolved.push_back(Unresolved{&c, std::string(answer.why)});
  }
  bool others_known = !facts.sets.empty();
  if (!others_known) facts.leave_alone = true;
  if (s.on_unresolved == OnUnresolved::Ignore) return facts;
  for (const Unresolved& u : unresolved) {
    const manifest::Container& c = *u.container;
    const std::string hint = hint_for(s.unresolved_hint, c);
    std::string what;
    if (s.on_unresolved == OnUnresolved::Fail && !s.unattended.empty()) {
      what = "; archfit changes nothing, as an unattended run (" + s.unattended +
             ") fails on an image it cannot resolve (" + hint +
             "; or set resolve.onUnresolved: warn)";
    } else if (s.on_unresolved == OnUnresolved::Fail) {
      what = "; resolve.onUnresolved is fail, so archfit changes nothing (" + hint + ")";
    } else if (others_known) {
      what =
          "; archfit places the pods by the images it could resolve, which this one may not "
          "run on everywhere (" +
          hint + ")";
    } else {
      what = "; archfit leaves this workload alone until the image is resolved (" + hint + ")";
    }
    report.add("unresolved-image",
               s.on_unresolved == OnUnresolved::Fail ? findings::Severity::Error
                                                     : findings::Severity::Warning,
               who(c) + ": cannot resolve " + archfit::quoted(c.image_ref) + ": " + u.cause + what,
               c.image, field(c));
  }
  return facts;
}

}  // namespace archfit::placement::detail
