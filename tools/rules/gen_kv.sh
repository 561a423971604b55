#!/bin/sh
# tools/rules/gen_kv.sh LINES — synthetic key=value log lines on stdout:
# timestamps, UUIDs, IPs, SHAs, numbers, and one line in 500 with an email,
# phone, card and token (fixed seed: the same bytes every run).  120,000
# lines (~30 MB) feed make bench-rules; 12,000 (~3 MB) tools/rules/cost.sh.
set -e
awk -v n="${1:?usage: gen_kv.sh LINES}" 'BEGIN { srand(7); for (i = 0; i < n; i++) {
    ts = sprintf("2026-04-%02dT%02d:%02d:%02d.%03dZ", 1 + int(rand() * 28), int(rand() * 24),
                 int(rand() * 60), int(rand() * 60), int(rand() * 1000));
    id = sprintf("%08x-%04x-%04x-%04x-%04x%08x", rand() * 4294967295, rand() * 65535,
                 rand() * 65535, rand() * 65535, rand() * 65535, rand() * 4294967295);
    ip = sprintf("%d.%d.%d.%d", 1 + int(rand() * 254), int(rand() * 255), int(rand() * 255),
                 1 + int(rand() * 254));
    sha = sprintf("%08x%08x%08x%08x%08x", rand() * 4294967295, rand() * 4294967295,
                  rand() * 4294967295, rand() * 4294967295, rand() * 4294967295);
    printf "%s level=info req_id=%s ip=%s method=GET path=/api/v1/items/%d status=200 dur_ms=%d bytes=%d user_agent=\"Mozilla/5.0 (X11; Linux x86_64)\" sha=%s\n", ts, id, ip, int(rand() * 99999), int(rand() * 999), int(rand() * 99999), sha;
    if (i % 500 == 0)
        printf "%s level=warn user=bob.smith@example.com phone=+1 415-555-%04d card=4111 1111 1111 1111 token=ghp_%s%s\n", ts, int(rand() * 9999), sha, "0123";
} }'
