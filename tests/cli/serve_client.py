#!/usr/bin/env python3
"""serve_client.py — drives a running `pii-redact serve` for the CLI tests.

    serve_client.py start LOG ARGS...   (not used: the shell starts it)
    serve_client.py CHECK BASE [ARGS]   one named check against BASE
                                        (http://127.0.0.1:PORT), exit 0 on pass

Standard library only.  Every check asserts exact bodies, offsets and
status codes; a failure prints what differed (never more than the test's
own inputs) and exits 1.
"""
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.parse


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def conn(base, timeout=30):
    u = urllib.parse.urlparse(base)
    return http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)


def req(base, method, path, body=None, ctype="application/json", headers=None):
    c = conn(base)
    h = dict(headers or {})
    if body is not None:
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        h.setdefault("Content-Type", ctype)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    out = (r.status, r.getheader("Content-Type") or "", data, dict(r.getheaders()))
    c.close()
    return out


def jreq(base, path, body, want=200, headers=None):
    st, ct, data, _ = req(base, "POST", path, body, headers=headers)
    if st != want:
        fail(f"{path}: status {st}, want {want}: {data[:200]!r}")
    if "application/json" not in ct:
        fail(f"{path}: content type {ct}")
    return json.loads(data)


def raw_http(base, payload, read_timeout=5):
    """Sends payload bytes on a fresh socket; returns the reply bytes."""
    u = urllib.parse.urlparse(base)
    s = socket.create_connection((u.hostname, u.port), timeout=read_timeout)
    s.sendall(payload)
    data = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
    except socket.timeout:
        pass
    s.close()
    return data


def command_output(binary, args, text):
    return subprocess.run([binary] + args, input=text.encode(), capture_output=True,
                          check=True).stdout


# ---- the checks ---------------------------------------------------------------

SAMPLES = [
    "Call John Smith at +1 415-555-0100 or mail john.smith@example.com today.\n",
    "Ticket 4411: Maria García (maria.garcia@example.org) says her card 4111 1111 1111 1111 was charged twice.",
    "no personal data here at all",
    "",
    "Ünïcödé → Jane Doe lives at 12 Rue de Rivoli, 75001 Paris; IBAN DE89 3704 0044 0532 0130 00.",
]


def check_endpoints(base, binary):
    # /health
    st, ct, data, _ = req(base, "GET", "/health")
    if st != 200 or json.loads(data) != {"status": "ok", "version": json.loads(data)["version"]}:
        fail(f"/health: {st} {data!r}")
    # /redact text/plain: byte-identical to the command (no options)
    for t in SAMPLES:
        st, ct, data, _ = req(base, "POST", "/redact", t, ctype="text/plain")
        want = command_output(binary, [], t)
        if st != 200 or data != want or not ct.startswith("text/plain"):
            fail(f"/redact text: {st} {data!r} != {want!r}")
    # /redact JSON: same text, spans in code points and bytes
    t = SAMPLES[4]
    j = jreq(base, "/redact", {"text": t})
    if j["text"].encode() != command_output(binary, [], t):
        fail("/redact json text differs from the command")
    b = t.encode()
    for s in j["spans"]:
        if t[s["start"]:s["end"]].encode() != b[s["byte_start"]:s["byte_end"]]:
            fail(f"/redact span offsets disagree: {s}")
    # /analyze: Presidio shape, code-point offsets into the Python string
    j = jreq(base, "/analyze", {"text": t, "language": "en"})
    if not isinstance(j, list) or not j:
        fail(f"/analyze: {j}")
    for it in j:
        for k in ("entity_type", "start", "end", "score"):
            if k not in it:
                fail(f"/analyze item lacks {k}")
    types = {it["entity_type"]: t[it["start"]:it["end"]] for it in j}
    if types.get("IBAN_CODE") != "DE89 3704 0044 0532 0130 00":
        fail(f"/analyze IBAN: {types}")
    # the spans of /analyze are those of /redact, renamed
    r = jreq(base, "/redact", {"text": t})
    if [(s["start"], s["end"]) for s in r["spans"]] != [(i["start"], i["end"]) for i in j]:
        fail("/analyze and /redact spans differ")
    # entities filter and score_threshold
    j2 = jreq(base, "/analyze", {"text": t, "language": "en", "entities": ["IBAN_CODE"]})
    if {i["entity_type"] for i in j2} != {"IBAN_CODE"}:
        fail(f"/analyze entities filter: {j2}")
    if jreq(base, "/analyze", {"text": t, "language": "en", "entities": []}) != j:
        fail("/analyze with entities [] is not all of them")
    if jreq(base, "/analyze", {"text": t, "language": "en", "entities": ["NRP"]}) != []:
        fail("/analyze with an entity we do not detect")
    j3 = jreq(base, "/analyze", {"text": t, "language": "en", "score_threshold": 1.0})
    if any(i["score"] < 1.0 for i in j3) or len(j3) >= len(j) + 1:
        fail(f"/analyze score_threshold: {j3}")
    # /anonymize with every operator
    text = "My name is Jane Doe, phone 212-555-0199, card 4111111111111111."
    res = [
        {"entity_type": "PERSON", "start": 11, "end": 19, "score": 0.9},
        {"entity_type": "PHONE_NUMBER", "start": 27, "end": 39, "score": 1.0},
        {"entity_type": "CREDIT_CARD", "start": 46, "end": 62, "score": 1.0},
    ]
    j = jreq(base, "/anonymize", {"text": text, "analyzer_results": res})
    if j["text"] != "My name is <PERSON>, phone <PHONE_NUMBER>, card <CREDIT_CARD>.":
        fail(f"/anonymize default: {j}")
    want_items = [
        {"start": 11, "end": 19, "entity_type": "PERSON", "text": "<PERSON>", "operator": "replace"},
        {"start": 27, "end": 41, "entity_type": "PHONE_NUMBER", "text": "<PHONE_NUMBER>", "operator": "replace"},
        {"start": 48, "end": 61, "entity_type": "CREDIT_CARD", "text": "<CREDIT_CARD>", "operator": "replace"},
    ]
    if j["items"] != want_items:
        fail(f"/anonymize items: {j['items']}")
    ops = {
        "PERSON": {"type": "redact"},
        "PHONE_NUMBER": {"type": "mask", "masking_char": "*", "chars_to_mask": 4, "from_end": True},
        "CREDIT_CARD": {"type": "keep"},
        "DEFAULT": {"type": "replace", "new_value": "X"},
    }
    j = jreq(base, "/anonymize", {"text": text, "analyzer_results": res, "anonymizers": ops})
    if j["text"] != "My name is , phone 212-555-****, card 4111111111111111.":
        fail(f"/anonymize operators: {j['text']!r}")
    j = jreq(base, "/anonymize", {"text": "é Jane", "analyzer_results": [
        {"entity_type": "PERSON", "start": 2, "end": 6, "score": 1}],
        "anonymizers": {"DEFAULT": {"type": "mask", "masking_char": "·", "chars_to_mask": 2}}})
    if j["text"] != "é ··ne":
        fail(f"/anonymize mask code points: {j['text']!r}")
    # overlapping results: nothing asked for is left out
    j = jreq(base, "/anonymize", {"text": "abcdefghij", "analyzer_results": [
        {"entity_type": "A", "start": 1, "end": 5, "score": 0.5},
        {"entity_type": "B", "start": 3, "end": 8, "score": 0.9},
        {"entity_type": "C", "start": 2, "end": 4, "score": 1.0}]})
    if j["text"] != "a<B>ij":
        fail(f"/anonymize overlaps: {j['text']!r}")
    # hash needs the server's key
    st, _, data, _ = req(base, "POST", "/anonymize", {"text": text, "analyzer_results": res,
                                                      "anonymizers": {"DEFAULT": {"type": "hash"}}})
    if st != 400 or b"key" not in data:
        fail(f"/anonymize hash without key: {st} {data!r}")
    # errors: never an echo of the text
    secret = "Jane Doe 212-555-0199"
    cases = [
        ("/anonymize", {"text": secret, "analyzer_results": [{"entity_type": "X", "start": 0, "end": 99}]}, 400),
        ("/anonymize", {"text": secret}, 400),
        ("/anonymize", {"text": secret, "analyzer_results": [], "anonymizers": {"DEFAULT": {"type": "encrypt", "key": "k" * 16}}}, 200),
        ("/anonymize", {"text": secret, "analyzer_results": [{"entity_type": "X", "start": 0, "end": 4}],
                        "anonymizers": {"DEFAULT": {"type": "encrypt", "key": "k" * 16}}}, 400),
        ("/analyze", {"language": "en"}, 400),
        ("/analyze", {"text": 5}, 400),
        ("/analyze", {"text": secret, "score_threshold": 2}, 400),
        ("/redact", "{not json " + secret, 400),
        ("/restore", {"text": secret}, 400),
        ("/restore", {"text": secret, "session": "0" * 32}, 404),
    ]
    for path, body, want in cases:
        st, ct, data, _ = req(base, "POST", path, body)
        if st != want:
            fail(f"{path} {body!r}: status {st}, want {want}")
        if b"Jane" in data and want != 200:
            fail(f"{path}: the error echoes the text")
    st, _, _, h = req(base, "GET", "/redact")
    if st != 405 or h.get("Allow") != "POST":
        fail(f"GET /redact: {st} {h}")
    st, _, _, _ = req(base, "GET", "/nope")
    if st != 404:
        fail(f"GET /nope: {st}")
    # invalid UTF-8 in JSON is refused
    st, _, _, _ = req(base, "POST", "/analyze", b'{"text":"\xff\xfe"}')
    if st != 400:
        fail(f"invalid UTF-8: {st}")
    print("endpoints: ok")


def check_concurrent(base, binary):
    """8 threads at once, each its own text: every reply is the command's
    bytes for that text (no lost or mixed-up replies); pseudonym requests
    in between never share numbering across requests."""
    texts = [f"Ticket {i}: mail user{i}@example.com or call +1 415-555-01{i:02d}; "
             f"Jane Doe{'x' * i} wrote." for i in range(8)]
    want = [command_output(binary, [], t) for t in texts]
    errors = []

    def run(k):
        c = conn(base)
        for n in range(25):
            i = (k + n) % len(texts)
            if n % 5 == 4:
                c.request("POST", "/redact", body=json.dumps({"text": texts[i], "pseudonyms": True}),
                          headers={"Content-Type": "application/json"})
                j = json.loads(c.getresponse().read())
                if "<PRIVATE_EMAIL_1>" not in j["text"] or f"user{i}@" not in json.dumps(j["mapping"]):
                    errors.append(f"pseudonyms {i}")
                continue
            c.request("POST", "/redact", body=texts[i].encode(), headers={"Content-Type": "text/plain"})
            r = c.getresponse()
            if r.read() != want[i] or r.status != 200:
                errors.append(f"text {i}")
        c.close()

    ts = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        fail(f"concurrent: {len(errors)} wrong replies: {errors[:5]}")
    print("concurrent: ok")


def check_pseudonyms(base):
    t = "Jane Doe wrote to bob@example.com. Later, Doe called Bob Stone; Jane Doe again."
    j = jreq(base, "/redact", {"text": t, "pseudonyms": True})
    m = {e["placeholder"]: e["value"] for e in j["mapping"]}
    # the full name and its lone surname share one placeholder
    ph = [p for p, v in m.items() if v == "Jane Doe"]
    if len(ph) != 1 or j["text"].count(ph[0]) != 3 or "Doe" in j["text"]:
        fail(f"pseudonyms: {j['text']!r} {m}")
    if "<PRIVATE_EMAIL_1>" not in m or m["<PRIVATE_EMAIL_1>"] != "bob@example.com":
        fail(f"pseudonyms email: {m}")
    # an LLM answer with the placeholders mangled in case and spacing
    answer = j["text"].replace(ph[0], "< " + ph[0][1:-1].lower().replace("_", " ") + " >", 1)
    r = jreq(base, "/restore", {"text": answer, "mapping": j["mapping"]})
    if r["text"] != t.replace("Later, Doe", "Later, Jane Doe") or r["restored"] != len(
            [1 for p in m for _ in range(j["text"].count(p))]):
        fail(f"/restore: {r}")
    # /deanonymize: Presidio's reply shape, code-point offsets of the output
    d = jreq(base, "/deanonymize", {"text": "Dear <PRIVATE_PERSON_1>, é <private_email_1>",
                                    "mapping": j["mapping"]})
    if d["text"] != "Dear Jane Doe, é bob@example.com":
        fail(f"/deanonymize: {d}")
    if [(i["start"], i["end"], i["entity_type"]) for i in d["items"]] != [(5, 13, "PERSON"), (17, 32, "EMAIL_ADDRESS")]:
        fail(f"/deanonymize items: {d['items']}")
    # sessions: numbering goes on across requests; the mapping stays server-side
    a = jreq(base, "/redact", {"text": "Mail jane@example.com.", "pseudonyms": True, "session": True})
    sid = a.get("session")
    if not sid or len(sid) != 32 or a["text"] != "Mail <PRIVATE_EMAIL_1>.":
        fail(f"session start: {a}")
    b = jreq(base, "/redact", {"text": "Also bob@example.com and jane@example.com.",
                               "pseudonyms": True, "session": sid})
    if b["text"] != "Also <PRIVATE_EMAIL_2> and <PRIVATE_EMAIL_1>.":
        fail(f"session numbering: {b}")
    r = jreq(base, "/restore", {"text": "<PRIVATE_EMAIL_2>, <Private-Email-1>", "session": sid})
    if r["text"] != "bob@example.com, jane@example.com":
        fail(f"session restore: {r}")
    # "forget": the session ends with this restore
    r = jreq(base, "/restore", {"text": "<PRIVATE_EMAIL_2>", "session": sid, "forget": True})
    if r["text"] != "bob@example.com":
        fail(f"restore with forget: {r}")
    st, _, _, _ = req(base, "POST", "/restore", {"text": "<PRIVATE_EMAIL_2>", "session": sid})
    if st != 404:
        fail(f"a forgotten session answered: {st}")
    print("pseudonyms: ok")


def check_limits(base, max_body):
    # 413 from Content-Length, before the body
    st, _, data, _ = req(base, "POST", "/redact", "x" * (max_body + 1), ctype="text/plain")
    if st != 413:
        fail(f"413: {st}")
    st, _, _, _ = req(base, "POST", "/redact", "x" * max_body, ctype="text/plain")
    if st != 200:
        fail(f"a body of exactly --max-body: {st}")
    # 413 for a chunked body that grows past the limit
    body = b"x" * (max_body + 10)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    reply = raw_http(base, b"POST /redact HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n" + chunked)
    if not reply.startswith(b"HTTP/1.1 413"):
        fail(f"chunked 413: {reply[:40]!r}")
    print("limits: ok")


def hold_request(base, body_len=100):
    """Opens a request whose body is not yet complete; returns the socket."""
    u = urllib.parse.urlparse(base)
    s = socket.create_connection((u.hostname, u.port), timeout=10)
    s.sendall(b"POST /redact HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
              b"Content-Length: %d\r\n\r\n" % body_len)
    return s


def finish_request(s, body):
    s.sendall(body)
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < 1:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data


def wait_busy(base):
    """Polls /health until it gets 503: with --max-requests 1 that proves a
    held request has been seen (its headers are in).  Returns the headers."""
    t_end = time.time() + 20
    while time.time() < t_end:
        st, _, _, h = req(base, "GET", "/health")
        if st == 503:
            return h
        if st != 200:
            fail(f"/health while a request is held: {st}")
        time.sleep(0.05)
    fail("the held request was never counted")


def check_busy(base):
    """--max-requests 1: a second request while one is held gets 503."""
    s = hold_request(base, 10)
    h = wait_busy(base)
    if h.get("Retry-After") != "1":
        fail(f"503 without Retry-After: {h}")
    reply = finish_request(s, b"Jane Doe!!")
    if not reply.startswith(b"HTTP/1.1 200"):
        fail(f"held request: {reply[:40]!r}")
    t_end = time.time() + 20
    while req(base, "GET", "/health")[0] != 200:
        if time.time() > t_end:
            fail("still 503 after the held request")
        time.sleep(0.05)
    print("busy: ok")


def check_timeout(base):
    """--timeout 1: an idle connection is closed."""
    u = urllib.parse.urlparse(base)
    s = socket.create_connection((u.hostname, u.port), timeout=10)
    s.sendall(b"POST /redact HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab")
    t0 = time.time()
    data = s.recv(100)
    dt = time.time() - t0
    if data != b"" or dt > 5:
        fail(f"idle connection: {data!r} after {dt:.1f}s")
    print("timeout: ok")


def check_auth(base, token):
    st, _, _, _ = req(base, "GET", "/health")
    if st != 200:
        fail(f"/health needs no token: {st}")
    for h in ({}, {"Authorization": "Bearer wrong-token-wrong-token"}, {"Authorization": "Basic " + token}):
        st, _, _, hh = req(base, "POST", "/redact", "Jane Doe", ctype="text/plain", headers=h)
        if st != 401 or hh.get("WWW-Authenticate") != "Bearer":
            fail(f"auth {h}: {st}")
    st, _, data, _ = req(base, "POST", "/redact", "hi", ctype="text/plain",
                         headers={"Authorization": "Bearer " + token})
    if st != 200 or data != b"hi":
        fail(f"auth ok: {st} {data!r}")
    print("auth: ok")


def check_drain(base, pid):
    """SIGTERM with a request in progress (--max-requests 1): new
    connections are refused, the request still gets its answer."""
    import os
    import signal
    s = hold_request(base, 8)
    wait_busy(base)
    os.kill(pid, signal.SIGTERM)
    t_end = time.time() + 20
    while True:
        try:
            req(base, "GET", "/health")
        except (ConnectionError, OSError):
            break  # the socket is closed
        if time.time() > t_end:
            fail("new connections still answered after SIGTERM")
        time.sleep(0.05)
    reply = finish_request(s, b"Jane Doe")
    if not reply.startswith(b"HTTP/1.1 200") or not reply.endswith(b"<PRIVATE_PERSON>"):
        fail(f"in-flight request after SIGTERM: {reply[:60]!r}")
    print("drain: ok")


def check_ttl(base, binary):
    """--session-ttl 1: a session is gone a second after its last use; the
    placeholders are the command's --map-out ones for the same text."""
    t = "Jane Doe wrote to bob@example.com. Later, Doe called +1 415-555-0100.\n"
    import os
    import tempfile
    mapfile = os.path.join(tempfile.gettempdir(), "ttl-map.json")
    want = command_output(binary, ["--operator", "pseudonym", "--map-out", mapfile, "--quiet"], t)
    a = jreq(base, "/redact", {"text": t, "pseudonyms": True, "session": True})
    if a["text"].encode() != want:
        fail(f"server pseudonyms {a['text']!r} != command {want!r}")
    r = jreq(base, "/restore", {"text": "<PRIVATE_PERSON_1>", "session": a["session"]})
    if r["text"] != "Jane Doe":
        fail(f"ttl: restore at once: {r}")
    time.sleep(2.2)
    st, _, _, _ = req(base, "POST", "/restore", {"text": "<PRIVATE_PERSON_1>", "session": a["session"]})
    if st != 404:
        fail(f"ttl: the session outlived its TTL: {st}")
    print("ttl: ok")


def check_unix(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        b = s.recv(4096)
        if not b:
            break
        data += b
    if not data.startswith(b"HTTP/1.1 200") or b'"status":"ok"' not in data:
        fail(f"unix socket: {data[:80]!r}")
    print("unix: ok")


if __name__ == "__main__":
    what, arg = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    if what == "endpoints":
        check_endpoints(arg, rest[0])
    elif what == "pseudonyms":
        check_pseudonyms(arg)
    elif what == "concurrent":
        check_concurrent(arg, rest[0])
    elif what == "limits":
        check_limits(arg, int(rest[0]))
    elif what == "busy":
        check_busy(arg)
    elif what == "timeout":
        check_timeout(arg)
    elif what == "auth":
        check_auth(arg, rest[0])
    elif what == "drain":
        check_drain(arg, int(rest[0]))
    elif what == "ttl":
        check_ttl(arg, rest[0])
    elif what == "unix":
        check_unix(arg)
    else:
        fail("unknown check " + what)
