#include "registry/transport/libcurl.hpp"

#ifndef ARCHFIT_LIBCURL_LINKED
#include <dlfcn.h>
#endif
#include <mutex>
#include <string>

#include <archfit/base/error.hpp>

namespace archfit::registry {

namespace {

#ifdef ARCHFIT_LIBCURL_LINKED

// A static release executable links libcurl in; the table points at it.
Libcurl load() {
  Libcurl api{&::curl_global_init,
              &::curl_easy_init,
              &::curl_easy_setopt,
              &::curl_easy_getinfo,
              &::curl_easy_strerror,
              &::curl_easy_cleanup,
              &::curl_slist_append,
              &::curl_slist_free_all,
              &::curl_multi_init,
              &::curl_multi_setopt,
              &::curl_multi_add_handle,
              &::curl_multi_remove_handle,
              &::curl_multi_perform,
              &::curl_multi_info_read,
              &::curl_multi_poll,
              &::curl_multi_wakeup,
              &::curl_multi_cleanup,
              &::curl_version_info,
              &::curl_url,
              &::curl_url_set,
              &::curl_url_get,
              &::curl_url_cleanup,
              &::curl_free};
  api.global_init(CURL_GLOBAL_DEFAULT);
  return api;
}

#else

// The soname of libcurl 7.16 and later (Debian's libcurl4).
constexpr const char* kSoname = "libcurl.so.4";

[[noreturn]] void cannot_load(const std::string& why) {
  fail(ErrorKind::Resolution,
       "cannot contact registries: " + why +
           "; install libcurl (Debian and Ubuntu: apt-get install libcurl4), or resolve images "
           "from the lock file and the cache only with --offline");
}

template <typename Fn>
void bind(void* library, Fn& slot, const char* name) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) {
    cannot_load(std::string(kSoname) + " has no " + name +
                " (archfit needs libcurl 7.68 or later)");
  }
  slot = reinterpret_cast<Fn>(symbol);
}

Libcurl load() {
  void* library = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    cannot_load(why != nullptr ? why : std::string(kSoname) + " could not be loaded");
  }
  Libcurl api{};
  bind(library, api.global_init, "curl_global_init");
  bind(library, api.easy_init, "curl_easy_init");
  bind(library, api.easy_setopt, "curl_easy_setopt");
  bind(library, api.easy_getinfo, "curl_easy_getinfo");
  bind(library, api.easy_strerror, "curl_easy_strerror");
  bind(library, api.easy_cleanup, "curl_easy_cleanup");
  bind(library, api.slist_append, "curl_slist_append");
  bind(library, api.slist_free_all, "curl_slist_free_all");
  bind(library, api.multi_init, "curl_multi_init");
  bind(library, api.multi_setopt, "curl_multi_setopt");
  bind(library, api.multi_add_handle, "curl_multi_add_handle");
  bind(library, api.multi_remove_handle, "curl_multi_remove_handle");
  bind(library, api.multi_perform, "curl_multi_perform");
  bind(library, api.multi_info_read, "curl_multi_info_read");
  bind(library, api.multi_poll, "curl_multi_poll");
  bind(library, api.multi_wakeup, "curl_multi_wakeup");
  bind(library, api.multi_cleanup, "curl_multi_cleanup");
  bind(library, api.version_info, "curl_version_info");
  bind(library, api.url, "curl_url");
  bind(library, api.url_set, "curl_url_set");
  bind(library, api.url_get, "curl_url_get");
  bind(library, api.url_cleanup, "curl_url_cleanup");
  bind(library, api.free, "curl_free");
  // The library stays loaded for the life of the process.
  api.global_init(CURL_GLOBAL_DEFAULT);
  return api;
}

#endif

}  // namespace

const Libcurl& libcurl() {
  // A failed load throws out of the initializer and is tried again next time.
  static const Libcurl api = load();
  return api;
}

}  // namespace archfit::registry
