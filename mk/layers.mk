# mk/layers.mk — the layer rule (docs/DESIGN.md, "The layers").
#   make layers-check   fails when a file includes a header of a layer its
#                       layer may not use, or an object calls a function
#                       defined in one (the arrows: mk/layers.txt, the one
#                       place they are written; the Makefile's LAYERS come
#                       from it too), or when DESIGN.md's copy of the table
#                       differs; then proves that the check catches both
#                       kinds on a small bad fixture (tests/layers/).
# Part of `make check` (the objects of the variant being checked).
.SECONDEXPANSION:
.PHONY: layers-check
layers-check: $$(LIB_OBJ) $$(TOOLS_OBJ) $$(CLI_OBJ)
	@tools/layers-check.sh -c tests/layers/clients.txt -d docs/DESIGN.md mk/layers.txt . $(LIB_OBJ) $(TOOLS_OBJ) $(CLI_OBJ)
	@tests/layers/run.sh "$(CC)" $(B)/layers-fixture $(addprefix -I,$(addsuffix /include,$(call layer_uses,redact)))

CHECK_DEPS += layers-check
