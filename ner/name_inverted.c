/* name_inverted.c — the inverted-name recognizer (name_inverted.h, rule
 * `name_inverted`). */
#include "name_inverted.h"
#include "name_words.h"

/* A name written "Family, Given" at [ws, we) (name_inverted): a
 * capitalised family word (pii_ner_nw_family; no pii_ner_nw_possessive) that is no
 * dictionary word, lead word, non-person word, organisation head or
 * country ("Hello", "Thanks", "Paris"), a comma, one space and a given name
 * of the lexicon that names no place (place_given.txt: "Victoria",
 * "Madison") and is followed by no capitalised word, no ", " and a
 * capitalised word, and no " and " / " or " (a list of places or names:
 * "Springfield, Illinois", "John, Maria and Tom").  On a line of its own
 * (line: the family word starts the text or a line and the given name ends
 * it) a given name of the lexicon may come first instead ("Wei, Li").  1
 * and *ge (the given name's end), 0 when none, -1 when more bytes are
 * needed. */
int pii_ner_inverted_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                           int line, uint64_t *ge)
{
    uint64_t ne, e, s2, e2;
    const uint8_t *w = tx->p + (ws - tx->base);
    size_t n = (size_t)(we - ws);
    uint8_t b; /* ", " first: the lookups cost more */
    int r;
    if ((r = pii_ner_nw_byte_at(tx, we, eod, &b)) <= 0 || b != ',')
        return r < 0 ? -1 : 0;
    if ((r = pii_ner_nw_byte_at(tx, we + 1, eod, &b)) <= 0 || b != ' ')
        return r < 0 ? -1 : 0;
    r = pii_ner_nw_family(tx, ws, lim, eod, &ne, &e);
    if (r <= 0 || ne != e || e != we)
        return r < 0 ? -1 : 0;
    uint8_t low[NER_NAME_BYTES];
    if (n >= NER_NAME_BYTES)
        return 0;
    for (size_t i = 0; i < n; i++)
        low[i] = w[i] >= 'A' && w[i] <= 'Z' ? (uint8_t)(w[i] | 0x20) : w[i];
    if (pii_ner_lex_common_word(low, n) || pii_ner_lex_lead_word(w, n) ||
        pii_ner_lex_non_person(w, n) || pii_ner_lex_org_head(w, n) ||
        pii_ner_lex_org_prefix(w, n) || pii_ner_lex_country(w, n))
        return 0;
    s2 = we + 2;
    if ((r = pii_ner_nw_cap_word(tx, s2, lim, eod, &e2)) <= 0)
        return r;
    const uint8_t *g = tx->p + (s2 - tx->base);
    size_t gn = (size_t)(e2 - s2);
    if (!pii_ner_nw_has_lower(tx, s2, e2) || pii_ner_lex_country(g, gn) ||
        pii_ner_lex_place_given(g, gn))
        return 0;
    /* what follows the given name */
    int end_line = 0;
    if ((r = pii_ner_nw_byte_at(tx, e2, eod, &b)) < 0)
        return -1;
    if (r == 0 || b == '\n' || b == '\r') {
        end_line = 1;
    } else if (b == ' ' || b == ',') {
        uint64_t x = e2 + 1, xe;
        int more = 1, space = b == ' ';
        if (b == ',') {
            if ((r = pii_ner_nw_byte_at(tx, x, eod, &b)) < 0)
                return -1;
            more = r > 0 && b == ' ';
            x++;
        }
        if (more && (r = pii_ner_nw_cap_word(tx, x, lim, eod, &xe)) != 0)
            return r < 0 ? -1 : 0; /* a list: "Springfield, Illinois, USA" */
        if (more && space) {
            int a = pii_ner_nw_lit_at(tx, x, "and ", eod),
                o = a > 0 ? 0 : pii_ner_nw_lit_at(tx, x, "or ", eod);
            if (a < 0 || o < 0)
                return -1;
            if (a > 0 || o > 0)
                return 0;
        }
    }
    if (!pii_ner_lex_first_name(g, gn) &&
        !(line && end_line && pii_ner_lex_first_name(w, n) && gn >= 2))
        return 0;
    *ge = e2;
    return 1;
}
