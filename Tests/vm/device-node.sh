# Sourced by the guests. device_node NAME: the /dev/input node of the input device called NAME, waited for up to
# 10 s (evemu-device creates it in the background); nothing when it does not appear.
device_node() {
    node=""
    i=0
    while [ -z "$node" ] && [ $i -lt 100 ]; do
        for n in /sys/class/input/event*; do
            [ "$(cat "$n/device/name" 2>/dev/null)" = "$1" ] && node=/dev/input/${n##*/}
        done
        [ -n "$node" ] || { sleep 0.1; i=$((i + 1)); }
    done
    echo "$node"
}
