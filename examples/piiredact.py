#!/usr/bin/python3
"""piiredact.py — libpiiredact from Python through ctypes (standard library
only).

    from piiredact import Redactor
    r = Redactor("--rules-only")          # pii-redact's option syntax
    text, spans = r.redact(b"Mail bob@example.com")

The library is found as $PIIREDACT_LIB, else libpiiredact.so.2 on the
loader's path.  Run as a script it redacts its arguments (or a sample
sentence) and prints the result and the spans.
"""
import ctypes
import os
import sys


class _Span(ctypes.Structure):
    # pii_span (redact/include/pii_redact.h)
    _fields_ = [("start", ctypes.c_uint64), ("end", ctypes.c_uint64),
                ("label", ctypes.c_char_p), ("rule", ctypes.c_char_p),
                ("score", ctypes.c_float), ("source", ctypes.c_int)]


def _load(path=None):
    lib = ctypes.CDLL(path or os.environ.get("PIIREDACT_LIB") or "libpiiredact.so.2")
    lib.pii_version.restype = ctypes.c_char_p
    lib.pii_strerror.restype = ctypes.c_char_p
    lib.pii_strerror.argtypes = [ctypes.c_int]
    lib.pii_easy_create_args.restype = ctypes.c_void_p
    lib.pii_easy_create_args.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                                         ctypes.c_char_p, ctypes.c_size_t]
    lib.pii_easy_free.argtypes = [ctypes.c_void_p]
    lib.pii_easy_redact_buffer.restype = ctypes.c_int
    lib.pii_easy_redact_buffer.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t),
        ctypes.POINTER(ctypes.POINTER(_Span)), ctypes.POINTER(ctypes.c_size_t)]
    lib.pii_free.argtypes = [ctypes.c_void_p]
    return lib


class Error(Exception):
    pass


class Redactor:
    """One pii_easy handle; safe to share between threads."""

    def __init__(self, args="", lib=None):
        self._lib = _load(lib)
        err = ctypes.c_int(0)
        msg = ctypes.create_string_buffer(512)
        self._h = self._lib.pii_easy_create_args(args.encode(), ctypes.byref(err), msg,
                                                 len(msg))
        if not self._h:
            raise Error("%s: %s" % (self._lib.pii_strerror(err.value).decode(),
                                    msg.value.decode(errors="replace")))

    def version(self):
        return self._lib.pii_version().decode()

    def redact(self, data):
        """bytes in; (redacted bytes, [(start, end, label, source)]) out."""
        out = ctypes.c_void_p()
        out_len = ctypes.c_size_t()
        spans = ctypes.POINTER(_Span)()
        n = ctypes.c_size_t()
        e = self._lib.pii_easy_redact_buffer(self._h, data, len(data), ctypes.byref(out),
                                             ctypes.byref(out_len), ctypes.byref(spans),
                                             ctypes.byref(n))
        if e:
            raise Error(self._lib.pii_strerror(e).decode())
        try:
            text = ctypes.string_at(out, out_len.value)
            found = [(spans[i].start, spans[i].end, spans[i].label.decode(),
                      ("model", "rule", "deny")[spans[i].source]) for i in range(n.value)]
        finally:
            self._lib.pii_free(out)
            self._lib.pii_free(spans)
        return text, found

    def close(self):
        if self._h:
            self._lib.pii_easy_free(self._h)
            self._h = None

    def __del__(self):
        self.close()


if __name__ == "__main__":
    r = Redactor("--rules-only")
    data = (" ".join(sys.argv[1:]) or
            "Mail bob.smith@example.com or call +1 415-555-0100 today.").encode() + b"\n"
    text, spans = r.redact(data)
    sys.stdout.write(text.decode(errors="replace"))
    for s in spans:
        print("%s [%d, %d) %s" % (s[2], s[0], s[1], s[3]))
    r.close()
