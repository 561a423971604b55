# mk/rules.mk — the rule tier (redact/rules.c, docs/RULES.md).
#   make bench-rules    throughput of the rule detector alone and of
#                       pii-redact --rules-only on prose, random bytes and
#                       300 MB of 'a' (figures in docs/RULES.md)
.PHONY: bench-rules
bench-rules: all
	@mkdir -p $(B)/tools
	$(CC) $(CFLAGS_ALL) -o $(B)/tools/bench_rules tools/rules/bench_rules.c $(LIB) $(LDLIBS_ALL)
	tools/rules/bench.sh $(B)/tools/bench_rules ./$(BIN)

# The url rules' word lists (redact/data/README.md), pulled into
# redact/urllists.o with .incbin, invisible to -MMD: name them.
$(B)/redact/urllists.o $(B)/pic/redact/urllists.o: $(wildcard redact/data/url_*.txt)
