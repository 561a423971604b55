#!/usr/bin/env python3
"""litellm_client.py BASE — a client shaped like LiteLLM's Presidio guardrail
(litellm/proxy/guardrails/guardrail_hooks/presidio.py), against
`pii-redact serve` standing in for both PRESIDIO_ANALYZER_API_BASE and
PRESIDIO_ANONYMIZER_API_BASE.

The request bodies are the guardrail's: POST {base}analyze with
{"text", "language"} (plus "entities" when pii_entities_config is set),
POST {base}anonymize with {"text", "analyzer_results"} (the analyzer's list
as it came), both serialized as aiohttp's json= does (json.dumps: ASCII with
\\u escapes) with "Accept: application/json"; a reply must be 2xx with an
application/json content type.  Two flows are checked:
  mask          the anonymizer's "text" replaces the message;
  output_parse  numbered tokens "<ENTITY_TYPE_N>" are put in the message
                from the analyzer's offsets (code points of the Python
                string), and the LLM's answer is unmasked by replacing each
                token with the original slice.
Exit 0 when every expected masking and round trip holds.
"""
import http.client
import json
import sys
import urllib.parse


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def post(base, path, payload):
    u = urllib.parse.urlparse(base)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    body = json.dumps(payload).encode()  # aiohttp json=: json.dumps, ensure_ascii
    c.request("POST", u.path + path, body=body,
              headers={"Accept": "application/json", "Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    if r.status >= 400:
        fail(f"{path}: HTTP {r.status}")
    if "application/json" not in (r.getheader("Content-Type") or ""):
        fail(f"{path}: content type {r.getheader('Content-Type')}")
    return json.loads(data)


def analyze(base, text, entities=None, language="en"):
    payload = {"text": text, "language": language}
    if entities:
        payload["entities"] = list(entities)
    res = post(base, "analyze", payload)
    if not isinstance(res, list):
        fail(f"analyze returned {type(res).__name__}")
    return res


def anonymize(base, text, results):
    return post(base, "anonymize", {"text": text, "analyzer_results": results})


def numbered_tokens(text, results, pii_tokens):
    """The guardrail's output_parse_pii path, from the analyzer's offsets."""
    forward = sorted(results, key=lambda x: x["start"])
    seq = {(r["start"], r["end"]): i for i, r in enumerate(forward, start=1)}
    new = text
    for r in reversed(forward):
        tok = "<%s_%d>" % (r["entity_type"], seq[(r["start"], r["end"])])
        pii_tokens[tok] = text[r["start"]:r["end"]]
        new = new[:r["start"]] + tok + new[r["end"]:]
    return new


def unmask(text, pii_tokens):
    for tok, orig in pii_tokens.items():
        text = text.replace(tok, orig)
    return text


def main():
    base = sys.argv[1].rstrip("/") + "/"
    messages = [
        "Hello my name is Jane Doe",
        "📞 Call Jane Doe at +1 415-555-0100, or mail jane.doe@example.com — thanks!",
        "Überweisung an IBAN DE89 3704 0044 0532 0130 00, Karte 4111 1111 1111 1111.",
        "nothing personal in this one",
        "   ",
    ]
    want_masked = [
        "Hello my name is <PERSON>",
        "📞 Call <PERSON> at <PHONE_NUMBER>, or mail <EMAIL_ADDRESS> — thanks!",
        "Überweisung an IBAN <IBAN_CODE>, Karte <CREDIT_CARD>.",
        "nothing personal in this one",
        "   ",
    ]
    for msg, want in zip(messages, want_masked):
        if not msg.strip():  # the guardrail skips blank text
            continue
        res = analyze(base, msg)
        for r in res:
            if not (0 <= r["start"] < r["end"] <= len(msg)) or not isinstance(r["score"], float):
                fail(f"analyze item {r}")
        masked = anonymize(base, msg, res)["text"] if res else msg
        if masked != want:
            fail(f"mask: {masked!r} != {want!r}")
        # output_parse_pii: tokens in, the LLM echoes them, unmasked out
        tokens = {}
        tokenized = numbered_tokens(msg, res, tokens)
        for tok, orig in tokens.items():
            if tok not in tokenized or orig in tokenized:
                fail(f"numbered tokens: {tokenized!r}")
        answer = "Sure. You wrote: " + tokenized
        if unmask(answer, tokens) != "Sure. You wrote: " + msg:
            fail("unmask did not give the message back")
    # pii_entities_config: only the configured entities come back
    res = analyze(base, messages[1], entities=["EMAIL_ADDRESS"])
    if [r["entity_type"] for r in res] != ["EMAIL_ADDRESS"]:
        fail(f"entities filter: {res}")
    if messages[1][res[0]["start"]:res[0]["end"]] != "jane.doe@example.com":
        fail("entity offsets")
    masked = anonymize(base, messages[1], res)["text"]
    if masked != "📞 Call Jane Doe at +1 415-555-0100, or mail <EMAIL_ADDRESS> — thanks!":
        fail(f"entities mask: {masked!r}")
    # presidio_language from the request
    if analyze(base, messages[0], language="de") != analyze(base, messages[0]):
        fail("language changes the result")
    print("litellm: ok")


if __name__ == "__main__":
    main()
