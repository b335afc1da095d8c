// `archfit cache path|list|prune|clear`: where the cache of resolved platforms
// is, what is in it, and taking old or all of it out. The directory comes from
// the same precedence as every other command (--cache-dir, ARCHFIT_CACHE_DIR,
// XDG_CACHE_HOME, HOME).
#pragma once

#include <ostream>
#include <string>

#include <archfit/app/output.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::command_line {

struct CacheRequest {
  config::CommonFlags flags;  // --config and --cache-dir
  std::string format = "text";
  std::string older_than = "30d";
};

void cache_path(const CacheRequest& request, app::Output& out);
void cache_list(const CacheRequest& request, app::Output& out);
void cache_prune(const CacheRequest& request, app::Output& out);
void cache_clear(const CacheRequest& request, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::command_line
