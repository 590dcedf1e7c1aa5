// libcurl (Debian 12: 7.88.1, libcurl4-openssl-dev). curl_easy_setopt and
// curl_easy_getinfo are variadic, so Swift calls them through CCurlShims.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

#endif
