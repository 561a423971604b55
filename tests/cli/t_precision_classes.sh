# The remaining false-alarm classes of issue 40 (sentences written for this
# test): institutional and foreign legal words, a demonym after a given
# name ("Sierra Leonean"), a company, a name before a venue or language
# word ("Cleveland Browns Stadium", "the Eegimaa language"), line-initial
# words, a SHA-3 digest, code that looks like a phone or an account, and a
# field label before a value pass untouched; the model's values in code
# (docs/NER.md, "Values in code": a C directive or typedef line, a hex
# dump, a size, a version number) are dropped, while the personal values
# beside them stay redacted; the name memory finds no name inside an
# identifier ("Baker_dir").  Built-in model and --rules-only, exact bytes.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/words" <<'IN'
The applicant was tried by the Kırklareli Assize Court in 2003.
The case was heard by the Sąd Apelacyjny in Warsaw.
The court held that the claim was subject to zamanaşımı under Turkish law.
He is a Sierra Leonean national who applied for asylum.
The Government argued, inter alia, that the complaint was late.
The contract was awarded to Serco, which runs the centre.
AWK scripts read the file line by line.
Greedy matching is the default.
sha3-256: 5d8f7d1ac8e1a1c0d6f1b7d1cdd5f3f5e0a7b2b4c8d9e1f2a3b4c5d6e7f8a9b0
BFD target elf64-littleaarch64 is supported.
      IF(X-Y) 110,120,130
I moved to Tromsø last winter.
Courriel : contact via le formulaire
Najemca: firma budowlana
Cleveland has added Cleveland Browns Stadium for the NFL.
The Eegimaa language has two names.
They passed Sloane Square on the way.
IN
for mode in "" --rules-only; do
    "$P" $mode <"$T/words" >"$T/out" || fail "words $mode: exit"
    cmp -s "$T/words" "$T/out" || { diff "$T/words" "$T/out"; fail "words $mode: changed"; }
done

cat >"$T/code" <<'IN'
#ifndef HEADER_CAST_H
#define CAST_BLOCK 8
#define CAST_KEY_LENGTH 16
typedef CARD32 GLXContextTag;
#endif /* OPENSSL_NO_DEPRECATED_3_0 */
#define sz_xGLXQueryMaxSwapBarriersSGIXReq 16

Resolution	Header			Comp.
176x144		FF FF 00 FF 96 64 00	no
320x240		FF FF 00 FF 96 64 06	no
640x480		FF FF 00 FF 96 64 56	yes

Changes in dconf 0.35.1
Changes in dconf 0.29.2
Linux man-pages 6.03              2023-02-05              strtol(3)
IN
"$P" <"$T/code" >"$T/out" || fail "code: exit"
cmp -s "$T/code" "$T/out" || { diff "$T/code" "$T/out"; fail "code: changed"; }

# the name memory finds a name again, but not inside an identifier
printf 'Tom Baker wrote the parser. Set TOM_BAKER_HOME or Baker_dir, then ask Baker.\n' >"$T/mem"
printf '<PRIVATE_PERSON> wrote the parser. Set TOM_BAKER_HOME or Baker_dir, then ask <PRIVATE_PERSON>.\n' >"$T/want"
for mode in "" --rules-only; do
    "$P" $mode <"$T/mem" >"$T/out" || fail "memory $mode: exit"
    cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "memory $mode"; }
done

# fail closed: the values beside code stay redacted
printf '%s\n' '#define API_KEY "sk_live_4eC39HqLyjWDarjtT1zdp7dc"' \
    'Maria was born on 6.3.1985 in Ulm; call her on +44 20 7946 0958.' \
    'IBAN DE89 3704 0044 0532 0130 00, card 4111 1111 1111 1111' >"$T/values"
printf '%s\n' '#define API_KEY "<SECRET>"' \
    '<PRIVATE_PERSON> was born on <PRIVATE_DATE> in Ulm; call her on <PRIVATE_PHONE>.' \
    'IBAN <ACCOUNT_NUMBER>, card <ACCOUNT_NUMBER>' >"$T/want"
"$P" <"$T/values" >"$T/out" || fail "values: exit"
cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "values"; }
exit 0
