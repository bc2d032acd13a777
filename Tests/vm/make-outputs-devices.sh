#!/bin/sh
# Writes, into $1, two evemu touchscreens whose sizes (range over resolution) are those of qemu's two virtio-vga
# outputs' EDIDs (Virtual-1 1920x1080 at 100 dpi: 487 x 274 mm; Virtual-2 1280x800: 325 x 203 mm), each with a
# finger dragged corner to corner in 40 frames, and the configuration and scene of a 3200x1080 two-output layout.
set -eu
out=$1
desc() {  # name xmax ymax
    echo "# EVEMU 1.3"; sed -n "/^[NIPB]:/p" config/demo/panel.evemu | sed "s/^N: .*/N: $1/"
    printf 'A: 00 0 %d 0 0 8\nA: 01 0 %d 0 0 8\nA: 2f 0 9 0 0 0\n' "$2" "$3"
    printf 'A: 35 0 %d 0 0 8\nA: 36 0 %d 0 0 8\nA: 39 0 65535 0 0 0\n' "$2" "$3"
}
drag() {  # xmax ymax: a finger from 2 % to 98 % of each axis
    awk -v xm="$1" -v ym="$2" 'BEGIN {
        for (f = 0; f < 40; f++) {
            t = sprintf("E: %d.%06d", 0, 10000 * f)
            x = int(xm * (0.02 + 0.96 * f / 39)); y = int(ym * (0.02 + 0.96 * f / 39))
            if (f == 0) printf "%s 0003 0039 0001\n", t
            printf "%s 0003 0035 %04d\n%s 0003 0036 %04d\n", t, x, t, y
            if (f == 0) printf "%s 0001 014a 0001\n", t
            printf "%s 0003 0000 %04d\n%s 0003 0001 %04d\n%s 0000 0000 0000\n", t, x, t, y, t
        }
        t = sprintf("E: %d.%06d", 0, 400000)
        printf "%s 0003 0039 -001\n%s 0001 014a 0000\n%s 0000 0000 0000\n", t, t, t
    }'
}
desc "touchd output a" 3895 2191 > "$out/a.desc"
desc "touchd output b" 2599 1623 > "$out/b.desc"
drag 3895 2191 > "$out/a.events"
drag 2599 1623 > "$out/b.events"
cat > "$out/config.json" <<'JSON'
{
  "scene": "/touchd/scene.json",
  "outputs": {"Virtual-1": [0, 0, 1920, 1080], "Virtual-2": [1920, 0, 1280, 800]},
  "devices": [{"match": {"vendor": "1d6b"}, "output": "auto", "filter": "off"}]
}
JSON
echo '{"version": 1, "size": [3200, 1080], "regions": []}' > "$out/scene.json"
