// The reports' JSON stream writes exactly what RapidJSON's own writer writes
// into a string buffer, for any string (escapes, control characters, bytes of
// 0x80 and above, runs longer than its buffer) and every kind of value.
#include "report/json_out.hpp"

#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>

namespace archfit::report::detail {
namespace {

// A string of `size` bytes drawn mostly from one class, so that runs of
// plain characters of every length meet escapes.
std::string generated(std::mt19937& random, std::size_t size) {
  static const std::string plain = "abcXYZ019 ./:-_{}[],";
  static const std::string escaped = std::string("\"\\\n\t\r\b\f\x01\x1f\x0b\x7f") + '\0';
  std::string s;
  s.reserve(size);
  std::uniform_int_distribution<int> pick(0, 99);
  int plain_share = std::uniform_int_distribution<int>(0, 100)(random);
  for (std::size_t i = 0; i < size; ++i) {
    int r = pick(random);
    if (r < plain_share) {
      s += plain[static_cast<std::size_t>(pick(random)) % plain.size()];
    } else if (r % 3 == 0) {
      s += escaped[static_cast<std::size_t>(pick(random)) % escaped.size()];
    } else if (r % 3 == 1) {
      s += static_cast<char>(0x80 + pick(random));  // any byte >= 0x80, as it comes
    } else {
      s += "\xc3\xa9";
    }
  }
  return s;
}

// The same calls on both writers.
template <typename W>
void write_values(W& w, const std::vector<std::string>& strings) {
  w.StartObject();
  for (std::size_t i = 0; i < strings.size(); ++i) {
    w.Key(strings[i].data(), static_cast<rapidjson::SizeType>(strings[i].size()));
    switch (i % 5) {
      case 0:
        w.String(strings[i].data(), static_cast<rapidjson::SizeType>(strings[i].size()));
        break;
      case 1:
        w.Uint64(i * 7919u);
        break;
      case 2:
        w.StartArray();
        w.Bool(true);
        w.Null();
        w.Int64(-static_cast<std::int64_t>(i));
        w.RawValue("{\"a\":[1,2]}", 11, rapidjson::kObjectType);
        w.EndArray();
        break;
      case 3:
        w.Bool(false);
        break;
      default:
        w.String("");
    }
  }
  w.EndObject();
}

// RapidJSON's writer over the report's stream (the reports' own writer
// takes only words and untrusted text: see JsonOut tests below).
std::string through_stream(const std::vector<std::string>& strings) {
  std::ostringstream out;
  BufferedStream stream(out);
  rapidjson::Writer<BufferedStream> w(stream);
  write_values(w, strings);
  stream.Put('\n');
  stream.Flush();
  return out.str();
}

std::string through_buffer(const std::vector<std::string>& strings) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  write_values(w, strings);
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

TEST(JsonOut, WritesWhatRapidJsonWritesForAnyString) {
  std::mt19937 random(20261127);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> strings;
    int count = std::uniform_int_distribution<int>(1, 40)(random);
    for (int i = 0; i < count; ++i) {
      // Mostly short, now and then longer than the stream's 64 KiB buffer.
      std::size_t size = round % 25 == 0 && i == 0
                             ? std::uniform_int_distribution<std::size_t>(60000, 200000)(random)
                             : std::uniform_int_distribution<std::size_t>(0, 300)(random);
      strings.push_back(generated(random, size));
    }
    ASSERT_EQ(through_stream(strings), through_buffer(strings)) << "round " << round;
  }
}

TEST(JsonOut, ManyValuesCrossTheBufferAtEveryOffset) {
  // 20,000 short values: the buffer fills and flushes at many different
  // places in a value.
  std::mt19937 random(7);
  std::vector<std::string> strings;
  for (int i = 0; i < 20000; ++i) {
    strings.push_back(generated(random, static_cast<std::size_t>(i % 37)));
  }
  std::string written = through_stream(strings);
  EXPECT_GT(written.size(), 3u * 64 * 1024);
  EXPECT_EQ(written, through_buffer(strings));
}

TEST(JsonOut, RawValuesOfAnySizeArriveWhole) {
  // Values already in JSON, from a few bytes to more than the stream's
  // buffer, between strings: written as they are, in order.
  for (std::size_t size : {std::size_t{2}, std::size_t{70000}, std::size_t{300000}}) {
    std::string raw = "[";
    while (raw.size() + 6 < size)
      raw += "\"ab\",";
    raw += "1]";
    auto both = [&raw](auto& w) {
      w.StartArray();
      w.String("before");
      w.RawValue(raw.data(), raw.size(), rapidjson::kArrayType);
      w.String("after");
      w.EndArray();
    };
    std::ostringstream out;
    BufferedStream stream(out);
    rapidjson::Writer<BufferedStream> writer(stream);
    both(writer);
    stream.Put('\n');
    stream.Flush();
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    both(w);
    EXPECT_EQ(out.str(), std::string(buffer.GetString(), buffer.GetSize()) + "\n") << size;
  }
}

TEST(JsonOut, PlainKeysAreWrittenAsRapidJsonWritesKeys) {
  // Member names of the report's own, as the first member, later members,
  // in nested objects and around arrays, with the buffer crossed many times:
  // the same bytes as RapidJSON's Key.
  static constexpr PlainKey kKeys[] = {"rule", "$schema", "archfitFinding/v1", "x", ""};
  std::mt19937 random(42);
  std::uniform_int_distribution<int> pick(0, 99);
  std::ostringstream out;
  JsonOut json(out);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  int depth = 0;
  json.w().StartObject();
  w.StartObject();
  for (int i = 0; i < 30000; ++i) {
    const PlainKey& key = kKeys[static_cast<std::size_t>(pick(random)) % std::size(kKeys)];
    json.w().key(key);
    w.Key(key.text().data(), static_cast<rapidjson::SizeType>(key.text().size()));
    int r = pick(random);
    if (r < 15 && depth < 20) {
      json.w().StartObject();
      w.StartObject();
      ++depth;
    } else if (r < 25) {
      json.w().StartArray();
      w.StartArray();
      json.w().Uint64(static_cast<unsigned>(i));
      w.Uint64(static_cast<unsigned>(i));
      json.w().EndArray();
      w.EndArray();
    } else {
      json.w().string(Words::made(key.text()));
      w.String(key.text().data(), static_cast<rapidjson::SizeType>(key.text().size()));
    }
    if (depth > 0 && r > 85) {
      json.w().EndObject();
      w.EndObject();
      --depth;
    }
  }
  for (; depth >= 0; --depth) {
    json.w().EndObject();
    w.EndObject();
  }
  json.end_document();
  std::string written = out.str();
  EXPECT_GT(written.size(), 3u * 64 * 1024);
  EXPECT_EQ(written, std::string(buffer.GetString(), buffer.GetSize()) + "\n");
}

}  // namespace
}  // namespace archfit::report::detail
