/* test_rules_secret.c — secret rules: token shapes, assignments, PEM blocks.
 *
 * Each case lists the exact spans (rule, byte offsets, text) of the
 * one-shot scan; check_cases() also requires the same spans from every
 * engine variant (JIT/interpreter x prefilter/plain) and from every
 * 2-chunk split of the input.  Cases without spans are hard negatives.
 * Expected values were checked by hand against docs/RULES.md. */
#include "rules_test_util.h"

static const rcase secret_cases[] = {
    {"AWS AKIAIOSFODNN7EXAMPLE in config", {{"aws_access_key", 4, 24, "AKIAIOSFODNN7EXAMPLE"}}},
    {"key=\"AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW\"",
     {{"google_api_key", 5, 44, "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"}}},
    {"GH_TOKEN ghp_0123456789abcdefghijABCDEFGHIJ012345 end",
     {{"github_token", 9, 49, "ghp_0123456789abcdefghijABCDEFGHIJ012345"}}},
    {"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz012345",
     {{"github_token", 0, 63, "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz012345"}}},
    {"glpat-abcdefghij0123456789 and xoxb-123456789012-abcdefABCDEF",
     {{"gitlab_token", 0, 26, "glpat-abcdefghij0123456789"},
      {"slack_token", 31, 61, "xoxb-123456789012-abcdefABCDEF"}}},
    {"stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc rk_test_4eC39HqLyjWDarjtT1zdp7dc",
     {{"stripe_key", 7, 39, "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
      {"stripe_key", 40, 72, "rk_test_4eC39HqLyjWDarjtT1zdp7dc"}}},
    {"openai sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
     {{"openai_key", 7, 47, "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"}}},
    {"jwt "
     "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
     "XgL0n3I9PlFUP0THsR8U.",
     {{"jwt", 4, 112,
       "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
       "XgL0n3I9PlFUP0THsR8U"}}},
    {"password=hunter22 and DB_PASSWORD: \"s3cr3t!pass\"",
     {{"password_assignment", 9, 17, "hunter22"}, {"password_assignment", 36, 47, "s3cr3t!pass"}}},
    {"api_key = \"a8F3kL9mQ2xZ7vB1nC4d\", \"client_secret\":\"Zx9Yw8Vu7Ts6Rq5Po4Nm\"",
     {{"secret_assignment", 11, 31, "a8F3kL9mQ2xZ7vB1nC4d"},
      {"secret_assignment", 51, 71, "Zx9Yw8Vu7Ts6Rq5Po4Nm"}}},
    {"export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     {{"secret_assignment", 29, 69, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}},
    {"X-Api-Key: 5f2b8c1d9e3a4f6b7c8d9e0f1a2b3c4d",
     {{"secret_assignment", 11, 43, "5f2b8c1d9e3a4f6b7c8d9e0f1a2b3c4d"}}},
    {"Authorization: Bearer abcDEF123456ghiJKL789 ;",
     {{"bearer_token", 22, 43, "abcDEF123456ghiJKL789"}}},
    {"Authorization: Basic dXNlcjpwYXNzd29yZA==", {{"basic_auth", 21, 41, "dXNlcjpwYXNzd29yZA=="}}},
    {"spring.datasource.password=Tr0ub4dor&3", {{"password_assignment", 27, 38, "Tr0ub4dor&3"}}},
    {"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE "
     "KEY-----\nafter",
     {{"pem_private_key", 0, 94,
       "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE "
       "KEY-----"}}},
    {"\"key\":\"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE "
     "KEY-----\\n\"",
     {{"pem_private_key", 7, 95,
       "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE "
       "KEY-----"}}},
    {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n",
     {{"pem_private_key_open", 0, 79,
       "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"}}},
    {"password: ******** token: null api_key: ${API_KEY} password=<redacted>", {{0}}},
    {"password_min_length: 12 token_type: bearer token_expiry: 3600", {{0}}},
    {"sort_key = \"created_at_timestamp\" primary_key: user_session_v2", {{0}}},
    {"sk-learn-something-something-else and AKIAIOSFODNN7EXAMPL", {{0}}},
    {"ghp_short and xoxb-1 and eyJhbGciOi.eyJzdWIi.x", {{0}}},
    {"Bearer token, Authorization: Basic notbase64!!", {{0}}},
    {"private_key: /etc/ssl/private/server.key password = getpass()", {{0}}},
    {"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 uuid 123e4567-e89b-12d3-a456-426614174000",
     {{0}}},
    {"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC "
     "KEY-----",
     {{0}}},
};

RULES_CASES_MAIN(test_secret, secret_cases)
