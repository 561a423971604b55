/* test_ignore.c — gitignore pattern semantics of src/ignore.c: the glob
 * ("*", "?", classes, "**"), anchoring, directory-only patterns, negation,
 * escapes, comments, trailing spaces, the base folder of nested files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "src/ignore.h"

static void test_glob(void **state)
{
    (void)state;
    assert_true(pii_ignore_glob("*.log", "a.log"));
    assert_false(pii_ignore_glob("*.log", "d/a.log")); /* '*' never crosses '/' */
    assert_true(pii_ignore_glob("a?c", "abc"));
    assert_false(pii_ignore_glob("a?c", "a/c"));
    assert_true(pii_ignore_glob("[abc]x", "bx"));
    assert_false(pii_ignore_glob("[!abc]x", "bx"));
    assert_true(pii_ignore_glob("[a-c]x", "cx"));
    assert_true(pii_ignore_glob("[^a-c]x", "dx"));
    assert_true(pii_ignore_glob("**/foo", "foo"));
    assert_true(pii_ignore_glob("**/foo", "a/b/foo"));
    assert_true(pii_ignore_glob("foo/**", "foo/a/b"));
    assert_false(pii_ignore_glob("foo/**", "foo"));
    assert_true(pii_ignore_glob("a/**/b", "a/b"));
    assert_true(pii_ignore_glob("a/**/b", "a/x/y/b"));
    assert_false(pii_ignore_glob("a/**/b", "a/x/yb"));
    assert_true(pii_ignore_glob("a**b", "axxb")); /* not at a '/': two plain stars */
    assert_false(pii_ignore_glob("a**b", "ax/b"));
    assert_true(pii_ignore_glob("\\*x", "*x"));
    assert_false(pii_ignore_glob("\\*x", "ax"));
    assert_true(pii_ignore_glob("[x", "[x")); /* unclosed class: literal */
}

static pii_ignore_list *parse(const char *text, const char *base)
{
    pii_ignore_list *l = pii_ignore_list_parse(text, strlen(text), base);
    assert_non_null(l);
    return l;
}

static void test_rules(void **state)
{
    (void)state;
    pii_ignore_list *l = parse("# comment\n"
                               "\n"
                               "*.log\n"
                               "!keep.log\n"
                               "/top.txt\n"
                               "build/\n"
                               "doc/*.md\n"
                               "\\#hash\n"
                               "\\!bang\n"
                               "trail   \n"
                               "esc\\ \n"
                               "crlf\r\n",
                               "");
    assert_int_equal(pii_ignore_list_match(l, "a.log", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "x/y/a.log", 0), 1);  /* no '/': any depth */
    assert_int_equal(pii_ignore_list_match(l, "x/keep.log", 0), 0); /* last match wins */
    assert_int_equal(pii_ignore_list_match(l, "top.txt", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "x/top.txt", 0), -1); /* anchored */
    assert_int_equal(pii_ignore_list_match(l, "build", 1), 1);
    assert_int_equal(pii_ignore_list_match(l, "x/build", 1), 1);
    assert_int_equal(pii_ignore_list_match(l, "build", 0), -1); /* a file named build */
    assert_int_equal(pii_ignore_list_match(l, "doc/a.md", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "x/doc/a.md", 0), -1); /* middle '/' anchors */
    assert_int_equal(pii_ignore_list_match(l, "doc/x/a.md", 0), -1);
    assert_int_equal(pii_ignore_list_match(l, "#hash", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "comment", 0), -1);
    assert_int_equal(pii_ignore_list_match(l, "!bang", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "trail", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "esc ", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "crlf", 0), 1);
    pii_ignore_list_free(l);
}

static void test_nested_base(void **state)
{
    (void)state;
    pii_ignore_list *l = parse("/only-here\n*.tmp\nsub/x\n", "a/b");
    assert_int_equal(pii_ignore_list_match(l, "a/b/only-here", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "a/b/c/only-here", 0), -1);
    assert_int_equal(pii_ignore_list_match(l, "only-here", 0), -1); /* outside its folder */
    assert_int_equal(pii_ignore_list_match(l, "a/bc/z.tmp", 0), -1);
    assert_int_equal(pii_ignore_list_match(l, "a/b/c/z.tmp", 0), 1);
    assert_int_equal(pii_ignore_list_match(l, "a/b/sub/x", 0), 1);
    pii_ignore_list_free(l);
    pii_ignore_list_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_nested_base),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
