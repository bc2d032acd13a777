#!/bin/bash
# Runs INSIDE the clean Debian 12 root that scripts/deb-test.sh boots with systemd-nspawn -b, as
# touchd-deb-check.service, with systemd as PID 1. Installs the package as a user would (apt install ./touchd_*.deb)
# and checks what a deployer relies on; writes PASS/FAIL/INFO/TIME lines to $1/results.txt, then powers off
# (ExecStopPost of the unit). Not -e: every check runs and reports, whatever the ones before it gave.
set -uo pipefail
OUT=${1:-/out}
DEBS=/root/debs
RESULTS=$OUT/results.txt
: > "$RESULTS"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
log() { echo "$*" | tee -a "$RESULTS"; }
now() { date +%s%N; }
# check NAME COMMAND: PASS or FAIL, with the time it took (ms).
check() {
    local t0 result
    t0=$(now)
    echo "== $1" >> "$OUT/details.txt"
    if eval "$2" >> "$OUT/details.txt" 2>&1; then result=PASS; else result=FAIL; fi
    log "$result $1 ($(( ($(now) - t0) / 1000000 )) ms)"
}
info() { log "INFO $*"; }
as_user() { runuser -u tuser -- "$@"; }
state() { systemctl show -p ActiveState --value "$1"; }
# The root's files, but for what changes on its own (caches, logs, apt's and dpkg's books, runtime dirs).
file_list() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
        -o -path /var/cache -o -path /var/log -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path "$OUT" \
        -o -path "$DEBS" -o -path /var/lib/systemd/timers -o -path /var/lib/systemd/random-seed \
        -o -path /var/lib/systemd/catalog -o -path /var/lib/systemd/coredump \) -prune -o -print | sort
}
VERSION=$(dpkg-deb -f "$DEBS"/touchd_*_"$(dpkg --print-architecture)".deb Version 2>/dev/null | head -1)
info "systemd $(systemctl --version | head -1 | cut -d' ' -f2) as PID 1 ($(cat /proc/1/comm)); package version $VERSION"
check "the root has no Swift in it" '! find / -xdev \( -name "libswiftCore*" -o -name "swift" -o -name "swiftc" \) -print | grep -q .'

# What a user does before: a user account, and the drop-in that swaps ExecStart for a replay of the demo recording
# the package ships (no input devices exist here). Both come before the file list, as the user's own.
useradd -m tuser
mkdir -p /etc/systemd/system/touchd.service.d
cat > /etc/systemd/system/touchd.service.d/replay.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/usr/bin/touchd run --config /etc/touchd/touchd.json --replay /usr/share/doc/touchd/examples/panel.evemu --loop
UNIT
apt-get update -qq >> "$OUT/details.txt" 2>&1
file_list > "$OUT/files-before.txt"

t0=$(now)
check "apt install ./touchd_${VERSION}_*.deb" "apt-get install -y -q $DEBS/touchd_${VERSION}_*.deb"
log "TIME install $(( ($(now) - t0) / 1000000 )) ms"
check "every binary's libraries resolve into /lib or /usr/lib" \
    'for b in /usr/bin/touchd /usr/bin/touchctl /usr/bin/touchd-actions; do ldd $b | tee /dev/stderr | grep -v -e "=> /lib/" -e "=> /usr/lib/" -e "linux-vdso" -e "^[[:space:]]*/lib64/ld-linux" | grep -q . && exit 1; done; true'
check "touchd.socket is enabled and listening, touchd.service not yet started" \
    '[ "$(systemctl is-enabled touchd.socket)" = enabled ] && [ "$(state touchd.socket)" = active ] && [ "$(state touchd.service)" = inactive ]'
check "groups touchd and touchd-admin exist (sysusers)" 'getent group touchd && getent group touchd-admin'
check "/etc/touchd/touchd.json is a conffile" 'dpkg-query -W -f="\${Conffiles}\n" touchd | grep -q " /etc/touchd/touchd.json "'
check "/etc/touchd/touchd.json has no device rules" '! grep -q "\"match\"" /etc/touchd/touchd.json'
check "touchctl --version prints the package version" '[ "$(touchctl --version | cut -d" " -f1-2)" = "touchctl ${VERSION%%-*}" ]'
check "touchd -V and touchd-actions -V print it too" \
    'touchd -V | grep -q "^touchd ${VERSION%%-*}" && touchd-actions -V | grep -q "^touchd-actions ${VERSION%%-*}"'
usermod -aG touchd tuser

check "socket activation: a touchd member's touchctl ping starts touchd" \
    'as_user timeout 20 touchctl ping && [ "$(state touchd.service)" = active ]'
check "the hello carries the version (touchctl ping)" 'as_user timeout 10 touchctl ping | grep -q "touchd ${VERSION%%-*}"'
check "touchd ran the drop-in's replay" 'systemctl show -p ExecStart --value touchd.service | grep -q -- "--replay"'
check "touchctl monitor shows the demo recording's fingers" \
    '[ "$(as_user timeout 20 touchctl monitor --count 20 | tee /dev/stderr | grep -c .)" -ge 20 ]'
check "a user outside group touchd is refused" 'useradd outsider && ! runuser -u outsider -- timeout 10 touchctl ping'
check "man pages render without a warning" \
    'for p in touchd.8 touchctl.1 touchd-actions.1 touchd.json.5 touchd-scene.5 touchd-actions.json.5 touchd-protocol.7; do
        name=${p%.*}; section=${p##*.}
        err=$(man --warnings "$section" "$name" 2>&1 >/dev/null); [ -z "$err" ] || { echo "$p: $err"; exit 1; }
        man "$section" "$name" | grep -q NAME || exit 1
    done'
check "the installed docs' relative links all lead to a file" \
    'cd /usr/share/doc/touchd && bad=0; for f in $(find . -name "*.md"); do
        for link in $(grep -oE "\]\([^)# ]+" "$f" | sed "s/^](//" | grep -v -E "^[a-z]+:"); do
            [ -e "$(dirname "$f")/$link" ] || { echo "$f: $link"; bad=1; }
        done
    done; [ $bad = 0 ]'
complete_words() { # complete_words LINE...: what bash completion offers for the last word of LINE
    bash -c 'source /usr/share/bash-completion/bash_completion; COMP_LINE="$*"; COMP_WORDS=($*)
        [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_POINT=${#COMP_LINE}
        _completion_loader "${COMP_WORDS[0]}"; $(complete -p "${COMP_WORDS[0]}" | sed -E "s/.*-F ([^ ]+).*/\1/")
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$@"
}
check "bash completion: touchd re<Tab> offers replay and record" '[ "$(complete_words "touchd re")" = "record replay " ]'
check "bash completion: touchd replay --format <Tab> offers ndjson and text" \
    '[ "$(complete_words "touchd replay --format ")" = "ndjson text " ]'
ids=$(grep -oE '"id" *: *"[^"]*"' /etc/touchd/scene.json | sed -E 's/.*"([^"]*)"$/\1/' | sort | tr '\n' ' ')
check "bash completion: touchctl region update <Tab> offers the running scene's ids ($ids)" \
    '[ "$(as_user bash -c "$(declare -f complete_words); complete_words \"touchctl region update \"")" = "$ids" ]'

# Upgrade to a higher version: a changed configuration stays.
sed -i 's/"logLevel": "info"/"logLevel": "debug"/' /etc/touchd/touchd.json
NEXT=$(dpkg-deb -f "$DEBS"/next/touchd_*.deb Version)
check "apt install of the higher version $NEXT upgrades" \
    "apt-get install -y -q $DEBS/next/touchd_*.deb && [ \"\$(dpkg-query -W -f='\${Version}' touchd)\" = $NEXT ]"
check "the upgrade kept the changed touchd.json" 'grep -q "\"logLevel\": \"debug\"" /etc/touchd/touchd.json'
check "after the upgrade the socket listens and touchd answers" \
    '[ "$(state touchd.socket)" = active ] && as_user timeout 20 touchctl ping'

check "apt remove stops the socket and the service" \
    'apt-get remove -y -q touchd && [ "$(state touchd.socket)" = inactive ] && [ "$(state touchd.service)" = inactive ] && [ ! -e /run/touchd/touchd.sock ]'
check "apt remove keeps the configuration" '[ -f /etc/touchd/touchd.json ]'
check "apt purge (and autoremove of what came with it) leaves no file of the package" \
    'apt-get purge -y -q touchd && apt-get autoremove --purge -y -q && file_list > "$OUT/files-after.txt" && diff "$OUT/files-before.txt" "$OUT/files-after.txt"'
log DONE
