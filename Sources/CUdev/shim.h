#ifndef TOUCHD_CUDEV_SHIM_H
#define TOUCHD_CUDEV_SHIM_H
#include <libudev.h>
#endif
