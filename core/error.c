/* error.c — message table generated from the PII_ERRORS list. */
#include "pii_error.h"

const char *pii_strerror(pii_err e)
{
    switch (e) {
#define PII_ERR_MSG_(name, num, msg)                                                               \
    case name:                                                                                     \
        return msg;
        PII_ERRORS(PII_ERR_MSG_)
#undef PII_ERR_MSG_
    }
    return "unknown error";
}

const char *pii_errname(pii_err e)
{
    switch (e) {
#define PII_ERR_NAME_(name, num, msg)                                                              \
    case name:                                                                                     \
        return #name;
        PII_ERRORS(PII_ERR_NAME_)
#undef PII_ERR_NAME_
    }
    return "PII_E?";
}
