/* notify-harness: plays systemd's part for tests.
 *
 *   notify-harness [--listen SOCKETPATH] [--watchdog-usec N] LOGFILE -- COMMAND [ARGS...]
 *
 * Creates a datagram NOTIFY_SOCKET, optionally a listening AF_UNIX stream socket passed as fd 3 with
 * LISTEN_FDS=1/LISTEN_PID (socket activation), optionally WATCHDOG_USEC/WATCHDOG_PID, runs COMMAND, and appends
 * each notification to LOGFILE as "<monotonic ms> <message>" (newlines in a message become '|'). Forwards
 * SIGTERM/SIGINT to the child and exits with its status. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child = -1;
static void forward(int signo) { if (child > 0) kill(child, signo); }

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int unix_socket(int type, const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    unlink(path);
    int fd = socket(AF_UNIX, type, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror(path); exit(125); }
    if (type == SOCK_STREAM && listen(fd, 16) != 0) { perror("listen"); exit(125); }
    return fd;
}

int main(int argc, char **argv) {
    const char *listen_path = NULL, *watchdog = NULL, *log = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) listen_path = argv[++i];
        else if (strcmp(argv[i], "--watchdog-usec") == 0 && i + 1 < argc) watchdog = argv[++i];
        else log = argv[i];
    }
    if (!log || i + 1 >= argc) { fprintf(stderr, "usage: notify-harness [--listen P] [--watchdog-usec N] LOG -- CMD...\n"); return 125; }
    char notify_path[108];
    snprintf(notify_path, sizeof notify_path, "/tmp/notify-harness-%d.sock", getpid());
    int notify_fd = unix_socket(SOCK_DGRAM, notify_path);
    int listen_fd = listen_path ? unix_socket(SOCK_STREAM, listen_path) : -1;
    FILE *out = fopen(log, "ae");  /* close-on-exec: the service must not inherit it */
    if (!out) { perror(log); return 125; }
    /* A parent may have started us with signals blocked (Foundation's Process does): unblock, so SIGTERM reaches
       the handler that forwards it. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGTERM, forward);
    signal(SIGINT, forward);
    child = fork();
    if (child == 0) {
        char pid[32];
        snprintf(pid, sizeof pid, "%d", getpid());
        setenv("NOTIFY_SOCKET", notify_path, 1);
        close(notify_fd);  /* first: it may be fd 3, where the listening socket must go */
        if (listen_fd >= 0) {
            if (listen_fd != 3) { dup2(listen_fd, 3); close(listen_fd); }
            setenv("LISTEN_FDS", "1", 1);
            setenv("LISTEN_PID", pid, 1);
        }
        if (watchdog) { setenv("WATCHDOG_USEC", watchdog, 1); setenv("WATCHDOG_PID", pid, 1); }
        execvp(argv[i + 1], argv + i + 1);
        perror(argv[i + 1]);
        _exit(127);
    }
    if (listen_fd >= 0) close(listen_fd);
    int status = 0;
    for (;;) {
        struct pollfd p = {.fd = notify_fd, .events = POLLIN};
        poll(&p, 1, 100);
        pid_t done = waitpid(child, &status, WNOHANG);
        /* Every message waiting is logged, also after the child exits: under load several queue up, and the last
           ones (STOPPING=1) would otherwise be lost with the child. */
        char message[4096];
        ssize_t got;
        while ((got = recv(notify_fd, message, sizeof message - 1, MSG_DONTWAIT)) > 0) {
            message[got] = 0;
            for (char *c = message; *c; c++) if (*c == '\n') *c = '|';
            fprintf(out, "%lld %s\n", now_ms(), message);
            fflush(out);
        }
        if (done == child) break;
    }
    unlink(notify_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
