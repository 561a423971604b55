#!/usr/bin/env python3
"""Checks the man page against the option table (issue 22 part 5).

usage: cli_table.py MANPAGE HELP_TEXT [CMD=HELP_TEXT ...]

HELP_TEXT is `pii-redact --help`, which src/opts.c prints from its option
table (pii_flags) and the subcommand table (src/commands.c).  The man
page's OPTIONS section must list the same options, in the same order, with
the same short names and argument names; its COMMANDS section the same
subcommands in the same order.  Each CMD=HELP_TEXT is `pii-redact CMD
--help`: it must start with "Usage: pii-redact CMD", and every long option
it names must appear in the man page entry of CMD and the other way round.
Prints each disagreement and exits 1 if there is any.
"""
import re
import sys


def roff_words(line):
    """The arguments of a roff macro line, quotes removed, fonts dropped."""
    body = line.split(None, 1)[1] if " " in line else ""
    words = re.findall(r'"([^"]*)"|(\S+)', body)
    return [unroff(a if a else b) for a, b in words]


def unroff(s):
    s = re.sub(r"\\f[BIRP]", "", s)
    return s.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")


def section(lines, name):
    i = lines.index(".SH " + name)
    j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith(".SH ")), len(lines))
    return lines[i + 1 : j]


def man_options(lines):
    out, sec = [], section(lines, "OPTIONS")
    for k, line in enumerate(sec[:-1]):
        nxt = sec[k + 1]
        if line == ".TP" and re.match(r"^\.(B|BI|BR) \\-", nxt):
            out.append(" ".join("".join(roff_words(nxt)).split()))
    return out


def help_options(text):
    out, on = [], False
    for line in text.splitlines():
        if line == "Options:":
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            m = re.match(r"^  (-\S, )?(    )?(--\S+)( \S+)?", line)
            if m:
                out.append((m.group(1) or "") + m.group(3) + (m.group(4) or ""))
    return out


def help_commands(text):
    lines = text.splitlines()
    i = lines.index("Commands:")
    out = []
    for line in lines[i + 1 :]:
        if not line.strip():
            break
        if re.match(r"^  [a-z]", line):  # not a wrapped summary's next line
            out.append(line.split()[0])
    return out


def man_commands(lines):
    sec = section(lines, "COMMANDS")
    names, paras = [], {}
    for k, line in enumerate(sec):
        if line == ".TP" and k + 1 < len(sec) and re.match(r"^\.B [a-z]+$", sec[k + 1]):
            names.append(sec[k + 1][3:])
    cur = None
    for k, line in enumerate(sec):
        if line == ".TP" and k + 1 < len(sec) and re.match(r"^\.B [a-z]+$", sec[k + 1]):
            cur = sec[k + 1][3:]
            paras[cur] = []
        elif cur:
            paras[cur].append(unroff(line))
    return names, paras


def main():
    man = open(sys.argv[1], encoding="utf-8").read().split("\n")
    helptext = open(sys.argv[2], encoding="utf-8").read()
    bad = []
    mo, ho = man_options(man), help_options(helptext)
    if not ho:
        bad.append("--help lists no options")
    if mo != ho:
        for k in range(max(len(mo), len(ho))):
            a = mo[k] if k < len(mo) else "(nothing)"
            b = ho[k] if k < len(ho) else "(nothing)"
            if a != b:
                bad.append("option %d: man page '%s', --help (the table) '%s'" % (k + 1, a, b))
                break
        for o in sorted(set(ho) - set(mo)):
            bad.append("in the table, not in the man page: " + o)
        for o in sorted(set(mo) - set(ho)):
            bad.append("in the man page, not in the table: " + o)
    mc, paras = man_commands(man)
    hc = help_commands(helptext)
    if mc != hc:
        bad.append("commands: man page %s, --help (the table) %s" % (mc, hc))
    for arg in sys.argv[3:]:
        cmd, path = arg.split("=", 1)
        text = open(path, encoding="utf-8").read()
        first = text.splitlines()[0] if text else ""
        if not first.startswith("Usage: pii-redact " + cmd):
            bad.append("%s --help starts '%s', not 'Usage: pii-redact %s'" % (cmd, first, cmd))
        in_help = set(re.findall(r"--[a-z][a-z0-9-]*[a-z0-9]", text)) - {"--help"}
        para = "\n".join(paras.get(cmd, []))
        in_man = set(re.findall(r"--[a-z][a-z0-9-]*[a-z0-9]", para))
        # "-m, --model": the man page may name the short form instead
        for short, long in re.findall(r"^ *-([a-zA-Z]), (--[a-z][a-z0-9-]*)", text, re.M):
            if re.search(r"(^|[\s\[|])-%s\b" % short, para):
                in_man.add(long)
        for o in sorted(in_help - in_man):
            bad.append("%s: %s is in its --help, not in its man page entry" % (cmd, o))
        for o in sorted(in_man - in_help):
            bad.append("%s: %s is in its man page entry, not in its --help" % (cmd, o))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
