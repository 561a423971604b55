# The non-person filter (issue 40, docs/NER.md "Non-person filter"): person
# spans of institutional, legal, technical and code words are not redacted,
# an organisation's name is no person even when it holds one, and a span
# keeps the words next to a name out ("Tell Tom Baker tomorrow." redacts
# exactly "Tom Baker").  Built-in model, exact bytes; --no-name-filter turns
# it off.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/in" <<'IN'
The Prosecutor asked the Police and the Military Court about the Aliens Act.
The Court found a violation of the Convention for the Protection of Human Rights and Fundamental Freedoms.
Fundamental Freedoms were discussed; the Fundamental Freedoms of every Cypriot matter.
Pierce Glynn Solicitors wrote to HMP Acklington for Ms Okafor.
Baxter Moore Solicitors LLP acted for Kofi Asante.
Dear Support, Payout failed for Staff SRE after the Kafka migration.
You are a helpful assistant. Summarise this customer complaint from Priya Raman.
Set GIT_TRACE and DPKG_ADMINDIR, then call FT_Short and xGLXQueryMaxSwapBarriersSGIXReply.
Add support for zstd.
mail e.f@x.com
my sister Anjali wants to come
soy Javier Fernández
Ask Tom Baker.
Tell Tom Baker tomorrow.
IN
cat >"$T/want" <<'OUT'
The Prosecutor asked the Police and the Military Court about the Aliens Act.
The Court found a violation of the Convention for the Protection of Human Rights and Fundamental Freedoms.
Fundamental Freedoms were discussed; the Fundamental Freedoms of every Cypriot matter.
Pierce Glynn Solicitors wrote to HMP Acklington for Ms <PRIVATE_PERSON>.
Baxter Moore Solicitors LLP acted for <PRIVATE_PERSON>.
Dear Support, Payout failed for Staff SRE after the Kafka migration.
You are a helpful assistant. Summarise this customer complaint from <PRIVATE_PERSON>.
Set GIT_TRACE and DPKG_ADMINDIR, then call FT_Short and xGLXQueryMaxSwapBarriersSGIXReply.
Add support for zstd.
mail <PRIVATE_EMAIL>
my sister <PRIVATE_PERSON> wants to come
soy <PRIVATE_PERSON>
Ask <PRIVATE_PERSON>.
Tell <PRIVATE_PERSON> tomorrow.
OUT
for mode in "" --lines; do
    # shellcheck disable=SC2086
    "$P" $mode "$T/in" >"$T/out" 2>"$T/err" || fail "exit $? $mode ($(cat "$T/err"))"
    cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "output ${mode:-(one document)}"; }
done

# exact offsets of the names beside their neighbours
span() { # TEXT START END VALUE
    printf '%s' "$1" | "$P" --format json --show-values >"$T/j" || fail "$1: exit $?"
    grep -q "\"start\":$2,\"end\":$3,.*\"text\":\"$4\"}\]" "$T/j" || fail "$1: $(cat "$T/j")"
    [ "$(grep -o '"start"' "$T/j" | wc -l)" -eq 1 ] || fail "$1: more than one span: $(cat "$T/j")"
}
span 'Tell Tom Baker tomorrow.' 5 14 'Tom Baker'
span 'Ask Tom Baker.' 4 13 'Tom Baker'
span 'soy Javier Fernández' 4 21 'Javier Fernández'
span 'my sister Anjali wants to come' 10 16 'Anjali'
span 'mail e.f@x.com' 5 14 'e.f@x.com'

# a model e-mail span keeps the address alone; one with no "@" is none
printf '#include <openssl/e_os2.h>\nmail jane@example.org\n' | "$P" >"$T/out" || fail "email: exit $?"
printf '#include <openssl/e_os2.h>\nmail <PRIVATE_EMAIL>\n' >"$T/want"
cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "email neighbours"; }

# a dropped span teaches the name memory nothing: "SRE" is not redacted
# where it comes back
printf 'Staff SRE Ravi wrote. The Staff SRE team met. Ask the Staff SRE.\n' >"$T/mem"
"$P" "$T/mem" >"$T/out" || fail "memory: exit $?"
[ "$(cat "$T/out")" = 'Staff SRE <PRIVATE_PERSON> wrote. The Staff SRE team met. Ask the Staff SRE.' ] ||
    fail "memory: $(cat "$T/out")"

# a changelog: "Likewise" is neither a person nor an address; a name before
# a hospital's name stays a person
printf 'Sun Jun 23 14:29:34 BST 2013  Colin Watson  <cjwatson@debian.org>\n\n\t* src/man.c: Likewise.\n\nMon Jul  8 03:00:20 BST 2013  Colin Watson  <cjwatson@debian.org>\n\n\t* configure: Likewise.\n\nRemitido por: Dra. Mar\303\255a Merino Viveros Hospital Universitario de Canarias\n' >"$T/cl"
printf 'Sun Jun 23 14:29:34 BST 2013  <PRIVATE_PERSON>  <<PRIVATE_EMAIL>>\n\n\t* src/man.c: Likewise.\n\nMon Jul  8 03:00:20 BST 2013  <PRIVATE_PERSON>  <<PRIVATE_EMAIL>>\n\n\t* configure: Likewise.\n\nRemitido por: Dra. <PRIVATE_PERSON> Hospital Universitario de Canarias\n' >"$T/want"
"$P" "$T/cl" >"$T/out" || fail "changelog: exit $?"
cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "changelog"; }

# the switch: the model's own spans come back
printf 'Dear Support, Payout failed for Staff SRE.' | "$P" --no-name-filter >"$T/out" || fail "switch: exit $?"
[ "$(cat "$T/out")" = 'Dear Support, <PRIVATE_PERSON> failed for Staff <PRIVATE_PERSON>.' ] ||
    fail "--no-name-filter: $(cat "$T/out")"
exit 0
