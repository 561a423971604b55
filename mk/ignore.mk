# ignore.mk — the unit suite of the CLI's ignore-file module (src/ignore.c),
# which is not part of the library: its object is linked in explicitly.
# $(LIB) is set after the mk/ fragments are read: expand it late (as in
# fuzz.mk), or a fresh build dir may link this before the library exists.
.SECONDEXPANSION:
$(B)/tests/test_ignore: tests/unit/test_ignore.c $(B)/src/ignore.o $$(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -o $@ $< $(B)/src/ignore.o $(LIB) -lcmocka $(LDLIBS_ALL)
