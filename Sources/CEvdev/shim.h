#ifndef TOUCHD_CEVDEV_SHIM_H
#define TOUCHD_CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#endif
