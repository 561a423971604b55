#!/usr/bin/env python3
"""tools/structured/gen_devset.py — the structured-data dev set of issue 41.

Writes, deterministically (seeded), files in real formats with the gold
spans of every value they hold:
  OUT/logs.jsonl      compact JSON log lines (cards, SSNs, phones, emails,
                      tokens, IBANs as JSON strings and numbers)
  OUT/export.csv      a CSV export with a header (names, cards, phones, IBANs)
  OUT/doc.json        a pretty-printed JSON document (nested objects, arrays)
  OUT/app.env         .env files and key=value / key: value configs
  OUT/kubeconfig.yaml a kubeconfig with base64 client keys and tokens
  OUT/conn.txt        connection strings (postgres, mysql, redis, mongodb, amqp)
  OUT/gold.jsonl      {"file","start","end","label"} per value (byte offsets)
and machine noise between the values (timestamps, UUIDs, SHA-256 digests,
order numbers, amounts, ports, versions, IPs) that must not be found.

  python3 tools/structured/gen_devset.py OUT [--scale N] [--seed S]
  python3 tools/structured/gen_devset.py --big OUT/big.log --mb 100

--big writes only a large JSON-lines log (for throughput) of about MB
megabytes.  Measure with tools/structured/measure.py.  Never tuned to
/work/shared/eval; generated only from the shapes documented in
docs/RULES.md.
"""
import json
import os
import random
import string
import sys

FIRST = ["Maria", "Li", "Kofi", "Priya", "Dmitri", "Sofia", "Aiko", "Jonas", "Fatima", "Lucas",
         "Elena", "Omar", "Hannah", "Mateo", "Chloe", "Ravi", "Ingrid", "Tomasz", "Amara", "Noah"]
LAST = ["Garcia", "Wei", "Asante", "Raman", "Petrov", "Baranova", "Tanaka", "Berg", "Khan",
        "Silva", "Rossi", "Haddad", "Schmidt", "Lopez", "Martin", "Iyer", "Larsen", "Nowak",
        "Okafor", "Smith"]
B64 = string.ascii_letters + string.digits + "+/"
URLSAFE = string.ascii_letters + string.digits + "-_"
ALNUM = string.ascii_letters + string.digits


def luhn_complete(prefix, length, r):
    digits = [int(c) for c in prefix]
    while len(digits) < length - 1:
        digits.append(r.randrange(10))
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    digits.append((10 - total % 10) % 10)
    return "".join(map(str, digits))


def card(r):
    prefix, n = r.choice([("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15),
                          ("37", 15), ("6011", 16), ("3528", 16)])
    c = luhn_complete(prefix, n, r)
    if r.random() < 0.3 and n == 16:
        sep = r.choice([" ", "-"])
        c = sep.join(c[i:i + 4] for i in range(0, 16, 4))
    return c


def iban(r):
    cc, bban_len = r.choice([("DE", 18), ("GB", 18), ("FR", 23), ("NL", 14), ("ES", 20)])
    if cc == "GB":
        bban = "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + \
            "".join(r.choice(string.digits) for _ in range(14))
    elif cc == "NL":
        bban = "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + \
            "".join(r.choice(string.digits) for _ in range(10))
    else:
        bban = "".join(r.choice(string.digits) for _ in range(bban_len))
    num = "".join(str(int(ch, 36)) for ch in bban + cc + "00")
    check = 98 - int(num) % 97
    return "%s%02d%s" % (cc, check, bban)


def ssn(r):
    while True:
        a = r.randrange(1, 900)
        if a != 666:
            break
    return "%03d-%02d-%04d" % (a, r.randrange(1, 100), r.randrange(1, 10000))


def phone(r):
    k = r.randrange(4)
    if k == 0:
        return "+1 415-555-%04d" % r.randrange(100, 200)
    if k == 1:
        return "+44 20 7946 %04d" % r.randrange(10000)
    if k == 2:
        return "(212) 555-%04d" % r.randrange(100, 200)
    return "+49 30 %07d" % r.randrange(10 ** 7)


def person(r):
    return "%s %s" % (r.choice(FIRST), r.choice(LAST))


def email(r, name):
    f, l = name.lower().split()
    return "%s.%s%d@%s" % (f, l, r.randrange(100), r.choice(["example.com", "mail.example.org",
                                                                 "corp.example.net"]))


def token(r, n=None):
    n = n or r.choice([24, 32, 40, 64, 300, 900])
    return "".join(r.choice(ALNUM) for _ in range(n))


def aws_key(r):
    return "AKIA" + "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(16))


def gh_token(r):
    return "ghp_" + "".join(r.choice(ALNUM) for _ in range(36))


def password(r):
    return "".join(r.choice(ALNUM + "!#%&*+-.?@^_~") for _ in range(r.choice([10, 14, 20, 300])))


def noise(r):
    return {
        "ts": "2026-%02d-%02dT%02d:%02d:%02d.%03dZ" % (r.randrange(1, 13), r.randrange(1, 29),
                                                         r.randrange(24), r.randrange(60),
                                                         r.randrange(60), r.randrange(1000)),
        "request_id": "%08x-%04x-%04x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16),
                                                     r.getrandbits(16), r.getrandbits(16),
                                                     r.getrandbits(48)),
        "order": r.randrange(100000, 999999),
        "amount": round(r.random() * 500, 2),
        "sha256": "%064x" % r.getrandbits(256),
        "port": r.choice([443, 5432, 6379, 8080]),
        "version": "%d.%d.%d" % (r.randrange(5), r.randrange(20), r.randrange(30)),
        "ip": "10.%d.%d.%d" % (r.randrange(256), r.randrange(256), r.randrange(1, 255)),
    }


class Doc:
    """Text built piece by piece, with the gold span of every value."""

    def __init__(self, name):
        self.name, self.parts, self.n, self.gold = name, [], 0, []

    def text(self, s):
        b = s.encode()
        self.parts.append(b)
        self.n += len(b)

    def value(self, s, label):
        b = s.encode()
        self.gold.append({"file": self.name, "start": self.n, "end": self.n + len(b),
                          "label": label})
        self.parts.append(b)
        self.n += len(b)

    def json_value(self, v, label):
        """A JSON scalar whose string content (or number) is the value."""
        if isinstance(v, int):
            self.value(str(v), label)
        else:
            s = json.dumps(v)
            self.text('"')
            self.value(s[1:-1], label)
            self.text('"')

    def write(self, out):
        with open(os.path.join(out, self.name), "wb") as f:
            f.write(b"".join(self.parts))


def json_log(d, r):
    nz = noise(r)
    name = person(r)
    d.text('{"ts":"%s","level":"%s","request_id":"%s","order":%d,"amount":%s' % (
        nz["ts"], r.choice(["info", "warn", "error"]), nz["request_id"], nz["order"],
        nz["amount"]))
    k = r.randrange(8)
    if k == 0:
        d.text(',"event":"payment","number":')
        c = card(r).replace(" ", "").replace("-", "")
        d.json_value(int(c), "account_number")
    elif k < 7:  # one string value: the event, its key, the value's writer and label
        event, key, make, label = (("payment", "card", card, "account_number"),
                                   ("kyc", "ssn", ssn, "account_number"),
                                   ("callback", "phone", phone, "private_phone"),
                                   ("login", "email", lambda r: email(r, name), "private_email"),
                                   ("auth", "token", token, "secret"),
                                   ("payout", "iban", iban, "account_number"))[k - 1]
        d.text(',"event":"%s","%s":' % (event, key))
        d.json_value(make(r), label)
    else:
        d.text(',"event":"deploy","sha256":"%s","version":"%s","ip":"%s","port":%d' % (
            nz["sha256"], nz["version"], nz["ip"], nz["port"]))
    d.text("}\n")


def csv_export(d, r, rows):
    d.text("id,name,card,phone,iban,amount,created\n")
    for i in range(rows):
        nz = noise(r)
        d.text("%d," % (i + 1))
        d.value(person(r), "private_person")
        d.text(",")
        d.value(card(r).replace(" ", "").replace("-", ""), "account_number")
        d.text(",")
        d.value(phone(r), "private_phone")
        d.text(",")
        d.value(iban(r), "account_number")
        d.text(",%s,%s\n" % (nz["amount"], nz["ts"][:10]))


def pretty_json(d, r, n):
    d.text("{\n  \"customers\": [\n")
    for i in range(n):
        name = person(r)
        nz = noise(r)
        d.text("    {\n      \"id\": %d,\n      \"name\": " % nz["order"])
        d.json_value(name, "private_person")
        d.text(",\n      \"email\": ")
        d.json_value(email(r, name), "private_email")
        d.text(",\n      \"ssn\": ")
        d.json_value(ssn(r), "account_number")
        d.text(",\n      \"card\": {\n        \"number\": ")
        d.json_value(int(luhn_complete("4", 16, r)), "account_number")
        d.text(",\n        \"expires\": \"%02d/%02d\"\n      },\n      \"api_key\": " % (
            r.randrange(1, 13), r.randrange(26, 32)))
        d.json_value(token(r, 40), "secret")
        d.text(",\n      \"tags\": [\"vip\", \"eu\"],\n      \"updated\": \"%s\"\n    }%s\n" % (
            nz["ts"], "," if i + 1 < n else ""))
    d.text("  ]\n}\n")


def env_file(d, r, n):
    for i in range(n):
        d.text("# service %d\nAWS_ACCESS_KEY_ID=" % i)
        d.value(aws_key(r), "secret")
        d.text("\nAWS_SECRET_ACCESS_KEY=")
        d.value("".join(r.choice(B64) for _ in range(40)), "secret")
        d.text("\nAWS_REGION=eu-west-1\nGITHUB_TOKEN=")
        d.value(gh_token(r), "secret")
        d.text("\nDB_PASSWORD=")
        d.value(password(r), "secret")
        d.text("\nDB_PORT=5432\nLOG_LEVEL=info\nAPP_VERSION=%s\nsecret_key: " % noise(r)["version"])
        d.value("".join(r.choice(B64) for _ in range(r.choice([48, 600]))), "secret")
        d.text("\nsupport_phone = ")
        d.value(phone(r), "private_phone")
        d.text("\n\n")


def kubeconfig(d, r, n):
    d.text("apiVersion: v1\nkind: Config\nusers:\n")
    for i in range(n):
        d.text("- name: user-%d\n  user:\n    client-certificate-data: " % i)
        d.text("".join(r.choice(B64) for _ in range(200)))  # a certificate: public
        d.text("\n    client-key-data: ")
        d.value("".join(r.choice(B64) for _ in range(3300)), "secret")
        d.text("\n    token: ")
        d.value(token(r, 64), "secret")
        d.text("\n")


def conn_strings(d, r, n):
    for i in range(n):
        pw = "".join(r.choice(ALNUM) for _ in range(14))
        k = i % 5
        if k == 0:
            d.text("DATABASE_URL=postgres://app:")
        elif k == 1:
            d.text("mysql://root:")
        elif k == 2:
            d.text("REDIS_URL=redis://:")
        elif k == 3:
            d.text("mongodb://svc:")
        else:
            d.text("amqp://guest:")
        d.value(pw, "secret")
        d.text("@db%d.internal.example:%d/main\n" % (i, noise(r)["port"]))


def main():
    args = sys.argv[1:]
    seed = 41
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
    r = random.Random(seed)
    if args and args[0] == "--big":
        path, mb = args[1], int(args[args.index("--mb") + 1]) if "--mb" in args else 100
        d = Doc(os.path.basename(path))
        with open(path, "wb") as f:
            while d.n < mb * 1000000:
                d.parts, d.gold = [], []
                for _ in range(2000):
                    json_log(d, r)
                f.write(b"".join(d.parts))
        return
    out = args[0]
    scale = int(args[args.index("--scale") + 1]) if "--scale" in args else 1
    os.makedirs(out, exist_ok=True)
    d = Doc("logs.jsonl")
    for _ in range(400 * scale):
        json_log(d, r)
    docs = [d]
    # each file, its writer and its record count at scale 1, in this order
    for name, write, n in (("export.csv", csv_export, 200), ("doc.json", pretty_json, 60),
                           ("app.env", env_file, 20), ("kubeconfig.yaml", kubeconfig, 5),
                           ("conn.txt", conn_strings, 50)):
        d = Doc(name)
        write(d, r, n * scale)
        docs.append(d)
    with open(os.path.join(out, "gold.jsonl"), "w") as g:
        for d in docs:
            d.write(out)
            for s in d.gold:
                g.write(json.dumps(s) + "\n")


if __name__ == "__main__":
    main()
