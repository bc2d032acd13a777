#define _GNU_SOURCE
#include "touchd_shims.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

const uint32_t touchd_epoll_in = EPOLLIN;
const uint32_t touchd_epoll_out = EPOLLOUT;
const uint32_t touchd_epoll_err = EPOLLERR;
const uint32_t touchd_epoll_hup = EPOLLHUP;
const uint32_t touchd_epoll_rdhup = EPOLLRDHUP;

int touchd_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int touchd_epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = events;
    event.data.u64 = token;
    int ops[] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
    if (op < 0 || op > 2) {
        errno = EINVAL;
        return -1;
    }
    return epoll_ctl(epfd, ops[op], fd, &event);
}

int touchd_epoll_wait(int epfd, touchd_epoll_event *events, int capacity, int timeout_ms) {
    struct epoll_event raw[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epfd, raw, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        events[i].events = raw[i].events;
        events[i].token = raw[i].data.u64;
    }
    return count;
}

int touchd_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int touchd_timerfd_arm(int fd, int64_t monotonic_us) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (monotonic_us > 0) {
        spec.it_value.tv_sec = monotonic_us / 1000000;
        spec.it_value.tv_nsec = (monotonic_us % 1000000) * 1000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int64_t touchd_timerfd_drain(int fd) {
    uint64_t count = 0;
    ssize_t got = read(fd, &count, sizeof count);
    return got == (ssize_t)sizeof count ? (int64_t)count : 0;
}

int touchd_signalfd_create(const int *signals, int count) {
    sigset_t mask;
    sigemptyset(&mask);
    for (int i = 0; i < count; i++) sigaddset(&mask, signals[i]);
    if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int touchd_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t got = read(fd, &info, sizeof info);
    if (got == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    return -1;
}

int touchd_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int touchd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

static int fill_address(struct sockaddr_un *address, const char *path) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address->sun_path, path);
    return 0;
}

int touchd_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int touchd_unix_connect(const char *path) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int touchd_inotify_create(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int touchd_inotify_watch_directory(int fd, const char *path) {
    return inotify_add_watch(fd, path, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE);
}

int touchd_inotify_read_names(int fd, char *names, int capacity) {
    char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t got = read(fd, buffer, sizeof buffer);
    if (got < 0) return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
    int written = 0;
    for (char *cursor = buffer; cursor < buffer + got;) {
        struct inotify_event *event = (struct inotify_event *)cursor;
        if (event->len > 0) {
            int length = (int)strlen(event->name) + 1;
            if (written + length <= capacity) {
                memcpy(names + written, event->name, (size_t)length);
                written += length;
            }
        }
        cursor += sizeof(struct inotify_event) + event->len;
    }
    return written;
}

int64_t touchd_monotonic_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

int touchd_clock_monotonic_id(void) { return CLOCK_MONOTONIC; }
