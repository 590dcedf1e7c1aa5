#ifndef SPOTTER_CLIBPQ_H
#define SPOTTER_CLIBPQ_H
#include <libpq-fe.h>
#endif
