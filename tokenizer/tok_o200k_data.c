/* tok_o200k_data.c — links the built-in o200k_base table into the library.
 *
 * The table (layout in tok_internal.h) is produced at build time by
 * tools/tokenizer/mkvocab.c from tokenizer/data/o200k_base.vocab (see
 * mk/tokenizer.mk) and pulled in verbatim with .incbin: no initializer to
 * compile, nothing to hash or parse at start-up; the pages are mapped lazily
 * from the executable when first touched. */
#ifndef PII_TOK_O200K_TBL
#define PII_TOK_O200K_TBL "build/gen/tok/o200k.tbl"
#endif

__asm__(".section .rodata.pii_tok_o200k,\"a\",@progbits\n"
        ".balign 64\n"
        ".globl pii_tok__o200k_blob\n"
        ".hidden pii_tok__o200k_blob\n" /* internal: never exported from the .so */
        ".type pii_tok__o200k_blob, @object\n"
        "pii_tok__o200k_blob:\n"
        ".incbin \"" PII_TOK_O200K_TBL "\"\n"
        ".size pii_tok__o200k_blob, . - pii_tok__o200k_blob\n"
        ".globl pii_tok__o200k_blob_end\n"
        ".hidden pii_tok__o200k_blob_end\n"
        "pii_tok__o200k_blob_end:\n"
        ".previous\n");
