#include "CCurlShims.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

CURLcode spotter_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode spotter_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode spotter_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode spotter_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

CURLcode spotter_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode spotter_curl_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode spotter_curl_easy_setopt_prereq_callback(CURL *handle, curl_prereq_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

CURLcode spotter_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

CURLcode spotter_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

CURLcode spotter_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
  return curl_easy_getinfo(handle, info, value);
}

int spotter_curl_sockaddr_ip(const struct curl_sockaddr *address, uint8_t bytes[16]) {
  // curl passes a struct sockaddr_storage behind `addr`, sized by `addrlen`.
  if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
    memcpy(bytes, &v4->sin_addr, 4);
    return AF_INET;
  }
  if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
    memcpy(bytes, &v6->sin6_addr, 16);
    return AF_INET6;
  }
  return 0;
}
