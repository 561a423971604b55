# man.mk — the man page's OPTIONS section from the option table.
#
#   make man     regenerate man/pii-redact.1 between its OPTIONS markers
#                from src/options.def (tools/genman.c); the rest of the page
#                is hand-written and kept.  Commit the result:
#                tests/cli/t_cli_table.sh fails when the committed page is
#                not the generated one.
#
# The generator needs only the host compiler and libc (it includes the
# table; it links nothing of pii-redact).
GENMAN := $(B)/tools/genman

$(GENMAN): tools/genman.c src/options.def
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -I. -o $@ tools/genman.c

.PHONY: man
man: $(GENMAN)
	$(GENMAN) man/pii-redact.1 >man/pii-redact.1.new
	@if cmp -s man/pii-redact.1.new man/pii-redact.1; then rm man/pii-redact.1.new; \
	    echo "man: man/pii-redact.1 is up to date"; \
	else mv man/pii-redact.1.new man/pii-redact.1; echo "man: man/pii-redact.1 regenerated"; fi
