// `archfit cache path|list|prune|clear`: its flags and help
// (surface/command_line/cache.hpp does the work).
#include <iostream>
#include <memory>

#include <archfit/surface/command_line/cache.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

namespace {

// The flags go on each subcommand, where users type them
// (`archfit cache list --cache-dir DIR`), and on `cache` itself.
CLI::App* add_cache_subcommand(CLI::App* parent, const char* name, const char* help,
                               const char* footer, surface::command_line::CacheRequest& o) {
  CLI::App* cmd = parent->add_subcommand(name, help);
  if (*footer) cmd->footer(footer);
  add_cache_dir_flag(cmd, o.flags);
  add_config_flag(cmd, o.flags);
  return cmd;
}

}  // namespace

void add_cache_command(CLI::App& app, RunState& /*state*/) {
  auto o = std::make_shared<surface::command_line::CacheRequest>();
  CLI::App* cmd = app.add_subcommand(
      "cache",
      "Show, list and clean the on-disk cache of image platforms (digests never expire; tags "
      "are trusted for resolve.tagTTL)");
  cmd->require_subcommand(1);
  add_cache_dir_flag(cmd, o->flags);
  add_config_flag(cmd, o->flags);
  cmd->footer(
      "The cache holds, under DIR/v1/, the platforms of each manifest or index digest archfit\n"
      "resolved, and the digest each tag pointed at when it was fetched. Removing entries is\n"
      "always safe: archfit asks the registry again when it needs them. prune and clear remove\n"
      "only files named as archfit's entries, never through a symbolic link, and only from a\n"
      "directory holding the CACHEDIR.TAG archfit wrote with its first entry.");

  CLI::App* path = add_cache_subcommand(
      cmd, "path", "Print the cache directory",
      "The directory is --cache-dir, else $ARCHFIT_CACHE_DIR, else $XDG_CACHE_HOME/archfit, else\n"
      "~/.cache/archfit. It need not exist yet.",
      *o);
  path->callback([o] { surface::command_line::cache_path(*o, app::standard_output()); });

  CLI::App* list = add_cache_subcommand(
      cmd, "list", "List the cached entries with their age and size",
      "One line per file, sorted: kind (digest, tag, invalid), key (the digest, or the image\n"
      "reference of a tag), the digest's platforms or the tag's digest, age, size; then a\n"
      "summary. Files named as entries that are not valid ones (damaged, foreign, misplaced)\n"
      "and temporary files of a writer are listed as invalid; prune removes them. Other files\n"
      "are not archfit's and are not listed.",
      *o);
  list->add_option("--format", o->format, "Output format: text or json")->capture_default_str();
  list->callback([o] { surface::command_line::cache_list(*o, app::standard_output()); });

  CLI::App* prune = add_cache_subcommand(
      cmd, "prune", "Remove old entries and leftover files",
      "Removes entries stored longer ago than --older-than (a tag's time is when it was\n"
      "fetched, a digest's when it was written, used since or not), and invalid files older\n"
      "than a minute, then prints what it removed. Other archfit processes may keep running.",
      *o);
  prune
      ->add_option("--older-than", o->older_than,
                   "Remove entries older than this, e.g. 12h, 7d, 2w; 0 removes every entry")
      ->type_name("DUR")
      ->capture_default_str();
  prune->callback([o] { surface::command_line::cache_prune(*o, app::standard_output()); });

  CLI::App* clear = add_cache_subcommand(
      cmd, "clear", "Remove everything archfit stored in the cache",
      "Removes every entry under v1/, where archfit keeps them, and the directories left\n"
      "empty, and says how much it removed. Files archfit did not write are left alone.",
      *o);
  clear->callback(
      [o] { surface::command_line::cache_clear(*o, app::standard_output(), std::cerr); });
}

}  // namespace archfit::cli
