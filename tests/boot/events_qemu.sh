#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A --qemu for `tickprobe qemu --event` tests: runs qemu-system-x86_64 with
# the arguments given, except that the event channel (COM2's socket chardev)
# is unplugged (a null chardev), and tests/boot/events_guest.py listens on
# its socket's path and plays the guest's side there.  The guest's mode is
# $EVENTS_MODE (first, now, silent); a QEMU restored from a migration
# (-incoming) gets "restored".  In silent mode QEMU starts stopped (-S) and
# is ended once the played guest is done.  $EVENTS_LOG: the -o log it
# watches; $EVENTS_RECORD: where it writes what it received.
here=$(dirname "$0")
sock=
mode=${EVENTS_MODE:-first}
n=$#
for a in "$@"; do
	case $a in
	socket,id=events,path=*)
		sock=${a#socket,id=events,path=}
		sock=${sock%%,*}
		a=null,id=events
		;;
	-incoming) mode=restored ;;
	esac
	set -- "$@" "$a"
done
shift "$n"
if [ -z "$sock" ]; then
	echo "events_qemu.sh: no event channel among the arguments" >&2
	exit 1
fi
python3 "$here/events_guest.py" "$sock" "$mode" "${EVENTS_LOG:-}" "${EVENTS_RECORD:-/dev/null}" &
guest=$!
# QEMU makes its socket before it runs; so must the played guest, or a
# loaded host lets tickprobe find the new QEMU running and its channel not
# there yet.  Bounded: 10 s.
i=0
while [ ! -S "$sock" ] && [ $i -lt 200 ] && kill -0 "$guest" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
if [ "$mode" = silent ]; then
	qemu-system-x86_64 "$@" -S &
	qemu=$!
	wait "$guest"
	kill "$qemu"
	wait "$qemu" 2>/dev/null
	exit $?
fi
qemu-system-x86_64 "$@"
status=$?
kill "$guest" 2>/dev/null
wait "$guest" 2>/dev/null
exit $status
