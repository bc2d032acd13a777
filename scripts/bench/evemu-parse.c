/* The libevemu side of benchmark 1: parse an evemu file with Debian's libevemu (evemu_read, then
 * evemu_read_event until the end) and print the events per second. Nothing else: no decoding, no output. */
#include <evemu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: evemu-parse FILE\n"); return 2; }
    double start = now();
    FILE *file = fopen(argv[1], "r");
    if (!file) { perror(argv[1]); return 1; }
    struct evemu_device *device = evemu_new(NULL);
    if (evemu_read(device, file) < 0) { fprintf(stderr, "evemu_read failed\n"); return 1; }
    struct input_event event;
    long count = 0;
    while (evemu_read_event(file, &event) > 0) count++;
    double seconds = now() - start;
    printf("%ld events %.6f s %.0f events/s\n", count, seconds, count / seconds);
    fclose(file);
    evemu_delete(device);
    return 0;
}
