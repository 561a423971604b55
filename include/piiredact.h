/* piiredact.h — umbrella header of libpiiredact: include this one.
 *
 * Layers, bottom up: pii_rt.h (weight files, kernels, threads), pii_tok.h
 * (o200k tokenizer), pii_model.h (the Privacy Filter encoder),
 * pii_default_model.h (the model compiled in), pii_ner.h (decoding and the
 * model detector), pii_redact.h (spans, rules, operators, the streaming
 * redactor), pii_records.h (JSON Lines / CSV field modes). */
#ifndef PIIREDACT_H
#define PIIREDACT_H
#include "pii_error.h"
#include "pii_rt.h"
#include "pii_tok.h"
#include "pii_model.h"
#include "pii_default_model.h"
#include "pii_ner.h"
#include "pii_redact.h"
#include "pii_records.h"
#endif
