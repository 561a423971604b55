# Chinese text (issue 40 item 7): the built-in model finds no names in it
# (docs/ACCURACY.md, "Languages"), but the rules catch its structured values:
# a mobile number after a phone word, an e-mail right after a Han character
# (the characters before it stay), a resident ID with its ISO 7064 check
# character (account_number).  Exact bytes, rules alone and with the model.
set -u
P=$PII_REDACT
T=$TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
printf '%s\n' '我叫王小明，手机号码是13812345678，邮箱wang@example.cn，身份证号码：11010519491231002X。' \
    '请拨打13912345678联系。订单号13712345678已发货。' >"$T/in"
printf '%s\n' '我叫王小明，手机号码是<PRIVATE_PHONE>，邮箱<PRIVATE_EMAIL>，身份证号码：<ACCOUNT_NUMBER>。' \
    '请拨打<PRIVATE_PHONE>联系。订单号13712345678已发货。' >"$T/want"
for mode in --rules-only ""; do
    # shellcheck disable=SC2086
    "$P" $mode "$T/in" >"$T/out" 2>"$T/err" || fail "exit $? $mode ($(cat "$T/err"))"
    cmp -s "$T/want" "$T/out" || { diff "$T/want" "$T/out"; fail "output ${mode:-(rules + model)}"; }
done
"$P" --rules-only --format json "$T/in" | grep -o '"rule":"[a-z_]*"' | tr '\n' ' ' >"$T/rules"
[ "$(cat "$T/rules")" = '"rule":"phone_cn" "rule":"email_cjk" "rule":"cn_resident_id" "rule":"phone_cn" ' ] ||
    fail "rules: $(cat "$T/rules")"
exit 0
