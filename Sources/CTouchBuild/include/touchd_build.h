#ifndef TOUCHD_BUILD_H
#define TOUCHD_BUILD_H

/// `git describe` of the build's checkout, or "" when the build did not pass one (Package.swift, TOUCHD_GIT_DESCRIBE).
const char *touchd_git_description(void);

#endif
