// libcurl, loaded when the first HTTP request needs it rather than when the program starts.
//
// `storerelease` links Foundation statically (-static-stdlib in Package.swift, release builds),
// and with it FoundationNetworking, whose URLSession drives libcurl. Linked as usual, libcurl and
// the forty-odd libraries it needs (GnuTLS or OpenSSL, Kerberos, LDAP, nghttp2…) are loaded and
// relocated before `main` by every run, even `storerelease compare 8.0.2 8.0.10`, where they were
// most of its start-up (Docs/StoreReleaseKit.docc/Benchmarks.md says what was measured). Here each
// curl function FoundationNetworking calls is defined once, hidden from other libraries, and
// forwards to the real one, which is looked up in libcurl.so.4 on the first call (dlopen, once for
// the process). The link step resolves `-lcurl` to an empty archive beside this file
// (link/libcurl.a), so the binary names no libcurl; a machine without libcurl.so.4 can still run
// every command that makes no request, and one that does stops with a message saying what to
// install.
//
// Every curl function called here takes, after its named parameters, at most one variadic
// argument (a long, a pointer or a curl_off_t), which the platforms this builds for (Linux on
// x86-64 and arm64) pass like a pointer-sized integer: it is read as one and passed on as one.
//
// In a debug build (and the test binaries) FoundationNetworking is a shared library with libcurl
// as its own dependency: these definitions are hidden, so nothing binds to them there.
#include "CLazyCurl.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HIDDEN __attribute__((visibility("hidden")))

static void *library;
static pthread_once_t loading = PTHREAD_ONCE_INIT;

static void stop(const char *what, const char *detail) {
    // A request that cannot be made; the message says what to install. Written with write(2):
    // stdio may be in use on another thread.
    const char *parts[] = {"storerelease: cannot make HTTP requests: ", what, " (", detail,
                           "); install libcurl (Debian and Ubuntu: apt-get install libcurl4)\n"};
    for (unsigned i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        ssize_t ignored = write(2, parts[i], strlen(parts[i]));
        (void)ignored;
    }
    _exit(1);
}

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *error = dlerror();
        stop("libcurl.so.4 cannot be loaded", error ? error : "no reason given");
    }
}

static void *find(const char *name) {
    pthread_once(&loading, load);
    void *function = dlsym(library, name);
    if (function == NULL) stop("libcurl.so.4 lacks a function", name);
    return function;
}

int clazycurl_loaded(void) {
    return __atomic_load_n(&library, __ATOMIC_ACQUIRE) != NULL;
}

// The forwarders: each looks its function up once (a racing first call looks it up twice and
// stores the same pointer) and calls it.
#define LOOKUP(type, name) \
    static type cached; \
    type function = __atomic_load_n(&cached, __ATOMIC_ACQUIRE); \
    if (function == NULL) { \
        function = (type)find(#name); \
        __atomic_store_n(&cached, function, __ATOMIC_RELEASE); \
    }

#define FORWARD(result, name, parameters, arguments) \
    HIDDEN result name parameters { \
        typedef result(*Function) parameters; \
        LOOKUP(Function, name) \
        return function arguments; \
    }

// The one variadic argument, read as a pointer-sized integer.
#define FORWARD_VARIADIC(result, name, first, second) \
    HIDDEN result name(first a, second b, ...) { \
        typedef result (*Function)(first, second, void *); \
        LOOKUP(Function, name) \
        va_list rest; \
        va_start(rest, b); \
        void *argument = va_arg(rest, void *); \
        va_end(rest); \
        return function(a, b, argument); \
    }

// curl's types are opaque here: handles are pointers, codes and options ints, as in curl.h.
FORWARD(int, curl_global_init, (long flags), (flags))
FORWARD(void *, curl_easy_init, (void), ())
FORWARD(void, curl_easy_cleanup, (void *handle), (handle))
FORWARD(int, curl_easy_pause, (void *handle, int mask), (handle, mask))
FORWARD(const char *, curl_easy_strerror, (int code), (code))
FORWARD(void, curl_free, (void *pointer), (pointer))
FORWARD(void *, curl_multi_init, (void), ())
FORWARD(int, curl_multi_cleanup, (void *multi), (multi))
FORWARD(int, curl_multi_add_handle, (void *multi, void *easy), (multi, easy))
FORWARD(int, curl_multi_remove_handle, (void *multi, void *easy), (multi, easy))
FORWARD(int, curl_multi_assign, (void *multi, int socket, void *pointer), (multi, socket, pointer))
FORWARD(void *, curl_multi_info_read, (void *multi, int *left), (multi, left))
FORWARD(int, curl_multi_socket_action, (void *multi, int socket, int mask, int *running),
        (multi, socket, mask, running))
FORWARD(void *, curl_slist_append, (void *list, const char *string), (list, string))
FORWARD(void, curl_slist_free_all, (void *list), (list))
FORWARD(void *, curl_url, (void), ())
FORWARD(int, curl_url_get, (void *url, int part, char **value, unsigned int flags), (url, part, value, flags))
FORWARD(int, curl_url_set, (void *url, int part, const char *value, unsigned int flags),
        (url, part, value, flags))
FORWARD(char *, curl_version, (void), ())
FORWARD(void *, curl_version_info, (int age), (age))
FORWARD_VARIADIC(int, curl_easy_setopt, void *, int)
FORWARD_VARIADIC(int, curl_easy_getinfo, void *, int)
FORWARD_VARIADIC(int, curl_multi_setopt, void *, int)

#else
int clazycurl_loaded(void) { return 0; }
#endif
