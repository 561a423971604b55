#!/usr/bin/python3
"""gen_log.py — a deterministic log-like corpus for end-to-end timings.

Application log lines (timestamps, levels, request ids, paths, durations)
with made-up PII in about a third of them: emails, phone numbers, person
names, IPv4 addresses, URLs, account numbers.  Fixed seed; every value is
invented here.

With --traces, each ERROR line is followed by a Java-style stack trace
(an exception line and 6-18 "\tat ..." frames drawn from a fixed set of
call paths), as application servers write them: the frame lines repeat
byte for byte across the log, the way real traces do (the --lines result
cache is measured on both shapes, docs/PERFORMANCE.md).  LINES counts
entries; trace lines come on top.

usage: /usr/bin/python3 tools/bench/gen_log.py [--traces] [LINES] > FILE
"""
import random
import sys

FIRST = "Alice Brian Carmen Dmitri Elena Farid Grace Hiroshi Ingrid Jamal Maya Nikolai Olivia Priya Rosa Samuel".split()
LAST = "Abernathy Brennan Castillo Delacroix Eriksen Fitzgerald Gallagher Hoffmann Ivanova Moreau Nakamura Okonkwo".split()
SVC = "auth billing gateway search orders mailer scheduler inventory".split()
PATHS = "/api/v1/users /api/v1/orders /login /logout /api/v2/search /static/app.js /health /api/v1/invoices".split()
DOMAINS = "example.com example.org mail.example.net corp.example".split()


def person(r):
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def email(r):
    return f"{r.choice(FIRST).lower()}.{r.choice(LAST).lower()}@{r.choice(DOMAINS)}"


def phone(r):
    return f"+1 ({r.randint(200, 989)}) {r.randint(200, 989)}-{r.randint(1000, 9999)}"


def line(r, i):
    ts = f"2026-03-{1 + i // 4000 % 28:02d}T{i // 160 % 24:02d}:{i // 3 % 60:02d}:{i % 60:02d}.{r.randint(0, 999):03d}Z"
    lvl = r.choice(["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"])
    svc = r.choice(SVC)
    rid = "%08x" % r.getrandbits(32)
    k = r.random()
    if k < 0.10:
        msg = f"user login ok user={email(r)} ip=10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
    elif k < 0.17:
        msg = f"sending receipt to {person(r)} <{email(r)}> for order #{r.randint(100000, 999999)}"
    elif k < 0.23:
        msg = f"callback requested by {person(r)}, phone {phone(r)}"
    elif k < 0.27:
        msg = f"payment failed for account {r.randint(10**11, 10**12 - 1)} (card ending {r.randint(1000, 9999)})"
    elif k < 0.31:
        msg = f"redirect to https://{r.choice(DOMAINS)}/profile/{r.choice(FIRST).lower()}{r.randint(1, 99)}?ref=mail"
    elif k < 0.35:
        msg = f"address updated: {r.randint(1, 999)} Maple Avenue, Springfield, IL 62704 for {person(r)}"
    else:
        p = r.choice(PATHS)
        msg = f"{r.choice(['GET', 'POST', 'PUT'])} {p} status={r.choice([200, 200, 201, 204, 304, 404, 500])} dur={r.randint(1, 900)}ms bytes={r.randint(0, 99999)}"
    return f"{ts} {lvl:5} [{svc}] req={rid} {msg}"


PKG = "com.example.shop"
CLASSES = "OrderService PaymentGateway UserRepository MailerJob SearchIndex InvoiceWriter SessionFilter".split()
METHODS = "handle process load save send lookup validate render commit".split()
FRAMES = [f"\tat {PKG}.{c}.{m}({c}.java:{17 + 13 * i + 7 * j})" for i, c in enumerate(CLASSES) for j, m in enumerate(METHODS)]
FRAMES += [
    "\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:897)",
    "\tat javax.servlet.http.HttpServlet.service(HttpServlet.java:750)",
    "\tat org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:166)",
    "\tat java.base/java.lang.Thread.run(Thread.java:833)",
]
EXC = [
    "java.lang.IllegalStateException: order already settled",
    "java.sql.SQLTransientConnectionException: pool timeout after 30000ms",
    "java.lang.NullPointerException",
    "java.net.SocketTimeoutException: Read timed out",
]


def trace(r):
    # a handful of call paths, so whole traces repeat as well
    path = random.Random(r.randint(0, 11))
    frames = [path.choice(FRAMES[:-4]) for _ in range(path.randint(3, 14))] + FRAMES[-4:]
    return [r.choice(EXC)] + frames


def main():
    args = sys.argv[1:]
    traces = "--traces" in args
    args = [a for a in args if a != "--traces"]
    n = int(args[0]) if args else 2000
    r = random.Random(20)
    out = sys.stdout
    for i in range(n):
        s = line(r, i)
        out.write(s + "\n")
        if traces and " ERROR " in s:
            for t in trace(r):
                out.write(t + "\n")


if __name__ == "__main__":
    main()
