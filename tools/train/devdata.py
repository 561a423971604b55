#!/usr/bin/python3
"""devdata.py - a tiny hand-made labelled dataset for developing and
smoke-testing the trainer (the real training data comes from tools/datagen/).

Usage: devdata.py -n 2000 --seed 1 > dev.jsonl
Output lines: {"text", "spans": [{"start","end","label"}]} (code points).
"""

import argparse
import json
import random

FIRST = ["Alice", "Maria", "John", "Wei", "Aisha", "Olga", "Kenji", "Priya", "Lucas", "Fatima",
         "Søren", "José", "Zoë", "Ahmed", "Hannah", "Ivan", "Chloé", "Mateo", "Yuki", "Nadia"]
LAST = ["Smith", "Garcia", "Chen", "Okafor", "Ivanova", "Tanaka", "Patel", "Müller", "Rossi",
        "Dubois", "Kowalski", "Nguyen", "O'Brien", "Andersen", "Haddad", "Silva", "Kim"]
STREETS = ["Main Street", "Rue de Rivoli", "Baker St", "Hauptstraße", "Calle Mayor",
           "Elm Avenue", "Via Roma", "Oak Road"]
CITIES = ["Paris", "London", "Berlin", "Madrid", "Springfield", "Rome", "Lyon", "Austin"]
COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Ltd", "Stark Industries"]
DOMAINS = ["example.com", "mail.org", "corp.net", "example.fr"]


def person(r):
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def address(r):
    return f"{r.randint(1, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"


def email(r):
    return f"{r.choice(FIRST).lower()}.{r.choice(LAST).lower()}@{r.choice(DOMAINS)}"


def phone(r):
    return r.choice([f"+44 20 {r.randint(1000, 9999)} {r.randint(1000, 9999)}",
                     f"({r.randint(200, 999)}) {r.randint(200, 999)}-{r.randint(1000, 9999)}",
                     f"06 {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)}"])


def date(r):
    return r.choice([f"{r.randint(1, 28)}/{r.randint(1, 12)}/{r.randint(1950, 2030)}",
                     f"{r.randint(1950, 2030)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
                     f"March {r.randint(1, 28)}, {r.randint(1950, 2030)}"])


def account(r):
    return r.choice(["".join(str(r.randint(0, 9)) for _ in range(16)),
                     "DE89 3704 0044 0532 0130 00", "GB29 NWBK 6016 1331 9268 19"])


def url(r):
    return f"https://{r.choice(['www.', ''])}{r.choice(LAST).lower()}.{r.choice(['com', 'io', 'de'])}/profile"


def secret(r):
    return "sk-" + "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))


GEN = {"private_person": person, "private_address": address, "private_email": email,
       "private_phone": phone, "private_date": date, "account_number": account,
       "private_url": url, "secret": secret}

TEMPLATES = [
    "Contact {private_person} at {private_address}, or {private_email}.",
    "Hi {private_person}, your appointment on {private_date} is confirmed. Call {private_phone}.",
    "Please wire the money to {account_number} before {private_date}.",
    "{private_person} ({private_email}) reported the issue on {private_url}.",
    "export API_KEY='{secret}'",
    "Name: {private_person}\nPhone: {private_phone}\nAddress: {private_address}\n",
    "The meeting with {C} is in {CITY} next week. Version 2.4.1 was released.",
    "Order #{N} shipped by {C} costs $19.99 and arrives in {CITY}.",
    "Dear {private_person}, we received your payment from card {account_number}.",
    "Log 2024-01-01T12:00:00Z user_id=4521 status=200 latency=35ms",
]


def make(r):
    tpl = r.choice(TEMPLATES)
    text, spans, i = "", [], 0
    while i < len(tpl):
        if tpl[i] == "{":
            j = tpl.index("}", i)
            key = tpl[i + 1:j]
            if key in GEN:
                v = GEN[key](r)
                spans.append({"start": len(text), "end": len(text) + len(v), "label": key})
            else:
                v = {"C": r.choice(COMPANIES), "CITY": r.choice(CITIES),
                     "N": str(r.randint(1000, 99999))}[key]
            text += v
            i = j + 1
        else:
            text += tpl[i]
            i += 1
    return {"text": text, "spans": spans}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    r = random.Random(a.seed)
    for _ in range(a.n):
        print(json.dumps(make(r), ensure_ascii=False))


if __name__ == "__main__":
    main()
