/* test_rules_machine.c — hard negatives: machine text must give no span.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase machine_cases[] = {
    {"req_id=1aa2ea18-7d92-ed00-eb90-aba295519174 tel-cell123456789 fax0123456789", {{0}}},
    {"id=123e4567-e89b-12d3-a456-426614174000 commit 9fceb02d0ae598e95dc970b74767f19372d61af8 "
     "(abc1234)",
     {{0}}},
    {"version 1.2.3, v2.10.0-rc.1, 10.0.19045.2965, release 2026.04.1, go1.22.3", {{0}}},
    {"2026-04-23T10:15:30.123Z level=info msg=\"started\" pid=12345 port=8080 bytes=1048576",
     {{0}}},
    {"Apr 23 10:15:30 host sshd[1234]: Accepted publickey from 192.168.1.17 port 52413", {{0}}},
    {"127.0.0.1 - - [23/Apr/2026:10:15:30 +0000] \"GET /api/v1/items?id=42 HTTP/1.1\" 200 5123",
     {{0}}},
    {"ip 192.168.1.1, 10.0.0.254:8080, 2001:db8::1, fe80::1%eth0", {{0}}},
    {"price $1,234.56, \xe2\x82\xac"
     "99.99, 1.234,56 EUR, total: 12345.67, 3x @ 4.99",
     {{0}}},
    {"Order #12345678, order 2026-0042-7781, INV-000123, ticket 4821-99", {{0}}},
    {"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", {{0}}},
    {"0x7ffd5c3e2a10 0xdeadbeef 1714000000000 1.5e-10 -42 3.14159", {{0}}},
    {"mem 16384MB 8 cores, 2x 1TB, 1920x1080, 60Hz, 44.1kHz", {{0}}},
};

RULES_CASES_MAIN(test_machine, machine_cases)
