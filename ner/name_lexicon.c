/* name_lexicon.c — the given-name recognizer (name_lexicon.h, rule
 * `name_lexicon`).
 *
 * A given name of the lexicon's list (ner/data/README.md) followed by one
 * space and a capitalised word that is no common non-name nor a non-person
 * word ("Tom Baker", "Mary Jo Foley", "Mary J. Blige"; not "Sierra
 * Leonean") is a person span of score NER_LEX_SCORE, and teaches its
 * words to the name memory like any other.  The scan (names.c) keeps a
 * given name right after a capitalised mid-sentence word that is no title
 * from starting one ("Hospital Gregorio Marañón", "the Cleveland
 * Orchestra" are names of places and things).  Its lists are fixed, so it
 * depends on the document alone. */
#include "name_lexicon.h"
#include "name_words.h"

/* Does the head word of an organisation or a capitalised kind head follow
 * the name that ends at we ("Pierce Glynn Solicitors", "Baxter Moore LLP",
 * "Cleveland Browns Stadium")?  1 yes, 0 no, -1 when more bytes are
 * needed. */
static int org_after(const ner_text *tx, uint64_t we, uint64_t lim, int eod)
{
    uint8_t b;
    int r = pii_ner_nw_byte_at(tx, we, eod, &b);
    if (r <= 0 || b != ' ')
        return r < 0 ? -1 : 0;
    uint64_t e;
    if ((r = pii_ner_nw_cap_word(tx, we + 1, lim, eod, &e)) <= 0)
        return r;
    return pii_ner_lex_head_after(tx->p + (we + 1 - tx->base), (size_t)(e - we - 1));
}

/* A family name after a given name (pii_ner_nw_family) that is no
 * non-person word: "Sierra Leonean", "Tom Kafka" are none.  The honorifics
 * and "Family, Given" leave that to the non-person filter. */
static int lex_family(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *ne,
                      uint64_t *we)
{
    int r = pii_ner_nw_family(tx, ws, lim, eod, ne, we);
    if (r > 0 && pii_ner_lex_non_person(tx->p + (ws - tx->base), (size_t)(*ne - ws)))
        return 0;
    return r;
}

/* A lexicon name starting with the word [ws, we): 1, *le (its end) and
 * *lwe (the end of its last word, past a pii_ner_nw_possessive), 0 when none, -1 when
 * more bytes are needed. */
int pii_ner_lexicon_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                          uint64_t *le, uint64_t *lwe)
{
    uint8_t b, b2; /* the space first: the lookup costs more */
    int r = pii_ner_nw_byte_at(tx, we, eod, &b);
    if (r <= 0 || b != ' ')
        return r < 0 ? -1 : 0;
    if (!pii_ner_lex_first_name(tx->p + (ws - tx->base), (size_t)(we - ws)))
        return 0;
    uint64_t s2 = we + 1, ne, e2;
    /* "Given X. Family" */
    if ((r = pii_ner_nw_byte_at(tx, s2, eod, &b)) <= 0)
        return r;
    if (b >= 'A' && b <= 'Z') {
        int r1 = pii_ner_nw_byte_at(tx, s2 + 1, eod, &b2);
        if (r1 < 0)
            return -1;
        if (r1 > 0 && b2 == '.') {
            int r2 = pii_ner_nw_byte_at(tx, s2 + 2, eod, &b2);
            if (r2 < 0)
                return -1;
            if (r2 == 0 || b2 != ' ')
                return 0;
            r = lex_family(tx, s2 + 3, lim, eod, &ne, &e2);
            if (r > 0) {
                *le = ne;
                *lwe = e2;
                r = org_after(tx, e2, lim, eod);
                return r < 0 ? -1 : !r;
            }
            return r;
        }
    }
    if ((r = lex_family(tx, s2, lim, eod, &ne, &e2)) <= 0)
        return r;
    *le = ne;
    *lwe = e2;
    /* "Given Given Family": a second given name takes the word after it */
    if (ne == e2 && pii_ner_lex_first_name(tx->p + (s2 - tx->base), (size_t)(e2 - s2))) {
        r = pii_ner_nw_byte_at(tx, e2, eod, &b);
        if (r < 0)
            return -1;
        if (r > 0 && b == ' ') {
            uint64_t ne3, e3;
            int r3 = lex_family(tx, e2 + 1, lim, eod, &ne3, &e3);
            if (r3 < 0)
                return -1;
            if (r3 > 0) {
                *le = ne3;
                *lwe = e3;
            }
        }
    }
    /* an organisation's name holds it: no person */
    r = org_after(tx, *lwe, lim, eod);
    return r < 0 ? -1 : !r;
}
