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

# start_device LABEL DESCRIPTION: evemu-device makes the device DESCRIPTION (a path) describes, in the background;
# sets DEVICE (its pid) and NODE, and waits for udev to settle. When no node appears it says FAIL for LABEL, stops
# evemu-device and returns 1.
start_device() {
    name=$(sed -n 's/^N: //p' "$2" | head -n 1)
    evemu-device "$2" < /dev/null > "${VMRUN_OUT:-/tmp}/$1-device.out" 2>&1 &
    DEVICE=$!
    NODE=$(device_node "$name")
    if [ -z "$NODE" ]; then
        echo "FAIL: $1: no device named '$name'"
        kill $DEVICE 2>/dev/null
        return 1
    fi
    udevadm settle --timeout=10 2>/dev/null
    return 0
}
