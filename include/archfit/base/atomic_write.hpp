// Replacing a file's content all at once: write a temporary file beside it,
// give it the old file's mode, rename it over the original. Readers see the
// old bytes or the new ones, never a mix, and a failure leaves the old file.
//
// The two steps are separate so that several files can be replaced all or
// nothing: prepare every replacement first, and put them in place only when
// each could be prepared.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/file.hpp>

namespace archfit {

// How far a replacement's bytes go before it takes its file's place. Either
// way readers see the old bytes or the new ones, never a mix, and a run that
// fails or is killed leaves the old file.
enum class Durability {
  // On the disk (fsync): a file a person keeps (a manifest fixed in place,
  // the lock file) is whole, old or new, after the machine goes down.
  Disk,
  // Written back by the kernel in its own time, as a redirected stdout is: a
  // report, which the next run makes again.
  Kernel,
};

// A replacement written beside its file and not in place yet. Destroying it
// without commit() removes the temporary file.
class PendingWrite {
 public:
  // Throws Error(Input) "cannot write <path>: <reason>". A file without any
  // write permission bit is refused even for root: it was made read-only on
  // purpose; so is anything but a regular file (a device, a FIFO). Symbolic
  // links are followed: the file they point at is replaced.
  // The new file keeps the old one's mode, owner and group (refused when the
  // owner or group cannot be kept). A file with more than one hard link is
  // refused: renaming over it would leave the other names with the old
  // content. With `read_as`, the file must still be the one read then, unless
  // changed: here and again right before commit() renames.
  PendingWrite(const std::filesystem::path& path, const std::vector<std::string_view>& parts,
               const FileIdentity* read_as = nullptr);
  PendingWrite(const std::filesystem::path& path, const Content& content,
               const FileIdentity* read_as = nullptr);
  // The same checks, and a replacement that takes its content from append()
  // as it is made. Until finish(), it is a file without a name where the file
  // system allows (a run that is killed leaves nothing behind).
  explicit PendingWrite(const std::filesystem::path& path,
                        Durability durability = Durability::Disk);
  ~PendingWrite();
  PendingWrite(const PendingWrite&) = delete;
  PendingWrite& operator=(const PendingWrite&) = delete;

  // More content, after what was given before. Throws Error(Input).
  void append(std::string_view data);
  // The content is complete: the replacement gets its mode, owner and group,
  // reaches the disk (Durability::Disk) and is closed (commit() calls it when
  // not called yet).
  // Throws Error(Input).
  void finish();

  // Throws Error(Input) when the file is no longer the one read (see above).
  void check_unchanged() const;

  // Renames the temporary file over the target, after checking it once more.
  // Throws Error(Input).
  void commit();

 private:
  void open(bool unnamed);
  void name_it();
  void start_writeback();
  [[noreturn]] void give_up(int err, const std::string& why = {});

  std::filesystem::path path_;    // as given, for messages
  std::filesystem::path target_;  // the file replaced
  std::string temp_;              // its name, once it has one
  int fd_ = -1;
  bool exists_ = false;
  unsigned mode_ = 0644;
  unsigned owner_ = 0, group_ = 0;
  bool committed_ = false;
  Durability durability_ = Durability::Disk;
  std::uint64_t written_ = 0;  // bytes appended
  std::uint64_t sent_ = 0;     // ... of which the disk was asked to write
  std::optional<FileIdentity> read_as_;
};

// A replacement written as it is made: what out() is given goes into a
// PendingWrite a chunk at a time, and commit() puts it in place. A failure to
// write is thrown by commit() (an ostream would swallow it on the way).
class StreamedWrite {
 public:
  // Throws Error(Input) as PendingWrite does.
  explicit StreamedWrite(const std::filesystem::path& path,
                         Durability durability = Durability::Disk);
  ~StreamedWrite();
  StreamedWrite(const StreamedWrite&) = delete;
  StreamedWrite& operator=(const StreamedWrite&) = delete;

  std::ostream& out();
  // The content is complete (PendingWrite::finish()); throws what failed on
  // the way. commit() calls it when not called yet.
  void finish();
  void commit();

 private:
  class Buffer;
  PendingWrite file_;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> out_;
};

void write_atomically(const std::filesystem::path& path, std::string_view data);
// The same with the content given as consecutive parts.
void write_atomically(const std::filesystem::path& path,
                      const std::vector<std::string_view>& parts);
void write_atomically(const std::filesystem::path& path, const Content& content);

}  // namespace archfit
