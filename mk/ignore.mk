# ignore.mk — the unit suite of the CLI's ignore-file module (src/ignore.c),
# which is not part of the library: its object is linked in explicitly.
$(B)/tests/test_ignore: tests/unit/test_ignore.c $(B)/src/ignore.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -MMD -MP -o $@ $< $(B)/src/ignore.o $(LIB) -lcmocka $(LDLIBS_ALL)
