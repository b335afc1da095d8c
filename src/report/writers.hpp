// The writers of each format (one file each); make_writer picks one.
#pragma once

#include <memory>
#include <ostream>

#include <archfit/report/report.hpp>

namespace archfit::report::detail {

std::unique_ptr<Writer> text_writer(std::ostream& out, const WriterOptions& options);
std::unique_ptr<Writer> json_writer(std::ostream& out, const WriterOptions& options);
std::unique_ptr<Writer> sarif_writer(std::ostream& out, const WriterOptions& options);
std::unique_ptr<Writer> github_writer(std::ostream& out, const WriterOptions& options);
std::unique_ptr<Writer> junit_writer(std::ostream& out, const WriterOptions& options);
std::unique_ptr<Writer> markdown_writer(std::ostream& out, const WriterOptions& options);

// "1 error", "2 warnings".
std::string plural(std::size_t n, const char* word);

}  // namespace archfit::report::detail
