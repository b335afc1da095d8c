// Reports written on threads of their own (ReportLanes) are byte for byte the
// reports written straight from the run's thread, in the run's order, however
// many batches the events fill; a writer that fails on the way fails the run
// at the latest when the lanes close, and the run never waits on it. When
// several reports get threads of their own at all.
#include "cli/report_lanes.hpp"

#include <algorithm>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/findings/rules.hpp>
#include <archfit/report/report.hpp>

#include "support/thread_limit.hpp"

namespace archfit::cli {
namespace {

// What a run reports, in order: workloads, their findings, now and then a
// diff; generated from a seed, with text every format escapes.
std::vector<ReportEvent> generated_events(unsigned seed, std::size_t workloads) {
  std::mt19937 random(seed);
  const std::vector<std::string> rules = {"missing-arch-affinity", "missing-toleration",
                                          "mutable-tag", "invalid-document"};
  const std::vector<std::string> odd = {"plain",      "a \"quoted\" b", "100% | <x> & 'y'",
                                        "two\nlines", "tab\there",      "::error ::x"};
  std::vector<ReportEvent> events;
  for (std::size_t w = 0; w < workloads; ++w) {
    const std::string file = "dir " + std::to_string(w / 40) + "/f.yaml";
    const auto document = static_cast<std::uint32_t>(w % 40);
    const auto line = static_cast<std::uint32_t>(1 + (w % 40) * 30);
    findings::ResourceRef resource{"apps/v1", "Deployment", "w" + std::to_string(w), "ns"};
    events.emplace_back(report::WorkloadSeen{file, document, line, resource});
    const std::size_t count = random() % 4;
    for (std::size_t i = 0; i < count; ++i) {
      findings::Finding f = findings::make_finding(
          rules[random() % rules.size()], "message " + odd[random() % odd.size()],
          {file, document, line + static_cast<std::uint32_t>(i), 3}, resource);
      f.field_path = "spec.template.spec.affinity";
      if (random() % 2 == 0) f.proposed = R"({"nodeAffinity":{"a":[1,2]}})";
      f.fixable = random() % 2 == 0;
      events.emplace_back(std::move(f));
    }
    if (w % 97 == 0) events.emplace_back(ReportDiff{"--- a/" + file + "\n+++ b/" + file + "\n"});
  }
  return events;
}

report::Summary summary_of(const std::vector<ReportEvent>& events) {
  report::Summary s;
  s.files = 1;
  for (const ReportEvent& e : events) {
    if (const auto* f = std::get_if<findings::Finding>(&e)) s.counts.add(f->severity);
    if (std::holds_alternative<report::WorkloadSeen>(e)) ++s.workloads;
  }
  s.templates = s.workloads;
  return s;
}

// Each format written alone, straight from this thread.
std::string written_alone(report::Format format, const std::vector<ReportEvent>& events) {
  std::ostringstream out;
  std::unique_ptr<report::Writer> w = report::make_writer(format, out);
  for (const ReportEvent& e : events)
    write_event(*w, e);
  w->finish(summary_of(events));
  return out.str();
}

// Every format through the lanes, then finished: what each writer wrote.
std::vector<std::string> written_through_lanes(const std::vector<ReportEvent>& events) {
  const std::vector<std::string>& names = report::format_names();
  std::vector<std::ostringstream> outs(names.size());
  std::vector<std::unique_ptr<report::Writer>> writers;
  std::vector<report::Writer*> raw;
  for (std::size_t i = 0; i < names.size(); ++i) {
    writers.push_back(report::make_writer(report::parse_format(names[i]), outs[i]));
    raw.push_back(writers.back().get());
  }
  {
    ReportLanes lanes(raw);
    for (const ReportEvent& e : events)
      lanes.add(e);
    lanes.close();
  }
  std::vector<std::string> written;
  for (std::size_t i = 0; i < names.size(); ++i) {
    writers[i]->finish(summary_of(events));
    written.push_back(outs[i].str());
  }
  return written;
}

TEST(ReportLanes, EveryFormatOnItsOwnThreadIsWhatItIsAlone) {
  const std::vector<std::string>& names = report::format_names();
  for (unsigned seed : {1u, 2u, 3u}) {
    // 0 events, less than a batch, and many batches.
    for (std::size_t workloads : {std::size_t{0}, std::size_t{30}, std::size_t{3000}}) {
      const std::vector<ReportEvent> events = generated_events(seed, workloads);
      const std::vector<std::string> written = written_through_lanes(events);
      for (std::size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(written[i], written_alone(report::parse_format(names[i]), events))
            << names[i] << ", seed " << seed << ", " << workloads << " workloads";
      }
    }
  }
}

// Where the system gives no thread (a limit on processes), the run's thread
// writes each batch itself: the same reports (exit 0), in a child process.
TEST(ReportLanesDeathTest, WithoutThreadsTheRunWritesEveryReportItself) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (!testing::limit_threads(0)) ::_exit(2);
        const std::vector<ReportEvent> events = generated_events(5, 3000);
        const std::vector<std::string> written = written_through_lanes(events);
        const std::vector<std::string>& names = report::format_names();
        for (std::size_t i = 0; i < names.size(); ++i)
          if (written[i] != written_alone(report::parse_format(names[i]), events)) ::_exit(1);
        ::_exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

// Takes findings until the n-th, which it refuses.
class FailingWriter : public report::Writer {
 public:
  explicit FailingWriter(std::size_t n) : left_(n) {}
  void add(const findings::Finding&) override {
    if (left_-- == 0) throw std::runtime_error("the disk is full");
  }
  void finish(const report::Summary&) override {}

 private:
  std::size_t left_;
};

TEST(ReportLanes, AWriterThatFailsFailsTheRunAndHoldsNothingUp) {
  const std::vector<ReportEvent> events = generated_events(7, 3000);
  const auto findings = static_cast<std::size_t>(std::count_if(
      events.begin(), events.end(),
      [](const ReportEvent& e) { return std::holds_alternative<findings::Finding>(e); }));
  // The first, one in a batch handed over early, the last.
  for (std::size_t n : {std::size_t{0}, std::size_t{700}, findings - 1}) {
    std::ostringstream out;
    std::unique_ptr<report::Writer> json = report::make_writer(report::Format::Json, out);
    FailingWriter failing(n);
    std::string thrown;
    try {
      ReportLanes lanes({json.get(), &failing});
      for (const ReportEvent& e : events)
        lanes.add(e);
      lanes.close();
    } catch (const std::runtime_error& e) {
      thrown = e.what();
    }
    EXPECT_EQ(thrown, "the disk is full") << "failing at finding " << n;
  }
}

TEST(ReportLanes, SeveralReportsGetThreadsOfTheirOwnOnlyWithCoresToSpare) {
  for (unsigned cores = 0; cores <= kCoresTheRunWritesOn; ++cores)
    EXPECT_FALSE(writes_beside_the_run(cores)) << cores;
  EXPECT_TRUE(writes_beside_the_run(kCoresTheRunWritesOn + 1));
  EXPECT_TRUE(writes_beside_the_run(64));
}

}  // namespace
}  // namespace archfit::cli
