// The keys of the configuration (docs/configuration.md) as a table: dotted
// path, type for people, and the function that reads the value into a
// Config. Reading a document, the ConfigMap form and the documentation test
// all walk this one table.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/config/field.hpp>
#include <archfit/manifest/kinds.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/settings.hpp>

namespace archfit::config {

// Where an architecture name was used (an `architectures` or
// `placement.preferredWeights` entry), to check it against the final
// clusterPlatforms once flags and environment have had their say.
struct ArchitectureUse {
  std::string arch;
  std::string path;
  Location where;
};

// One document's settings before they are checked against each other.
struct ParsedConfig {
  ParsedConfig();  // the defaults, with no architecture described yet

  placement::Config config;   // defaults plus what the document sets; not completed
  resolve::Settings resolve;  // the resolve section, beside placement's
  bool sets_cluster_platforms = false;
  bool sets_on_unresolved = false;
  std::vector<ArchitectureUse> architecture_uses;
  // Applied after the whole document is read, so that their order does not matter.
  std::vector<manifest::KindRule> extra_kinds;
  std::vector<std::string> excluded_kinds;
  // The label of each topology spread profile and where it was said:
  // checked against the architectures' node labels once all are known.
  std::vector<std::pair<std::string, Location>> topology_keys;
  // A KRM functionConfig may also give the lock file: a path, or its content.
  bool function_config = false;  // set before reading: accept `lock`
  std::optional<std::string> lock_path;
  std::optional<std::string> lock_content;  // JSON
};

using Setter = void (*)(const Field& value, ParsedConfig& out);

struct KeySpec {
  std::string_view path;  // "placement.mode"
  std::string_view type;  // "affinity | nodeSelector | preferred | tolerationsOnly"
  Setter set;
};

const std::vector<KeySpec>& config_keys();
const KeySpec* find_key(std::string_view path);
// A path with keys below it ("placement", "resolve").
bool is_section(std::string_view path);
// The names valid directly under `prefix` ("" for the top level), in table order.
std::vector<std::string_view> keys_under(std::string_view prefix);
// Every leaf path and section: the keys of a ConfigMap's data.
std::vector<std::string_view> flat_keys();

// Enum spellings, in the order of the enums they stand for.
const std::vector<std::string_view>& mode_names();
const std::vector<std::string_view>& on_unresolved_names();

// The readers of structured values (config_structs.cpp).
void read_architectures(const Field& value, ParsedConfig& out);
void read_preferred_weights(const Field& value, ParsedConfig& out);
void read_kinds_extra(const Field& value, ParsedConfig& out);
void read_kinds_exclude(const Field& value, ParsedConfig& out);
void read_selector(const Field& value, ParsedConfig& out);
void read_tag_ttl(const Field& value, ParsedConfig& out);
void read_mirrors(const Field& value, ParsedConfig& out);
placement::Toleration read_toleration(const Field& value);
using Labels = std::vector<std::pair<std::string, std::string>>;
Labels read_labels(const Field& value);
// nodePools.pools and nodePools.instanceArchs (node_pools.cpp).
void read_declared_pools(const Field& value, ParsedConfig& out);
void read_instance_archs(const Field& value, ParsedConfig& out);
// spread.profiles (spread_profiles.cpp).
void read_spread_profiles(const Field& value, ParsedConfig& out);

// Reads a configuration document (any of the three shapes) into `out`.
void read_config_document(yaml::NodeRef root, ConfigDocument& doc, ParsedConfig& out);

// Checks architecture uses against the final clusterPlatforms (entries the
// document made for architectures that flags or environment took out of
// clusterPlatforms are dropped; otherwise they are errors), applies the kinds
// and completes the configuration.
placement::Config finish_config(ParsedConfig parsed, bool platforms_overridden);

}  // namespace archfit::config
