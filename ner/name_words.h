/* name_words.h — reading words for the name recognizers (internal to ner/).
 *
 * A word is a maximal run of letters, marks and digits of scripts written
 * with spaces (pii_ner_word_cp), joined across an inner apostrophe or
 * hyphen ("O'Brien", "Morgan-Short").  Positions are document offsets into
 * the view tx; every function reads bytes in view only.  Those that take
 * eod return -1 when the view ends before the answer is known and more
 * bytes may come (eod == 0): the caller scans that word again later. */
#ifndef PII_NER_NAME_WORDS_H
#define PII_NER_NAME_WORDS_H

#include "ner_internal.h"

/* The character at pos (in view): its length in bytes, 0 when the bytes
 * there decode to none. */
size_t pii_ner_nw_cp_at(const ner_text *tx, uint64_t pos, uint32_t *cp);
/* Do the bytes at pos start a character that the view cuts short? */
int pii_ner_nw_cut_char(const ner_text *tx, uint64_t pos);
/* Is cp an upper-case or title-case letter? */
int pii_ner_nw_upper(uint32_t cp);
/* End of the word that starts at ws; *open = 1 when it reaches the end of
 * the view (more bytes may extend it). */
uint64_t pii_ner_nw_word_end(const ner_text *tx, uint64_t ws, int *open);
/* Does a word start at pos (no word character, nor one and a joiner,
 * right before it)? */
int pii_ner_nw_word_starts(const ner_text *tx, uint64_t pos);
/* Is [p, p + n) a whole word, or one before a possessive "'s", whose word
 * ends by hi?  p must start a word. */
int pii_ner_nw_whole_word(const ner_text *tx, uint64_t p, size_t n, uint64_t hi);
/* The length of a possessive "'s" / "’s" ending w[0..n), or 0. */
size_t pii_ner_nw_possessive(const uint8_t *w, size_t n);
/* The byte at pos: 1 and *b, 0 at the document's end, -1 when the view
 * ends there before eod. */
int pii_ner_nw_byte_at(const ner_text *tx, uint64_t pos, int eod, uint8_t *b);
/* Has [ws, we) a lower-case letter? */
int pii_ner_nw_has_lower(const ner_text *tx, uint64_t ws, uint64_t we);
/* A word at ws that starts with an upper-case letter: 1 and *we, 0 when
 * none, -1 when more bytes are needed (it may go on, or crosses lim). */
int pii_ner_nw_cap_word(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *we);
/* Do the bytes at pos spell lit?  1, 0, or -1 (the view ends first). */
int pii_ner_nw_lit_at(const ner_text *tx, uint64_t pos, const char *lit, int eod);
/* Is w[0..n) the lower-case ASCII word t, in any case? */
int pii_ner_nw_ascii_ieq(const uint8_t *w, size_t n, const char *t);
/* Is w[0..n) one of the k words of t, byte for byte? */
int pii_ner_nw_word_in(const char *const *t, size_t k, const uint8_t *w, size_t n);
/* A title or form of address that stands beside a name but is none
 * ("Mr", "Dr", "Sir", "president", "the"), in any case. */
int pii_ner_nw_title(const uint8_t *w, size_t n);
/* May the word [ws, we) be a name's word: an upper-case first letter, two
 * characters or more, no digit, no title, honorific or Roman numeral,
 * shorter than NER_NAME_BYTES? */
int pii_ner_nw_teachable(const ner_text *tx, uint64_t ws, uint64_t we);
/* A family name at ws: a capitalised, teachable word with a lower-case
 * letter, not in the stop list.  1, *ne (its end before a possessive) and
 * *we (the word's end); 0 when none; -1 when more bytes are needed. */
int pii_ner_nw_family(const ner_text *tx, uint64_t ws, uint64_t lim, int eod, uint64_t *ne,
                      uint64_t *we);

#endif
