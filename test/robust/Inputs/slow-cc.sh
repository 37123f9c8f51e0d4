#!/bin/sh
# A C compiler that writes part of its output and then hangs: it stands for a
# slow compile that a signal interrupts. exec, so the signal reaches sleep.
out=
while [ $# -gt 0 ]; do
    if [ "$1" = -o ]; then out=$2; fi
    shift
done
printf 'partial' > "$out"
exec sleep 60
