// Syscalls Glibc's Swift module lacks (epoll, timerfd, signalfd, accept4, SO_PEERCRED, inotify), wrapped with
// plain C types. The system headers are included only in shims.c, so _GNU_SOURCE never reaches Swift.
#ifndef TOUCHD_SHIMS_H
#define TOUCHD_SHIMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t events;
    uint64_t token;
} touchd_epoll_event;

extern const uint32_t touchd_epoll_in;
extern const uint32_t touchd_epoll_out;
extern const uint32_t touchd_epoll_err;
extern const uint32_t touchd_epoll_hup;
extern const uint32_t touchd_epoll_rdhup;
/// EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL: `touchd_epoll_control`'s `op`.
extern const int touchd_epoll_ctl_add;
extern const int touchd_epoll_ctl_mod;
extern const int touchd_epoll_ctl_del;

/// epoll_create1(EPOLL_CLOEXEC)
int touchd_epoll_create(void);
/// epoll_ctl with `op` one of touchd_epoll_ctl_add, _mod, _del, and an event of `events` carrying `token`.
int touchd_epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t token);
/// epoll_wait; -1 with errno on error.
int touchd_epoll_wait(int epfd, touchd_epoll_event *events, int capacity, int timeout_ms);

/// timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)
int touchd_timerfd_create(void);
/// Arms the timer for an absolute CLOCK_MONOTONIC time in microseconds; a time <= 0 disarms it.
int touchd_timerfd_arm(int fd, int64_t monotonic_us);
/// Reads the expiration count (clears readiness); 0 when there was none.
int64_t touchd_timerfd_drain(int fd);

/// A signalfd (nonblocking, close-on-exec) for the given signals; the caller blocks them (they would be delivered
/// as usual otherwise).
int touchd_signalfd_create(const int *signals, int count);
/// Reads one pending signal: its number, 0 when none is pending, -1 on error.
int touchd_signalfd_read(int fd);

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)
int touchd_accept(int fd);
/// getsockopt(SO_PEERCRED)
int touchd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// The peer's supplementary groups (SO_PEERGROUPS, Linux >= 4.13): the count written, or -1 with errno
/// (ERANGE: more than `capacity`; the count needed is in *needed).
int touchd_peer_groups(int fd, uint32_t *groups, int capacity, int *needed);

/// Why `touchd_unix_listen_private` failed: the step, for the error message (errno says the rest).
enum {
    touchd_place_private_directory = 2,
    touchd_place_private_directory_raced = 3,
    touchd_place_socket = 4,
    touchd_place_bind = 5,
    touchd_place_chown = 6,
    touchd_place_listen = 7,
    touchd_place_link = 8,
    touchd_place_stat = 9,
};

/// A listening AF_UNIX socket (nonblocking, close-on-exec) named `name` in the directory open as `directory_fd`,
/// created so that no step follows a symlink or can be raced by another user of that directory: bound inside a
/// fresh private directory (0700, checked to be ours) with the mode set through the umask at bind, its group set
/// there (`group` < 0: unchanged), then hard-linked into place (which fails with EEXIST rather than replace
/// anything). Returns the descriptor and the socket file's device and inode, or -1 with errno and *failed_step.
int touchd_unix_listen_private(
    int directory_fd, const char *name, uint32_t mode, int64_t group, int backlog, uint64_t *device, uint64_t *inode,
    int *failed_step);

/// open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC): a directory to work in by descriptor.
int touchd_open_directory(const char *path);
/// mkdirat(parent_fd, name, 0700), then opened without following a symlink and checked to be ours, then given
/// `mode` with fchmod (the umask does not apply). Returns the directory's descriptor, or -1 with errno.
int touchd_make_directory(int parent_fd, const char *name, uint32_t mode);

/// fstatat(directory_fd, name, AT_SYMLINK_NOFOLLOW): 1 when it exists (with its type bits, owner, device and
/// inode), 0 when it does not, -1 with errno.
int touchd_lstat_at(int directory_fd, const char *name, uint32_t *type_bits, uint32_t *owner, uint64_t *device,
    uint64_t *inode);
/// unlinkat(directory_fd, name, 0)
int touchd_unlink_at(int directory_fd, const char *name);

/// connect() to a Unix socket without waiting: a full backlog is EAGAIN, not a block. Returns the connected
/// descriptor (nonblocking, close-on-exec), or -1 with errno.
int touchd_unix_connect_nonblocking(const char *path);

/// inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
int touchd_inotify_create(void);
/// Watches a directory for files written or moved in; returns the watch descriptor.
int touchd_inotify_watch_directory(int fd, const char *path);
/// Reads pending inotify events and copies the names (NUL-separated) into `names`; returns the bytes written,
/// 0 when nothing is pending, -1 on error.
int touchd_inotify_read_names(int fd, char *names, int capacity);

/// posix_spawnp(file, argv, envp) for a command of touchd-actions: standard input from /dev/null, every
/// descriptor above 2 closed, the signal mask emptied and the signals a signalfd user blocks or a Swift runtime
/// ignores back at their defaults, and a process group of its own (so a timeout can signal everything the command started). Returns 0 and *pid, or an
/// errno value (posix_spawn does not set errno).
int touchd_spawn(const char *file, char *const argv[], char *const envp[], int32_t *pid);

/// waitpid(-1, &status, WNOHANG): 1 with the pid and either the exit status (*signal = 0) or the signal that ended
/// it (*signal > 0); 0 when no child has ended; -1 with errno (ECHILD: no children at all).
int touchd_reap_child(int32_t *pid, int *exit_status, int *signal);

/// CLOCK_MONOTONIC in microseconds.
int64_t touchd_monotonic_us(void);

/// The value of the CLOCK_MONOTONIC id, for libevdev_set_clock_id.
int touchd_clock_monotonic_id(void);

/// ioctl(fd, TIOCGWINSZ): a terminal's size in character cells (ioctl is variadic, so Swift cannot call it).
int touchd_terminal_size(int fd, uint16_t *rows, uint16_t *columns);
/// pipe2(O_NONBLOCK | O_CLOEXEC): fds[0] reads, fds[1] writes.
int touchd_pipe_nonblocking(int fds[2]);

/// The processors this thread may run on (sched_getaffinity: taskset and cpusets count; with more than 1024
/// processors, those online), at least 1. CPU quotas (cgroup cpu.max) are not counted.
int touchd_usable_processors(void);

/// memmem(3), a GNU extension Glibc's module leaves out: the first `needle` in `haystack`, or NULL.
const void *touchd_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

// --- touchd-actions: the commands' process trees (docs/actions.md, "Commands") ---

/// prctl(PR_SET_CHILD_SUBREAPER, 1): this process's descendants whose parent dies are reparented to it rather than to
/// init, so a command's orphaned children stay reapable and visible to it. 0, or -1 with errno.
int touchd_become_child_subreaper(void);

// --- end of touchd-actions' block ---

// --- evdev: the live read path's state queries after SYN_DROPPED (docs/decoding.md, "SYN_DROPPED") ---

/// ioctl(fd, EVIOCGMTSLOTS): the value of MT axis `code` in each of the first `count` slots, into `values`.
/// 0, or -1 with errno.
int touchd_evdev_mt_slots(int fd, uint32_t code, int32_t *values, int count);
/// ioctl(fd, EVIOCGABS(code)): the axis's current value. 0, or -1 with errno.
int touchd_evdev_abs_value(int fd, uint32_t code, int32_t *value);
/// ioctl(fd, EVIOCGKEY): whether key `code` is down (1) or up (0), or -1 with errno.
int touchd_evdev_key_down(int fd, uint32_t code);

// --- end of evdev's block ---

#endif
