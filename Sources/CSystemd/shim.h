#ifndef TOUCHD_CSYSTEMD_SHIM_H
#define TOUCHD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#endif
