/* citation.c — the citation recognizer (citation.h, rule `citation`). */
#include "citation.h"
#include "name_words.h"

/* Months and seasons: "(June, 2007)" dates a thing, it cites no one. */
static int is_season(const uint8_t *w, size_t n)
{
    static const char *const t[] = {
        "january", "february",  "march",   "april",     "may",      "june",   "july",
        "august",  "september", "october", "november",  "december", "spring", "summer",
        "autumn",  "fall",      "winter",  "christmas", "easter",
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (pii_ner_nw_ascii_ieq(w, n, t[i]))
            return 1;
    return 0;
}

/* An author's family name at ws: a capitalised word with a lower-case
 * letter and no digit, no title, month or season.  1 and *we (its end),
 * 0 when none, -1 when more bytes are needed. */
int pii_ner_citation_name(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *we)
{
    uint64_t e;
    int r = pii_ner_nw_cap_word(tx, ws, lim, eod, &e);
    if (r <= 0)
        return r;
    if (!pii_ner_nw_teachable(tx, ws, e) || !pii_ner_nw_has_lower(tx, ws, e) ||
        is_season(tx->p + (ws - tx->base), (size_t)(e - ws)))
        return 0;
    *we = e;
    return 1;
}

/* The year that ends a citation item at pos: 19xx or 20xx, an optional
 * lower-case letter, then ')', ';' or ','.  1, 0, or -1. */
static int cite_year(const ner_text *tx, uint64_t pos, int eod)
{
    uint8_t b;
    for (int i = 0; i < 6; i++) {
        int r = pii_ner_nw_byte_at(tx, pos + (uint64_t)i, eod, &b);
        if (r <= 0)
            return r;
        if (i == 0 && b != '1' && b != '2')
            return 0;
        if (i == 1) {
            uint8_t c0 = tx->p[pos - tx->base];
            if (!((c0 == '1' && b == '9') || (c0 == '2' && b == '0')))
                return 0;
        }
        if ((i == 2 || i == 3) && !(b >= '0' && b <= '9'))
            return 0;
        if (i == 4 && b >= 'a' && b <= 'z')
            continue; /* "2012a" */
        if (i >= 4)
            return b == ')' || b == ';' || b == ',';
    }
    return 0;
}

/* An author-year citation item starting at ws, after "(" or "; ":
 * "Porte, 2012)", "Marsden & Mackey, 2014;", "Rueda, Checa, & Cómbita,
 * 2012)", "Makel et al., 2012)".  1 and the names in span[0..*ns), 0 when
 * none, -1 when more bytes are needed. */
int pii_ner_citation_item(const ner_text *tx, uint64_t ws, uint64_t lim, int eod,
                          uint64_t span[][2], int *ns)
{
    uint64_t q = ws;
    for (int n = 0; n < NER_CITE_AUTHORS;) {
        uint64_t e;
        int r = pii_ner_citation_name(tx, q, lim, eod, &e), r2;
        if (r <= 0)
            return r;
        span[n][0] = q;
        span[n][1] = e;
        n++;
        if ((r = pii_ner_nw_lit_at(tx, e, " et al", eod)) != 0) {
            if (r < 0)
                return -1;
            uint64_t t = e + 6;
            if ((r = pii_ner_nw_lit_at(tx, t, ".", eod)) < 0)
                return -1;
            t += (uint64_t)r;
            if ((r = pii_ner_nw_lit_at(tx, t, ",", eod)) < 0)
                return -1;
            t += (uint64_t)r;
            if ((r = pii_ner_nw_lit_at(tx, t, " ", eod)) <= 0 ||
                (r = cite_year(tx, t + 1, eod)) <= 0)
                return r;
            *ns = n;
            return 1;
        }
        if ((r = pii_ner_nw_lit_at(tx, e, ", ", eod)) < 0)
            return -1;
        if (r > 0) {
            if ((r = cite_year(tx, e + 2, eod)) != 0) {
                if (r > 0)
                    *ns = n;
                return r;
            }
            q = e + 2; /* ", Name", ", & Name", ", and Name" */
            if ((r2 = pii_ner_nw_lit_at(tx, q, "& ", eod)) < 0)
                return -1;
            if (r2 > 0)
                q += 2;
            else if ((r2 = pii_ner_nw_lit_at(tx, q, "and ", eod)) < 0)
                return -1;
            else if (r2 > 0)
                q += 4;
            continue;
        }
        if ((r2 = pii_ner_nw_lit_at(tx, e, " & ", eod)) < 0)
            return -1;
        if (r2 > 0) {
            q = e + 3;
            continue;
        }
        if ((r2 = pii_ner_nw_lit_at(tx, e, " and ", eod)) <= 0)
            return r2;
        q = e + 5;
    }
    return 0;
}
