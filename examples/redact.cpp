// redact.cpp — libpiiredact from C++: the stable header, the options
// struct, and a stream writing into a std::string.  Build:  g++ redact.cpp $(pkg-config --cflags --libs piiredact)
#include <piiredact.h>
#include <pii_fault.h>

#include <cstdio>
#include <string>

static pii_err append(void *ud, const void *data, size_t len)
{
    static_cast<std::string *>(ud)->append(static_cast<const char *>(data), len);
    return PII_OK;
}

int main()
{
    const char *ops[] = {"private_email=mask:*:4", "hash:8"};
    static const unsigned char key[] = "0123456789abcdef0123456789abcdef"; // 32 bytes; use random ones
    pii_easy_options o;
    pii_easy_options_init(&o);
    o.use_model = 0; // the rule tier alone
    o.operators = ops;
    o.n_operators = 2;
    o.key = key;
    o.key_len = sizeof key - 1;
    char msg[256];
    pii_err e;
    pii_easy *h = pii_easy_create(&o, &e, msg, sizeof msg);
    if (!h) {
        std::fprintf(stderr, "redact: %s: %s\n", pii_strerror(e), msg);
        return 1;
    }
    std::string out;
    pii_easy_stream *s = pii_easy_stream_open(h, append, &out, &e);
    const std::string text = "Mail bob.smith@example.com or call +1 415-555-0100 today.\n";
    // fed one byte at a time: the output does not depend on the cuts
    for (size_t i = 0; s && !e && i < text.size(); i++)
        e = pii_easy_stream_feed(s, &text[i], 1);
    if (s && !e)
        e = pii_easy_stream_finish(s);
    pii_easy_stream_free(s);
    pii_easy_free(h);
    if (e) {
        std::fprintf(stderr, "redact: %s\n", pii_strerror(e));
        return 1;
    }
    std::printf("libpiiredact %s: %s", pii_version(), out.c_str());
    return 0;
}
