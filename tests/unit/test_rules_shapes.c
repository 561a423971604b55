/* test_rules_shapes.c — other shapes of machine text (issue 41): passwords
 * in connection strings and command options, "... number is VALUE", and
 * secret values that start with '%' or '/' (base64).
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives. */
#include "rules_test_util.h"

static const rcase shape_cases[] = {
    {"DATABASE_URL=postgres://app:ySjI0EHhWtMMDn@db0.internal:5432/main",
     {{"conn_password", 28, 42, "ySjI0EHhWtMMDn"}}},
    {"redis://:q7Hx2LpR9s@host:6379 and mongodb+srv://svc:p%40ss-w0rd@c.example.net/db",
     {{"conn_password", 9, 19, "q7Hx2LpR9s"}, {"conn_password", 52, 63, "p%40ss-w0rd"}}},
    {"see http://bob:pw123456@example.com/x",
     {{"url", 4, 37, "http://bob:pw123456@example.com/x"}}},
    {"postgres://app@db/main and file:///etc/passwd and postgres://db:5432/x", {{0}}},
    {"redis-cli -h db --pass Vk93!rTq2#mLp ping; mysql --password=Vk93rTq2mLp -u x",
     {{"password_flag", 23, 36, "Vk93!rTq2#mLp"}, {"password_flag", 60, 71, "Vk93rTq2mLp"}}},
    {"use -p 8080, --verbose, --passes 3, --pass $PASS, --password", {{0}}},
    {"My account number is 00012345678 and my phone number is 4155550132.",
     {{"account_context", 21, 32, "00012345678"}, {"phone_context", 56, 66, "4155550132"}}},
    {"DB_PASSWORD=%ZX.cyH9CbL7uiXO1n25U?3aB "
     "AWS_SECRET_ACCESS_KEY=/MrSDy4I0tfInx3yQaCc6aMdZBjhSu7e5TUk5wFz",
     {{"password_assignment", 12, 37, "%ZX.cyH9CbL7uiXO1n25U?3aB"},
      {"secret_assignment", 60, 100, "/MrSDy4I0tfInx3yQaCc6aMdZBjhSu7e5TUk5wFz"}}},
    {"password=%(db_pass)s token=%APP_TOKEN% secret_key=/var/lib/app/secret.key", {{0}}},
    /* logins that name a person (private_person), not system accounts */
    {"user=jdoe {\"username\":\"kofi.asante\"} ?user=priya.r&x=1",
     {{"login_assignment", 5, 9, "jdoe"},
      {"login_assignment", 23, 34, "kofi.asante"},
      {"login_assignment", 43, 50, "priya.r"}}},
    {"cd /home/dpetrov/ && ls /Users/sofia.b/Desktop",
     {{"home_dir_user", 9, 16, "dpetrov"}, {"home_dir_user", 31, 38, "sofia.b"}}},
    {"user=root db_user=jdoe user_role=editor user_id=1000 user_agent=curl/8.0 /home/ubuntu/ "
     "user=svc-build login failed for user= from x",
     {{0}}},
    {"for user=jane.doe@acme-corp.com", {{"email", 9, 31, "jane.doe@acme-corp.com"}}},
    /* handles after a word that addresses a person, or starting a chat line */
    {"DM @priya.r for access; ping @kofi_asante, cc: @sofia.b and thanks @li-wei!",
     {{"handle_context", 3, 11, "@priya.r"},
      {"handle_context", 29, 41, "@kofi_asante"},
      {"handle_context", 47, 55, "@sofia.b"},
      {"handle_context", 67, 74, "@li-wei"}}},
    {"@dmitri.p: can you review?\nwritten by @jane99. Contact @Ana_M or message @tom.h",
     {{"handle_context", 0, 9, "@dmitri.p"},
      {"handle_context", 38, 45, "@jane99"},
      {"handle_context", 55, 61, "@Ana_M"},
      {"handle_context", 73, 79, "@tom.h"}}},
    /* code, npm scopes, log fields, groups, system accounts, e-mail-like */
    {"@media screen {}\n@Override\n  @param x\nimport x from @babel/core\nfrom @timestamp cc "
     "@here\n@app.route(\"/x\")\n@timestamp: 2024\nfoo@bar: baz\nby @root, from @svc-build, DM "
     "@12345, abcc @x.y",
     {{0}}},
};

RULES_CASES_MAIN(test_shapes, shape_cases)
