#include "touchd_build.h"

// A C string, because a Swift build setting can define a condition but not give it a value.
#ifndef TOUCHD_GIT_DESCRIBE
#define TOUCHD_GIT_DESCRIBE ""
#endif

const char *touchd_git_description(void) { return TOUCHD_GIT_DESCRIBE; }
