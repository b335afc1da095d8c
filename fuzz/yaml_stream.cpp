// The stream reader and the parser: split, encoding check, parse of every
// document, the data view, and the emitter's round trip of each scalar.
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/scalar.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace archfit;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::expect_clean([&] {
    yaml::check_encoding(text);
    std::size_t end = 0;
    for (const yaml::DocumentText& doc : yaml::split_stream(text)) {
      // The documents cover the stream, in order and without gaps.
      if (doc.offset != end || text.substr(doc.offset, doc.text.size()) != doc.text) {
        fuzz::bug("split_stream lost or moved bytes");
      }
      end = doc.offset + doc.text.size();
      if (!doc.has_content) continue;
      fuzz::expect_clean([&] {
        yaml::Tree tree = yaml::parse_document(doc.text, doc.first_line);
        for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
          yaml::NodeRef n(&tree, id);
          if (n.span().end < n.span().begin || n.span().end > doc.text.size()) {
            fuzz::bug("a node's span lies outside its document");
          }
          if (n.is_scalar()) (void)n.resolve();
        }
        fuzz::expect_clean([&] { (void)yaml::to_json(yaml::to_value(tree.root())); });
      });
    }
    if (end != text.size()) fuzz::bug("split_stream lost the end of the stream");
  });
  return 0;
}
