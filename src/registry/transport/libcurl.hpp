// libcurl, loaded the first time archfit contacts a registry.
//
// Most runs never do (the lock file and the cache answer), and linking libcurl
// at start-up maps some thirty libraries it pulls in (TLS, HTTP/2, IDN,
// Kerberos, LDAP...), which costs more than a whole fix of a small manifest.
// So the registry module calls libcurl through this table, filled with dlopen
// on first use; the headers still give the types and constants. A static
// release executable (ARCHFIT_LIBCURL_LINKED) links libcurl in and fills the
// table with it.
#pragma once

#include <curl/curl.h>

namespace archfit::registry {

struct Libcurl {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
  decltype(&::curl_multi_init) multi_init;
  decltype(&::curl_multi_setopt) multi_setopt;
  decltype(&::curl_multi_add_handle) multi_add_handle;
  decltype(&::curl_multi_remove_handle) multi_remove_handle;
  decltype(&::curl_multi_perform) multi_perform;
  decltype(&::curl_multi_info_read) multi_info_read;
  decltype(&::curl_multi_poll) multi_poll;
  decltype(&::curl_multi_wakeup) multi_wakeup;
  decltype(&::curl_multi_cleanup) multi_cleanup;
  decltype(&::curl_version_info) version_info;
  // The URL API: archfit reads URLs as libcurl, which connects to them, does.
  decltype(&::curl_url) url;
  decltype(&::curl_url_set) url_set;
  decltype(&::curl_url_get) url_get;
  decltype(&::curl_url_cleanup) url_cleanup;
  decltype(&::curl_free) free;
};

// Loads libcurl once (and runs curl_global_init); later calls return the same
// table. Throws archfit::Error (Resolution) saying what to install when the
// library or one of its functions is missing.
const Libcurl& libcurl();

}  // namespace archfit::registry
