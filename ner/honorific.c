/* honorific.c — the honorific recognizer (honorific.h, rule `honorific`):
 * a form of address and the family name after it. */
#include "honorific.h"
#include "name_lexicon.h"
#include "name_words.h"

/* Forms of address that stand before a family name alone: honorifics, and
 * titles of office, rank and nobility, capitalised as written ("Senator
 * Okafor", "Vice President Harris", "Lord Grenville").  Not "General"
 * ("General Motors") or royalty ("Prince Series", "Queen Anne front"). */
int pii_ner_honorific_word(const uint8_t *w, size_t n)
{
    return pii_ner_lex_honorific(w, n); /* ner/data/honorifics.txt */
}

/* "MR", "MRS", "MS", "DR": honorifics as headings and transcripts write
 * them. */
static int caps_honorific(const uint8_t *w, size_t n)
{
    static const char *const h[] = {"MR", "MRS", "MS", "DR"};
    return pii_ner_nw_word_in(h, sizeof h / sizeof h[0], w, n);
}

/* "Mr. Temple", "Madame Duval", "Senator Okafor": an honorific at [ws, we), an optional
 * '.', one space and a family name: 1, *ns (the name's start), *le (its
 * end) and *lwe (its word's end); 0 when none; -1 when more bytes are
 * needed. */
int pii_ner_honorific_match(const ner_text *tx, uint64_t ws, uint64_t we, uint64_t lim, int eod,
                            uint64_t *ns, uint64_t *le, uint64_t *lwe)
{
    const uint8_t *w = tx->p + (ws - tx->base);
    const size_t n = (size_t)(we - ws);
    /* the upper-case abbreviations of headings and transcripts ("MR.
     * Temple", "DR. Haddad") take their period: "MS Excel" is no name */
    const int caps = !pii_ner_honorific_word(w, n);
    if (caps && !caps_honorific(w, n))
        return 0;
    uint64_t q = we, ne, e2;
    uint8_t b;
    int r = pii_ner_nw_byte_at(tx, q, eod, &b);
    if (r <= 0)
        return r;
    if (b == '.' && (r = pii_ner_nw_byte_at(tx, ++q, eod, &b)) <= 0)
        return r;
    if (b != ' ' || (caps && q == we))
        return 0;
    if ((r = pii_ner_nw_family(tx, q + 1, lim, eod, &ne, &e2)) <= 0)
        return r;
    *ns = q + 1;
    *le = ne;
    *lwe = e2;
    if (ne == e2) { /* "Dr. Priya Raman": a given name takes its pair */
        uint64_t pe, pwe;
        int rp = pii_ner_lexicon_match(tx, q + 1, e2, lim, eod, &pe, &pwe);
        if (rp < 0)
            return -1;
        if (rp > 0) {
            *le = pe;
            *lwe = pwe;
        }
    }
    return 1;
}
