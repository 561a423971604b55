# mk/rt.mk — the shard runtime and encoder's developer targets.
#   make bench-encoder MODEL=DIR [BENCH_ARGS="-n 16,512 -t 2"]
# builds tools/rt/bench_forward and times the forward pass on MODEL
# (e.g. a full-size `./pii-redact mkmodel -o DIR`).
.PHONY: bench-encoder
.SECONDEXPANSION:
$(B)/tools/bench_forward: tools/rt/bench_forward.c $$(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LIB) $(LDLIBS_ALL)

bench-encoder: $(B)/tools/bench_forward
	@test -n "$(MODEL)" || { echo "usage: make bench-encoder MODEL=DIR [BENCH_ARGS=...]" >&2; exit 2; }
	$(B)/tools/bench_forward -m $(MODEL) $(BENCH_ARGS)
