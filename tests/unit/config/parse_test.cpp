// Reading one configuration document: every key good and bad, with the exact
// message and its line:column, the three shapes a configuration comes in,
// and did-you-mean suggestions.
#include <functional>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::config {
namespace {

using placement::Config;
using Labels = std::vector<std::pair<std::string, std::string>>;

const char* kFile = ".archfit.yaml";

std::string error_of(const std::string& text) {
  try {
    parse_config(text, kFile);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config) << e.what();
    return e.what();
  }
  return "no error";
}

// A readable dump of every setting, to compare configurations as a whole.
std::string dump(const Config& c, const resolve::Settings& r) {
  std::string out = "platforms=" + c.cluster_platforms.str() + "\n";
  for (const auto& [arch, a] : c.architectures) {
    out += "arch " + arch + " labels=";
    for (const auto& [k, v] : a.node_labels)
      out += k + "=" + v + ",";
    out += " tolerations=";
    for (const auto& t : a.tolerations) {
      out += t.key + ":" + t.op + ":" + t.value + ":" + t.effect + ":" +
             (t.toleration_seconds ? std::to_string(*t.toleration_seconds) : "-") + ",";
    }
    out += "\n";
  }
  out += "mode=" + std::to_string(static_cast<int>(c.mode)) + " weights=";
  for (const auto& [arch, w] : c.preferred_weights)
    out += arch + "=" + std::to_string(w) + ",";
  out +=
      " respect=" + std::to_string(c.respect_existing) + " annotate=" + std::to_string(c.annotate);
  out += "\nns+=";
  for (const auto& n : c.namespaces_include)
    out += n + ",";
  out += " ns-=";
  for (const auto& n : c.namespaces_exclude)
    out += n + ",";
  out += "\nselector=";
  for (const auto& [k, v] : c.selector.match_labels)
    out += k + "=" + v + ",";
  for (const auto& e : c.selector.match_expressions) {
    out += e.key + " " + e.op + " (";
    for (const auto& v : e.values)
      out += v + ",";
    out += "),";
  }
  out += "\noptout=" + c.opt_out_annotation;
  out += "\nrollout=" + std::to_string(c.kinds.find("argoproj.io/v1alpha1", "Rollout") != nullptr) +
         " daemonset=" + std::to_string(c.kinds.find("apps/v1", "DaemonSet") != nullptr);
  out += "\nonUnresolved=" + std::to_string(static_cast<int>(c.on_unresolved)) +
         " fallback=" + c.fallback_platforms.str() + " ttl=";
  for (const auto& [k, v] : r.tag_ttl)
    out += k + "=" + std::to_string(v.count()) + ",";
  out += " concurrency=" + std::to_string(r.concurrency) +
         " timeout=" + std::to_string(r.timeout.count()) + "\nmirrors=";
  for (const auto& [k, v] : r.mirrors) {
    out += k + ":";
    for (const auto& h : v)
      out += h + ",";
  }
  out += " insecure=";
  for (const auto& h : r.insecure_registries)
    out += h + ",";
  out += " ca=" + r.ca_file + " docker=" + r.docker_config + " creds=" + r.credentials_dir + "\n";
  return out;
}

std::string dump(const Settings& s) {
  return dump(s.placement, s.resolve);
}
std::string dump(const Config& c) {
  return dump(c, resolve::Settings());
}

// ---------------------------------------------------------------------------
// Valid documents

TEST(ParseConfig, EmptyDocumentsAreTheDefaults) {
  const std::string defaults = dump(Config::defaults());
  for (const char* text : {"", "\n", "# only a comment\n", "---\n", "~\n", "---\n# c\n...\n"}) {
    EXPECT_EQ(dump(parse_config(text, kFile)), defaults) << text;
  }
}

// Every key of docs/configuration.md set away from its default.
const char* kFullArchFit = R"(apiVersion: archfit.io/v1alpha1
kind: ArchFit
metadata: {name: cluster}
clusterPlatforms: [linux/amd64, linux/arm64, linux/s390x]
architectures:
  arm64:
    tolerations:
    - {key: kubernetes.io/arch, operator: Equal, value: arm64, effect: NoSchedule}
    - {key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 60}
    nodeLabels: {kubernetes.io/arch: arm64, node.example.com/pool: graviton}
  s390x:
    tolerations: []
placement:
  mode: preferred
  preferredWeights: {arm64: 80, amd64: 20}
  respectExisting: false
  annotate: no
kinds:
  exclude: [DaemonSet]
  extra:
  - {apiVersion: example.com/*, kind: Runner, podTemplate: "spec.runners[].template"}
namespaces: {exclude: [kube-system], include: [apps, web]}
selector:
  matchLabels: {team: web}
  matchExpressions:
  - {key: tier, operator: In, values: [front, back]}
  - {key: legacy, operator: DoesNotExist}
optOutAnnotation: example.com/no-archfit
resolve:
  onUnresolved: fail
  fallbackPlatforms: [linux/amd64]
  tagTTL: {IfNotPresent: 14d, Always: 1m}
  concurrency: 32
  timeout: 1m30s
  mirrors: {docker.io: [mirror.gcr.io, mirror.example.com:5000]}
  insecureRegistries: [localhost:5000]
  caFile: /etc/ssl/ca.pem
  dockerConfig: /home/ci/.docker/config.json
  credentialsDir: /run/secrets/registries
)";

const char* kFullDump = R"(platforms=linux/amd64,linux/arm64,linux/s390x
arch amd64 labels=kubernetes.io/arch=amd64, tolerations=
arch arm64 labels=kubernetes.io/arch=arm64,node.example.com/pool=graviton, tolerations=kubernetes.io/arch:Equal:arm64:NoSchedule:-,dedicated:Exists::NoExecute:60,
arch s390x labels=kubernetes.io/arch=s390x, tolerations=
mode=2 weights=amd64=20,arm64=80, respect=0 annotate=0
ns+=apps,web, ns-=kube-system,
selector=team=web,tier In (front,back,),legacy DoesNotExist (),
optout=example.com/no-archfit
rollout=1 daemonset=0
onUnresolved=0 fallback=linux/amd64 ttl=Always=60,IfNotPresent=1209600,default=86400, concurrency=32 timeout=90000
mirrors=docker.io:mirror.gcr.io,mirror.example.com:5000, insecure=localhost:5000, ca=/etc/ssl/ca.pem docker=/home/ci/.docker/config.json creds=/run/secrets/registries
)";

TEST(ParseConfig, EveryKeyOfTheArchFitKind) {
  Settings parsed = parse_config(kFullArchFit, kFile);
  const Config& c = parsed.placement;
  EXPECT_EQ(dump(parsed), kFullDump);
  EXPECT_NE(c.kinds.find("example.com/v2", "Runner"), nullptr);
  EXPECT_EQ(c.kinds.find("example.com/v2", "Runner")->pod_template, "spec.runners[].template");
}

TEST(ParseConfig, PlainFileWithoutApiVersionAndKind) {
  std::string text = kFullArchFit;
  text = text.substr(text.find("metadata:"));
  EXPECT_EQ(dump(parse_config(text, kFile)), kFullDump);
}

// The same settings flat in a ConfigMap's data, as a KRM function config:
// scalars as strings, lists comma-separated or as flow lists, structured
// values as YAML text, and a whole section as YAML text.
const char* kFullConfigMap = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: archfit
  annotations: {config.kubernetes.io/function: "container: {image: archfit}"}
data:
  clusterPlatforms: linux/amd64, linux/arm64,linux/s390x
  architectures: |
    arm64:
      tolerations:
      - {key: kubernetes.io/arch, operator: Equal, value: arm64, effect: NoSchedule}
      - {key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 60}
      nodeLabels: {kubernetes.io/arch: arm64, node.example.com/pool: graviton}
    s390x:
      tolerations: []
  placement.mode: preferred
  placement.preferredWeights: "{arm64: 80, amd64: 20}"
  placement.respectExisting: "false"
  placement.annotate: "no"
  kinds.exclude: DaemonSet
  kinds.extra: '[{apiVersion: example.com/*, kind: Runner, podTemplate: "spec.runners[].template"}]'
  namespaces.exclude: "[kube-system]"
  namespaces.include: apps,web
  selector: |
    matchLabels: {team: web}
    matchExpressions:
    - {key: tier, operator: In, values: [front, back]}
    - {key: legacy, operator: DoesNotExist}
  optOutAnnotation: example.com/no-archfit
  resolve: |
    tagTTL: {IfNotPresent: 14d, Always: 1m}
    mirrors: {docker.io: [mirror.gcr.io, mirror.example.com:5000]}
  resolve.onUnresolved: fail
  resolve.fallbackPlatforms: linux/amd64
  resolve.concurrency: "32"
  resolve.timeout: 1m30s
  resolve.insecureRegistries: localhost:5000
  resolve.caFile: /etc/ssl/ca.pem
  resolve.dockerConfig: /home/ci/.docker/config.json
  resolve.credentialsDir: /run/secrets/registries
)";

TEST(ParseConfig, ConfigMapDataIsTheSameConfiguration) {
  EXPECT_EQ(dump(parse_config(kFullConfigMap, kFile)), kFullDump);
}

TEST(ParseConfig, ConfigMapWithoutDataOrApiVersion) {
  EXPECT_EQ(dump(parse_config("kind: ConfigMap\nmetadata: {name: x}\n", kFile)),
            dump(Config::defaults()));
  EXPECT_EQ(dump(parse_config("kind: ConfigMap\ndata:\n  resolve.caFile: ''\n", kFile)),
            dump(Config::defaults()));
}

TEST(ParseConfig, NodeOfAnotherTreeAsKrmFunctionConfig) {
  std::string list =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"
      "functionConfig:\n  apiVersion: archfit.io/v1alpha1\n  kind: ArchFit\n"
      "  placement: {mode: nodeSelector}\n  resolve: {concurrency: -1}\n";
  yaml::Tree tree = yaml::parse_document(list);
  try {
    parse_config(tree.root().get("functionConfig"), "<stdin>");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.what(), std::string("<stdin>:8:26: resolve.concurrency: -1 is out of range; use an "
                                    "integer from 1 to 256"));
  }
}

struct Good {
  const char* name;
  const char* text;
  std::function<void(const Settings&)> check;
};

class ParseConfigGood : public ::testing::TestWithParam<Good> {};

TEST_P(ParseConfigGood, Reads) {
  GetParam().check(parse_config(GetParam().text, kFile));
}

const placement::Toleration kArm64Taint{"kubernetes.io/arch", "Equal", "arm64", "NoSchedule", {}};

INSTANTIATE_TEST_SUITE_P(
    Table, ParseConfigGood,
    ::testing::Values(
        Good{"BooleansAsKubernetesReadsThem", "placement: {respectExisting: off, annotate: Yes}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_FALSE(c.respect_existing);
               EXPECT_TRUE(c.annotate);
             }},
        Good{"BooleanWordsTrueOn", "placement: {respectExisting: on, annotate: TRUE}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_TRUE(c.respect_existing && c.annotate);
             }},
        Good{"EveryMode", "placement: {mode: tolerationsOnly}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.mode, placement::Mode::TolerationsOnly);
             }},
        Good{"NodeSelectorMode", "placement:\n  mode: nodeSelector\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.mode, placement::Mode::NodeSelector);
             }},
        Good{"OnUnresolvedIgnore", "resolve: {onUnresolved: ignore}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.on_unresolved, placement::OnUnresolved::Ignore);
             }},
        Good{"NullValuesKeepDefaults",
             "clusterPlatforms:\nplacement:\n  mode: ~\nresolve: null\nselector:\n",
             [](const Settings& s) { EXPECT_EQ(dump(s), dump(Config::defaults())); }},
        Good{"PlatformsAreNormalized", "clusterPlatforms: [linux/x86_64, linux/aarch64, arm64]\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.cluster_platforms.str(), "linux/amd64,linux/arm64");
               EXPECT_EQ(c.architectures.size(), 2u);
             }},
        Good{"ArmVariantsGetArchitectureArm", "clusterPlatforms: [linux/arm/v7, linux/arm64]\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.architectures.at("arm").node_labels,
                         (Labels{{"kubernetes.io/arch", "arm"}}));
             }},
        Good{"WindowsPlatforms", "clusterPlatforms: [linux/amd64, windows/amd64]\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.cluster_platforms.oses().size(), 2u);
             }},
        Good{"ArchitectureKeysAreNormalized",
             "architectures:\n  aarch64: {nodeLabels: {example.com/arch: arm}}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.architectures.at("arm64").node_labels,
                         (Labels{{"example.com/arch", "arm"}}));
             }},
        Good{"OmittedTolerationsKeepTheDefault",
             "architectures:\n  arm64:\n    nodeLabels: {example.com/arch: arm}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.architectures.at("arm64").tolerations,
                         std::vector<placement::Toleration>{kArm64Taint});
             }},
        Good{"EmptyTolerationsMeanNone", "architectures:\n  arm64:\n    tolerations: []\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_TRUE(c.architectures.at("arm64").tolerations.empty());
               EXPECT_EQ(c.architectures.at("arm64").node_labels,
                         (Labels{{"kubernetes.io/arch", "arm64"}}));
             }},
        Good{"EmptyArchitectureEntryIsTheDefault", "architectures: {arm64: {}, amd64: ~}\n",
             [](const Settings& s) { EXPECT_EQ(dump(s), dump(Config::defaults())); }},
        Good{"TolerationDefaultsAndEmptyStrings",
             "architectures:\n  arm64:\n    tolerations:\n    - {operator: Exists}\n"
             "    - {key: a, operator: '', value: '1', effect: ''}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.architectures.at("arm64").tolerations,
                         (std::vector<placement::Toleration>{{"", "Exists", "", "", {}},
                                                             {"a", "Equal", "1", "", {}}}));
             }},
        Good{"SelectorShorthandIsMatchLabels", "selector: {app: web, example.com/tier: front}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.selector.match_labels,
                         (Labels{{"app", "web"}, {"example.com/tier", "front"}}));
               EXPECT_TRUE(c.selector.match_expressions.empty());
             }},
        Good{"LabelValuesMayBeNumbers", "selector: {version: 2}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.selector.match_labels, (Labels{{"version", "2"}}));
             }},
        Good{"TagTtlKeysNotGivenKeepDefaults", "resolve: {tagTTL: {default: 0}}\n",
             [](const Settings& s) {
               EXPECT_EQ(s.resolve.tag_ttl.at("default"), std::chrono::seconds(0));
               EXPECT_EQ(s.resolve.tag_ttl.at("IfNotPresent"), std::chrono::hours(24 * 7));
             }},
        Good{"OneMirrorAsAString", "resolve: {mirrors: {docker.io: mirror.gcr.io}}\n",
             [](const Settings& s) {
               EXPECT_EQ(s.resolve.mirrors.at("docker.io"),
                         std::vector<std::string>{"mirror.gcr.io"});
             }},
        Good{"ExtraKindWithoutApiVersionMatchesAny",
             "kinds:\n  extra:\n  - {kind: Runner, podTemplate: spec.template}\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_NE(c.kinds.find("x.io/v1", "Runner"), nullptr);
             }},
        Good{"ExcludeWinsOverExtraWhateverTheOrder",
             "kinds:\n  exclude: [Runner]\n  extra: [{kind: Runner, podTemplate: spec.template}]\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.kinds.find("x.io/v1", "Runner"), nullptr);
             }},
        Good{"AliasesAreFollowed", "namespaces:\n  include: &ns [apps]\n  exclude: *ns\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.namespaces_exclude, std::vector<std::string>{"apps"});
             }},
        Good{"TaggedStringIsAString", "optOutAnnotation: !!str example.com/skip\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_EQ(c.opt_out_annotation, "example.com/skip");
             }},
        Good{"CommentOnlyConfigMapValueIsEmpty",
             "kind: ConfigMap\ndata:\n  architectures: |\n    # none yet\n",
             [](const Settings& s) { EXPECT_EQ(dump(s), dump(Config::defaults())); }},
        Good{"ConfigMapEmptyListValue", "kind: ConfigMap\ndata:\n  namespaces.exclude: ''\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_TRUE(c.namespaces_exclude.empty());
             }},
        Good{"ConfigMapBooleanWords", "kind: ConfigMap\ndata:\n  placement.annotate: 'off'\n",
             [](const Settings& s) {
               const Config& c = s.placement;
               EXPECT_FALSE(c.annotate);
             }}),
    [](const ::testing::TestParamInfo<Good>& test) { return std::string(test.param.name); });

// ---------------------------------------------------------------------------
// Invalid documents: the whole message, with line and column.

struct Bad {
  const char* name;
  const char* text;
  const char* message;  // after ".archfit.yaml:"
};

class ParseConfigBad : public ::testing::TestWithParam<Bad> {};

TEST_P(ParseConfigBad, SaysWhereAndWhatToDo) {
  EXPECT_EQ(error_of(GetParam().text), std::string(kFile) + ":" + GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Document, ParseConfigBad,
    ::testing::Values(
        Bad{"YamlSyntax", "placement:\n  mode: a: b\n",
            "2:10: cannot parse YAML: mapping values are not allowed in this context"},
        Bad{"TwoDocuments", "clusterPlatforms: [linux/amd64]\n---\nresolve: {}\n",
            "2:1: cannot parse YAML: more than one document in one piece"},
        Bad{"NotAMapping", "- clusterPlatforms\n",
            "1:1: expected a mapping of configuration keys (see docs/configuration.md), got a "
            "list"},
        Bad{"UnknownTopLevelKey", "clusterPlatform: [linux/amd64]\n",
            "1:1: clusterPlatform: unknown key; valid keys here: apiVersion, kind, metadata, "
            "clusterPlatforms, architectures, placement, nodePools, spread, kinds, namespaces, "
            "selector, "
            "optOutAnnotation, resolve, featureGates (did you mean \"clusterPlatforms\"?)"},
        Bad{"SpreadGroupWithLabelAndPool",
            "spread:\n  profiles:\n  - name: a\n    groups:\n    - {nodeLabel: t=a, pool: p, "
            "weight: 1}\n",
            "5:7: spread.profiles[0].groups[0]: a group names either nodeLabel (key=value) or "
            "pool, "
            "e.g. {pool: spot-arm, weight: 3}"},
        Bad{"SpreadGroupLabelWithoutValue",
            "spread:\n  profiles:\n  - name: a\n    groups: [{nodeLabel: spot}]\n",
            "4:26: spread.profiles[0].groups[0].nodeLabel: must read key=value, e.g. "
            "karpenter.sh/capacity-type=spot"},
        Bad{"SpreadRealisationUnknown",
            "spread:\n  profiles:\n  - name: a\n    realisation: topology\n    groups: [{pool: "
            "p, weight: 1}]\n",
            "4:18: spread.profiles[0].realisation: \"topology\" is not a realisation; use one of "
            "split, topologySpread (did you mean \"topologySpread\"?)"},
        Bad{"SpreadLabelOnASplit",
            "spread:\n  profiles:\n  - name: a\n    label: capacity-spread\n    groups: [{pool: "
            "p, weight: 1}]\n",
            "4:12: spread.profiles[0].label: only a topologySpread profile has a label; add "
            "realisation: topologySpread"},
        Bad{"SpreadTopologyByNodeLabel",
            "spread:\n  profiles:\n  - name: a\n    realisation: topologySpread\n    groups: "
            "[{nodeLabel: type=spot, weight: 1}]\n",
            "3:5: spread.profiles[0]: a topologySpread profile's groups name Karpenter pools "
            "(pool: NAME), whose nodes get the label values; type=spot is a node label"},
        Bad{"SpreadTopologyTooManyValues",
            "spread:\n  profiles:\n  - name: a\n    realisation: topologySpread\n    groups: "
            "[{pool: p, weight: 34}, {pool: q, weight: 67}]\n",
            "3:5: spread.profiles[0]: the weights reduce to 34:67, 101 label values; a topology "
            "spread takes at most 100 (round the weights)"},
        Bad{"SpreadTopologyLabel",
            "spread:\n  profiles:\n  - name: a\n    realisation: topologySpread\n    label: "
            "-bad\n    groups: [{pool: p, weight: 1}]\n",
            "5:12: spread.profiles[0].label: invalid label key \"-bad\": must start and end with "
            "a letter or digit"},
        Bad{"SpreadTopologyOverTheArchLabel",
            "spread:\n  profiles:\n  - name: a\n    realisation: topologySpread\n    label: "
            "kubernetes.io/arch\n    groups: [{pool: p, weight: 1}]\n",
            "5:12: spread.profiles: a topology spread cannot be over \"kubernetes.io/arch\", a "
            "label archfit places pods by architecture or OS with: its values would be the "
            "weights' numbers, which no node has; give the profile a label of its own (label: "
            "spread.archfit.io/<name>, the default)"},
        Bad{"SpreadTopologyOverAnArchitecturesNodeLabel",
            "spread:\n  profiles:\n  - name: a\n    realisation: topologySpread\n    label: "
            "example.com/cpu\n    groups: [{pool: p, weight: 1}]\narchitectures:\n  arm64:\n"
            "    nodeLabels: {example.com/cpu: arm64}\n",
            "5:12: spread.profiles: a topology spread cannot be over \"example.com/cpu\", a "
            "label archfit places pods by architecture or OS with: its values would be the "
            "weights' numbers, which no node has; give the profile a label of its own (label: "
            "spread.archfit.io/<name>, the default)"},
        Bad{"DeclaredPoolWithoutName", "nodePools:\n  pools:\n  - {archs: [arm64]}\n",
            "3:5: nodePools.pools[0]: a pool needs a name, e.g. {name: arm-spot, archs: [arm64]}"},
        Bad{"UnknownKeyWithoutSuggestion", "placement:\n  zzz: 1\n",
            "2:3: placement.zzz: unknown key; valid keys here: mode, preferredWeights, "
            "respectExisting, annotate"},
        Bad{"CaseOfAKey", "OptOutAnnotation: x\n",
            "1:1: OptOutAnnotation: unknown key; valid keys here: apiVersion, kind, metadata, "
            "clusterPlatforms, architectures, placement, nodePools, spread, kinds, namespaces, "
            "selector, "
            "optOutAnnotation, resolve, featureGates (did you mean \"optOutAnnotation\"?)"},
        Bad{"DottedKeyOutsideConfigMap", "placement.mode: preferred\n",
            "1:1: placement.mode: dotted keys are for a ConfigMap's data; nest it here, as "
            "placement: {mode: ...}"},
        Bad{"DottedKeyInSection", "resolve:\n  resolve.timeout: 1m\n",
            "2:3: resolve.resolve.timeout: unknown key; valid keys here: onUnresolved, "
            "fallbackPlatforms, tagTTL, concurrency, timeout, mirrors, insecureRegistries, caFile, "
            "dockerConfig, credentialsDir"},
        Bad{"DuplicateKey", "placement:\n  mode: affinity\n  mode: preferred\n",
            "3:3: duplicate key \"mode\" (first at line 2, column 3): "
            "a key may be given only once in a mapping (the API server refuses manifests that "
            "repeat one); remove one of them"},
        Bad{"SectionNotAMapping", "placement: [affinity]\n",
            "1:12: placement: expected a mapping of mode, preferredWeights, respectExisting, "
            "annotate, got a list"},
        Bad{"MetadataNotAMapping", "metadata: archfit\n",
            "1:11: metadata: expected a mapping, got \"archfit\""},
        Bad{"OtherKind", "apiVersion: apps/v1\nkind: Deployment\n",
            "2:7: kind: \"Deployment\" is not an archfit configuration; use kind: ArchFit, or a "
            "ConfigMap with the settings in data"},
        Bad{"KindTypo", "apiVersion: archfit.io/v1alpha1\nkind: Archfit\n",
            "2:7: kind: \"Archfit\" is not an archfit configuration; use kind: ArchFit, or a "
            "ConfigMap with the settings in data (did you mean \"ArchFit\"?)"},
        Bad{"KindWithoutApiVersion", "kind: ArchFit\n",
            "1:7: kind: apiVersion is missing; add apiVersion: archfit.io/v1alpha1"},
        Bad{"OtherApiVersion", "apiVersion: archfit.io/v1\nkind: ArchFit\n",
            "1:13: apiVersion: unsupported apiVersion \"archfit.io/v1\"; use archfit.io/v1alpha1"},
        Bad{"ApiVersionWithoutKind", "apiVersion: archfit.io/v1alpha1\n",
            "1:13: apiVersion: kind is missing; add kind: ArchFit"},
        Bad{"ConfigMapApiVersion", "apiVersion: v2\nkind: ConfigMap\n",
            "1:13: apiVersion: a ConfigMap's apiVersion is v1, not \"v2\""},
        Bad{"ConfigMapTopLevelKey", "kind: ConfigMap\ndat: {}\n",
            "2:1: dat: unknown key; valid keys here: apiVersion, kind, metadata, data (did you "
            "mean \"data\"?)"},
        Bad{"ConfigMapDataNotAMapping", "kind: ConfigMap\ndata: [a]\n",
            "2:7: data: expected a mapping, got a list"}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Platforms, ParseConfigBad,
    ::testing::Values(
        Bad{"UnknownArchitecture", "clusterPlatforms: [linux/amd46]\n",
            "1:20: clusterPlatforms[0]: unknown platform \"linux/amd46\": \"amd46\" is not a known "
            "architecture; write os/arch[/variant] with Go's names, e.g. linux/arm64 (did you "
            "mean \"linux/amd64\"?)"},
        Bad{"UnknownOs", "clusterPlatforms:\n- linux/amd64\n- lnux/arm64\n",
            "3:3: clusterPlatforms[1]: unknown platform \"lnux/arm64\": \"lnux\" is not a known "
            "operating system; write os/arch[/variant] with Go's names, e.g. linux/arm64 (did you "
            "mean \"linux/arm64\"?)"},
        Bad{"NothingClose", "clusterPlatforms: [plan10/zzz]\n",
            "1:20: clusterPlatforms[0]: unknown platform \"plan10/zzz\": \"plan10\" is not a known "
            "operating system and \"zzz\" is not a known architecture; write os/arch[/variant] "
            "with Go's names, e.g. linux/arm64"},
        Bad{"OsAlone", "clusterPlatforms: [linux]\n",
            "1:20: clusterPlatforms[0]: invalid platform \"linux\": an os alone does not say which "
            "architecture; write os/arch, e.g. linux/amd64"},
        Bad{"Empty", "clusterPlatforms: []\n",
            "1:19: clusterPlatforms: must name at least one platform, e.g. [linux/amd64, "
            "linux/arm64]"},
        Bad{"NotAList", "clusterPlatforms: linux/amd64,linux/arm64\n",
            "1:19: clusterPlatforms: expected a list, got \"linux/amd64,linux/arm64\""},
        Bad{"NotAString", "clusterPlatforms: [linux/amd64, {os: linux}]\n",
            "1:33: clusterPlatforms[1]: expected a string, got a mapping"},
        Bad{"FallbackPlatform", "resolve:\n  fallbackPlatforms: [linux/arm65]\n",
            "2:23: resolve.fallbackPlatforms[0]: unknown platform \"linux/arm65\": \"arm65\" is "
            "not "
            "a known architecture; write os/arch[/variant] with Go's names, e.g. linux/arm64 (did "
            "you mean \"linux/arm64\"?)"}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Architectures, ParseConfigBad,
    ::testing::Values(
        Bad{"NotInClusterPlatforms", "architectures:\n  s390x: {}\n",
            "2:3: architectures.s390x: architecture \"s390x\" is not in clusterPlatforms "
            "(linux/amd64,linux/arm64); add linux/s390x to clusterPlatforms or remove this entry"},
        Bad{"UnknownArchitecture", "architectures:\n  arm46: {}\n",
            "2:3: architectures.arm46: \"arm46\" is not a known architecture; use Go's names, e.g. "
            "amd64, arm64 (did you mean \"arm64\"?)"},
        Bad{"SameArchitectureTwice", "architectures:\n  arm64: {}\n  aarch64: {}\n",
            "3:3: architectures.aarch64: names the architecture \"arm64\" again (also at line 2); "
            "keep one"},
        Bad{"UnknownKey", "architectures:\n  arm64: {nodeLabel: {a: b}}\n",
            "2:11: architectures.arm64.nodeLabel: unknown key; valid keys here: tolerations, "
            "nodeLabels (did you mean \"nodeLabels\"?)"},
        Bad{"NotAMapping", "architectures: [arm64]\n",
            "1:16: architectures: expected a mapping, got a list"},
        Bad{"EmptyNodeLabels", "architectures:\n  arm64:\n    nodeLabels: {}\n",
            "3:17: architectures.arm64.nodeLabels: must name at least one label; remove nodeLabels "
            "to select nodes by kubernetes.io/arch: arm64"},
        Bad{"LabelKey", "architectures:\n  arm64:\n    nodeLabels: {kubernetes.io/arch/x: arm64}\n",
            "3:18: architectures.arm64.nodeLabels.kubernetes.io/arch/x: invalid label key "
            "\"kubernetes.io/arch/x\": may contain at most one '/'"},
        Bad{"LabelKeyPrefix",
            "architectures:\n  arm64:\n    nodeLabels: {Example.com/arch: arm64}\n",
            "3:18: architectures.arm64.nodeLabels.Example.com/arch: invalid label key "
            "\"Example.com/arch\": prefix must be lowercase DNS labels separated by '.', each "
            "starting and ending with a letter or digit"},
        Bad{"LabelValue",
            "architectures:\n  arm64:\n    nodeLabels: {kubernetes.io/arch: -arm64}\n",
            "3:38: architectures.arm64.nodeLabels.kubernetes.io/arch: invalid label value "
            "\"-arm64\": must start and end with a letter or digit"},
        Bad{"LabelValueBoolean", "architectures:\n  arm64:\n    nodeLabels: {enabled: on}\n",
            "3:27: architectures.arm64.nodeLabels.enabled: expected a string, got the boolean on; "
            "quote it to mean the text: \"on\""},
        Bad{"TolerationsNotAList", "architectures:\n  arm64:\n    tolerations: {key: a}\n",
            "3:18: architectures.arm64.tolerations: expected a list, got a mapping"},
        Bad{"TolerationUnknownKey",
            "architectures:\n  arm64:\n    tolerations:\n    - {key: a, efect: NoSchedule}\n",
            "4:16: architectures.arm64.tolerations[0].efect: unknown key; valid keys here: key, "
            "operator, value, effect, tolerationSeconds (did you mean \"effect\"?)"},
        Bad{"TolerationOperator",
            "architectures:\n  arm64:\n    tolerations:\n    - {key: a, operator: Equals}\n",
            "4:26: architectures.arm64.tolerations[0].operator: \"Equals\" is not an operator; use "
            "one of Equal, Exists (did you mean \"Equal\"?)"},
        Bad{"TolerationEffect",
            "architectures:\n  arm64:\n    tolerations:\n    - {key: a, effect: NoSchedul}\n",
            "4:24: architectures.arm64.tolerations[0].effect: \"NoSchedul\" is not an effect; use "
            "one of NoSchedule, PreferNoSchedule, NoExecute (did you mean \"NoSchedule\"?)"},
        Bad{"TolerationExistsWithValue",
            "architectures:\n  arm64:\n    tolerations:\n    - {key: a, operator: Exists, value: "
            "b}\n",
            "4:41: architectures.arm64.tolerations[0].value: must be empty when operator is "
            "Exists; remove value or use operator: Equal"},
        Bad{"TolerationEmptyKeyNeedsExists",
            "architectures:\n  arm64:\n    tolerations:\n    - {value: b}\n",
            "4:7: architectures.arm64.tolerations[0]: operator must be Exists when key is empty (a "
            "toleration without a key tolerates every taint)"},
        Bad{"TolerationSecondsWithoutNoExecute",
            "architectures:\n  arm64:\n    tolerations:\n"
            "    - {key: a, effect: NoSchedule, tolerationSeconds: 30}\n",
            "4:55: architectures.arm64.tolerations[0].tolerationSeconds: applies only with effect: "
            "NoExecute; remove it or set effect: NoExecute"},
        Bad{"TolerationSecondsNegative",
            "architectures:\n  arm64:\n    tolerations:\n"
            "    - {key: a, effect: NoExecute, tolerationSeconds: -1}\n",
            "4:54: architectures.arm64.tolerations[0].tolerationSeconds: -1 is out of range; use "
            "an integer of at least 0"},
        Bad{"TolerationValue",
            "architectures:\n  arm64:\n    tolerations:\n    - {key: a, value: 'x y'}\n",
            "4:23: architectures.arm64.tolerations[0].value: invalid taint value \"x y\": may "
            "contain only letters, digits, '-', '_' and '.'"},
        Bad{"TolerationKey", "architectures:\n  arm64:\n    tolerations:\n    - {key: '-a'}\n",
            "4:13: architectures.arm64.tolerations[0].key: invalid taint key \"-a\": must start "
            "and "
            "end with a letter or digit"},
        Bad{"TolerationNotAMapping", "architectures:\n  arm64:\n    tolerations: [NoSchedule]\n",
            "3:19: architectures.arm64.tolerations[0]: expected a mapping, got \"NoSchedule\""}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Placement, ParseConfigBad,
    ::testing::Values(
        // The example of the brief, at the same line and column.
        Bad{"Mode",
            "# archfit\nclusterPlatforms:\n- linux/amd64\n- linux/arm64\n\nplacement:\n  mode: "
            "affinty\n",
            "7:9: placement.mode: \"affinty\" is not a mode; use one of affinity, nodeSelector, "
            "preferred, tolerationsOnly (did you mean \"affinity\"?)"},
        Bad{"ModeCase", "placement: {mode: NodeSelector}\n",
            "1:19: placement.mode: \"NodeSelector\" is not a mode; use one of affinity, "
            "nodeSelector, preferred, tolerationsOnly (did you mean \"nodeSelector\"?)"},
        Bad{"ModeNotAString", "placement: {mode: [affinity]}\n",
            "1:19: placement.mode: expected one of affinity, nodeSelector, preferred, "
            "tolerationsOnly, got a list"},
        Bad{"Boolean", "placement: {respectExisting: maybe}\n",
            "1:30: placement.respectExisting: expected a boolean (true or false), got \"maybe\""},
        Bad{"QuotedBoolean", "placement: {annotate: \"true\"}\n",
            "1:23: placement.annotate: expected a boolean (true or false), got the string "
            "\"true\"; "
            "write it without quotes"},
        Bad{"NumberForBoolean", "placement: {annotate: 1}\n",
            "1:23: placement.annotate: expected a boolean (true or false), got \"1\""},
        Bad{"WeightRange", "placement:\n  preferredWeights: {arm64: 0}\n",
            "2:29: placement.preferredWeights.arm64: 0 is out of range; use an integer from 1 to "
            "100"},
        Bad{"WeightType", "placement:\n  preferredWeights: {arm64: high}\n",
            "2:29: placement.preferredWeights.arm64: expected an integer from 1 to 100, got "
            "\"high\""},
        Bad{"WeightArchitecture", "placement:\n  preferredWeights: {arm46: 10}\n",
            "2:22: placement.preferredWeights.arm46: \"arm46\" is not a known architecture; use "
            "Go's names, e.g. amd64, arm64 (did you mean \"arm64\"?)"},
        Bad{"WeightNotInCluster", "placement:\n  preferredWeights: {riscv64: 10}\n",
            "2:22: placement.preferredWeights.riscv64: architecture \"riscv64\" is not in "
            "clusterPlatforms (linux/amd64,linux/arm64); add linux/riscv64 to clusterPlatforms "
            "or remove this entry"}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Selection, ParseConfigBad,
    ::testing::Values(
        Bad{"ExcludeKind", "kinds:\n  exclude: [daemonset]\n",
            "2:13: kinds.exclude[0]: \"daemonset\" is not a kind; write kinds as manifests do, "
            "e.g. DaemonSet"},
        Bad{"ExtraMissingPodTemplate", "kinds:\n  extra:\n  - {kind: Runner}\n",
            "3:5: kinds.extra[0]: missing podTemplate; e.g. {apiVersion: argoproj.io/v1alpha1, "
            "kind: Rollout, podTemplate: spec.template}"},
        Bad{"ExtraMissingKind", "kinds:\n  extra:\n  - podTemplate: spec.template\n",
            "3:5: kinds.extra[0]: missing kind; e.g. {apiVersion: argoproj.io/v1alpha1, kind: "
            "Rollout, podTemplate: spec.template}"},
        Bad{"ExtraPath", "kinds:\n  extra:\n  - {kind: Runner, podTemplate: spec..template}\n",
            "3:33: kinds.extra[0].podTemplate: \"spec..template\" is not a field path; write "
            "dotted "
            "field names from the object to the pod template, with [] after a list, e.g. "
            "spec.template or spec.templates[].template"},
        Bad{"ExtraApiVersion",
            "kinds:\n  extra:\n  - {apiVersion: a/b/c, kind: Runner, podTemplate: spec.template}\n",
            "3:18: kinds.extra[0].apiVersion: \"a/b/c\" is not an apiVersion; write group/version, "
            "group/* for every version, or v1"},
        Bad{"ExtraUnknownKey", "kinds:\n  extra:\n  - {kind: Runner, template: spec.template}\n",
            "3:20: kinds.extra[0].template: unknown key; valid keys here: apiVersion, kind, "
            "podTemplate"},
        Bad{"Namespace", "namespaces:\n  exclude: [kube_system]\n",
            "2:13: namespaces.exclude[0]: invalid namespace name \"kube_system\": may contain only "
            "lowercase letters, digits and '-'"},
        Bad{"NamespacesKey", "namespaces: {exlude: [a]}\n",
            "1:14: namespaces.exlude: unknown key; valid keys here: include, exclude (did you mean "
            "\"exclude\"?)"},
        Bad{"SelectorTypo", "selector:\n  matchLabel: {app: web}\n",
            "2:3: selector.matchLabel: unknown key; valid keys here: matchLabels, matchExpressions "
            "(did you mean \"matchLabels\"?)"},
        Bad{"SelectorMixed", "selector:\n  matchLabels: {app: web}\n  app: web\n",
            "3:3: selector.app: unknown key; valid keys here: matchLabels, matchExpressions"},
        Bad{"SelectorInWithoutValues",
            "selector:\n  matchExpressions:\n  - {key: tier, operator: In}\n",
            "3:5: selector.matchExpressions[0]: operator In needs at least one value"},
        Bad{"SelectorExistsWithValues",
            "selector:\n  matchExpressions:\n  - {key: tier, operator: Exists, values: [a]}\n",
            "3:43: selector.matchExpressions[0].values: must be empty when operator is Exists; "
            "remove values"},
        Bad{"SelectorOperator",
            "selector:\n  matchExpressions:\n  - {key: tier, operator: in, values: [a]}\n",
            "3:27: selector.matchExpressions[0].operator: \"in\" is not an operator; use one of "
            "In, "
            "NotIn, Exists, DoesNotExist (did you mean \"In\"?)"},
        Bad{"SelectorMissingOperator", "selector:\n  matchExpressions:\n  - {key: tier}\n",
            "3:5: selector.matchExpressions[0]: missing operator; use one of In, NotIn, Exists, "
            "DoesNotExist"},
        Bad{"SelectorMissingKey", "selector:\n  matchExpressions:\n  - {operator: Exists}\n",
            "3:5: selector.matchExpressions[0]: missing key; e.g. {key: tier, operator: In, "
            "values: [web]}"},
        Bad{"OptOutAnnotation", "optOutAnnotation: archfit.io/skip me\n",
            "1:19: optOutAnnotation: invalid annotation key \"archfit.io/skip me\": may contain "
            "only "
            "letters, digits, '-', '_' and '.'"}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Resolve, ParseConfigBad,
    ::testing::Values(
        Bad{"OnUnresolved", "resolve:\n  onUnresolved: warning\n",
            "2:17: resolve.onUnresolved: \"warning\" is not a policy; use one of fail, warn, "
            "ignore "
            "(did you mean \"warn\"?)"},
        Bad{"OnUnresolvedBoolean", "resolve:\n  onUnresolved: no\n",
            "2:17: resolve.onUnresolved: \"no\" is not a policy; use one of fail, warn, ignore"},
        Bad{"ConcurrencyZero", "resolve: {concurrency: 0}\n",
            "1:24: resolve.concurrency: 0 is out of range; use an integer from 1 to 256"},
        Bad{"ConcurrencyLarge", "resolve: {concurrency: 99999999999999999999}\n",
            "1:24: resolve.concurrency: 99999999999999999999 is out of range; use an integer from "
            "1 to 256"},
        Bad{"ConcurrencyWord", "resolve: {concurrency: many}\n",
            "1:24: resolve.concurrency: expected an integer from 1 to 256, got \"many\""},
        Bad{"ConcurrencyQuoted", "resolve: {concurrency: '16'}\n",
            "1:24: resolve.concurrency: expected an integer from 1 to 256, got the string \"16\"; "
            "write it without quotes"},
        Bad{"ConcurrencyFraction", "resolve: {concurrency: 1.5}\n",
            "1:24: resolve.concurrency: expected an integer from 1 to 256, got \"1.5\""},
        Bad{"Timeout", "resolve: {timeout: 30 s}\n",
            "1:20: resolve.timeout: invalid duration \"30 s\": unknown unit \" s\"; use s, m, h, d "
            "or w, e.g. 30s, 1h30m, 7d"},
        Bad{"TimeoutZero", "resolve: {timeout: 0}\n",
            "1:20: resolve.timeout: must be more than 0s, e.g. 30s"},
        Bad{"TimeoutMapping", "resolve: {timeout: {seconds: 30}}\n",
            "1:20: resolve.timeout: expected a duration such as 30s, 1h30m or 7d, got a mapping"},
        Bad{"TagTtlKey", "resolve:\n  tagTTL: {Never: 1h}\n",
            "2:12: resolve.tagTTL.Never: unknown key; valid keys here: IfNotPresent, Always, "
            "default"},
        Bad{"TagTtlValue", "resolve:\n  tagTTL: {Always: forever}\n",
            "2:20: resolve.tagTTL.Always: invalid duration \"forever\": expected a number at "
            "\"forever\"; use s, m, h, d or w, e.g. 30s, 1h30m, 7d"},
        Bad{"MirrorScheme", "resolve:\n  mirrors: {docker.io: [https://mirror.gcr.io]}\n",
            "2:25: resolve.mirrors.docker.io[0]: \"https://mirror.gcr.io\" is not a mirror host; "
            "write host[:port][/path] without a scheme, e.g. mirror.gcr.io"},
        Bad{"MirrorsNotAMap", "resolve:\n  mirrors: [mirror.gcr.io]\n",
            "2:12: resolve.mirrors: expected a mapping, got a list"},
        Bad{"InsecureScheme", "resolve:\n  insecureRegistries: [http://localhost:5000]\n",
            "2:24: resolve.insecureRegistries[0]: \"http://localhost:5000\" has a scheme; write "
            "the "
            "registry host as in image names, e.g. registry.example.com:5000"},
        Bad{"CaFileNotAString", "resolve:\n  caFile: [a]\n",
            "2:11: resolve.caFile: expected a string, got a list"},
        Bad{"ResolveKey", "resolve:\n  concurency: 4\n",
            "2:3: resolve.concurency: unknown key; valid keys here: onUnresolved, "
            "fallbackPlatforms, tagTTL, concurrency, timeout, mirrors, insecureRegistries, caFile, "
            "dockerConfig, credentialsDir (did you mean \"concurrency\"?)"}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

// ConfigMap values are strings; errors inside them point into the string
// when the value is written verbatim on one line or as a literal block.
INSTANTIATE_TEST_SUITE_P(
    ConfigMap, ParseConfigBad,
    ::testing::Values(
        Bad{"UnknownFlatKey", "kind: ConfigMap\ndata:\n  placement.mdoe: affinity\n",
            "3:3: placement.mdoe: unknown key; see docs/configuration.md for the keys (did you "
            "mean \"placement.mode\"?)"},
        Bad{"Scalar", "kind: ConfigMap\ndata:\n  resolve.concurrency: lots\n",
            "3:24: resolve.concurrency: expected an integer from 1 to 256, got \"lots\""},
        Bad{"Boolean", "kind: ConfigMap\ndata:\n  placement.annotate: 'maybe'\n",
            "3:23: placement.annotate: expected a boolean (true or false), got \"maybe\""},
        Bad{"CommaListItem",
            "kind: ConfigMap\ndata:\n  clusterPlatforms: 'linux/amd64, linux/amd46'\n",
            "3:35: clusterPlatforms[1]: unknown platform \"linux/amd46\": \"amd46\" is not a known "
            "architecture; write os/arch[/variant] with Go's names, e.g. linux/arm64 (did you "
            "mean \"linux/amd64\"?)"},
        Bad{"CommaListEmptyEntry", "kind: ConfigMap\ndata:\n  namespaces.include: a,,b\n",
            "3:23: namespaces.include: empty entry in the comma-separated list \"a,,b\"; separate "
            "entries with one comma"},
        Bad{"FlowListItem",
            "kind: ConfigMap\ndata:\n  clusterPlatforms: \"[linux/amd64, linux/amd46]\"\n",
            "3:36: clusterPlatforms[1]: unknown platform \"linux/amd46\": \"amd46\" is not a known "
            "architecture; write os/arch[/variant] with Go's names, e.g. linux/arm64 (did you "
            "mean \"linux/amd64\"?)"},
        Bad{"LiteralBlock",
            "kind: ConfigMap\ndata:\n  architectures: |\n    arm64:\n      tolerations:\n"
            "      - {key: a, operator: Exists, value: x}\n",
            "6:43: architectures.arm64.tolerations[0].value: must be empty when operator is "
            "Exists; remove value or use operator: Equal"},
        Bad{"InlineMapping",
            "kind: ConfigMap\ndata:\n  placement.preferredWeights: '{arm64: 200}'\n",
            "3:40: placement.preferredWeights.arm64: 200 is out of range; use an integer from 1 to "
            "100"},
        Bad{"EscapedValueFallsBackToTheValue",
            "kind: ConfigMap\ndata:\n  placement.preferredWeights: \"{arm64: \\x32\\x30\\x30}\"\n",
            "3:31: placement.preferredWeights.arm64: 200 is out of range; use an integer from 1 "
            "to 100"},
        Bad{"YamlInsideValue", "kind: ConfigMap\ndata:\n  resolve.tagTTL: '{Always: [}'\n",
            "3:30: resolve.tagTTL: cannot parse YAML: did not find expected node content"},
        Bad{"Section", "kind: ConfigMap\ndata:\n  placement: |\n    mode: nodeselector\n",
            "4:11: placement.mode: \"nodeselector\" is not a mode; use one of affinity, "
            "nodeSelector, preferred, tolerationsOnly (did you mean \"nodeSelector\"?)"},
        Bad{"SectionNotAMapping", "kind: ConfigMap\ndata:\n  placement: nodeSelector\n",
            "3:14: placement: expected YAML text of a mapping of mode, preferredWeights, "
            "respectExisting, annotate, got \"nodeSelector\""}),
    [](const ::testing::TestParamInfo<Bad>& test) { return std::string(test.param.name); });

}  // namespace
}  // namespace archfit::config
