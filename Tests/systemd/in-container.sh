#!/bin/bash
# Runs INSIDE the systemd-nspawn container that scripts/systemd-test.sh boots, as touchd-test.service, with systemd
# as PID 1 and touchd installed by scripts/install.sh. Only touchd.socket was started at boot. Writes PASS/FAIL/INFO
# lines to $1/results.txt, then powers the container off (ExecStopPost of the unit).
# Not -e: every check runs and reports, whatever the ones before it gave. Each client command has `timeout 10`; the
# unit has TimeoutStartSec=120 and scripts/systemd-test.sh bounds the whole container.
set -uo pipefail
OUT=${1:-/out}
RESULTS=$OUT/results.txt
SOCK=/run/touchd/touchd.sock
: > "$RESULTS"
log() { echo "$*" | tee -a "$RESULTS"; }
check() { if eval "$2" >> "$OUT/details.txt" 2>&1; then log "PASS $1"; else log "FAIL $1"; fi; }
info() { log "INFO $*"; }
as() { local user=$1; shift; setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
show() { systemctl show -p "$1" --value "$2"; }

{ echo "== systemd $(systemctl --version | head -1), PID 1: $(cat /proc/1/comm)"; id tclient; id tadmin; id tmember; id toutsider; } >> "$OUT/details.txt"

# Boot: the preset enabled touchd.socket and touchd.service (as `systemctl enable` does); the socket comes first.
JOURNAL=$(journalctl -b --no-pager -o short-monotonic)
first_line() { grep -n -m1 "$1" <<< "$JOURNAL" | cut -d: -f1; }
LISTEN=$(first_line "Listening on touchd.socket")
START=$(first_line "Starting touchd.service")
info "journal line of 'Listening on touchd.socket': ${LISTEN:-none}; of 'Starting touchd.service': ${START:-none}"
check "touchd.socket listened before touchd.service started" '[ -n "$LISTEN" ] && [ -n "$START" ] && [ "$LISTEN" -lt "$START" ]'
check "touchd.service is active: READY=1 was received (Type=notify)" \
    '[ "$(show ActiveState touchd.service)/$(show SubState touchd.service)" = active/running ]'
STATUS=$(show StatusText touchd.service)
info "StatusText=$STATUS"
check "systemctl show -p StatusText gives touchd's status line" \
    '[[ "$STATUS" =~ ^[0-9]+\ device\(s\),\ [0-9]+\ client\(s\),\ scene\ version\ [0-9]+$ ]]'
check "touchd used the socket systemd passed" 'journalctl -b -u touchd.service --no-pager | grep -q "(socket activation)"'
info "socket file: $(stat -c "%A %u:%g (%U:%G)" $SOCK 2>&1); /run/touchd: $(stat -c "%A %u:%g (%U:%G)" /run/touchd 2>&1)"
check "the socket file is root:touchd 0660" '[ "$(stat -c "%a %U %G" $SOCK)" = "660 root touchd" ]'
check "the test users are in touchd (and touchd-admin) by supplementary group only" \
    '[ "$(id -gn tclient)" = tclient ] && id -Gn tclient | grep -qw touchd && [ "$(id -gn tadmin)" = tadmin ] && id -Gn tadmin | grep -qw touchd-admin'

# Socket activation proper: the service stopped, the socket still listens, and a client's connection starts it.
systemctl stop touchd.service
info "after systemctl stop touchd.service: $(ls -la /run/touchd 2>&1 | tr '\n' ' ')"
check "with touchd.service stopped, touchd.socket still listens" \
    '[ "$(show ActiveState touchd.service)" = inactive ] && [ "$(show SubState touchd.socket)" = listening ] && [ -S $SOCK ]'
check "a supplementary member of touchd connects, and the connection starts touchd.service (touchctl ping)" \
    'as tclient timeout 10 touchctl ping && [ "$(show ActiveState touchd.service)" = active ]'
check "a supplementary member of touchd receives events (touchctl monitor, 5 touch events)" \
    'as tclient timeout 10 touchctl monitor --raw --events touch --count 5 > $OUT/monitor.ndjson && [ "$(grep -c "\"type\"" $OUT/monitor.ndjson)" -eq 5 ]'

# Scene changes: touchd-admin members only (clients.sceneGroups).
check "a supplementary member of touchd-admin changes the scene (region update play hidden=true)" \
    'as tadmin timeout 10 touchctl region update play hidden=true > $OUT/admin.txt 2>&1'
info "tadmin's region update said: $(tr '\n' ' ' < "$OUT/admin.txt")"
check "a member of touchd but not touchd-admin gets permission-denied" \
    '! as tmember timeout 10 touchctl region update play hidden=true > $OUT/member.txt 2>&1 && grep -q permission-denied $OUT/member.txt'
check "a user in neither group cannot connect (the socket's mode)" \
    '! as toutsider timeout 10 touchctl ping > $OUT/outsider.txt 2>&1 && grep -qi "permission denied" $OUT/outsider.txt'

# Identity and hardening.
PID=$(show MainPID touchd.service)
UID_=$(stat -c %u "/proc/$PID")
info "MainPID=$PID uid=$UID_ user=$(stat -c %U "/proc/$PID") groups: $(grep Groups /proc/$PID/status)"
check "the service runs as a dynamic user (uid 61184-65519)" '[ "$(show DynamicUser touchd.service)" = yes ] && [ "$UID_" -ge 61184 ] && [ "$UID_" -le 65519 ]'
check "the service holds the input group (SupplementaryGroups=input)" 'grep Groups /proc/$PID/status | grep -qw "$(getent group input | cut -d: -f3)"'
systemd-analyze security touchd.service --no-pager > "$OUT/security.txt" 2>&1
info "$(grep 'Overall exposure' "$OUT/security.txt")"
check "systemd-analyze security: exposure 1.0 OK, as docs/deployment.md says" \
    'grep -q "Overall exposure level for touchd.service: 1.0 OK" $OUT/security.txt'
check "the hardening of the shipped unit is in force under the ExecStart drop-in" \
    '[ "$(show ProtectSystem touchd.service)" = strict ] && [ "$(show ProtectProc touchd.service)" = invisible ] && [ "$(show NoNewPrivileges touchd.service)" = yes ] && [ -z "$(show CapabilityBoundingSet touchd.service)" ]'

# Devices: what the container can show. No input device exists on this host.
info "DevicePolicy=$(show DevicePolicy touchd.service) DeviceAllow=$(show DeviceAllow touchd.service | paste -sd,)"
check "DevicePolicy=closed with DeviceAllow=char-input r (and char-rtc r, which ProtectClock adds)" \
    '[ "$(show DevicePolicy touchd.service)" = closed ] && show DeviceAllow touchd.service | grep -qx "char-input r"'
check "DeviceAllow=/dev/uinput rw and the group touchd-uinput, for forwardUnclaimed's virtual touchscreens" \
    'show DeviceAllow touchd.service | grep -qx "/dev/uinput rw" && grep Groups /proc/$PID/status | grep -qw "$(getent group touchd-uinput | cut -d: -f3)"'
CG=$(grep ':devices:' /proc/$PID/cgroup | cut -d: -f3)
# Not a check: whether the kernel enforces the policy here. The service's cgroups, and the v1 device list it is in.
info "the service's cgroups: $(tr '\n' ' ' < /proc/$PID/cgroup)"
[ -r "/sys/fs/cgroup/devices$CG/devices.list" ] &&
    info "devices.list of the service's devices cgroup ($CG): $(tr '\n' ' ' < "/sys/fs/cgroup/devices$CG/devices.list")"
PROBE=$(systemd-run --wait --pipe -q -p DevicePolicy=strict -p DeviceAllow="/dev/zero r" cat /dev/null 2>&1; echo "exit $?")
info "does systemd's device policy bite here? DevicePolicy=strict without /dev/null, cat /dev/null: $(tr '\n' ' ' <<< "$PROBE")"
info "/dev/input: $(ls -d /dev/input 2>&1); input in /proc/devices: $(grep -w input /proc/devices || echo none)"
info "systemd-udevd.service: LoadState=$(show LoadState systemd-udevd.service) ActiveState=$(show ActiveState systemd-udevd.service); /run/udev: $(ls -d /run/udev 2>&1)"
journalctl -b -u touchd.service -u touchd.socket --no-pager > "$OUT/journal.txt" 2>&1

# touchd-actions as tadmin's user unit (docs/actions.md), as shipped: its region goes on top of "play" (hidden
# above), and the demo recording's tap there runs the rule's command in tadmin's session; stopping the unit takes
# the region away.
TADMIN=$(id -u tadmin)
mkdir -p /home/tadmin/.config/touchd && chown -R tadmin:tadmin /home/tadmin
cat > /home/tadmin/.config/touchd/actions.json <<'JSON'
{"regions": [{"id": "actions-play", "frame": [130, 55, 140, 140], "z": 100, "raw": false, "gestures": ["tap"]}],
 "rules": [{"region": "actions-play", "gesture": "tap", "shell": true,
            "run": "echo \"$TOUCHD_REGION $TOUCHD_GESTURE $(id -un)\" >> \"$XDG_RUNTIME_DIR/tapped\""}]}
JSON
chown tadmin:tadmin /home/tadmin/.config/touchd/actions.json
# pam_systemd would set XDG_RUNTIME_DIR through logind, which this container lacks: the user manager gets it here.
mkdir -p /run/systemd/system/user@.service.d
printf '[Service]\nEnvironment=XDG_RUNTIME_DIR=/run/user/%%i\n' > /run/systemd/system/user@.service.d/runtime-dir.conf
systemctl daemon-reload
user_systemctl() { as tadmin env XDG_RUNTIME_DIR=/run/user/$TADMIN timeout 10 systemctl --user "$@"; }
check "tadmin's user manager starts (user@$TADMIN.service)" "timeout 20 systemctl start user@$TADMIN.service"
check "systemctl --user enable --now touchd-actions (the shipped user unit)" 'user_systemctl enable --now touchd-actions'
for _ in $(seq 1 100); do [ -s /run/user/$TADMIN/tapped ] && break; sleep 0.1; done
info "tapped: $(cat /run/user/$TADMIN/tapped 2>&1 | head -3 | tr '\n' ' ')"
check "a tap of the looping recording on the actions file's region ran the command as tadmin" \
    'grep -qx "actions-play tap tadmin" /run/user/$TADMIN/tapped'
check "the region is in the scene while touchd-actions runs" 'as tadmin timeout 10 touchctl scene get | grep -q actions-play'
check "the user unit's hardening is in force" \
    '[ "$(user_systemctl show -p NoNewPrivileges --value touchd-actions)" = yes ] && [ "$(user_systemctl show -p RestrictSUIDSGID --value touchd-actions)" = yes ]'
user_systemctl stop touchd-actions
check "systemctl --user stop: the region is gone" '! as tadmin timeout 10 touchctl scene get | grep -q actions-play'
as tadmin env XDG_RUNTIME_DIR=/run/user/$TADMIN journalctl --user -u touchd-actions --no-pager > "$OUT/actions-journal.txt" 2>&1
journalctl -b -u "user@$TADMIN.service" --no-pager >> "$OUT/actions-journal.txt" 2>&1

log "DONE"
