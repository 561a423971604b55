#!/usr/bin/python3
"""config_py.py — the configuration API through ctypes, for tests/lib/run.sh
(standard library only; the library is $PIIREDACT_LIB).

    config_py.py --list
prints the option table as config_cli --list does (read through the
pii_config_info struct).
    config_py.py KEY VALUE [KEY VALUE ...] < in > out
sets each pair with pii_config_set (VALUE "" for a switch), builds a handle
with pii_easy_create_config and writes the redacted stdin; a failure is
"CODE_NAME: message" on stdout and exit 1.
"""
import ctypes
import os
import sys


class _Info(ctypes.Structure):
    # pii_config_info (api/include/piiredact.h)
    _fields_ = [("key", ctypes.c_char_p), ("arg", ctypes.c_char_p),
                ("default", ctypes.c_char_p), ("help", ctypes.c_char_p),
                ("repeatable", ctypes.c_int), ("hidden", ctypes.c_int)]


def main(argv):
    # the example's bindings of the easy layer, plus the configuration's
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "examples"))
    sys.dont_write_bytecode = True  # nothing written into the source tree
    import piiredact
    lib = piiredact._load(os.environ["PIIREDACT_LIB"])
    lib.pii_config_option.restype = ctypes.POINTER(_Info)
    lib.pii_config_option.argtypes = [ctypes.c_size_t]
    lib.pii_config_create.restype = ctypes.c_void_p
    lib.pii_config_free.argtypes = [ctypes.c_void_p]
    lib.pii_config_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.pii_config_message.restype = ctypes.c_char_p
    lib.pii_config_message.argtypes = [ctypes.c_void_p]
    lib.pii_errname.restype = ctypes.c_char_p
    lib.pii_errname.argtypes = [ctypes.c_int]
    lib.pii_easy_create_config.restype = ctypes.c_void_p
    lib.pii_easy_create_config.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int),
                                           ctypes.c_char_p, ctypes.c_size_t]
    out = sys.stdout.buffer
    if argv == ["--list"]:
        i = 0
        while True:
            p = lib.pii_config_option(i)
            if not p:
                return 0
            o = p.contents
            out.write(b"%s %s %d %d\n" % (o.key, o.arg or b"-", o.repeatable, o.hidden))
            i += 1
    if len(argv) % 2:
        return 2
    c = lib.pii_config_create()
    err = ctypes.c_int(0)
    msg = ctypes.create_string_buffer(512)
    for k, v in zip(argv[0::2], argv[1::2]):
        e = lib.pii_config_set(c, k.encode(), v.encode())
        if e:
            out.write(b"%s: %s\n" % (lib.pii_errname(e), lib.pii_config_message(c)))
            lib.pii_config_free(c)
            return 1
    h = lib.pii_easy_create_config(c, ctypes.byref(err), msg, len(msg))
    lib.pii_config_free(c)
    if not h:
        out.write(b"%s: %s\n" % (lib.pii_errname(err.value), msg.value))
        return 1
    data = sys.stdin.buffer.read()
    text, n = ctypes.c_void_p(), ctypes.c_size_t()
    e = lib.pii_easy_redact_buffer(h, data, len(data), ctypes.byref(text), ctypes.byref(n),
                                   None, None)
    if e:
        out.write(b"%s: redact\n" % lib.pii_errname(e))
        return 1
    out.write(ctypes.string_at(text, n.value))
    lib.pii_free(text)
    lib.pii_easy_free(h)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
