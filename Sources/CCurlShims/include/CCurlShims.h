// spotter_curl_-prefixed shims for what Swift cannot call in libcurl: the variadic
// curl_easy_setopt and curl_easy_getinfo, one typed function per kind of argument,
// and the address inside the struct sockaddr that curl hands an open-socket callback.
#ifndef CCURL_SHIMS_H
#define CCURL_SHIMS_H

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

/// curl_easy_setopt with a long: numbers, flags and timeouts.
CURLcode spotter_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// curl_easy_setopt with a curl_off_t: sizes.
CURLcode spotter_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// curl_easy_setopt with a string or buffer (curl copies strings, not buffers).
CURLcode spotter_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// curl_easy_setopt with a callback of the write kind: WRITEFUNCTION, HEADERFUNCTION.
CURLcode spotter_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
/// curl_easy_setopt(CURLOPT_XFERINFOFUNCTION).
CURLcode spotter_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
/// curl_easy_setopt(CURLOPT_OPENSOCKETFUNCTION).
CURLcode spotter_curl_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback);
/// curl_easy_setopt(CURLOPT_PREREQFUNCTION).
CURLcode spotter_curl_easy_setopt_prereq_callback(CURL *handle, curl_prereq_callback callback);

/// curl_easy_getinfo for a long: the response code, the redirect count.
CURLcode spotter_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// curl_easy_getinfo for a curl_off_t: sizes.
CURLcode spotter_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
/// curl_easy_getinfo for a string curl owns: the effective URL, the content type.
CURLcode spotter_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// The IP address curl is about to connect to: its family (AF_INET or AF_INET6)
/// with its 4 or 16 bytes in network order copied to `bytes`, or 0 for any other family.
int spotter_curl_sockaddr_ip(const struct curl_sockaddr *address, uint8_t bytes[16]);

#endif
