/* piiredact.h — umbrella header of libpiiredact: include this one. */
#ifndef PIIREDACT_H
#define PIIREDACT_H
#include "pii_error.h"
#include "pii_redact.h"
#include "pii_records.h"
#endif
