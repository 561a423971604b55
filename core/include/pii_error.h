/* pii_error.h — the one error enum of libpiiredact.
 *
 * Contract: every library function that can fail returns a pii_err (or NULL
 * plus an out-parameter pii_err).  Codes come from the X-macro list below
 * together with their message; a code is never renumbered, new codes go at
 * the end.  The library never prints or exits; the CLI maps codes to
 * messages (pii_strerror) and exit statuses.  Thread-safe: pure functions.
 */
#ifndef PII_ERROR_H
#define PII_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API of libpiiredact.so */
#endif

#define PII_ERRORS(X)                                                                              \
    X(PII_OK, 0, "success")                                                                        \
    X(PII_ENOMEM, 1, "out of memory")                                                              \
    X(PII_EIO, 2, "input/output error")                                                            \
    X(PII_EINVAL, 3, "invalid argument")                                                           \
    X(PII_EFORMAT, 4, "malformed file")                                                            \
    X(PII_ETRUNC, 5, "file is truncated")                                                          \
    X(PII_EUNSUPPORTED, 6, "unsupported feature")                                                  \
    X(PII_ENOTFOUND, 7, "not found")                                                               \
    X(PII_ESHAPE, 8, "tensor shape mismatch")                                                      \
    X(PII_EDTYPE, 9, "unsupported tensor dtype")                                                   \
    X(PII_ERANGE, 10, "value out of range")                                                        \
    X(PII_EJSON, 11, "invalid JSON")                                                               \
    X(PII_EREGEX, 12, "regular expression error")                                                  \
    X(PII_ETOOBIG, 13, "size limit exceeded")                                                      \
    X(PII_ENOKEY, 14, "hash operator needs a key")                                                 \
    X(PII_EINJECTED, 15, "injected failure (test hook)")                                           \
    X(PII_EMODEL, 16, "model error")                                                               \
    X(PII_EINTERNAL, 17, "internal error")                                                         \
    X(PII_EUTF8, 18, "invalid UTF-8")                                                              \
    X(PII_ETOKENIZER, 19, "tokenizer error")                                                       \
    X(PII_EWRITE, 20, "write error")                                                               \
    X(PII_EENCODING, 21, "input is UTF-16 or UTF-32 text, not UTF-8")

typedef enum pii_err {
#define PII_ERR_ENUM_(name, num, msg) name = num,
    PII_ERRORS(PII_ERR_ENUM_)
#undef PII_ERR_ENUM_
} pii_err;

/* Static message for a code; never NULL. */
const char *pii_strerror(pii_err e);
/* Symbolic name ("PII_EIO"); never NULL. */
const char *pii_errname(pii_err e);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif
