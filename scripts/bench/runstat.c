/* Runs one command as a child process, its standard output to /dev/null, and prints what the kernel accounted to
 * it: wall time on CLOCK_MONOTONIC from fork to reap, maximum resident set size (ru_maxrss of wait4), user and
 * system CPU time. scripts/bench.sh times `touchd replay` and evemu-parse with it, so both sides are measured the
 * same way, as whole processes.
 *
 *     runstat COMMAND [ARGS...]
 *     -> "wall_s WALL maxrss_kb RSS user_s USER sys_s SYS status STATUS"
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double seconds(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: runstat COMMAND [ARGS...]\n");
        return 2;
    }
    double start = now();
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, 1) < 0) _exit(126);
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) {
        perror("wait4");
        return 2;
    }
    double wall = now() - start;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("wall_s %.6f maxrss_kb %ld user_s %.3f sys_s %.3f status %d\n", wall, usage.ru_maxrss,
           seconds(usage.ru_utime), seconds(usage.ru_stime), code);
    return code == 0 ? 0 : 1;
}
