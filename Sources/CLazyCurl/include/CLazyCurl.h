#ifndef CLAZYCURL_H
#define CLAZYCURL_H

/// Whether libcurl has been loaded into this process (by the first HTTP request), for tests and
/// the benchmark: 1 once loaded, else 0. Always 0 where Foundation's URLSession does not use curl.
int clazycurl_loaded(void);

#endif
