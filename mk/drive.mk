# drive.mk — the unit suite of the command's driver (src/drive.c), which is
# not part of the library: its object is linked in explicitly (as
# mk/ignore.mk does).  $(LIB) is expanded late.
.SECONDEXPANSION:
$(B)/tests/test_drive: tests/unit/test_drive.c $(B)/src/drive.o $$(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -o $@ $< $(B)/src/drive.o $(LIB) -lcmocka $(LDLIBS_ALL)
