#!/usr/bin/python3
"""gen_sentences.py — writes samples/sentences.txt, the bench corpus.

Deterministic (fixed seed): realistic English sentences of roughly 15-30
o200k tokens each, about 60% carrying one or two pieces of made-up PII
(names, emails, phones, addresses, dates, URLs, account numbers, secrets)
and 40% without any.  Every name, number and address is invented here;
nothing is copied from an evaluation set.

usage: /usr/bin/python3 tools/bench/gen_sentences.py [N] > samples/sentences.txt
"""
import random
import sys

FIRST = """Alice Brian Carmen Dmitri Elena Farid Grace Hiroshi Ingrid Jamal Kerstin Luis Maya
Nikolai Olivia Priya Quentin Rosa Samuel Tanya Umar Valeria Wesley Ximena Yusuf Zoe Aaron
Beatrice Colin Daniela Emeka Fiona Gustavo Hannah Ivan Jasmine Kofi Leila Marcus Nadia Oscar
Paloma Rafael Sofia Tobias Ursula Victor Wanda Xavier Yvonne Zachary Amara Bjorn Chiara Desmond
Esther Felix Gemma Hector Isla Jonas Katya Lorenzo Mireille Nathan Odette Pavel Rhea Stefan
Thea Ulrich Vera Wilbur Anouk Cedric Delphine Ezra Freya Gideon""".split()
LAST = """Abernathy Brennan Castillo Delacroix Eriksen Fitzgerald Gallagher Hoffmann Ivanova
Jablonski Kowalczyk Lindqvist Moreau Nakamura Okonkwo Petrov Quintero Rasmussen Sandoval
Takahashi Underwood Vasquez Whitfield Yamamoto Zielinski Achebe Bergstrom Carvalho Dunmore
Esposito Fairbanks Grimaldi Halvorsen Iwasaki Jaramillo Kingsley Lafleur Marchetti Novak
Oyelaran Pemberton Ricci Sorensen Thornbury Vance Wojcik Ashworth Beaumont Cromwell Dufresne
Ellery Fontaine Galloway Hargreaves""".split()
STREETS = """Maple Avenue|Harbor Road|Kingfisher Lane|Elm Street|Cedar Court|Willow Drive|Beacon
Street|Orchard Way|Station Road|Juniper Place|Quarry Lane|Lighthouse Road|Mill Street|Rosewood
Terrace|Chestnut Boulevard|Foxglove Close""".replace("\n", " ").split("|")
CITIES = [("Springfield", "IL", "62704"), ("Portland", "OR", "97205"), ("Austin", "TX", "78701"),
          ("Madison", "WI", "53703"), ("Burlington", "VT", "05401"), ("Tucson", "AZ", "85719"),
          ("Raleigh", "NC", "27601"), ("Boise", "ID", "83702"), ("Savannah", "GA", "31401"),
          ("Duluth", "MN", "55802"), ("Eugene", "OR", "97401"), ("Albany", "NY", "12207")]
DOMAINS = "example.com mailhub.net fastpost.org northwind.io bluefin.co acme-corp.com".split()
MONTHS = ("January February March April May June July August September October November "
          "December").split()
COMPANIES = ("Northwind Traders|Bluefin Logistics|Acme Widgets|Harbor Analytics|Greenleaf Bank|"
             "Summit Health|Crescent Insurance|Polaris Software").split("|")
PRODUCTS = ("router|laptop|subscription|invoice|shipment|membership|warranty claim|"
            "refund|password reset|account|order|ticket").split("|")
TOPICS = ("quarterly report|budget review|migration plan|release notes|onboarding guide|"
          "safety audit|vendor contract|team offsite|sprint retrospective|roadmap").split("|")

R = random.Random(20240611)


def name():
    return f"{R.choice(FIRST)} {R.choice(LAST)}"


def first():
    return R.choice(FIRST)


def email(n=None):
    n = n or name()
    f, l = n.split()[0].lower(), n.split()[-1].lower()
    style = R.randrange(4)
    local = [f"{f}.{l}", f"{f[0]}{l}", f"{f}{R.randrange(10, 99)}", f"{l}.{f[0]}"][style]
    return f"{local}@{R.choice(DOMAINS)}"


def phone():
    s = R.randrange(5)
    a, b, c = R.randrange(201, 989), R.randrange(200, 999), R.randrange(1000, 9999)
    return [f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"+1 {a} {b} {c}", f"{a}.{b}.{c}",
            f"+44 20 {R.randrange(7000, 8999)} {R.randrange(1000, 9999)}"][s]


def address():
    city, st, z = R.choice(CITIES)
    return f"{R.randrange(3, 9800)} {R.choice(STREETS)}, {city}, {st} {z}"


def street():
    return f"{R.randrange(3, 9800)} {R.choice(STREETS)}"


def date():
    s = R.randrange(4)
    y, m, d = R.randrange(1950, 2026), R.randrange(1, 13), R.randrange(1, 29)
    return [f"{MONTHS[m - 1]} {d}, {y}", f"{y}-{m:02d}-{d:02d}", f"{m:02d}/{d:02d}/{y}",
            f"{d} {MONTHS[m - 1]} {y}"][s]


def url():
    n = R.choice(LAST).lower()
    return R.choice([f"https://{n}-family.example.org/photos", f"https://www.{n}blog.net/about",
                     f"http://portfolio.example.com/{n}", f"https://github.com/{n}{R.randrange(1, 99)}"])


def account():
    s = R.randrange(4)
    if s == 0:
        return "".join(str(R.randrange(10)) for _ in range(12))
    if s == 1:
        return " ".join("".join(str(R.randrange(10)) for _ in range(4)) for _ in range(4))
    if s == 2:
        return f"GB{R.randrange(10, 99)} NWBK {R.randrange(1000, 9999)} {R.randrange(1000, 9999)} {R.randrange(10, 99)}"
    return f"ACCT-{R.randrange(100000, 999999)}"


def secret():
    al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    body = "".join(R.choice(al) for _ in range(R.choice([16, 20, 24])))
    return R.choice([f"sk_live_{body}", f"ghp_{body}", body, f"AKIA{body[:16].upper()}"])


def num(a, b):
    return str(R.randrange(a, b))


PII = [
    lambda: (lambda n: f"Please send the signed contract to {n} at {email(n)} before Friday afternoon.")(name()),
    lambda: f"My name is {name()} and I would like to update the phone number on my account to {phone()}.",
    lambda: f"{name()} moved to {address()} last month and asked us to forward all mail there.",
    lambda: f"Hi team, {first()} will cover the support queue tomorrow; reach her at {phone()} if anything breaks.",
    lambda: f"The patient, {name()}, born on {date()}, was referred to the cardiology clinic for follow-up.",
    lambda: f"Can you wire the deposit to account {account()} and copy {email()} on the confirmation?",
    lambda: f"Our new office is at {street()}, and the front desk number is {phone()}.",
    lambda: f"According to the file, {name()} opened the account on {date()} with a small initial deposit.",
    lambda: f"I found {first()}'s portfolio at {url()} and it looks really impressive.",
    lambda: f"Do not share this key with anyone: {secret()} was rotated after the incident.",
    lambda: f"Reminder: {name()} has a dentist appointment on {date()} at half past ten.",
    lambda: f"The courier could not find {address()}, so please call {phone()} to reschedule.",
    lambda: f"Forwarding this from {email()}: the invoice for the {R.choice(PRODUCTS)} is still unpaid.",
    lambda: f"{name()} asked whether the refund for order {num(10000, 99999)} could go to card {account()} instead.",
    lambda: f"Thanks for calling, {first()}; I have noted your new email address as {email()}.",
    lambda: f"Emergency contact: {name()}, {phone()}, who lives at {street()}.",
    lambda: f"The landlord, {name()}, confirmed that the lease at {address()} ends on {date()}.",
    lambda: f"If the login fails again, use the token {secret()} and let {first()} know immediately.",
    lambda: (lambda n: f"Could you ask {n} to review the {R.choice(TOPICS)} and reply to {email(n)} by Monday?")(name()),
    lambda: f"We met {name()} at the conference, and she suggested visiting {url()} for the slides.",
    lambda: f"Date of birth {date()}, policy holder {name()}, claim filed with {R.choice(COMPANIES)}.",
    lambda: f"Send the replacement {R.choice(PRODUCTS)} to {name()}, {address()}, and mark it urgent.",
    lambda: f"Hello, this is {first()} from {R.choice(COMPANIES)}; please call me back at {phone()} when you can.",
    lambda: f"Payroll needs {name()}'s bank details, account {account()}, by the end of the week.",
    lambda: f"I think {first()} and {first()} already discussed the {R.choice(TOPICS)} with {name()} yesterday.",
    lambda: f"The form lists {email()} as the primary contact and {phone()} as the backup number.",
    lambda: f"On {date()}, {name()} reported that her {R.choice(PRODUCTS)} stopped working after the update.",
    lambda: f"Please update the shipping address for {name()} to {address()} in the order system.",
    lambda: f"Your verification code was sent to {phone()}; if that is not your number, contact support.",
    lambda: f"{name()} and {name()} will both attend the {R.choice(TOPICS)} meeting on {date()}.",
    lambda: f"The API call is failing because the header still contains the old key {secret()}.",
    lambda: f"For questions about the {R.choice(TOPICS)}, email {email()} or visit {url()}.",
    lambda: f"We are writing to inform {name()} that the balance on account {account()} is overdue.",
    lambda: f"Grandma {first()} turns ninety on {date()}, so we booked the hall on {R.choice(STREETS)}.",
    lambda: f"Hey {first()}, can you text me at {phone()} once the {R.choice(PRODUCTS)} arrives?",
]

CLEAN = [
    lambda: f"The {R.choice(TOPICS)} was moved to next Tuesday because half of the team is travelling.",
    lambda: f"Please restart the {R.choice(PRODUCTS)} service and check whether the error still appears in the logs.",
    lambda: f"We shipped {num(2, 40)} bug fixes this sprint, and the crash rate dropped by about {num(5, 60)} percent.",
    lambda: "The weather forecast says it will rain all weekend, so the picnic is probably cancelled.",
    lambda: f"Our {R.choice(TOPICS)} needs another round of edits before it goes to the leadership team.",
    lambda: f"The build takes about {num(3, 25)} minutes on a clean machine and much less with a warm cache.",
    lambda: "Remember to water the plants in the lobby and to lock the back door when you leave.",
    lambda: f"Customer satisfaction scores rose slightly last quarter, but response times got worse in {R.choice(MONTHS)}.",
    lambda: f"The {R.choice(PRODUCTS)} dashboard shows a spike in traffic every morning around nine o'clock.",
    lambda: "I would recommend reading the second chapter first, since it explains the core ideas more clearly.",
    lambda: f"After the {R.choice(TOPICS)}, everyone agreed that the deadline was too ambitious for a small team.",
    lambda: "The recipe calls for two cups of flour, a pinch of salt, and three eggs beaten together.",
    lambda: f"Version {num(1, 9)}.{num(0, 20)} of the app adds dark mode and fixes the slow startup on older phones.",
    lambda: "The library will be closed on the public holiday, but the online catalogue stays available.",
    lambda: f"Traffic on the main road was heavy this morning, so the bus arrived {num(5, 30)} minutes late.",
    lambda: f"We need volunteers for the {R.choice(TOPICS)}; sign up on the sheet next to the kitchen.",
    lambda: "The museum's new exhibition covers early photography and runs until the end of the summer.",
    lambda: f"Sales of the {R.choice(PRODUCTS)} bundle doubled after the price change in {R.choice(MONTHS)}.",
    lambda: "If the printer jams again, open the side panel and gently remove the stuck paper.",
    lambda: f"The quarterly numbers look good overall, although costs for cloud storage grew by {num(3, 30)} percent.",
    lambda: "Please keep the meeting notes short and focus on decisions rather than long discussions.",
    lambda: f"The hiking trail is about {num(4, 20)} kilometres long and climbs steadily for the first hour.",
    lambda: f"Our team will review the {R.choice(TOPICS)} and send feedback before the end of the week.",
    lambda: "The new coffee machine on the third floor makes surprisingly good espresso.",
    lambda: f"{R.choice(COMPANIES)} announced a new product line that focuses on energy efficiency and repairability.",
    lambda: "Most of the delays came from waiting on approvals rather than from the technical work itself.",
    lambda: f"The test suite now runs in parallel, which cut the total time from {num(20, 60)} to {num(5, 19)} minutes.",
    lambda: "Children under twelve get free entry to the park on weekends during the school holidays.",
]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2400
    seen = set()
    out = []
    while len(out) < n:
        s = R.choice(PII)() if R.random() < 0.6 else R.choice(CLEAN)()
        if s in seen:
            continue
        seen.add(s)
        out.append(s)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
