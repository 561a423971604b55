# The HTTP service (src/serve*.c, docs/SERVER.md).
#   make serve-load    a bounded load test on loopback (tools/serve-load.py):
#                      requests/s and p50/p99 for 200-char prompts and 4 KB
#                      documents, RSS over many requests, the limits, every
#                      reply checked against the command's bytes; the
#                      figures go to docs/PERFORMANCE.md ("The server").
#                      SERVE_LOAD_ARGS="--seconds 10 --rss-requests 100000"
SERVE_LOAD_ARGS ?= --seconds 10 --clients 4 --workers 2 --rss-requests 100000
.PHONY: serve-load
serve-load: all
	tools/serve-load.py ./$(BIN) $(SERVE_LOAD_ARGS)
