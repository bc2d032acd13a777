#define _GNU_SOURCE
#include "touchd_shims.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const uint32_t touchd_epoll_in = EPOLLIN;
const uint32_t touchd_epoll_out = EPOLLOUT;
const uint32_t touchd_epoll_err = EPOLLERR;
const uint32_t touchd_epoll_hup = EPOLLHUP;
const uint32_t touchd_epoll_rdhup = EPOLLRDHUP;
const int touchd_epoll_ctl_add = EPOLL_CTL_ADD;
const int touchd_epoll_ctl_mod = EPOLL_CTL_MOD;
const int touchd_epoll_ctl_del = EPOLL_CTL_DEL;

int touchd_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int touchd_epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &event);
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

int touchd_peer_groups(int fd, uint32_t *groups, int capacity, int *needed) {
    socklen_t length = (socklen_t)(capacity * (int)sizeof(gid_t));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) {
        if (needed) *needed = (int)(length / sizeof(gid_t));
        return -1;
    }
    return (int)(length / sizeof(gid_t));
}

int touchd_lstat_at(int directory_fd, const char *name, uint32_t *type_bits, uint32_t *owner, uint64_t *device,
    uint64_t *inode) {
    struct stat info;
    if (fstatat(directory_fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT ? 0 : -1;
    *type_bits = info.st_mode & S_IFMT;
    *owner = info.st_uid;
    *device = info.st_dev;
    *inode = info.st_ino;
    return 1;
}

int touchd_unlink_at(int directory_fd, const char *name) { return unlinkat(directory_fd, name, 0); }

int touchd_open_directory(const char *path) { return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC); }

/// Opens `name` in `parent_fd` as a directory without following a symlink; only one owned by us is accepted
/// (nobody else can make a directory owned by touchd's user), and it gets `mode` whatever the umask did.
static int open_own_directory(int parent_fd, const char *name, uint32_t mode) {
    int fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_uid != geteuid() || fchmod(fd, mode) != 0) {
        int saved = errno;
        close(fd);
        errno = info.st_uid != geteuid() ? EPERM : saved;
        return -1;
    }
    return fd;
}

int touchd_make_directory(int parent_fd, const char *name, uint32_t mode) {
    if (mkdirat(parent_fd, name, 0700) != 0) return -1;
    return open_own_directory(parent_fd, name, mode);
}

int touchd_unix_connect_nonblocking(const char *path) {
    struct sockaddr_un address;
    if (fill_address(&address, path) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// Removes the private directory if the entry of that name is still the one we made.
static void remove_private_directory(int directory_fd, const char *private_name, int private_fd) {
    struct stat ours, entry;
    unlinkat(private_fd, "s", 0);
    if (fstat(private_fd, &ours) == 0 && fstatat(directory_fd, private_name, &entry, AT_SYMLINK_NOFOLLOW) == 0 &&
        ours.st_dev == entry.st_dev && ours.st_ino == entry.st_ino) {
        unlinkat(directory_fd, private_name, AT_REMOVEDIR);
    }
}

int touchd_unix_listen_private(
    int directory_fd, const char *name, uint32_t mode, int64_t group, int backlog, uint64_t *device, uint64_t *inode,
    int *failed_step) {
    int saved, listener = -1, private_fd = -1, cwd_fd = -1;
    char private_name[64];
    // A fresh name: mkdirat fails with EEXIST rather than reuse anything (another user may have guessed it).
    for (int attempt = 0;; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        snprintf(private_name, sizeof private_name, ".touchd-%d-%lx", (int)getpid(),
            (unsigned long)(now.tv_nsec ^ (now.tv_sec << 20) ^ attempt));
        if (mkdirat(directory_fd, private_name, 0700) == 0) break;
        if (errno != EEXIST || attempt == 16) {
            *failed_step = touchd_place_private_directory;
            return -1;
        }
    }
    // Another user of the directory may rename or replace the entry before it is opened: only a directory owned
    // by touchd's user is ours.
    private_fd = open_own_directory(directory_fd, private_name, 0700);
    if (private_fd < 0) {
        *failed_step = touchd_place_private_directory_raced;
        return -1;
    }
    listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listener < 0) {
        *failed_step = touchd_place_socket;
        goto fail;
    }
    // bind takes a path, not a directory descriptor: bind "s" relative to the private directory as cwd, with the
    // umask giving the socket file its final mode at creation.
    cwd_fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (cwd_fd < 0 || fchdir(private_fd) != 0) {
        *failed_step = touchd_place_bind;
        goto fail;
    }
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strcpy(address.sun_path, "s");
    mode_t previous_umask = umask(~mode & 0777);
    int bound = bind(listener, (struct sockaddr *)&address, sizeof address);
    saved = errno;
    umask(previous_umask);
    if (fchdir(cwd_fd) != 0 && bound == 0) {
        saved = errno;
        bound = -1;
    }
    close(cwd_fd);
    cwd_fd = -1;
    if (bound != 0) {
        errno = saved;
        *failed_step = touchd_place_bind;
        goto fail;
    }
    if (group >= 0 && fchownat(private_fd, "s", (uid_t)-1, (gid_t)group, AT_SYMLINK_NOFOLLOW) != 0) {
        *failed_step = touchd_place_chown;
        goto fail;
    }
    struct stat socket_info;
    if (fstatat(private_fd, "s", &socket_info, AT_SYMLINK_NOFOLLOW) != 0) {
        *failed_step = touchd_place_stat;
        goto fail;
    }
    if (listen(listener, backlog) != 0) {
        *failed_step = touchd_place_listen;
        goto fail;
    }
    // A hard link never replaces what is at the target: EEXIST instead.
    if (linkat(private_fd, "s", directory_fd, name, 0) != 0) {
        *failed_step = touchd_place_link;
        goto fail;
    }
    *device = socket_info.st_dev;
    *inode = socket_info.st_ino;
    remove_private_directory(directory_fd, private_name, private_fd);
    close(private_fd);
    return listener;
fail:
    saved = errno;
    if (cwd_fd >= 0) close(cwd_fd);
    if (listener >= 0) close(listener);
    remove_private_directory(directory_fd, private_name, private_fd);
    close(private_fd);
    errno = saved;
    return -1;
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

int touchd_spawn(const char *file, char *const argv[], char *const envp[], int32_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    int reset[] = {SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaddset(&defaults, reset[i]);
    result = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    /* A command gets stdin, stdout and stderr only: not what this process inherited without close-on-exec. */
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &empty);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (result == 0) result = posix_spawnattr_setpgroup(&attributes, 0);
    if (result == 0) {
        result = posix_spawnattr_setflags(
            &attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    }
    pid_t child = 0;
    if (result == 0) result = posix_spawnp(&child, file, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (result == 0) *pid = (int32_t)child;
    return result;
}

int touchd_reap_child(int32_t *pid, int *exit_status, int *signal) {
    int status = 0;
    pid_t child;
    do {
        child = waitpid(-1, &status, WNOHANG);
    } while (child < 0 && errno == EINTR);
    if (child <= 0) return child;
    *pid = (int32_t)child;
    if (WIFEXITED(status)) {
        *exit_status = WEXITSTATUS(status);
        *signal = 0;
    } else {
        *exit_status = -1;
        *signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    return 1;
}

int touchd_terminal_size(int fd, uint16_t *rows, uint16_t *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

int touchd_pipe_nonblocking(int fds[2]) { return pipe2(fds, O_NONBLOCK | O_CLOEXEC); }

int touchd_usable_processors(void) {
    cpu_set_t set;
    // More than CPU_SETSIZE (1024) processors make the call fail with EINVAL: count those online instead.
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        return online > 0 ? (int)online : 1;
    }
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}

const void *touchd_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

// --- touchd-actions: the commands' process trees ---

#include <sys/prctl.h>

int touchd_become_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// --- end of touchd-actions' block ---

// --- evdev: the live read path's state queries after SYN_DROPPED ---

#include <linux/input.h>

int touchd_evdev_mt_slots(int fd, uint32_t code, int32_t *values, int count) {
    // The request is the axis code followed by one value a slot (struct input_mt_request_layout).
    int32_t request[1 + 64];
    memset(request, 0, sizeof request);
    if (count < 0 || count > 64) {
        errno = EINVAL;
        return -1;
    }
    request[0] = (int32_t)code;
    if (ioctl(fd, EVIOCGMTSLOTS(sizeof(int32_t) * (size_t)(1 + count)), request) < 0) return -1;
    memcpy(values, request + 1, sizeof(int32_t) * (size_t)count);
    return 0;
}

int touchd_evdev_abs_value(int fd, uint32_t code, int32_t *value) {
    struct input_absinfo info;
    if (code > ABS_MAX) {
        errno = EINVAL;
        return -1;
    }
    if (ioctl(fd, EVIOCGABS(code), &info) < 0) return -1;
    *value = info.value;
    return 0;
}

int touchd_evdev_key_down(int fd, uint32_t code) {
    unsigned char bits[KEY_MAX / 8 + 1];
    if (code > KEY_MAX) {
        errno = EINVAL;
        return -1;
    }
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGKEY(sizeof bits), bits) < 0) return -1;
    return (bits[code / 8] >> (code % 8)) & 1;
}

// --- end of evdev's block ---
